"""Keys typed while agentui starts are not echoed by the terminal, and the terminal's own
settings come back after the app."""

from __future__ import annotations

import os
import sys
import termios

import pytest

from agentui.tui.early_keys import unechoed_terminal


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
