"""The session modes a client can switch between: whether tools that need approval ask first.

"ask": such a tool (the python tool, and MCP tools unless configured otherwise) waits for a
permission request; "yes": it runs at once, as with `--yes`. A session starts in "yes" when the
settings say `approval.policy = "yes"` (or `--yes`), else in "ask".
"""

from __future__ import annotations

from typing import Literal

from acp.schema import SessionMode, SessionModeState

ModeId = Literal["ask", "yes"]
ASK: ModeId = "ask"
YES: ModeId = "yes"

MODES = [
    SessionMode(
        id=ASK,
        name="Ask",
        description="Tools that need approval (python, MCP tools) ask before they run",
    ),
    SessionMode(
        id=YES,
        name="Yes to all",
        description="Tools that need approval run without asking (as agentui --yes)",
    ),
]


def mode_state(current: ModeId) -> SessionModeState:
    return SessionModeState(current_mode_id=current, available_modes=MODES)


def parse_mode(mode_id: str) -> ModeId | None:
    return ASK if mode_id == ASK else YES if mode_id == YES else None
