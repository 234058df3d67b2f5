"""`agentui run --resume ID --rewind A@N` as a person runs it, on a session that ended with a
subagent waiting on the person's answer (issue #31): the row is said, the question asked and
answered from `--answer`, and the rewound parent, waiting for that subagent, goes on."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest

from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.session.reader import read_session
from agentui.core.session.resume import plan_resume
from agentui.core.tools.fork import FORK, WAIT

from ..core.helpers import Recorder
from ..core.session_helpers import SAFETY_NET_S, recorded_runtime
from .cli_runs import agentui, child_env

pytestmark = pytest.mark.anyio

QUESTION = "Which city?"


async def test_a_question_given_back_is_asked_and_the_rewound_parent_goes_on(
    tmp_path: Path,
) -> None:
    sessions = tmp_path / "data" / "sessions"
    sessions.mkdir(parents=True)
    fork = ScriptedToolCall(name="fork", arguments={"prompt": "Ask"})
    asks = ScriptedToolCall(name="ask_user", arguments={"question": QUESTION})
    script = Script(
        agents={
            "main": [Turn(tool_calls=[fork]), Turn(text="hm", hang_after_chunks=1)],
            "main.1": [Turn(tool_calls=[asks])],
        }
    )
    runtime = recorded_runtime(sessions, script=script, tools=[FORK, WAIT])
    async with runtime:  # ends as a quit: its shutdown cancels both, in the log
        rec = Recorder(runtime)
        root = runtime.start("Plan a trip")
        (waits,) = await rec.wait_for(lambda e: getattr(e, "new", "") == "awaiting_user")
        await rec.wait_for(lambda e: e.type == "text:delta" and e.agent_id == root)
        with anyio.fail_after(SAFETY_NET_S):
            await runtime.session.wait_written(rec.events[-1].seq)
    assert runtime.session.path is not None
    plan = plan_resume(read_session(runtime.session.path))
    (forked,) = [s.number for s in plan.steps[root].steps if s.kind == "tool"]
    child = waits.agent_id
    then = {
        "agents": {
            "main": [
                {"tool_calls": [{"name": "wait", "arguments": {"handle": child}}]},
                {"text": "Lyon, then."},
            ],
            "main.1": [{"text": "Lyon it is."}],
        }
    }
    (tmp_path / "then.json").write_text(json.dumps(then))

    code, out, err = await agentui(
        "run", "--resume", plan.log.id, "--rewind", f"main@{forked}", "--script", "then.json",
        "--answer", "Lyon", env=child_env(tmp_path), cwd=tmp_path,
    )  # fmt: skip

    assert code == 0, err
    assert out == "Lyon, then.\n"
    assert f"\ninbox: question · main › main.1 · {QUESTION}\n" in err
    assert f"\n[main.1] question: {QUESTION}\n> Lyon\n" in err
    saved = read_session(runtime.session.path)
    answered = [e for e in saved.events if e.type == "query:answered"]
    assert [(e.agent_id, e.answer) for e in answered] == [(child, "Lyon")]  # type: ignore[attr-defined]
