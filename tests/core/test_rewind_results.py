"""A rewind keeps the subagents started before the step (issue #32): the results they handed
back after it were set aside with the rest, so the agent gets them again, as a note on its
next model call (the words the six-step workflow hands results in), and so does the result of
one still running, once it ends. A result the agent waits for again itself is not repeated."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.session.fold import fold_session
from agentui.core.session.reader import read_session
from agentui.core.session.resume import plan_resume
from agentui.core.tools.fork import FORK, WAIT

from .helpers import Recorder, is_type
from .session_helpers import gate_tool, recorded_runtime, resumed_runtime

pytestmark = pytest.mark.anyio

RESULT = "Counted to three."


def call(name: str, **arguments: object) -> ScriptedToolCall:
    return ScriptedToolCall(name=name, arguments=arguments)


async def _paused(recorder: Recorder, agent_id: str) -> None:
    await recorder.wait_for(is_type("agent:rewound", agent_id))
    await recorder.wait_for(lambda e: e.agent_id == agent_id and getattr(e, "new", "") == "paused")


def _sent_last(runtime: object) -> str:
    """The text of the last message of the last request the model was sent."""
    provider = runtime.provider  # type: ignore[attr-defined]
    assert isinstance(provider, ScriptedProvider)
    return provider.requests[-1].messages[-1].text


@pytest.mark.parametrize(("step", "notes"), [(2, 1), (3, 0)])
async def test_a_result_handed_after_the_step_is_handed_again_once(
    tmp_path: Path, step: int, notes: int
) -> None:
    """Back to the fork's result (step 2), the wait's result is set aside: it comes as a note.
    Back to the wait call (step 3), the wait runs again and hands it: no note."""
    script = Script(
        agents={
            "main": [
                Turn(tool_calls=[call("fork", prompt="Count")]),
                Turn(tool_calls=[call("wait", handle="a2")]),
                Turn(text="First."),
                Turn(text="Second."),
            ],
            "main.1": [Turn(text=RESULT)],
        }
    )
    runtime = recorded_runtime(tmp_path, script=script, tools=[FORK, WAIT])
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("count")
        node = await runtime.wait(root)
        assert node.result == "First."
        kinds = [s.kind for s in runtime.steps(root)]
        assert kinds == ["task", "model", "tool", "model", "tool", "model"]

        runtime.rewind(root, step)
        await _paused(recorder, root)
        runtime.resume(root)
        node = await runtime.wait(root)

        assert (node.status, node.result) == (AgentStatus.COMPLETED, "Second.")
        recorder.sync()
        after = recorder.events.index(recorder.of("agent:rewound")[0])
        queued = [e for e in recorder.events[after:] if e.type == "note:queued"]
        assert len(queued) == notes
        had = [m for m in node.conversation.messages if RESULT in m.text or any(
            RESULT in r.content for r in m.tool_results
        )]  # fmt: skip
        assert len(had) == 1, "handed once, by the note or by the wait run again"
        assert RESULT in _sent_last(runtime) or step == 3
        live = runtime.agent(root)
    assert runtime.session.path is not None
    folded = fold_session(read_session(runtime.session.path)).agents[root]
    assert folded.with_history() == live


async def test_a_subagent_still_running_at_the_rewind_hands_its_result_once_it_ends(
    tmp_path: Path,
) -> None:
    release = anyio.Event()
    script = Script(
        agents={
            "main": [
                Turn(tool_calls=[call("fork", prompt="Count")]),
                Turn(tool_calls=[call("wait", handle="a2")]),
                Turn(text="With its result."),
            ],
            "main.1": [Turn(tool_calls=[call("gate")]), Turn(text=RESULT)],
        }
    )
    runtime = recorded_runtime(tmp_path, script=script, tools=[FORK, WAIT, gate_tool(release)])
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("count")
        await recorder.wait_for(is_type("tool:start", "a2"))
        await recorder.wait_for(is_type("tool:start", root), count=2)  # main waits on it
        runtime.rewind(root, 2)
        await _paused(recorder, root)
        assert runtime.node("a2").status.is_live, "kept: started before the step"
        release.set()
        await runtime.wait("a2")
        runtime.resume(root)
        node = await runtime.wait(root)
        assert node.result == "With its result."
        assert RESULT in _sent_last(runtime)
        live = runtime.agent(root)
    assert runtime.session.path is not None
    folded = fold_session(read_session(runtime.session.path)).agents[root]
    assert folded.with_history() == live


async def test_a_resumed_session_knows_which_results_its_wait_tool_handed(
    tmp_path: Path,
) -> None:
    """A saved session's log says when the wait tool handed a result: rewound after a resume,
    the agent gets it again as it would in the run that saved it."""
    script = Script(
        agents={
            "main": [
                Turn(tool_calls=[call("fork", prompt="Count")]),
                Turn(tool_calls=[call("wait", handle="a2")]),
                Turn(text="First."),
            ],
            "main.1": [Turn(text=RESULT)],
        }
    )
    runtime = recorded_runtime(tmp_path, script=script, tools=[FORK, WAIT])
    async with runtime:
        root = runtime.start("count")
        await runtime.wait(root)
    assert runtime.session.path is not None
    plan = plan_resume(read_session(runtime.session.path))
    again = resumed_runtime(plan, Script(agents={"main": [Turn(text="Second.")]}))
    async with again:
        recorder = Recorder(again)
        again.rewind(root, 2)
        await _paused(recorder, root)
        again.resume(root)
        node = await again.wait(root)
        assert node.result == "Second."
        assert RESULT in _sent_last(again)
