"""Theme files agentui loads at start (one file per theme)."""
