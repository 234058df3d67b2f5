"""The HTTP + SSE door to a runtime (`agentui serve`) and the client that drives one from
elsewhere with the same commands (`agentui attach`)."""
