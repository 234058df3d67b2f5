"""Redacted thinking: kept in the conversation as it came, through sessions and recordings,
and shown as a `thinking:redacted` event (never as made-up thinking text)."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from agentui.core.agent.limits import Limits
from agentui.core.protocol.conversation import RedactedThinkingBlock, TextBlock, ToolUseBlock
from agentui.core.protocol.events import Event
from agentui.core.providers.base import (
    Provider,
    RedactedThinking,
    StreamEnd,
    StreamEvent,
    TextChunk,
    ToolArgsDelta,
    ToolUseStart,
    ToolUseStop,
)
from agentui.core.providers.record.exchange import event_from_json, event_to_json
from agentui.core.providers.record.recorder import RecordingProvider
from agentui.core.providers.record.replay import ReplayProvider
from agentui.core.runtime import Runtime
from agentui.core.session.fold import fold_session
from agentui.core.session.reader import read_session
from agentui.core.session.recording import RecordingRuntime
from agentui.core.session.writer import NewSession, SessionWriter
from agentui.core.state.transcript import REDACTED_THINKING
from agentui.core.support.clock import FrozenClock
from agentui.core.tools.registry import ToolRegistry
from agentui.core.tools.tool import tool

from .helpers import ConnectedProvider
from .session_helpers import SAFETY_NET_S

pytestmark = pytest.mark.anyio

OPAQUE = "EmwKAhgBEgy3va3pzix/LafPsn4a"


@tool
async def lookup(query: str) -> str:
    """Look a setting up."""
    return f"{query} = 8080"


def provider() -> ConnectedProvider:
    tool_turn: list[StreamEvent | Exception | None] = [
        RedactedThinking(OPAQUE),
        TextChunk("Checking."),
        ToolUseStart("toolu_1", "lookup"),
        ToolArgsDelta("toolu_1", '{"query": "port"}'),
        ToolUseStop("toolu_1"),
        StreamEnd("tool_use"),
    ]
    return ConnectedProvider(tool_turn, [TextChunk("It is 8080."), StreamEnd("end_turn")])


async def run(runtime: Runtime) -> tuple[list[Event], str]:
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        agent_id = runtime.start("What is the port?")
        with anyio.fail_after(SAFETY_NET_S):
            await runtime.wait(agent_id)
    return events.drain(), agent_id


def options() -> dict[str, object]:
    return {
        "tools": ToolRegistry([lookup]),
        "limits": Limits(retry_backoff_s=0),
        "clock": FrozenClock(),
    }


def test_the_recording_format_keeps_the_block_data() -> None:
    data = event_to_json(RedactedThinking(OPAQUE))
    assert data == {"type": "redacted_thinking", "data": OPAQUE}
    assert event_from_json(data) == RedactedThinking(OPAQUE)


async def test_the_block_is_sent_back_and_shown_as_redacted_not_as_text() -> None:
    model = provider()
    events, _ = await run(Runtime(model, **options()))  # type: ignore[arg-type]

    assert [e.type for e in events if e.type.startswith("thinking:")] == ["thinking:redacted"]
    assert model.requests[1].messages[1].content == [
        RedactedThinkingBlock(data=OPAQUE),
        TextBlock(text="Checking."),
        ToolUseBlock(id="toolu_1", name="lookup", input={"query": "port"}),
    ]


async def test_a_session_keeps_the_block_and_shows_a_placeholder(tmp_path: Path) -> None:
    writer = SessionWriter(
        NewSession(provider="connected", model="connected-1", directory=tmp_path),
        flush_interval_s=0.1,
    )
    runtime = RecordingRuntime(provider(), session=writer, **options())  # type: ignore[arg-type]
    _, agent_id = await run(runtime)
    assert runtime.session.path is not None

    state = fold_session(read_session(runtime.session.path))

    node = state.agents[agent_id]
    assert node.conversation.messages[1].content[0] == RedactedThinkingBlock(data=OPAQUE)
    thinking = [i for i in state.transcripts[agent_id] if i.kind == "thinking"]
    assert [i.text for i in thinking] == [REDACTED_THINKING]
    assert OPAQUE not in str(state.transcripts[agent_id]), "the data is not for people"


async def test_record_then_replay_keeps_the_block(tmp_path: Path) -> None:
    recorded, _ = await run(Runtime(RecordingProvider(provider(), tmp_path), **options()))  # type: ignore[arg-type]
    replay: Provider = ReplayProvider(tmp_path)
    replayed, _ = await run(Runtime(replay, **options()))  # type: ignore[arg-type]

    assert [e.model_dump() for e in replayed] == [e.model_dump() for e in recorded]
    assert "thinking:redacted" in [e.type for e in replayed]
