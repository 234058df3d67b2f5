"""agentui's own theme variables (the agent status colours), with their defaults.

Apart from theme_files.py (which loads themes, and checks a person's through theme_check.py)
so that theme_check.py can know them without importing the loader that imports it.
"""

from __future__ import annotations

# Defaults, so Textual's built-in themes work too.
AGENT_VARIABLES: dict[str, str] = {
    "agent-running": "#4CC38A",
    "agent-waiting": "#E879F9",
    "agent-paused": "#F5A524",
    "agent-modified": "#38BDF8",
    "agent-done": "#7BC99A",
    "agent-error": "#F06A6A",
    "agent-stopped": "#6B7280",
}
