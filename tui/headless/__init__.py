"""`agentui run`: a task without a screen, its events printed as text or JSON."""
