"""`agentui run --resume ID --rewind A@N` and what the session gave back (issue #31): the inbox
rows standing at the start are said on stderr first (`inbox: KIND · PATH · TEXT`), and the
questions open again are answered as the headless loop answers new ones (`--answer`, then
stdin), the rewound agent going on once they are. A rewind that stops an asker (sets it
aside) neither says nor asks its question; an approval `--yes` allows is not asked."""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

import anyio
import pytest

from agentui.core.agent.steps import StepRef
from agentui.core.protocol.agent_status import AgentStatus as S
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.session.reader import read_session
from agentui.core.session.recording import RecordingRuntime
from agentui.core.session.resume import ResumePlan, plan_resume
from agentui.core.session.writer import SessionWriter
from agentui.core.support.clock import FrozenClock
from agentui.core.tools.ask_user import ASK_USER
from agentui.core.tools.fork import FORK, WAIT
from agentui.core.tools.registry import ToolRegistry
from agentui.core.tools.tool import Tool
from agentui.tui.cli.rewind_run import run_rewound

from ..core.helpers import Recorder, deploy_tool, is_type
from ..core.session_helpers import SAFETY_NET_S, echo_tool, gate_tool, recorded_runtime

pytestmark = pytest.mark.anyio

Ending = Literal["crash", "quit"]
QUESTION = "Which city?"


def call(name: str, **arguments: object) -> ScriptedToolCall:
    return ScriptedToolCall(name=name, arguments=arguments)


async def saved_session(
    tmp_path: Path, ending: Ending, asks: Turn, tools: Sequence[Tool] = ()
) -> tuple[ResumePlan, str, str]:
    """main forks main.1, which `asks` (a question or an approval) and waits; main goes on
    streaming. The session ends with both live: killed (a copy of the file), or quit (the
    runtime's shutdown). Its plan, main's id and main.1's."""
    script = Script(
        agents={
            "main": [
                Turn(tool_calls=[call("fork", prompt="Ask")]),
                Turn(text="hm", hang_after_chunks=1),
            ],
            "main.1": [asks],
        }
    )
    runtime = recorded_runtime(tmp_path, script=script, tools=[FORK, WAIT, *tools])
    async with runtime:
        rec = Recorder(runtime)
        root = runtime.start("Plan a trip")
        (waits,) = await rec.wait_for(lambda e: getattr(e, "new", "") == "awaiting_user")
        await rec.wait_for(lambda e: e.type == "text:delta" and e.agent_id == root)
        with anyio.fail_after(SAFETY_NET_S):
            await runtime.session.wait_written(rec.events[-1].seq)
        assert runtime.session.path is not None
        path = runtime.session.path
        if ending == "crash":
            path = tmp_path / "crashed.jsonl"
            path.write_bytes(runtime.session.path.read_bytes())
    return plan_resume(read_session(path)), root, waits.agent_id


def step_of(plan: ResumePlan, agent_id: str, kind: str) -> int:
    (step,) = [s.number for s in plan.steps[agent_id].steps if s.kind == kind]
    return step


async def rewound(
    plan: ResumePlan,
    ref: StepRef,
    script: Script,
    *,
    answers: Sequence[str] = (),
    stdin: str = "",
    json_output: bool = False,
    tools: Sequence[Tool] = (),
    approve_all: bool = False,
) -> tuple[int, str, str, Runtime]:
    """`agentui run --resume ID --rewind REF` on `plan`: its exit status, stdout, stderr."""
    made: list[Runtime] = []

    def make_runtime() -> Runtime:
        runtime = RecordingRuntime(
            ScriptedProvider(script),
            session=SessionWriter(plan.continued_session()),
            tools=ToolRegistry([ASK_USER, FORK, WAIT, *tools]),
            clock=FrozenClock(),
            last_seq=plan.last_seq,
            ids=plan.id_source(),
            approve_all=approve_all,
        )
        plan.adopt_into(runtime)
        made.append(runtime)
        return runtime

    out, err = io.StringIO(), io.StringIO()
    with anyio.fail_after(SAFETY_NET_S):
        code = await run_rewound(
            make_runtime, plan, ref, json_output=json_output, answers=list(answers), steers=[],
            stdin=io.StringIO(stdin), stdout=out, stderr=err,
        )  # fmt: skip
    return code, out.getvalue(), err.getvalue(), made[0]


def waits_then_answers(child: str) -> Script:
    """main waits for main.1 (which waits on the person), then answers with its result."""
    return Script(
        agents={
            "main": [Turn(tool_calls=[call("wait", handle=child)]), Turn(text="Lyon, then.")],
            "main.1": [Turn(text="Lyon it is.")],
        }
    )


@pytest.mark.parametrize("ending", ["crash", "quit"])
async def test_a_question_given_back_is_said_and_answered_from_the_answers(
    tmp_path: Path, ending: Ending
) -> None:
    plan, root, child = await saved_session(
        tmp_path, ending, Turn(tool_calls=[call("ask_user", question=QUESTION)])
    )
    forked = step_of(plan, root, "tool")

    code, out, err, runtime = await rewound(
        plan, StepRef("main", forked), waits_then_answers(child), answers=["Lyon"]
    )

    assert code == 0, err
    assert out == "Lyon, then.\n"
    went_back = f"agentui: main went back to step {forked}\n"
    row = f"\ninbox: question · main › main.1 · {QUESTION}\n"
    asked = f"\n[main.1] question: {QUESTION}\n> Lyon\n"
    assert err.startswith(went_back + row + asked), err
    assert err.count("inbox:") == 1, "said once, not again when a later event lists the inbox"
    assert runtime.node(child).status is S.COMPLETED
    assert runtime.node(child).result == "Lyon it is."


async def test_json_prints_the_question_given_back_first_and_reads_its_answer_from_stdin(
    tmp_path: Path,
) -> None:
    plan, root, child = await saved_session(
        tmp_path, "crash", Turn(tool_calls=[call("ask_user", question=QUESTION)])
    )

    code, out, err, _ = await rewound(
        plan, StepRef("main", step_of(plan, root, "tool")), waits_then_answers(child),
        stdin="Lyon\n", json_output=True,
    )  # fmt: skip

    assert code == 0, err
    printed = [json.loads(line) for line in out.splitlines()]
    first = printed[0]
    assert (first["type"], first["agent_id"], first["prompt"]) == ("query:raised", child, QUESTION)
    seqs = [e["seq"] for e in printed]
    assert seqs == sorted(set(seqs)), "its saved seq comes before the run's new ones"
    (answered,) = [e for e in printed if e["type"] == "query:answered"]
    assert (answered["query_id"], answered["answer"]) == (first["query_id"], "Lyon")
    assert "inbox:" not in err and "> " not in err, "JSON mode prints no prompt"


async def test_a_question_the_rewind_sets_aside_is_neither_said_nor_asked(tmp_path: Path) -> None:
    plan, _, child = await saved_session(
        tmp_path, "quit", Turn(tool_calls=[call("ask_user", question=QUESTION)])
    )
    again = Script(agents={"main": [Turn(text="Never mind.")]})

    # Back to its task: main.1, forked after it, is stopped and set aside.
    code, out, err, runtime = await rewound(plan, StepRef("main", 0), again, stdin="unused\n")

    assert code == 0, err
    assert out == "Never mind.\n"
    assert "inbox:" not in err and QUESTION not in err, err
    assert runtime.node(child).status is S.CANCELLED


async def test_an_approval_given_back_to_a_run_with_yes_is_allowed_not_asked(
    tmp_path: Path,
) -> None:
    runs: list[str] = []
    deploy = deploy_tool(runs)
    plan, root, child = await saved_session(
        tmp_path, "crash", Turn(tool_calls=[call("deploy", target="prod")]), [deploy]
    )
    again = Script(
        agents={
            "main": [Turn(tool_calls=[call("wait", handle=child)]), Turn(text="Shipped.")],
            "main.1": [Turn(text="Deployed.")],
        }
    )

    code, out, err, _ = await rewound(
        plan, StepRef("main", step_of(plan, root, "tool")), again, tools=[deploy], approve_all=True
    )

    assert code == 0, err
    assert out == "Shipped.\n"
    assert runs == ["prod"]
    assert "inbox:" not in err and "approval" not in err, err


@pytest.mark.parametrize("ending", ["crash", "quit"])
async def test_a_budget_stop_given_back_is_said_and_answered(
    tmp_path: Path, ending: Ending
) -> None:
    """main.1's own budget stopped it between two tool calls; `raise` from the answers lets it
    go on with the second, and main, waiting for it, answers."""
    release = anyio.Event()
    two = Turn(tool_calls=[call("gate"), call("echo", text="two")])
    script = Script(
        agents={
            "main": [
                Turn(tool_calls=[call("fork", prompt="Count")]),
                Turn(text="hm", hang_after_chunks=1),
            ],
            "main.1": [two],
        }
    )
    tools = [FORK, WAIT, gate_tool(release), echo_tool()]
    runtime = recorded_runtime(tmp_path, script=script, tools=tools)
    async with runtime:
        rec = Recorder(runtime)
        root = runtime.start("Count")
        (gate,) = await rec.wait_for(lambda e: e.type == "tool:start" and e.agent_id != root)
        child = gate.agent_id
        runtime.set_budget(child, {"tool_calls": 1})
        release.set()
        await rec.wait_for(is_type("budget:stop", child))
        await rec.wait_for(lambda e: e.agent_id == child and getattr(e, "new", "") == "paused")
        await rec.wait_for(lambda e: e.type == "text:delta" and e.agent_id == root)
        with anyio.fail_after(SAFETY_NET_S):
            await runtime.session.wait_written(rec.events[-1].seq)
        assert runtime.session.path is not None
        path = runtime.session.path
        if ending == "crash":
            path = tmp_path / "crashed.jsonl"
            path.write_bytes(runtime.session.path.read_bytes())
    plan = plan_resume(read_session(path))
    again = Script(
        agents={
            "main": [Turn(tool_calls=[call("wait", handle=child)]), Turn(text="Counted.")],
            "main.1": [Turn(text="Two.")],
        }
    )

    code, out, err, resumed = await rewound(
        plan, StepRef("main", step_of(plan, root, "tool")), again,
        answers=["raise tool_calls=10"], tools=[echo_tool()],
    )  # fmt: skip

    assert code == 0, err
    assert out == "Counted.\n"
    assert "\ninbox: budget · main › main.1 · tool calls:" in err
    assert "\n[main.1] budget reached: " in err
    assert "[main.1] budget raised to " in err
    node = resumed.node(child)
    assert (node.status, node.result) == (S.COMPLETED, "Two.")
    results = [r.content for r in node.conversation.messages[-2].tool_results]
    assert results == ["released", "echo: two"]
