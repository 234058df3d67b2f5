"""The `agentui` command: argument parsing and one module per subcommand."""
