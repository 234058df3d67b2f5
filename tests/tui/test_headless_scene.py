"""`agentui run --scene`: each round's input from --answer then stdin (an empty line lets the
scene go on, the end of input ends it); the scene as it plays on stderr, as played on stdout."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.runtime import Runtime
from agentui.core.scene.scene_run import start_scene
from agentui.core.session.naming import sessions_dir
from agentui.core.support.clock import FrozenClock
from agentui.core.support.errors import AgentUIError
from agentui.tui.cli.app_command import app_parser, build_app
from agentui.tui.cli.main import main
from agentui.tui.headless.answers import STDIN_ENDED_HINT
from agentui.tui.headless.run import run_headless

from ..core.scene_helpers import harbour


@pytest.mark.anyio
async def test_a_scene_runs_headless_round_by_round() -> None:
    scene = harbour()
    stdout, stderr = io.StringIO(), io.StringIO()
    status = await run_headless(
        lambda: Runtime(ScriptedProvider(), clock=FrozenClock()),
        "",
        json_output=False,
        answers=["Tomas, sell me a fish."],
        stdin=io.StringIO("\n"),  # round 2 goes on by itself; then stdin ends the scene
        stdout=stdout,
        stderr=stderr,
        start=lambda runtime: start_scene(runtime, scene),
    )
    out, err = stdout.getvalue(), stderr.getvalue()
    assert status == 0
    assert out.startswith("# Harbour\n\n## Round 1\n\nYou: Tomas, sell me a fish.\n\nTomas: ")
    assert "## Round 2\n\n(the scene went on by itself)" in out
    assert "[harbour] question: Round 1 of Harbour: what do you say or do?" in err
    assert "[round-1] director, pass 1: 1. Tomas: " in err
    assert "[round-1] round 1: closed; acted: Tomas, Mara" in err
    assert "[round-2] Ines enters: " in err
    assert "(no answer: stdin has ended, so it is declined)" in err
    assert err.count(STDIN_ENDED_HINT) == 1, "how to answer without stdin: said once"


def test_the_command_line_refuses_a_bad_scene_and_lists_the_shipped_ones(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["run", "--scene", "nosuch"]) == 2
    assert "agentui: no scene named 'nosuch'; the shipped scenes are: lighthouse" in (
        capsys.readouterr().err
    )
    with pytest.raises(SystemExit) as exited:
        main(["run", "A task", "--scene", "lighthouse"])
    assert exited.value.code == 2
    assert "give a TASK or --scene NAME|FILE (one of them)" in capsys.readouterr().err
    assert main(["scenes"]) == 0
    listing = capsys.readouterr().out
    assert "lighthouse      The Lighthouse Keeper's Letter" in listing
    assert "Priya, Dev, Sam, Lee (waiting)" in listing


def test_resuming_a_session_goes_on_with_its_unfinished_scene(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setenv("AGENTUI_DATA_DIR", str(tmp_path))  # this test's sessions only
    monkeypatch.setattr("sys.stdin", io.StringIO("Hello there.\n\n"))
    assert main(["run", "--scene", "lighthouse"]) == 0
    capsys.readouterr()
    path = next(sessions_dir().glob("*.jsonl"))
    # As a crash in round 2 would leave it: everything up to that round's start.
    lines = path.read_text("utf-8").splitlines(keepends=True)
    cut = next(i for i, line in enumerate(lines) if '"round:start"' in line and '"round":2' in line)
    path.write_text("".join(lines[: cut + 1]), "utf-8")

    resumed = build_app(app_parser().parse_args(["--resume", "last"]))
    assert resumed.host._start_with is not None, "the scene goes on once the runtime runs"  # type: ignore[attr-defined]
    finished = build_app(app_parser().parse_args(["--scene", "product_review"]))
    assert finished.host._start_with is not None  # type: ignore[attr-defined]
    with pytest.raises(AgentUIError, match="give a task or --scene, not both"):
        build_app(app_parser().parse_args(["A task", "--scene", "lighthouse"]))
