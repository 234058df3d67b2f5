"""agentui's settings (validated) and their sources (where each value came from)."""
