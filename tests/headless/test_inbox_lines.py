"""`agentui run` says each row that enters the inbox once on stderr (tui/headless/inbox_lines.py):
`inbox: KIND · PATH · TEXT`, before the event's own lines, every piece visible and on one line."""

from __future__ import annotations

import io

import anyio
import pytest

from agentui.core.attention.stall_watch import StallWatch
from agentui.core.bus import EventBus
from agentui.core.protocol import events as ev
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.state import RunState
from agentui.core.support.clock import FrozenClock
from agentui.core.tools.ask_user import ASK_USER
from agentui.core.tools.fork import FORK, WAIT
from agentui.core.tools.registry import ToolRegistry
from agentui.tui.headless.inbox_lines import InboxLines, ago
from agentui.tui.headless.run import run_headless

from ..core.manual_sleep import ManualSleep

pytestmark = pytest.mark.anyio

START = 1_767_225_600.0


class Folded:
    """Events through the one fold, then InboxLines, as run_headless does."""

    def __init__(self) -> None:
        self.clock = FrozenClock(START)
        self.bus = EventBus(self.clock)
        self.sub = self.bus.subscribe(maxsize=None)
        self.state = RunState(transcripts=False)
        self.lines = InboxLines(self.state)
        self.said: list[str] = []

    def emit(self, cls: type[ev.Event], agent_id: str, **fields: object) -> None:
        self.bus.emit(cls, agent_id, **fields)
        for event in self.sub.drain():
            self.state.apply(event)
            self.said += self.lines.entered(event)

    def spawn(self, agent_id: str, parent: str | None, name: str) -> None:
        self.emit(ev.AgentSpawned, agent_id, parent_id=parent, name=name, task="t")
        self.emit(ev.StatusChanged, agent_id, old="pending", new="running", reason="")


def test_each_row_is_said_once_as_it_enters() -> None:
    run = Folded()
    run.spawn("r", None, "main")
    run.spawn("a", "r", "main.1")
    run.spawn("b", "r", "main.2")
    run.emit(ev.QueryRaised, "a", query_id="q1", prompt="Which\ncity?", kind="question")
    run.emit(ev.StatusChanged, "a", old="running", new="awaiting_user", reason="")
    # A sibling asking the same words joins its row: no second line.
    run.emit(ev.QueryRaised, "b", query_id="q2", prompt="Which city?", kind="question")
    run.emit(ev.QueryAnswered, "a", query_id="q1", answer="Oslo")
    assert run.said == ["\ninbox: question · main › main.1 · Which city?\n"]


def test_a_stall_is_said_with_its_silence_and_again_when_it_comes_back() -> None:
    run = Folded()
    run.spawn("r", None, "main")
    run.clock.advance(300)
    run.emit(ev.AgentStalled, "r", since=START, after_s=300)
    run.emit(ev.AgentStalled, "r", since=START, after_s=300)  # the same stall: said once
    run.emit(ev.TextDelta, "r", iteration=1, delta="back")
    run.clock.advance(3600)
    run.emit(ev.AgentStalled, "r", since=START + 300, after_s=300)
    assert run.said == [
        "\ninbox: stalled · main · no word from it since 5 min ago\n",
        "\ninbox: stalled · main · no word from it since 1 h 0 min ago\n",
    ]


def test_a_budget_stop_and_an_undelivered_steer_are_rows_too() -> None:
    run = Folded()
    run.spawn("r", None, "main")
    run.emit(
        ev.BudgetReached,
        "r",
        measure="tokens",
        limit=100,
        spent=120,
        stopped_agent="r",
        paused=["r"],
    )
    run.emit(ev.NoteQueued, "r", text="stop\x1b[2Jnow", note_id="n1", from_person=True)
    run.emit(ev.StatusChanged, "r", old="running", new="paused", reason="budget")
    assert run.said == [
        "\ninbox: budget · main · tokens: 120 of 100\n",
        "\ninbox: steer · main · stop␛[2Jnow\n",
    ]


def test_ago_says_seconds_minutes_and_hours() -> None:
    assert [ago(s) for s in (0, 59.9, 60, 3599, 7500)] == [
        "0 s ago",
        "59 s ago",
        "1 min ago",
        "59 min ago",
        "2 h 5 min ago",
    ]


async def test_a_question_s_row_comes_before_its_prompt_in_a_run() -> None:
    asks = Turn(
        tool_calls=[ScriptedToolCall(name="ask_user", arguments={"question": "Which city?"})]
    )
    script = Script.for_all(asks, Turn(text="Oslo it is."))

    def runtime() -> Runtime:
        return Runtime(
            ScriptedProvider(script), tools=ToolRegistry([ASK_USER]), clock=FrozenClock()
        )

    stdout, stderr = io.StringIO(), io.StringIO()
    status = await run_headless(
        runtime,
        "Plan",
        json_output=False,
        answers=["Oslo"],
        stdin=io.StringIO(""),
        stdout=stdout,
        stderr=stderr,
    )
    assert status == 0
    said = stderr.getvalue()
    assert said.count("inbox: ") == 1
    assert "\ninbox: question · main · Which city?\n\n[main] question: Which city?\n> " in said


async def test_json_mode_keeps_stderr_for_prompts_alone() -> None:
    asks = Turn(tool_calls=[ScriptedToolCall(name="ask_user", arguments={"question": "Which?"})])
    script = Script.for_all(asks, Turn(text="done"))

    def runtime() -> Runtime:
        return Runtime(
            ScriptedProvider(script), tools=ToolRegistry([ASK_USER]), clock=FrozenClock()
        )

    stdout, stderr = io.StringIO(), io.StringIO()
    await run_headless(
        runtime,
        "Plan",
        json_output=True,
        answers=["x"],
        stdin=io.StringIO(""),
        stdout=stdout,
        stderr=stderr,
    )
    assert "inbox:" not in stderr.getvalue()
    assert '"type":"query:raised"' in stdout.getvalue().replace(" ", "")


async def test_a_stalled_subagent_is_reported_in_a_run() -> None:
    """The stall watch runs in the run's runtime; its agent:stalled makes the inbox's line."""
    clock = FrozenClock(START)
    sleep = ManualSleep(clock)

    script = Script(
        agents={
            "main": [
                Turn(tool_calls=[ScriptedToolCall(name="fork", arguments={"prompt": "dig"})]),
                Turn(tool_calls=[ScriptedToolCall(name="wait", arguments={"handle": "a2"})]),
                Turn(text="done"),
            ],
            "main.1": [Turn(text="digging", hang_after_chunks=1)],
        }
    )
    built: list[Runtime] = []

    def runtime() -> Runtime:
        watch = StallWatch(300, sleep=sleep)
        tools = ToolRegistry([FORK, WAIT])
        made = Runtime(ScriptedProvider(script), tools=tools, clock=clock, services=[watch.attach])
        built.append(made)
        return made

    stdout, stderr = io.StringIO(), io.StringIO()
    async with anyio.create_task_group() as group:

        async def cancel_once_said() -> None:
            # Each look of the watch, and what the run made of it, before time goes on.
            while "inbox: stalled" not in stderr.getvalue():
                await sleep.elapse()
                await sleep.asleep()
                await anyio.wait_all_tasks_blocked()
            built[0].cancel("a2", "stalled")

        group.start_soon(cancel_once_said)
        await run_headless(
            runtime,
            "Dig",
            json_output=False,
            answers=[],
            stdin=io.StringIO(""),
            stdout=stdout,
            stderr=stderr,
        )
    said = stderr.getvalue()
    assert said.count("inbox: stalled") == 1
    assert "\ninbox: stalled · main › main.1 · no word from it since 5 min ago\n" in said
