"""`agentui rerun` of what the first rerun tests leave out (test_rerun_diff_cli.py): a steer typed
as a `/steer` line on a six-step run's stdin, given again at the same step; and a session where
the person typed a second task, whose root starts again after the first's step and gets its
steer. Three child processes; the second session is recorded in this process."""

from __future__ import annotations

import re
from pathlib import Path

import anyio
import pytest

from agentui.core.providers.scripted.script import Script, Turn

from ..core.session_helpers import recorded_runtime
from .cli_runs import child_env, events
from .preloaded_cli import completed

pytestmark = pytest.mark.anyio


def _sessions(home: Path) -> set[str]:
    return {p.stem for p in (home / "data" / "sessions").glob("*.jsonl")}


async def _agentui(
    *args: str, env: dict[str, str], cwd: Path, stdin: str = ""
) -> tuple[int, str, str]:
    done = await anyio.to_thread.run_sync(
        lambda: completed(list(args), env=env, cwd=cwd, stdin=stdin)
    )
    return done.returncode, done.stdout, done.stderr


async def test_a_steer_line_on_a_six_step_run_s_stdin_is_given_again_at_its_step(
    tmp_path: Path,
) -> None:
    env = child_env(tmp_path, AGENTUI_WORKFLOW="six-step")
    code, _, err = await _agentui(
        "run", "Plan a launch party", env=env, cwd=tmp_path, stdin="Lisbon\n/steer main be brief\n"
    )
    assert code == 0, err
    assert "[you → main] be brief" in err
    (first,) = _sessions(tmp_path)

    code, out, err = await _agentui("rerun", first, "--json", env=env, cwd=tmp_path)
    assert code == 0, err
    steered = [e for e in events(out) if e["type"] == "note:queued" and e["from_person"]]
    assert [e["text"] for e in steered] == ["be brief"]
    played = re.search(
        r"steer 'be brief' after main@(\d+): given at main's model call after step (\d+)", err
    )
    assert played is not None, err
    assert played[1] == played[2], "given after the same step its model read it after"


async def test_a_second_task_typed_later_starts_again_after_the_first_s_step(
    tmp_path: Path,
) -> None:
    sessions = tmp_path / "data" / "sessions"
    script = Script(agents={"main": [Turn(text="Hello.")], "main-2": [Turn(text="Goodbye.")]})
    runtime = recorded_runtime(sessions, script=script, workflow="plain")
    async with runtime:
        first = runtime.start("Say hello")
        await runtime.wait(first)
        second = runtime.start("Say goodbye")
        runtime.steer(second, "in French")
        await runtime.wait(second)
    (old,) = _sessions(tmp_path)

    code, out, err = await _agentui("rerun", old, "--json", env=child_env(tmp_path), cwd=tmp_path)
    assert code == 0, err
    seen = events(out)
    roots = [
        (e["name"], e["task"])
        for e in seen
        if e["type"] == "agent:spawned" and e["parent_id"] is None
    ]
    assert roots == [("main", "Say hello"), ("main-2", "Say goodbye")]
    main_steps = [
        e["seq"] for e in seen if e["type"] == "conversation:changed" and e["agent_id"] == "a1"
    ]
    (started,) = [e["seq"] for e in seen if e["type"] == "agent:spawned" and e["name"] == "main-2"]
    assert main_steps[1] < started, "it started once main had its step 1, not before"
    assert (
        "agentui: rerun: root main-2 ('Say goodbye') after main@1: started when main had step"
        in err
    )
    assert (
        "agentui: rerun: steer 'in French' after main-2@0: given at main-2's model call after step 0"
        in err
    )
    assert "not replayed" not in err
