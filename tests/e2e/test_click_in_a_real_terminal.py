"""A click in a real terminal (an SGR mouse report, as xterm, tmux and the browser's xterm.js
send it) never arms the letters: a sentence typed after it is words in the prompt."""

from __future__ import annotations

import json
from pathlib import Path

from .test_app_terminal import Terminal, _agentui, _scratch_env

HOLDING = {"agents": {"*": [{"text": "one two three four five six", "hang_after_chunks": 2}]}}


def click(term: Terminal, column: int, row: int) -> None:
    """A left click at the 1-based cell (column, row): press, then release."""
    term.send(f"\x1b[<0;{column};{row}M\x1b[<0;{column};{row}m".encode())


def test_typing_after_clicking_the_tree_and_the_transcript_runs_no_command(tmp_path: Path) -> None:
    script = tmp_path / "hold.json"
    script.write_text(json.dumps(HOLDING), encoding="utf-8")
    argv = [*_agentui(), "--script", str(script), "--pace", "0", "--workflow", "plain"]
    term = Terminal([*argv, "--no-session", "Plan a weekend"], _scratch_env(tmp_path))
    term.read_until(lambda: "running 1" in term.text(), "main running")
    term.read_until(lambda: "main ›" in term.text(), "the prompt addressing main")
    term.send(b"\x1b")  # esc: the keys on the tree, where its letters are commands
    term.read_until(lambda: "Pause" in term.text(), "the tree's keys in the footer")
    click(term, 6, 2)  # the main row, inside the tree's border
    term.send(b"can you")
    term.read_until(lambda: "can you" in term.text(), "the words in the prompt")
    click(term, 60, 10)  # the transcript
    term.send(b" quick fix: keep it short")
    term.read_until(lambda: "can you quick fix: keep it short" in term.text(), "every word")
    text = term.text()
    assert "running 1" in text and "cancelled" not in text, "no agent command ran"
    assert "Quit" not in text.split("\n")[5], "no quit dialog"
    assert "transcript · main" in text, "the transcript did not switch to every agent"
    term.send(b"\x11")  # ctrl+q asks (main runs, words unsent); ctrl+q again quits
    term.read_until(lambda: "Quit and" in term.text(), "the quit question")
    term.send(b"\x11")
    assert term.wait_exit() == 0
