"""The Textual app, and only Textual (its package imports nothing: the CLI loads parts of it early)."""
