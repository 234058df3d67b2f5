"""Time travel from the command line, as a person runs it: `agentui steps` lists an agent's
steps, `agentui run --resume ID --rewind AGENT@STEP` goes on from one in the same session, and
`agentui fork ID AGENT@STEP` starts a new session from one (offline, the scripted model)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .cli_runs import agentui, child_env, events

pytestmark = pytest.mark.anyio

TASK = "Plan a launch party"


async def _first_session(home: Path, *flags: str) -> str:
    env = child_env(home)
    code, _, err = await agentui("run", "--answer", "Lisbon", *flags, TASK, env=env, cwd=home)
    assert code == 0, err
    (path,) = (home / "data" / "sessions").glob("*.jsonl")
    return path.stem


async def _steps(home: Path, session: str, agent: str) -> list[dict[str, object]]:
    code, out, err = await agentui("steps", session, agent, "--json", env=child_env(home), cwd=home)
    assert code == 0, err
    return [json.loads(line) for line in out.splitlines()]


async def test_rewind_a_saved_session_and_go_on_from_the_step(tmp_path: Path) -> None:
    session = await _first_session(tmp_path)
    before = await _steps(tmp_path, session, "main")
    (answered,) = [s for s in before if s["kind"] == "answer"]
    code, _, err = await agentui(
        "run", "--resume", session, "--rewind", f"main@{answered['step']}",
        "--steer", "main: be brief", "--answer", "once", env=child_env(tmp_path), cwd=tmp_path,
    )  # fmt: skip
    assert code == 0, err
    assert f"main went back to step {answered['step']}" in err
    assert "[you → main] be brief" in err
    after = await _steps(tmp_path, session, "main")
    assert after[: len(before)] == [
        {**s, "set_aside": s["step"] > answered["step"]}
        for s in before  # type: ignore[operator]
    ], "the steps after it are kept, set aside"
    assert [s["kind"] for s in after[len(before) :]][:2] == ["steer", "model"]


async def test_steps_are_listed_for_a_person_to_pick_one(tmp_path: Path) -> None:
    session = await _first_session(tmp_path)
    code, out, err = await agentui("steps", session, env=child_env(tmp_path), cwd=tmp_path)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == f"main (a1) in session {session}"
    assert lines[1].split() == ["main@0", "task", *TASK.split()]
    assert any(" answer " in line and "ask_user → Lisbon" in line for line in lines)
    assert f"agentui run --resume {session} --rewind main@N" in err


async def test_a_bad_step_is_said_in_one_line(tmp_path: Path) -> None:
    session = await _first_session(tmp_path)
    env = child_env(tmp_path)
    code, _, err = await agentui("run", "--resume", session, "--rewind", "main@99", env=env,
                                 cwd=tmp_path)  # fmt: skip
    assert code == 2 and "main has no step 99" in err
    code, _, err = await agentui("run", "--rewind", "main@1", env=env, cwd=tmp_path)
    assert code == 2 and "--resume ID and --rewind AGENT@STEP go together" in err
    code, _, err = await agentui("fork", session, "main", env=env, cwd=tmp_path)
    assert code == 2 and "a step is AGENT@STEP" in err


async def test_fork_a_finished_session_into_a_new_one(tmp_path: Path) -> None:
    session = await _first_session(tmp_path, "--yes")  # its python call runs in the sandbox
    steps = await _steps(tmp_path, session, "main")
    (tool,) = [s for s in steps if s["kind"] == "tool"]
    assert str(tool["summary"]).startswith("python → 4 words"), "the sandbox ran it"
    instructions = tmp_path / "brief.txt"
    instructions.write_text("Answer in one line.", "utf-8")
    code, out, err = await agentui(
        "fork", session, f"main@{tool['step']}", "--instructions", str(instructions), "--json",
        env=child_env(tmp_path), cwd=tmp_path,
    )  # fmt: skip
    assert code == 0, err
    seen = events(out)
    spawned, forked = seen[0], seen[1]
    assert (spawned["type"], spawned["name"]) == ("agent:spawned", "main~1")
    assert forked == {**forked, "type": "agent:forked", "origin_name": "main",
                      "step": tool["step"], "session": session}  # fmt: skip
    conversation = seen[2]
    assert conversation["instructions"] == "Answer in one line."
    assert not [e for e in seen if e["type"] == "tool:start"], "the python call is not run again"
    assert len(list((tmp_path / "data" / "sessions").glob("*.jsonl"))) == 2
    # The fork's session has no `main`: its steps are listed for its own root.
    code, out, err = await agentui("steps", "last", env=child_env(tmp_path), cwd=tmp_path)
    assert code == 0, err
    assert out.splitlines()[0].startswith("main~1 (")
