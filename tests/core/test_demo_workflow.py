"""The offline demo plays the whole six-step workflow, in the runtime and in headless mode."""

from __future__ import annotations

import io

import anyio
import pytest

from agentui.core.agent.tree import AgentStatus
from agentui.core.protocol.events import QueryRaised
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock
from agentui.core.tools.builtin import builtin_tools
from agentui.tui.headless.answers import APPROVAL_HINT
from agentui.tui.headless.run import run_headless

from .helpers import Recorder

pytestmark = pytest.mark.anyio

TASK = "Plan a weekend in Lisbon"


def demo_runtime() -> Runtime:
    return Runtime(
        ScriptedProvider(), tools=builtin_tools(), workflow="six-step", clock=FrozenClock()
    )


async def test_the_demo_runs_every_step_offline() -> None:
    runtime = demo_runtime()
    answers = {"clarification": "good food", "approval": "once"}
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start(TASK)
        raised: list[QueryRaised] = []
        with anyio.fail_after(30):  # safety net only
            while not runtime.node(root).status.is_final:
                event = await recorder.sub.get()
                recorder.events.append(event)
                if isinstance(event, QueryRaised):
                    raised.append(event)
                    runtime.answer(event.query_id, answers[event.kind])
            await runtime.wait(root)
        recorder.sync()
    node = runtime.node(root)
    assert node.status is AgentStatus.COMPLETED
    # One clarifying question, then the Python tool's approval; the subagents ask nothing.
    assert [(q.agent_id, q.kind) for q in raised] == [(root, "clarification"), (root, "approval")]
    assert raised[0].prompt == f'For "{TASK}": what should I focus on, or avoid?'
    children = [runtime.node(c) for c in node.children]
    assert [(c.name, c.status) for c in children] == [
        ("main.1", AgentStatus.COMPLETED),
        ("main.2", AgentStatus.COMPLETED),
    ]
    (python,) = [e for e in recorder.of("tool:complete") if e.name == "python"]  # type: ignore[attr-defined]
    assert python.result == "5 words; the longest is 'weekend'\n"  # type: ignore[attr-defined]
    assert node.result is not None
    assert "You asked me to focus on: *good food*." in node.result
    assert "What my subagents found:" in node.result
    assert "- **main.1** (completed):" in node.result and "- **main.2** (completed):" in node.result
    # Step 4 notes the agent's own part; the full answer is written once, at step 6.
    said = [e.text for e in recorder.of("llm:response") if e.agent_id == root and e.text]  # type: ignore[attr-defined]
    assert said[-2] == (
        f"My own part of {TASK!r} is done, focusing on *good food*. "
        "I'll write the full answer once my subagents report back."
    )
    assert [text.startswith("## ") for text in said].count(True) == 1
    report = runtime.workflow_report(root)
    assert report is not None and len(report.children) == 2 and report.questions[0].answer


async def test_the_demo_workflow_in_headless_mode() -> None:
    stdout, stderr = io.StringIO(), io.StringIO()
    status = await run_headless(
        demo_runtime,
        TASK,
        json_output=False,
        answers=["museums and trams", "yes"],
        stdin=io.StringIO(""),
        stdout=stdout,
        stderr=stderr,
    )
    assert status == 0, stderr.getvalue()
    assert "You asked me to focus on: *museums and trams*." in stdout.getvalue()
    assert "approval: Allow python to run?" in stderr.getvalue()
    assert f"{APPROVAL_HINT}\n> yes\n" in stderr.getvalue()


class HeldFirstDecision(ScriptedProvider):
    """The offline model, its first decision's answer held until `release`: a slow model
    still streaming it."""

    def __init__(self, release: anyio.Event) -> None:
        super().__init__()
        self.release = release
        self.holding = anyio.Event()

    async def _stream(self, request):  # type: ignore[no-untyped-def,override]
        if request.purpose == "decision" and not self.holding.is_set():
            self.holding.set()
            await self.release.wait()
        async for event in super()._stream(request):
            yield event


async def test_a_modify_while_a_decision_streams_decides_again_for_the_new_task() -> None:
    """The demo asks about the task it has when the decision's answer is read, not the one
    it had when the answer began (a question or subagents for the old task otherwise)."""
    release = anyio.Event()
    provider = HeldFirstDecision(release)
    runtime = Runtime(provider, tools=builtin_tools(), workflow="six-step", clock=FrozenClock())
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start(TASK)
        with anyio.fail_after(30):  # safety net only
            await provider.holding.wait()
            runtime.modify(root, content="Write a haiku about rain")
            release.set()
            while not (asked := [e for e in recorder.events if isinstance(e, QueryRaised)]):
                recorder.events.append(await recorder.sub.get())
        runtime.cancel(root)
    assert asked[0].prompt == 'For "Write a haiku about rain": what should I focus on, or avoid?'
    clarify = [r for r in provider.requests if r.decision == "clarify"]
    assert len(clarify) == 2, "asked again once the task changed"
    deciding = [e for e in recorder.events if e.type == "workflow:deciding"]
    assert [(e.decision, e.attempt) for e in deciding] == [("clarify", 1), ("clarify", 1)]  # type: ignore[attr-defined]
