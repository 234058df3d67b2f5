"""MonologueService: thresholds, the wait signal, history, one call in flight, final flush."""

from __future__ import annotations

import anyio
import pytest

from agentui.core.monologue.prompts import FORCED_NOTE, WAIT_SIGNAL
from agentui.core.protocol.usage import Usage
from agentui.core.support.errors import ProviderError

from .test_monologue_fakes import (
    NARRATOR_USAGE,
    FakeNarrator,
    Gate,
    ServiceHarness,
    call,
    result,
    text,
    thought,
)

pytestmark = pytest.mark.anyio


async def test_below_min_it_only_buffers_then_asks_after_a_tool_result() -> None:
    narrator = FakeNarrator()
    async with anyio.create_task_group() as group:
        harness = ServiceHarness(narrator, group.start_soon, min_buffer=3)
        harness.add(call(), result())
        await harness.settle()
        assert narrator.requests == [], "2 counted actions are below min_buffer=3"
        harness.add(call("search"))
        await harness.settle()
        assert narrator.requests == [], "3 reached, but a call is not a natural point"
        harness.add(result("search"))
        await harness.settle()
    assert len(narrator.requests) == 1
    assert harness.entries[0].metadata.event_count == 4


@pytest.mark.parametrize("answer", [WAIT_SIGNAL, "", "  \n", "…", '"..."'])
async def test_the_wait_signal_keeps_the_actions_for_the_next_call(answer: str) -> None:
    narrator = FakeNarrator([answer, "I found the port."])
    async with anyio.create_task_group() as group:
        harness = ServiceHarness(narrator, group.start_soon)
        harness.add(call(), result())
        await harness.settle()
        assert harness.entries == []
        assert len(harness.service.buffer) == 2
        harness.add(call("read"), result("read", "port = 8080"))
        await harness.settle()
    second = narrator.user_prompt(1)
    assert "called lookup" in second and "read returned: port = 8080" in second
    assert harness.texts == ["I found the port."]
    assert harness.entries[0].metadata.event_count == 4
    assert harness.service.buffer == ()
    assert harness.service.waits == 1


async def test_a_wait_is_not_asked_again_until_something_new_counts() -> None:
    narrator = FakeNarrator([WAIT_SIGNAL])
    async with anyio.create_task_group() as group:
        harness = ServiceHarness(narrator, group.start_soon)
        harness.add(call(), result())
        await harness.settle()
        harness.add(text("Still writing."))  # text never makes a narrative due
        await harness.settle()
    assert len(narrator.requests) == 1


async def test_at_max_a_generation_is_forced() -> None:
    narrator = FakeNarrator()
    async with anyio.create_task_group() as group:
        harness = ServiceHarness(narrator, group.start_soon, min_buffer=1, max_buffer=3)
        harness.add(thought("a"), thought("b"))
        await harness.settle()
        assert narrator.requests == [], "thoughts are no natural point; max not reached"
        harness.add(thought("c"))
        await harness.settle()
    request = narrator.requests[0]
    assert FORCED_NOTE in request.instructions
    assert WAIT_SIGNAL not in request.messages[-1].text.splitlines()[-1]
    assert harness.entries[0].metadata.event_count == 3


async def test_min_equal_max_one_asks_for_every_counted_action_but_not_for_text() -> None:
    narrator = FakeNarrator()
    async with anyio.create_task_group() as group:
        harness = ServiceHarness(narrator, group.start_soon, min_buffer=1, max_buffer=1)
        for action in (thought(), call(), result(), text()):
            harness.add(action)
            await harness.settle()
    assert len(narrator.requests) == 3
    assert harness.service.buffer == (text(),), "the text waits for the final flush"


async def test_the_nth_request_carries_the_last_history_size_narratives() -> None:
    narrator = FakeNarrator(["one", "two", "three", "four"])
    async with anyio.create_task_group() as group:
        harness = ServiceHarness(narrator, group.start_soon, history_size=2)
        for n in range(4):
            harness.add(call(), result(detail=f"result {n}"))
            await harness.settle()
    prompts = [narrator.user_prompt(i) for i in range(4)]
    assert "said before" not in prompts[0]
    assert "1. one" in prompts[1] and "two" not in prompts[1]
    assert "1. one\n2. two" in prompts[2]
    assert "1. two\n2. three" in prompts[3] and "one" not in prompts[3]
    assert [e.metadata.history_length for e in harness.entries] == [0, 1, 2, 2]
    assert harness.service.history == ("three", "four")


async def test_history_size_zero_sends_no_history() -> None:
    narrator = FakeNarrator(["one", "two"])
    async with anyio.create_task_group() as group:
        harness = ServiceHarness(narrator, group.start_soon, history_size=0)
        for _ in range(2):
            harness.add(call(), result())
            await harness.settle()
    assert "said before" not in narrator.user_prompt(1)
    assert harness.entries[1].metadata.history_length == 0


async def test_one_call_in_flight_and_what_arrives_meanwhile_waits_for_the_next() -> None:
    gate = Gate("first")
    narrator = FakeNarrator([gate, "second"])
    async with anyio.create_task_group() as group:
        harness = ServiceHarness(narrator, group.start_soon)
        harness.add(call(), result())
        await gate.entered.wait()
        harness.add(call("read"), result("read"), call("grep"), result("grep"))
        assert len(narrator.requests) == 1, "a second call never starts while one is in flight"
        assert harness.service.busy
        gate.open()
        await harness.settle()
    assert harness.texts == ["first", "second"]
    assert [e.metadata.event_count for e in harness.entries] == [2, 4]
    second = narrator.user_prompt(1)
    assert "called lookup" not in second and "grep returned" in second


async def test_the_final_flush_is_forced_and_marked_final() -> None:
    narrator = FakeNarrator(["I'm done: the port is 8080."])
    async with anyio.create_task_group() as group:
        harness = ServiceHarness(narrator, group.start_soon, min_buffer=5)
        harness.add(thought(), text("The port is 8080."))
        await harness.settle()
        assert narrator.requests == []
        harness.service.finish("completed")
        await harness.settle()
    request = narrator.requests[0]
    assert "stopped working (completed)" in request.instructions
    assert "the run has ended (completed)" in request.messages[-1].text
    [entry] = harness.entries
    assert entry.metadata.is_final and entry.metadata.event_count == 2


async def test_no_final_flush_when_nothing_is_left() -> None:
    narrator = FakeNarrator()
    async with anyio.create_task_group() as group:
        harness = ServiceHarness(narrator, group.start_soon)
        harness.add(call(), result())
        await harness.settle()
        harness.service.finish("completed")
        await harness.settle()
    assert len(narrator.requests) == 1


async def test_a_call_in_flight_when_the_agent_ends_covering_everything_is_final() -> None:
    gate = Gate("I found it and finished.")
    narrator = FakeNarrator([gate])
    async with anyio.create_task_group() as group:
        harness = ServiceHarness(narrator, group.start_soon)
        harness.add(call(), result())
        await gate.entered.wait()
        harness.service.finish("completed")
        gate.open()
        await harness.settle()
    assert len(narrator.requests) == 1
    assert harness.entries[0].metadata.is_final


async def test_the_final_flush_follows_a_call_in_flight_with_what_came_after() -> None:
    gate = Gate("first")
    narrator = FakeNarrator([gate, "closing"])
    async with anyio.create_task_group() as group:
        harness = ServiceHarness(narrator, group.start_soon)
        harness.add(call(), result())
        await gate.entered.wait()
        harness.add(text("The answer."))
        harness.service.finish("error")
        gate.open()
        await harness.settle()
    assert [(e.text, e.metadata.is_final) for e in harness.entries] == [
        ("first", False),
        ("closing", True),
    ]
    assert "(error)" in narrator.requests[1].instructions


async def test_a_failure_is_reported_and_its_actions_go_into_the_next_call() -> None:
    narrator = FakeNarrator([ProviderError("overloaded"), RuntimeError("bug"), "Recovered."])
    async with anyio.create_task_group() as group:
        harness = ServiceHarness(narrator, group.start_soon)
        harness.add(call("a"), result("a"))
        await harness.settle()
        harness.add(call("b"), result("b"))
        await harness.settle()
        harness.add(call("c"), result("c"))
        await harness.settle()
    assert harness.failures == [
        "the narrator failed: overloaded",
        "the narrator failed: RuntimeError: bug",
    ]
    third = narrator.user_prompt(2)
    assert all(f"called {tool}" in third for tool in "abc"), "nothing the agent did is lost"
    assert harness.entries[0].metadata.event_count == 6


async def test_an_entry_carries_the_narrator_usage_of_waited_calls_too() -> None:
    narrator = FakeNarrator([WAIT_SIGNAL, "Now I see."])
    async with anyio.create_task_group() as group:
        harness = ServiceHarness(narrator, group.start_soon)
        harness.add(call(), result())
        await harness.settle()
        harness.add(call(), result())
        await harness.settle()
    assert harness.usages == [NARRATOR_USAGE + NARRATOR_USAGE]
    assert harness.service.usage == harness.usages[0]
    assert harness.service.usage != Usage()


async def test_entry_fields() -> None:
    narrator = FakeNarrator(["I looked it up."])
    async with anyio.create_task_group() as group:
        harness = ServiceHarness(narrator, group.start_soon, model="sonnet")
        harness.add(call(), result())
        await harness.settle()
    [entry] = harness.entries
    assert entry.agent_name == "coder" and entry.task_id == "a1"
    assert entry.text == "I looked it up."
    assert entry.timestamp == 1_767_225_600.0  # the narrator's (frozen) clock
    assert entry.metadata.model == "claude-sonnet-4-6"
    assert entry.metadata.latency_ms == 0.0
    assert narrator.requests[0].model == "claude-sonnet-4-6"
    assert narrator.requests[0].purpose == "narrator"
    assert narrator.requests[0].agent_id == "a1" and narrator.requests[0].tools == []
