"""The offline demo plays the whole six-step workflow, in the runtime and in headless mode."""

from __future__ import annotations

import io

import anyio
import pytest

from agentui.core.clock import FrozenClock
from agentui.core.events import QueryRaised
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.runtime import Runtime
from agentui.core.tools.builtin import builtin_tools
from agentui.core.tree import AgentStatus
from agentui.tui.headless import run_headless
from agentui.tui.headless_answers import APPROVAL_HINT

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
