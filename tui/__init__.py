"""agentui.tui: the Textual front end. Knows core only through Runtime and its events."""
