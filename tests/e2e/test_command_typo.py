"""A typo is not a task: `agentui sesions` ran an agent titled `sesions`. A one-word task close
to a command's name is refused with the command it looks like; `agentui -- WORD` runs it, and a
word like no command (`agentui haiku`) is a task as before."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest

from agentui.tui.cli.command_typo import mistyped_command

from .cli_runs import child_env
from .preloaded_cli import completed
from .test_app_terminal import Terminal, _agentui, _scratch_env

COMMANDS = [
    "run", "sessions", "replay", "export", "config", "profiles", "scenes", "serve", "web", "search"
]  # fmt: skip


def test_a_word_close_to_a_command_is_named_with_it() -> None:
    assert mistyped_command("sesions", COMMANDS) == (
        "unknown command 'sesions'; did you mean 'sessions'? (a one-word task: agentui -- sesions)"
    )
    assert "did you mean 'scenes'?" in (mistyped_command("scene", COMMANDS) or "")
    assert "agentui -- 'it$s'" in (mistyped_command("it$s", ["its"]) or "")  # quoted for a shell


def test_a_small_edit_distance_is_a_typo_and_a_larger_one_a_task() -> None:
    assert "did you mean 'sessions'?" in (mistyped_command("sesion", COMMANDS) or "")
    assert "did you mean 'sessions'?" in (mistyped_command("sessoins", COMMANDS) or "")  # a swap
    assert "did you mean 'config'?" in (mistyped_command("confg", COMMANDS) or "")
    assert mistyped_command("configure", COMMANDS) is None  # three edits: a word of its own
    assert mistyped_command("recap", COMMANDS) is None


@pytest.mark.parametrize("task", ["haiku", "summarize", "plan a weekend", "sessions please", None])
def test_other_tasks_are_tasks(task: str | None) -> None:
    assert mistyped_command(task, COMMANDS) is None


def test_agentui_refuses_a_mistyped_command(tmp_path: Path) -> None:
    done = completed(["sesions"], env=child_env(tmp_path), cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr == (
        "agentui: unknown command 'sesions'; did you mean 'sessions'? "
        "(a one-word task: agentui -- sesions)\n"
    )
    assert not (tmp_path / "data").exists() or not any((tmp_path / "data").rglob("*.jsonl"))


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
@pytest.mark.parametrize("argv", [["--", "sesions"], ["haiku"]], ids=["after --", "a far word"])
def test_a_one_word_task_runs(tmp_path: Path, argv: list[str]) -> None:
    term = Terminal([*_agentui(), "--no-session", "--pace", "0", *argv], _scratch_env(tmp_path))
    try:
        term.read_until(
            lambda: any("main" in line and argv[-1] in line for line in term.screen.display),
            f"the agent running {argv[-1]!r}",
        )
    finally:
        os.kill(term.pid, signal.SIGKILL)
        os.waitpid(term.pid, 0)
        os.close(term.fd)
        Terminal.started.remove(term)


def test_the_app_s_help_names_every_other_command() -> None:
    from agentui.tui.cli.app_command import app_parser
    from agentui.tui.cli.main import COMMANDS as DISPATCHED

    described = app_parser().description or ""
    assert [name for name in DISPATCHED if name not in described] == []


def test_a_mistyped_command_before_its_arguments_is_said_as_a_typo(tmp_path: Path) -> None:
    done = completed(["stpes", "last"], env=child_env(tmp_path), cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr == (
        "agentui: unknown command 'stpes'; did you mean 'steps'? "
        "(a one-word task: agentui -- stpes)\n"
    )
