"""agentui as an ACP (Agent Client Protocol) agent on stdio: editors and Toad drive it."""
