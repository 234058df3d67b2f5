"""The ACP door's pieces without a process: how a turn's end maps to a stop reason, how
prompts become tasks, how chunks merge, text is fenced and agentui's thought lines stand apart."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from agentui.core.acp.markdown import one_line
from agentui.core.protocol import events as ev
from agentui.core.protocol.usage import Usage
from agentui.core.support.markdown_fence import fenced

if TYPE_CHECKING:
    from agentui.core.acp.turn import Turn

# The SDKs (and the agentui modules that import them) are imported where used: collecting
# this module imports no SDK (tests/core/test_collection_imports.py).

_seq = iter(range(1, 10_000))


def event(cls: type[ev.Event], **fields: Any) -> ev.Event:
    return cls(seq=next(_seq), ts=0.0, agent_id="a1", **fields)


def ended(status: str, *before: ev.Event) -> Turn:
    from agentui.core.acp.turn import Turn

    turn = Turn("a1")
    for earlier in before:
        turn.observe(earlier)
    turn.observe(event(ev.StatusChanged, old="running", new=status, reason="r"))
    assert turn.run_ended
    return turn


def reply(stop_reason: str) -> ev.Event:
    return event(
        ev.LLMResponded,
        iteration=1,
        text="",
        stop_reason=stop_reason,
        tool_calls=[],
        usage=Usage(),
        duration_s=0.0,
    )


def completed(stop_reason: str | None) -> ev.Event:
    return event(
        ev.ExecutionCompleted,
        execution_id="x1",
        result="ok",
        iterations=1,
        duration_s=0.0,
        stop_reason=stop_reason,
    )


def failed(kind: str, error: str = "it broke") -> ev.Event:
    return event(ev.ExecutionFailed, execution_id="x1", error=error, kind=kind)


def test_how_a_turn_ended_is_its_stop_reason() -> None:
    assert ended("completed", completed("end_turn")).stop_reason() == "end_turn"
    assert ended("completed", completed("max_tokens")).stop_reason() == "max_tokens"
    assert ended("cancelled").stop_reason() == "cancelled"
    assert ended("deleted").stop_reason() == "cancelled"
    assert ended("error", failed("max_iterations")).stop_reason() == "max_turn_requests"
    assert ended("error", failed("max_tool_calls")).stop_reason() == "max_turn_requests"
    assert ended("error", reply("refusal"), failed("provider")).stop_reason() == "refusal"


def test_a_failed_turn_is_an_error_with_the_agents_message() -> None:
    from acp import RequestError

    turn = ended("error", failed("provider", "401: the key is not valid"))
    with pytest.raises(RequestError) as raised:
        turn.response()
    assert str(raised.value) == "401: the key is not valid"
    assert raised.value.data == {"agentId": "a1", "kind": "provider"}


def test_a_turns_root_ends_only_when_its_new_run_does() -> None:
    from agentui.core.acp.turn import Turn

    turn = Turn("a1")
    turn.observe(event(ev.StatusChanged, old="completed", new="running", reason="continued"))
    turn.observe(event(ev.StatusChanged, old="running", new="awaiting_user", reason="q"))
    assert not turn.run_ended
    # A delete of a root that had ended is no end of a run.
    turn.observe(event(ev.StatusChanged, old="completed", new="deleted", reason="deleted"))
    assert not turn.run_ended


def test_a_turn_the_client_cancelled_is_cancelled_however_it_ended() -> None:
    turn = ended("completed", completed("end_turn"))
    turn.cancel_requested = True
    assert turn.stop_reason() == "cancelled"


def test_a_prompt_becomes_the_task_text() -> None:
    from acp.helpers import (
        embedded_text_resource,
        image_block,
        resource_block,
        resource_link_block,
        text_block,
    )

    from agentui.core.acp.prompt_text import task_text

    blocks = [
        text_block("Fix the port"),
        resource_link_block("config.toml", "file:///repo/config.toml"),
        resource_block(embedded_text_resource("file:///repo/a.py", "x = 1\n")),
        image_block("aGk=", "image/png"),
    ]
    assert task_text(blocks) == (
        "Fix the port\n\n"
        "[config.toml](file:///repo/config.toml)\n\n"
        "file:///repo/a.py:\n```\nx = 1\n```\n\n"
        "[an image, left out: this agent reads text only]"
    )
    assert task_text([text_block("  "), text_block("")]) == ""


def test_adjacent_chunks_of_a_kind_merge_and_nothing_else_does() -> None:
    from acp.helpers import start_tool_call, update_agent_message_text, update_agent_thought_text

    from agentui.core.acp.chunks import merged_chunks

    call = start_tool_call("a1:t1", "python", status="pending")
    merged = merged_chunks(
        [
            update_agent_message_text("Hel"),
            update_agent_message_text("lo"),
            update_agent_thought_text("hm"),
            update_agent_thought_text("m"),
            call,
            update_agent_message_text("!"),
        ]
    )
    assert merged == [
        update_agent_message_text("Hello"),
        update_agent_thought_text("hmm"),
        call,
        update_agent_message_text("!"),
    ]


def test_fenced_text_cannot_close_its_own_fence() -> None:
    assert fenced("print(1)\n", "python") == "```python\nprint(1)\n```"
    assert fenced("a ``` b") == "````\na ``` b\n````"
    assert one_line("\n  first   line\nsecond", limit=8) == "first l…"


def test_a_thought_line_is_a_paragraph_of_its_own() -> None:
    """Clients render thoughts as Markdown, where one newline joins lines: Toad showed
    "[step 6 of 6: summary] I have enough to answer." as one line."""
    from agentui.core.acp.updates import UpdateTranslator

    translator = UpdateTranslator()
    thoughts = [
        event(ev.AgentSpawned, parent_id=None, name="main", task="t"),
        event(ev.ThinkingDelta, iteration=1, delta="Before."),
        event(ev.WorkflowStepStarted, step=6, name="summary"),
        event(ev.ThinkingDelta, iteration=1, delta="I have enough."),
        event(ev.LLMFailed, iteration=1, error="overloaded", retryable=True),
        event(ev.ThinkingDelta, iteration=2, delta="Again."),
        event(ev.ThinkingRedacted, iteration=2),
        event(ev.LLMAbandoned, iteration=2, reason="paused"),
        event(ev.ThinkingDelta, iteration=3, delta="After."),
    ]
    chunks = [
        u
        for e in thoughts
        for u in translator.apply(e)
        if u.session_update != "session_info_update"
    ]
    text = "".join(chunk.content.text for chunk in chunks)  # type: ignore[union-attr]
    paragraphs = [p.strip() for p in text.split("\n\n") if p.strip()]
    assert paragraphs == [
        "Before.",
        "[step 6 of 6: summary]",
        "I have enough.",
        "(the model call failed: overloaded; trying again)",
        "Again.",
        "(thinking encrypted by the API; it goes back to the model unread)",
        "(reply cut short: paused; asked again)",
        "After.",
    ]
