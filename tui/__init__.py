"""agentui.tui: the front ends (the command, headless runs, the Textual app). They know core only
through its commands and its events."""
