"""Keys typed while agentui starts are not echoed by the terminal, and the terminal's own
settings come back after the app."""

from __future__ import annotations

import os
import sys
import termios
from collections.abc import Iterator

import pytest

from agentui.tui.early_keys import hold_typed_keys, release_typed_keys, unechoed_terminal


def test_echo_is_off_while_the_app_starts_and_restored_after(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    leader, follower = os.openpty()
    try:
        with os.fdopen(os.dup(follower), "r") as terminal:
            monkeypatch.setattr(sys, "stdin", terminal)
            before = termios.tcgetattr(follower)
            assert before[3] & termios.ECHO
            with unechoed_terminal():
                assert not termios.tcgetattr(follower)[3] & termios.ECHO
                assert termios.tcgetattr(follower)[3] & termios.ICANON, "only echo changes"
            assert termios.tcgetattr(follower) == before
    finally:
        os.close(leader)
        os.close(follower)


def test_without_a_terminal_nothing_happens(monkeypatch: pytest.MonkeyPatch) -> None:
    read, write = os.pipe()
    try:
        with os.fdopen(os.dup(read), "r") as pipe:
            monkeypatch.setattr(sys, "stdin", pipe)
            with unechoed_terminal():
                pass
    finally:
        os.close(read)
        os.close(write)


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """stdin is a pseudo-terminal with echo on; its fd."""
    leader, follower = os.openpty()
    try:
        with os.fdopen(os.dup(follower), "r") as stdin:
            monkeypatch.setattr(sys, "stdin", stdin)
            yield follower
    finally:
        release_typed_keys()
        os.close(leader)
        os.close(follower)


def _echoes(fd: int) -> bool:
    return bool(termios.tcgetattr(fd)[3] & termios.ECHO)


def test_holding_twice_and_releasing_once_gives_the_terminal_back(terminal: int) -> None:
    """The executable holds echo off, the app's own hold is then a no-op: one release (the
    app's end, or the executable's) restores what the shell had."""
    before = termios.tcgetattr(terminal)
    hold_typed_keys()
    hold_typed_keys()
    assert not _echoes(terminal)
    release_typed_keys()
    assert termios.tcgetattr(terminal) == before
    release_typed_keys()  # nothing held: nothing changes
    assert termios.tcgetattr(terminal) == before


def test_a_command_that_is_not_the_app_echoes_again_before_its_work(
    terminal: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """`agentui run` reads the person's answers on stdin: they must see what they type."""
    from agentui.tui import cli

    hold_typed_keys()  # as the executable does before importing the cli
    assert cli.main(["config", "path"]) == 0
    assert _echoes(terminal)
    assert capsys.readouterr().out.strip().endswith("config.toml")
