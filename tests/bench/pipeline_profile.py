"""Where each µs of a streamed character goes, end to end (issue 33, point 3). Not a test.

    .venv/bin/python tests/bench/pipeline_profile.py [--chars 1000000] [--runs 3] [--json]
    .venv/bin/python tests/bench/pipeline_profile.py --quick        # 100 k characters, once
    .venv/bin/python tests/bench/pipeline_profile.py --app-profile  # + cProfile of the app
    .venv/bin/python tests/bench/pipeline_profile.py --app-joins    # the app's reader joins

One answer of N characters of Markdown (growth_bench's text) in the scripted provider's 3-8
character chunks. Each stage is timed in CPU (process time, every thread) and given in µs per
streamed character; a stage measured inside a larger run is that run minus the runs it
contains (said in its `how`). Medians of `--runs`.

- provider (scripted): the provider's stream alone, read to its end.
- provider (anthropic, end to end): what AnthropicProvider (the raw event stream of
  `messages.create(stream=True)`) costs per character, from the SSE bytes the API sends (one
  read per event) through the real SDK client (its SSE decoder, each event's JSON built into the
  SDK's type) and our StreamTranslator to our events; only the network is replaced (httpx2's
  MockTransport hands the bytes over).
- provider (anthropic, SDK events + ours): the part of it after the SSE decoder: each event's
  `data:` JSON decoded and built into the SDK's event (`construct_type`, as its stream does),
  then our StreamTranslator.
- event objects, one per chunk: one TextDelta (a frozen pydantic model) built per chunk, as
  the bus builds them while a reader wants every delta (headless, `--json`, SSE).
- bus, one event per chunk: EventBus.emit to one lossless subscriber drained as a consumer
  would, minus the objects.
- agent loop: a Runtime streaming the answer with no subscriber, minus provider and bus.
- loop + events + bus, as the screen reads: a Runtime whose one reader joins deltas
  (bus.py's join_deltas) and is drained at the app's FLUSH_HZ, minus the provider. When every
  reader joins, a piece that joins is no new event: this is the loop's and the bus's share on
  the app's path.
- session writer: that Runtime and reader with a SessionWriter (it joins too; a real file in
  a scratch folder, its thread's CPU counted), minus that Runtime and reader.
- fold, one event per chunk: RunState.apply_all over every delta (64 a batch).
- fold, as the screen reads: RunState.apply_all over the joining reader's batches.
- app: the real app, headless, rendering every frame's segments (ui_bench's RenderingApp), no
  session: CPU from the start until the screen shows the whole answer, minus its Runtime and
  its fold (with --app-joins its reader joins deltas, as tui/app/runtime_host.py could set it:
  minus the screen's Runtime and fold; else minus the Runtime alone and the per-chunk fold).
  It is the transcript (AnswerBlock's frozen chunks and tail, Markdown parsed and laid out),
  Textual's layout and compositor, and the rest of the screen.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import pstats
import statistics
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import anyio
from growth_bench import markdown_text
from live_bench import fresh_heap
from ui_bench import make_app, until

from agentui.core.bus import EventBus
from agentui.core.protocol.conversation import user_text
from agentui.core.protocol.events import TextDelta
from agentui.core.providers.base import ProviderRequest, TextChunk
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, Turn
from agentui.core.runtime import Runtime
from agentui.core.session.writer import NewSession, SessionWriter
from agentui.core.state.run_state import RunState
from agentui.core.support.clock import SystemClock
from agentui.core.tools.registry import ToolRegistry
from agentui.tui.app.screens.main import FLUSH_HZ

BATCH = 64


def provider_for(text: str) -> ScriptedProvider:
    return ScriptedProvider(Script.for_all(Turn(text=text)), record_requests=False)


def pieces_of(text: str) -> list[str]:
    """The chunks the scripted provider cuts `text` into for agent a1's first call."""
    provider = provider_for(text)
    request = ProviderRequest(model="m", instructions="", messages=[], agent_id="a1")

    async def read() -> list[str]:
        return [c.text async for c in provider.stream(request) if isinstance(c, TextChunk)]

    return anyio.run(read)


def cpu(run: Callable[[], Any]) -> float:
    began = time.process_time()
    run()
    return time.process_time() - began


# -- the stages ----------------------------------------------------------------------------------


def scripted_provider(text: str) -> float:
    provider = provider_for(text)
    request = ProviderRequest(model="m", instructions="", messages=[user_text("go")], agent_id="a1")

    async def read() -> None:
        async for _ in provider.stream(request):
            pass

    return cpu(lambda: anyio.run(read))


def anthropic_sdk(pieces: list[str]) -> float | None:
    """The part of `anthropic_provider` after the SDK's SSE decoder: each text delta's JSON
    built into the SDK's event as its stream does, then translated by ours."""
    try:
        from anthropic._models import construct_type
        from anthropic.types import RawMessageStreamEvent

        from agentui.core.providers.anthropic.stream import StreamTranslator
    except ImportError:
        return None
    start = {
        "type": "content_block_start",
        "index": 0,
        "content_block": {"type": "text", "text": ""},
    }
    lines = [
        json.dumps(
            {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": p}}
        )
        for p in pieces
    ]

    def run() -> None:
        translator = StreamTranslator()
        translator.feed(construct_type(type_=RawMessageStreamEvent, value=start))
        for line in lines:
            translator.feed(construct_type(type_=RawMessageStreamEvent, value=json.loads(line)))

    return cpu(run)


def anthropic_reads(pieces: list[str]) -> list[bytes]:
    """The Messages API's streamed answer in `pieces`, as the SSE bytes it sends: one read
    per event (the API flushes each event; a read that joined several would flatter the SDK's
    SSE decoder)."""
    message = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-6",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
    events: list[dict[str, Any]] = [
        {"type": "message_start", "message": message},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        *(
            {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": p}}
            for p in pieces
        ),
        {"type": "content_block_stop", "index": 0},
        {
            "type": "message_delta",
            "delta": {"stop_reason": "end_turn", "stop_sequence": None},
            "usage": {"output_tokens": len(pieces)},
        },
        {"type": "message_stop"},
    ]
    return [f"event: {e['type']}\ndata: {json.dumps(e)}\n\n".encode() for e in events]


def anthropic_provider(pieces: list[str]) -> float | None:
    """AnthropicProvider's stream read to its end, from SSE bytes to our events, through the
    real SDK client; only the network is replaced (httpx2's MockTransport hands over the
    bytes). Before the clock starts the client is made and a short answer streamed (the SDK
    builds its types on first use); the request timed is sent inside it, a constant beside a
    long answer."""
    try:
        import anthropic
        import httpx2

        from agentui.core.providers.anthropic.provider import AnthropicProvider
    except ImportError:
        return None
    reads = anthropic_reads(pieces)
    request = ProviderRequest(
        model="claude-sonnet-4-6", instructions="", messages=[user_text("go")], agent_id="a1"
    )

    answers: list[list[bytes]] = []  # what each request is answered, in order

    async def reply(_: httpx2.Request) -> httpx2.Response:
        answer = answers.pop(0)

        async def body() -> AsyncIterator[bytes]:
            for read in answer:
                yield read

        return httpx2.Response(200, headers={"content-type": "text/event-stream"}, content=body())

    async def run() -> float:
        async with httpx2.AsyncClient(transport=httpx2.MockTransport(reply)) as http:
            client = anthropic.AsyncAnthropic(
                api_key="bench", base_url="http://anthropic.invalid", http_client=http
            )
            provider = AnthropicProvider(client=client)
            answers[:] = [anthropic_reads(pieces[:8]), reads]
            async for _ in provider.stream(request):  # the SDK builds its types on first use
                pass
            began = time.process_time()
            async for _ in provider.stream(request):
                pass
            return time.process_time() - began

    return anyio.run(run)


def event_objects(pieces: list[str]) -> float:
    def run() -> None:
        ts = time.time()
        for seq, piece in enumerate(pieces):
            TextDelta(seq=seq, ts=ts, agent_id="a1", iteration=1, delta=piece)

    TextDelta(seq=0, ts=0.0, agent_id="a1", iteration=1, delta="")  # its validator built first
    return cpu(run)


def bus(pieces: list[str]) -> float:
    clock = SystemClock()

    def run() -> None:
        events = EventBus(clock)
        subscription = events.subscribe(maxsize=None)
        for index, piece in enumerate(pieces):
            events.emit(TextDelta, "a1", iteration=1, delta=piece)
            if index % BATCH == 0:
                subscription.drain()
        subscription.drain()

    return cpu(run)


def runtime_run(
    text: str,
    *,
    writer_folder: Path | None = None,
    screen: bool = False,
    batches: list[list[Any]] | None = None,
) -> float:
    """CPU of a Runtime streaming the answer; with `screen`, read as the app reads it: a
    subscription that joins deltas (bus.py), drained every 1/FLUSH_HZ s (its batches kept in
    `batches` when given)."""

    async def run() -> None:
        async with Runtime(provider_for(text), tools=ToolRegistry([])) as runtime:
            subscription = runtime.subscribe(maxsize=4096) if screen else None
            if subscription is not None:
                subscription.join_deltas = True
            if writer_folder is not None:
                writer = SessionWriter(
                    NewSession(provider="scripted", model="m", directory=writer_folder)
                )
                writer.attach(runtime)

            def take() -> None:
                assert subscription is not None
                batch = subscription.drain()
                if batches is not None and batch:
                    batches.append(batch)

            async def read_as_the_screen() -> None:
                while True:
                    await anyio.sleep(1 / FLUSH_HZ)
                    take()

            async with anyio.create_task_group() as readers:
                if subscription is not None:
                    readers.start_soon(read_as_the_screen)
                agent_id = runtime.start("write it")
                await runtime.wait(agent_id)
                readers.cancel_scope.cancel()
            if subscription is not None:
                take()

    return cpu(lambda: anyio.run(run))


def recorded_events(text: str) -> list[Any]:
    events: list[Any] = []

    async def run() -> None:
        async with Runtime(provider_for(text), tools=ToolRegistry([])) as runtime:
            subscription = runtime.subscribe(maxsize=None)
            agent_id = runtime.start("write it")
            await runtime.wait(agent_id)
            events.extend(subscription.drain())

    anyio.run(run)
    return events


def fold(events: list[Any]) -> float:
    def run() -> None:
        state = RunState()
        for first in range(0, len(events), BATCH):
            state.apply_all(events[first : first + BATCH])

    return cpu(run)


def fold_batches(batches: list[list[Any]]) -> float:
    def run() -> None:
        state = RunState()
        for batch in batches:
            state.apply_all(batch)

    return cpu(run)


def screen_batches(text: str) -> list[list[Any]]:
    batches: list[list[Any]] = []
    runtime_run(text, screen=True, batches=batches)
    return batches


def app_run(text: str, profile: cProfile.Profile | None = None, *, joins: bool = False) -> float:
    async def run() -> float:
        fresh_heap()
        app = make_app(provider_for(text))
        async with app.run_test(size=(120, 40)):
            await until(lambda: app.host.started)
            assert app.host.runtime is not None
            if joins:  # what tui/app/runtime_host.py would set on its subscription
                assert app.host.events is not None
                app.host.events.join_deltas = True
            if profile is not None:
                profile.enable()
            began = time.process_time()
            agent_id = app.host.runtime.start("write it")

            def shown() -> bool:
                agent = app.main.model.agents.get(agent_id)
                return agent is not None and sum(
                    len(e.text) for e in agent.entries if e.kind == "text"
                ) >= len(text)

            await until(shown, safety_s=3600)
            synced = time.perf_counter()
            await until(lambda: app.last_frame >= synced)
            spent = time.process_time() - began
            if profile is not None:
                profile.disable()
        return spent

    return asyncio.run(run())


# -- the table -----------------------------------------------------------------------------------


def median_of(runs: int, measure: Callable[[], float | None]) -> float | None:
    values = [measure() for _ in range(runs)]
    if any(v is None for v in values):
        return None
    return statistics.median(values)  # type: ignore[type-var]


def profile(chars: int, runs: int, *, app_joins: bool = False) -> dict[str, Any]:
    text = markdown_text(chars)
    pieces = pieces_of(text)
    events = recorded_events(text)
    batches = screen_batches(text)
    n = len(text)
    scripted = median_of(runs, lambda: scripted_provider(text))
    claude = median_of(runs, lambda: anthropic_provider(pieces))
    sdk = median_of(runs, lambda: anthropic_sdk(pieces))
    objects = median_of(runs, lambda: event_objects(pieces))
    emitted = median_of(runs, lambda: bus(pieces))
    # Interleaved, so the writer's share is not a change of the machine's load between blocks.
    alone_runs, screen_runs, written_runs = [], [], []
    for _ in range(runs):
        alone_runs.append(runtime_run(text))
        screen_runs.append(runtime_run(text, screen=True))
        with tempfile.TemporaryDirectory(prefix="agentui-pipeline-") as folder:
            written_runs.append(runtime_run(text, writer_folder=Path(folder), screen=True))
    alone = statistics.median(alone_runs)
    screened = statistics.median(screen_runs)
    written = statistics.median(written_runs)
    folded = median_of(runs, lambda: fold(events))
    folded_screen = median_of(runs, lambda: fold_batches(batches))
    app = median_of(runs, lambda: app_run(text, joins=app_joins))
    assert None not in (scripted, objects, emitted, folded, folded_screen, app)
    assert scripted is not None and objects is not None and emitted is not None
    assert folded is not None and folded_screen is not None and app is not None
    # The app's own Runtime and fold: as the screen reads (joined) or one event per chunk.
    app_runtime, app_fold = (screened, folded_screen) if app_joins else (alone, folded)

    def us(seconds: float) -> float:
        return round(seconds / n * 1e6, 3)

    stages = [
        ("provider (scripted)", us(scripted), "the provider's stream read alone"),
        (
            "provider (anthropic, end to end)",
            us(claude) if claude is not None else None,
            "AnthropicProvider.stream: SSE bytes -> SDK raw events -> StreamTranslator (no network)",
        ),
        (
            "provider (anthropic, SDK events + ours)",
            us(sdk) if sdk is not None else None,
            "of it: SSE data JSON -> SDK event -> StreamTranslator (no SSE decoder, no httpx2)",
        ),
        ("event objects, one per chunk", us(objects), "a TextDelta built per chunk"),
        (
            "bus, one event per chunk",
            us(emitted - objects),
            "EventBus.emit to one lossless subscriber (headless, SSE), minus objects",
        ),
        (
            "agent loop",
            us(alone - scripted - emitted),
            "Runtime with no subscriber, minus provider and bus",
        ),
        (
            "loop + events + bus, as the screen reads",
            us(screened - scripted),
            f"Runtime + a joining reader drained at {FLUSH_HZ} Hz, minus provider",
        ),
        (
            "session writer",
            us(written - screened),
            "Runtime + joining reader + SessionWriter, minus Runtime + reader",
        ),
        ("fold, one event per chunk", us(folded), f"RunState.apply_all, {BATCH} events a batch"),
        (
            "fold, as the screen reads",
            us(folded_screen),
            f"RunState.apply_all over the joining reader's batches ({len(batches)})",
        ),
        (
            "app (transcript + render)",
            us(app - app_runtime - app_fold),
            "the headless app to the whole answer shown, minus its Runtime and fold"
            + (" (its reader joining)" if app_joins else ""),
        ),
    ]
    total = us(app + written - screened)
    return {
        "chars": n,
        "chunks": len(pieces),
        "events": len(events),
        "screen_events": sum(len(b) for b in batches),
        "runs": runs,
        "app_joins": app_joins,
        "stages": [{"stage": s, "us_per_char": v, "how": h} for s, v, h in stages],
        "total_us_per_char": total,
        "total_how": "app + session writer (the app as `agentui` runs it, recording)",
        "total_claude_us_per_char": (
            None if claude is None else round(total - us(scripted) + us(claude), 3)
        ),
        "total_claude_how": "the total with Claude's provider row in place of the scripted one",
    }


def app_hotspots(chars: int, top: int = 25) -> list[str]:
    text = markdown_text(chars)
    profiler = cProfile.Profile()
    app_run(text, profiler)
    stats = pstats.Stats(profiler)
    stats.sort_stats("cumulative")
    rows = []
    for (file, line, name), (_cc, calls, tottime, cumtime, _callers) in sorted(
        stats.stats.items(),  # type: ignore[attr-defined]
        key=lambda item: -item[1][3],
    )[: top * 4]:
        if "site-packages" in file or "agentui" in file or "/work/main" in file:
            short = file.split("site-packages/")[-1].split("/work/main/")[-1]
            rows.append(
                f"{cumtime / len(text) * 1e6:8.2f} µs/char cum {tottime / len(text) * 1e6:7.2f} "
                f"own {calls:9d} calls  {short}:{line} {name}"
            )
        if len(rows) >= top:
            break
    return rows


def load() -> list[float]:
    return [float(x) for x in Path("/proc/loadavg").read_text().split()[:3]]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--chars", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="100 k characters, one run")
    parser.add_argument("--json", action="store_true", help="one line of JSON")
    parser.add_argument(
        "--app-profile", action="store_true", help="also cProfile the app's run (slow)"
    )
    parser.add_argument(
        "--app-joins",
        action="store_true",
        help="the app's subscription joins deltas (as tui/app/runtime_host.py could set it)",
    )
    args = parser.parse_args()
    chars, runs = (100_000, 1) if args.quick else (args.chars, args.runs)
    before = load()
    result = profile(chars, runs, app_joins=args.app_joins)
    result["load"] = [before, load()]
    if args.app_profile:
        result["app_hotspots"] = app_hotspots(min(chars, 300_000))
    if args.json:
        print(json.dumps(result))
        return
    print(
        f"{result['chars']} characters, {result['chunks']} chunks, median of {runs}; the "
        f"screen's reader got {result['screen_events']} events"
        + ("; the app's reader joins deltas" if args.app_joins else "")
    )
    print(f"{'stage':42} {'µs/char':>8}  how")
    for row in result["stages"]:
        value = "n/a" if row["us_per_char"] is None else f"{row['us_per_char']:.3f}"
        print(f"{row['stage']:42} {value:>8}  {row['how']}")
    print(f"{'total':42} {result['total_us_per_char']:8.3f}  {result['total_how']}")
    if result["total_claude_us_per_char"] is not None:
        print(
            f"{'total on Claude':42} {result['total_claude_us_per_char']:8.3f}  "
            f"{result['total_claude_how']}"
        )
    print(f"load {result['load'][0]} -> {result['load'][1]}")
    for line in result.get("app_hotspots", []):
        print(line)


if __name__ == "__main__":
    main()
