"""Model backends behind one protocol: the offline scripted model, Claude, OpenAI and
OpenAI-compatible servers, and Gemini."""
