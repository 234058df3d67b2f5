"""The real `agentui` command in a pseudo-terminal, used as a person would."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import shutil
import struct
import sys
import termios
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import ClassVar

import pyte
import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")

SAFETY_NET_S = 60.0  # only bounds a hung run; nothing waits for time to pass


def _agentui() -> list[str]:
    script = Path(sys.executable).with_name("agentui")
    if script.exists():
        return [str(script)]
    found = shutil.which("agentui")
    return [found] if found else [sys.executable, "-m", "agentui.tui.cli.main"]


class Terminal:
    """The app on a pseudo-terminal; pyte keeps the screen a person would see."""

    started: ClassVar[list[Terminal]] = []  # ended after each test, whatever its outcome

    def __init__(
        self,
        argv: list[str],
        env: dict[str, str],
        size: tuple[int, int] = (120, 36),
        answers: dict[bytes, bytes] | None = None,
    ) -> None:
        """`answers`: what the terminal replies to a query the app writes (a terminal that
        supports synchronized output says so when asked)."""
        columns, rows = size
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: become the app
            os.execvpe(argv[0], argv, env)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.raw = b""
        self.screen = pyte.Screen(columns, rows)
        self._stream = pyte.ByteStream(self.screen)
        self.answers = answers or {}
        self.reaped = False
        Terminal.started.append(self)

    def text(self) -> str:
        """What is on the screen now, line by line."""
        return "\n".join(self.screen.display)

    def read_until(self, done: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + SAFETY_NET_S
        while not done():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}; the screen:\n{self.text()}")
            ready, _, _ = select.select([self.fd], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:  # the app exited and the pty closed
                    return
                if not chunk:
                    return
                for query, answer in self.answers.items():
                    if query in chunk:
                        os.write(self.fd, answer)
                self.raw += chunk
                self._stream.feed(chunk)

    def send(self, data: bytes) -> None:
        os.write(self.fd, data)

    def close(self) -> None:
        """End the app now (the test has read what it wanted)."""
        os.kill(self.pid, 9)
        os.waitpid(self.pid, 0)
        os.close(self.fd)
        self.reaped = True

    def wait_exit(self) -> int:
        self.read_until(lambda: False, "the app to exit")  # drain until the pty closes
        _, status = os.waitpid(self.pid, 0)
        os.close(self.fd)
        self.reaped = True
        return os.waitstatus_to_exitcode(status)


@pytest.fixture(autouse=True)
def _no_app_outlives_its_test() -> Iterator[None]:
    """A failed test leaves its app running on a terminal nobody reads: it is killed."""
    yield
    for term in Terminal.started:
        if not term.reaped:
            os.kill(term.pid, 9)
            os.waitpid(term.pid, 0)
            os.close(term.fd)
    Terminal.started.clear()


def _scratch_env(tmp_path: Path) -> dict[str, str]:
    """No API key, every agentui directory under `tmp_path`, a colour terminal, no size
    exported in the developer's shell."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("ANTHROPIC_") and k not in ("COLUMNS", "LINES", "ROWS")
    }
    return env | {
        "TERM": "xterm-256color",
        "AGENTUI_CONFIG_DIR": str(tmp_path / "config"),
        "AGENTUI_DATA_DIR": str(tmp_path / "data"),
        "AGENTUI_STATE_DIR": str(tmp_path / "state"),
    }


def test_start_answer_approve_and_quit_in_a_real_terminal(tmp_path: Path) -> None:
    env = _scratch_env(tmp_path)
    term = Terminal([*_agentui(), "--pace", "0", "Plan a birthday party"], env)
    term.read_until(lambda: "enter answers (empty: declines)" in term.text(), "the inline question")
    text = term.text()
    for pane in ("agents", "transcript", "monologue"):
        assert pane in text, f"the {pane} pane is on screen"
    assert "offline scripted model" in text
    # As a person does: wait for the answer box to take the focus (its keys show in the
    # footer), type, see it typed, press enter.
    term.read_until(lambda: "esc To prompt" in term.text(), "the question to take the focus")
    term.send(b"lots of cake")
    term.read_until(lambda: "lots of cake" in term.text(), "the typed answer")
    term.send(b"\r")
    # Then the demo runs the python tool, which needs the person's approval.
    term.read_until(lambda: "3 Reject, with a reason" in term.text(), "the approval buttons")
    term.read_until(lambda: "1 Allow once  2" in term.text(), "the approval's keys in the footer")
    term.send(b"1")
    term.read_until(lambda: "✓ allowed once" in term.text(), "the decision on screen")
    term.read_until(lambda: "done 1" in term.text(), "the agent to finish")
    term.read_until(lambda: "lots of cake" in term.text(), "the answer used in the result")
    term.send(b"\x11")  # ctrl+q: nothing runs any more, so it quits without asking
    assert term.wait_exit() == 0
    assert b"\x1b[?1049l" in term.raw, "the alternate screen was left: the terminal is clean"
    assert b"saved; `agentui --resume " in term.raw, "it says how to reopen the session"


def test_an_answer_typed_right_after_a_task_typed_in_the_prompt(tmp_path: Path) -> None:
    """The path that lost the cursor: the task typed into the prompt, then the answer typed
    as soon as the question is drawn, without waiting to see where the focus is."""
    env = _scratch_env(tmp_path)
    term = Terminal([*_agentui(), "--pace", "0"], env, size=(80, 24))
    term.read_until(lambda: "What should the agents do?" in term.text(), "the prompt")
    term.send(b"Plan a family trip\r")
    term.read_until(
        lambda: "enter answers (empty: declines)" in term.text(), "the question's answer box"
    )
    term.send(b"daytime only, kids are 6 and 9")
    term.read_until(lambda: "and 9" in term.text(), "the answer, typed in its box")
    assert "daytime only, kids are 6" in term.text()
    text = term.text()
    assert "Delete main" not in text and "Quit and cancel" not in text, "no dialog opened"
    term.send(b"\r")
    term.read_until(lambda: "1 Allow once" in term.text(), "the approval")
    term.read_until(lambda: "1 Allow once  2" in term.text(), "the approval's keys in the footer")
    term.send(b"1")
    term.read_until(lambda: "done 1" in term.text(), "the agent to finish")
    assert "⌫" not in term.text() and "⊘" not in term.text(), "nothing deleted or cancelled"
    term.send(b"\x11")
    assert term.wait_exit() == 0


def test_a_pasted_escape_sequence_stays_text_in_a_real_terminal(tmp_path: Path) -> None:
    """Pasted coloured output: its escape codes must not become keys (a line break in them
    would send half a task) nor cut the paste."""
    env = _scratch_env(tmp_path)
    term = Terminal([*_agentui(), "--pace", "0"], env, size=(100, 24))
    term.read_until(lambda: "What should the agents do?" in term.text(), "the prompt")
    term.send(b"\x1b[200~Plan a trip\x1b[0m to Rome\rand Paris\x1b[201~")
    term.read_until(lambda: "and Paris" in term.text(), "the whole paste in the prompt")
    text = term.text()
    assert "Plan a trip␛[0m to Rome" in text, "the escape shown, the text in order"
    assert "and Paris" in text.split("Plan a trip")[1], "both lines, in the prompt"
    assert "running 0  waiting for you 0  done 0" in text, "no task began: nothing was sent"
    term.send(b"\x11")  # the words were never sent: quitting asks, ctrl+q again confirms
    term.read_until(lambda: "has not been sent" in term.text(), "the quit question")
    term.send(b"\x11")
    assert term.wait_exit() == 0


def test_the_app_fills_its_terminal_whatever_columns_and_lines_say(tmp_path: Path) -> None:
    env = _scratch_env(tmp_path) | {"COLUMNS": "80", "LINES": "24"}  # stale, exported
    term = Terminal([*_agentui(), "--no-session"], env, size=(120, 36))
    term.read_until(lambda: "Quit" in term.text(), "the first frame")
    term.read_until(
        lambda: (
            term.screen.display[0].rstrip().endswith("╮")
            and len(term.screen.display[0].rstrip()) == 120
            and "Quit" in term.screen.display[35]
        ),
        "the frame at the terminal's own 120x36",
    )
