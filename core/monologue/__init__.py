"""The monologue: a narrator that turns each agent's events into short first-person summaries."""
