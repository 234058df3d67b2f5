"""The first frame the terminal gets is the whole screen: panes, prompt, status bar and footer.

Textual holds every repaint while the app's own mount is handled. Had the app waited there for
its main screen to mount, the main screen's first frame would have been drawn and dropped, and
the terminal's first frame would have been only what changed after it (no status bar, no
monologue border, no prompt hint), the whole screen coming a layout later (AgentUIApp.on_mount).

The real command runs on a pseudo-terminal that supports synchronized output (Textual then
wraps each frame in ?2026h .. ?2026l); the screen is read by pyte as it stands when the first
frame has ended. Nothing here waits for time to pass.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import anyio
import pyte
import pytest

from ..e2e.test_app_terminal import Terminal
from .saved_runs import LEFT, OLD, saved_run

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")

SIZE = (120, 36)
SYNC_START = b"\x1b[?2026h"
SYNC_END = b"\x1b[?2026l"
SYNC_QUERY = b"\x1b[?2026$p"
SYNC_SUPPORTED = b"\x1b[?2026;2$y"  # as kitty or a recent xterm answers


def _env(home: Path) -> dict[str, str]:
    """The offline model (no API key), every agentui folder under `home`, a colour terminal."""
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env.pop("TEXTUAL_DRIVER", None)
    return env | {
        "AGENTUI_CONFIG_DIR": str(home / "config"),
        "AGENTUI_DATA_DIR": str(home / "data"),
        "AGENTUI_STATE_DIR": str(home / "state"),
        "TERM": "xterm-256color",
        "COLORTERM": "truecolor",
    }


def _first_frame_ended(raw: bytes) -> int:
    """Where the first synchronized frame in `raw` ends (-1: not yet)."""
    start = raw.find(SYNC_START)
    end = raw.find(SYNC_END, start) if start >= 0 else -1
    return end + len(SYNC_END) if end >= 0 else -1


def first_frame(argv: list[str], env: dict[str, str]) -> str:
    """The screen as the terminal shows it once the command's first frame has ended; nothing
    was drawn before it (a frame drawn before the app knew the terminal synchronizes output
    reaches the screen in pieces)."""
    terminal = Terminal(argv, env, SIZE, {SYNC_QUERY: SYNC_SUPPORTED})
    try:
        terminal.read_until(lambda: _first_frame_ended(terminal.raw) >= 0, "the first frame")
        before = pyte.Screen(*SIZE)
        pyte.ByteStream(before).feed(terminal.raw[: terminal.raw.find(SYNC_START)])
        drawn = "\n".join(row.rstrip() for row in before.display).strip()
        assert not drawn, f"drawn before the first synchronized frame (torn):\n{drawn}"
        screen = pyte.Screen(*SIZE)
        pyte.ByteStream(screen).feed(terminal.raw[: _first_frame_ended(terminal.raw)])
        return "\n".join(screen.display)
    finally:
        terminal.close()


def _prompt_row(terminal: Terminal) -> str:
    """The prompt's row as shown (its label, then what was typed), or "" while there is none."""
    rows = [row.rstrip() for row in terminal.screen.display if "task ›" in row]
    return rows[0] if rows else ""


def _agentui() -> str:
    return str(Path(sys.executable).with_name("agentui"))


def test_a_new_app_s_first_frame_is_the_whole_screen(tmp_path: Path) -> None:
    shown = first_frame([_agentui(), "--no-session"], _env(tmp_path))
    for part in (
        "agents",
        "transcript",
        "monologue",  # its border's title
        "What should the agents do?",  # the prompt's hint
        "offline scripted model",  # the status bar
        "^q Quit",  # the footer
    ):
        assert part in shown, f"{part!r} is not in the first frame:\n{shown}"


def test_a_resumed_session_s_first_frame_is_the_whole_screen(tmp_path: Path) -> None:
    folder = tmp_path / "data" / "sessions"
    folder.mkdir(parents=True)
    anyio.run(saved_run, folder, OLD, LEFT)
    shown = first_frame([_agentui(), "--resume", OLD], _env(tmp_path))
    for part in ("agents", "monologue", "done 1", f"resumed {OLD}", "^q Quit"):
        assert part in shown, f"{part!r} is not in the first frame:\n{shown}"


def test_keys_typed_before_the_first_frame_land_in_the_prompt(tmp_path: Path) -> None:
    """Typed once the app reads the terminal (it has asked about synchronized output), well
    before its main screen has mounted: the app's events wait for that screen
    (AgentUIApp.on_event), so the words reach its prompt."""
    terminal = Terminal(
        [_agentui(), "--no-session"], _env(tmp_path), SIZE, {SYNC_QUERY: SYNC_SUPPORTED}
    )
    try:
        terminal.read_until(lambda: SYNC_QUERY in terminal.raw, "the query")
        terminal.send(b"hello harbour")
        terminal.read_until(lambda: _prompt_row(terminal).endswith("hello harbour"), "the words")
    finally:
        terminal.close()
