"""`agentui run --scene`: each round's input from --answer then stdin (an empty line lets the
scene go on, the end of input ends it); the scene as it plays on stderr, as played on stdout."""

from __future__ import annotations

import io

import pytest

from agentui.core.clock import FrozenClock
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.runtime import Runtime
from agentui.core.scene.scene_run import start_scene
from agentui.tui.cli import main
from agentui.tui.headless import run_headless

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
