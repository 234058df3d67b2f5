"""A listing piped into a reader that stops early (`agentui sessions | head -1`) ends quietly:
no traceback, exit status 1."""

from __future__ import annotations

import os

import pytest

from agentui.tui.cli.main import main


def test_a_closed_pipe_ends_the_command_quietly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader has gone: a write raises BrokenPipeError
    closed_pipe = os.fdopen(write_end, "w", buffering=1)
    monkeypatch.setattr("sys.stdout", closed_pipe)
    assert main(["config", "show"]) == 1
    closed_pipe.write("more\n")  # stdout now leads nowhere: no second failure at exit
    closed_pipe.close()
    assert "Traceback" not in capsys.readouterr().err
