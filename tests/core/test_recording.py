"""Record and replay, on the scripted provider: exact playback, clear failures, no secrets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest

from agentui.core.agent.limits import Limits
from agentui.core.agent.tree import AgentStatus
from agentui.core.protocol.conversation import user_text
from agentui.core.protocol.events import Event
from agentui.core.providers.base import Provider, ProviderRequest, StreamEvent, TextChunk
from agentui.core.providers.factory import make_provider
from agentui.core.providers.record.recorder import REDACTED, RecordingProvider
from agentui.core.providers.record.replay import ReplayProvider
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedError, ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock
from agentui.core.support.errors import AgentUIError
from agentui.core.tools.registry import ToolRegistry
from agentui.core.tools.tool import tool

SAFETY_S = 10  # a safety net against a hang, never a measurement


@tool
async def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


WORK = [
    Turn(
        thinking="Add first.",
        text="Adding.",
        tool_calls=[ScriptedToolCall(name="add", arguments={"a": 2, "b": 3})],
    ),
    Turn(text="Almost th", error=ScriptedError(message="flaky", retryable=True, after_chunks=1)),
    Turn(text="The sum is 5."),
]


def runtime_on(provider: Provider) -> Runtime:
    return Runtime(
        provider,
        tools=ToolRegistry([add]),
        limits=Limits(retry_backoff_s=0),
        clock=FrozenClock(),
    )


async def run(provider: Provider, task: str = "Add 2 and 3.") -> tuple[list[Event], str, Any]:
    async with runtime_on(provider) as runtime:
        events = runtime.subscribe(maxsize=None)
        agent_id = runtime.start(task)
        with anyio.fail_after(SAFETY_S):
            node = await runtime.wait(agent_id)
    return events.drain(), agent_id, node


def dumps(events: list[Event]) -> list[dict[str, Any]]:
    return [e.model_dump() for e in events]


# -- exact playback --------------------------------------------------------------------------------


@pytest.mark.anyio
async def test_a_replay_gives_the_recorded_events_exactly(tmp_path: Path) -> None:
    recorded, _, recorded_node = await run(
        RecordingProvider(ScriptedProvider(Script.for_all(*WORK)), tmp_path)
    )
    replayed, _, replayed_node = await run(ReplayProvider(tmp_path))

    assert recorded_node.status is AgentStatus.COMPLETED
    assert [e.type for e in recorded].count("llm:error") == 1
    assert dumps(replayed) == dumps(recorded)
    assert replayed_node.model_dump() == recorded_node.model_dump()
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["main-0000.json", "main-0001.json", "main-0002.json"]
    failed = json.loads((tmp_path / "main-0001.json").read_text())
    assert failed["outcome"] == "error"
    assert failed["error"] == {"message": "flaky", "retryable": True}


@pytest.mark.anyio
async def test_the_recorder_shows_the_provider_it_wraps(tmp_path: Path) -> None:
    recorder = RecordingProvider(ScriptedProvider(model="scripted-9"), tmp_path)

    assert (recorder.name, recorder.model) == ("scripted", "scripted-9")


@pytest.mark.anyio
async def test_the_replay_takes_its_model_from_the_recording(tmp_path: Path) -> None:
    await run(RecordingProvider(ScriptedProvider(Script.for_all(*WORK), model="m-1"), tmp_path))

    assert ReplayProvider(tmp_path).model == "m-1"


@pytest.mark.anyio
async def test_agents_and_narrators_each_replay_in_their_own_order(tmp_path: Path) -> None:
    recorder = RecordingProvider(
        ScriptedProvider(Script.for_all(Turn(text="agent says"))), tmp_path
    )

    def request(purpose: str, text: str) -> ProviderRequest:
        return ProviderRequest(
            model="scripted-1",
            instructions="",
            messages=[user_text(text)],
            agent_name="main",
            purpose=purpose,  # type: ignore[arg-type]
        )

    async def texts(provider: Provider, request: ProviderRequest) -> str:
        return "".join([e.text async for e in provider.stream(request) if isinstance(e, TextChunk)])

    agent_text = await texts(recorder, request("agent", "task"))
    narrator_text = await texts(recorder, request("narrator", "what happened?"))
    replay = ReplayProvider(tmp_path)

    # The other way round: a narrator's call does not take the agent's place.
    assert await texts(replay, request("narrator", "what happened?")) == narrator_text
    assert await texts(replay, request("agent", "task")) == agent_text
    assert (tmp_path / "main-narrator-0000.json").exists()


# -- clear failures --------------------------------------------------------------------------------


@pytest.mark.anyio
async def test_a_different_request_fails_naming_the_difference(tmp_path: Path) -> None:
    await run(RecordingProvider(ScriptedProvider(Script.for_all(*WORK)), tmp_path))

    events, _, node = await run(ReplayProvider(tmp_path), "Add 2 and 4.")

    assert node.status is AgentStatus.ERROR
    assert node.error == (
        "the request differs from the recording main-0000.json at "
        'messages[0].content[0].text: recorded "Add 2 and 3.", sent "Add 2 and 4."'
    )
    assert [e.retryable for e in events if e.type == "llm:error"] == [False]


@pytest.mark.anyio
async def test_a_request_past_the_end_of_the_recording_fails_clearly(tmp_path: Path) -> None:
    await run(RecordingProvider(ScriptedProvider(Script.for_all(Turn(text="Hi."))), tmp_path))

    async with runtime_on(ReplayProvider(tmp_path)) as runtime:
        agent_id = runtime.start("Add 2 and 3.")
        await runtime.wait(agent_id)
        runtime.send(agent_id, "And again?")
        with anyio.fail_after(SAFETY_S):
            node = await runtime.wait(agent_id)

    assert node.status is AgentStatus.ERROR
    assert node.error is not None
    assert "has no exchange 2 for agent 'main' (it has 1)" in node.error


def test_recording_into_a_directory_that_holds_a_recording_is_refused(tmp_path: Path) -> None:
    (tmp_path / "main-0000.json").write_text("{}")

    with pytest.raises(AgentUIError, match="already holds a recording"):
        RecordingProvider(ScriptedProvider(), tmp_path)


def test_replaying_nothing_or_a_bad_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(AgentUIError, match="not a directory"):
        ReplayProvider(tmp_path / "missing")
    with pytest.raises(AgentUIError, match="holds no exchange files"):
        ReplayProvider(tmp_path)
    (tmp_path / "main-0000.json").write_text('{"agent": "main"}')
    with pytest.raises(AgentUIError, match="is not a recorded exchange"):
        ReplayProvider(tmp_path)


def test_the_factory_makes_recorders_and_replays(tmp_path: Path) -> None:
    recorder = make_provider("scripted", record=tmp_path / "rec")
    assert isinstance(recorder, RecordingProvider)
    with pytest.raises(AgentUIError, match="no recording"):
        make_provider(f"replay:{tmp_path / 'nowhere'}")
    with pytest.raises(AgentUIError, match="unknown provider 'replay:'"):
        make_provider("replay:")


# -- secrets ---------------------------------------------------------------------------------------


@pytest.mark.anyio
async def test_named_secrets_never_reach_the_files(tmp_path: Path) -> None:
    secret = "sk-ant-never-write-me"
    provider = ScriptedProvider(Script.for_all(Turn(text=f"I found the key {secret}.")))

    await run(RecordingProvider(provider, tmp_path, redact=[secret]), f"Is {secret} valid?")

    text = (tmp_path / "main-0000.json").read_text()
    assert secret not in text
    assert text.count(REDACTED) >= 2  # in the request and in the streamed answer


def test_the_factory_redacts_the_api_key_from_the_environment(tmp_path: Path) -> None:
    recorder = make_provider(
        "scripted", record=tmp_path, environ={"ANTHROPIC_API_KEY": "sk-from-env"}
    )

    assert isinstance(recorder, RecordingProvider)
    assert recorder._redact == ["sk-from-env"]


# -- a stream closed early -------------------------------------------------------------------------


class _Hanging:
    """A provider whose one stream sends two chunks and then waits to be closed."""

    name = "hanging"
    model = "hanging-1"

    async def _stream(self) -> Any:
        yield TextChunk("Part ")
        yield TextChunk("one")
        await anyio.sleep_forever()

    def stream(self, request: ProviderRequest) -> Any:
        return self._stream()

    async def aclose(self) -> None:
        pass


async def _cancel_after_two_chunks(provider: Provider) -> list[Event]:
    async with runtime_on(provider) as runtime:
        events = runtime.subscribe(maxsize=None)
        agent_id = runtime.start("Say something long.")
        with anyio.fail_after(SAFETY_S):
            seen = 0
            async for event in events:
                seen += event.type == "text:delta"
                if seen == 2:
                    break
            runtime.cancel(agent_id)
            await runtime.wait(agent_id)
    return events.drain()


@pytest.mark.anyio
async def test_a_stream_closed_early_replays_up_to_the_cut_and_waits_there(tmp_path: Path) -> None:
    recorded = await _cancel_after_two_chunks(RecordingProvider(_Hanging(), tmp_path))
    exchange = json.loads((tmp_path / "main-0000.json").read_text())
    assert exchange["outcome"] == "closed"
    assert [e["text"] for e in exchange["events"]] == ["Part ", "one"]

    replayed = await _cancel_after_two_chunks(ReplayProvider(tmp_path))

    cancelled = [e for e in replayed if e.type == "execution:cancelled"]
    assert [e.partial_text for e in cancelled] == ["Part one"]  # type: ignore[attr-defined]
    assert [e.type for e in replayed] == [e.type for e in recorded]


@pytest.mark.anyio
async def test_closing_a_recorded_stream_closes_the_inner_one(tmp_path: Path) -> None:
    inner = ScriptedProvider(
        Script.for_all(Turn(text="a b c d e f g h i j k l", hang_after_chunks=1))
    )
    stream = RecordingProvider(inner, tmp_path).stream(
        ProviderRequest(
            model="scripted-1", instructions="", messages=[user_text("go")], agent_name="solo"
        )
    )
    first: StreamEvent = await stream.__anext__()
    await stream.aclose()  # type: ignore[attr-defined]

    assert isinstance(first, TextChunk)
    assert inner.closed_early == 1
    assert json.loads((tmp_path / "solo-0000.json").read_text())["outcome"] == "closed"
