"""Where each µs of a streamed character goes, end to end (issue 33, point 3). Not a test.

    .venv/bin/python tests/bench/pipeline_profile.py [--chars 1000000] [--runs 3] [--json]
    .venv/bin/python tests/bench/pipeline_profile.py --quick        # 100 k characters, once
    .venv/bin/python tests/bench/pipeline_profile.py --app-profile  # + cProfile of the app

One answer of N characters of Markdown (growth_bench's text) in the scripted provider's 3-8
character chunks. Each stage is timed in CPU (process time, every thread) and given in µs per
streamed character; a stage measured inside a larger run is that run minus the runs it
contains (said in its `how`). Medians of `--runs`.

- provider (scripted): the provider's stream alone, read to its end.
- provider (anthropic SDK): the SDK's part of a real stream without the network: each chunk's
  SSE `data:` JSON decoded and built into the SDK's event (`construct_type`, as its Stream
  does), then our StreamTranslator.
- event objects: one TextDelta (a frozen pydantic model) built per chunk.
- bus: EventBus.emit to one lossless subscriber drained as a consumer would, minus the objects.
- agent loop: a Runtime streaming the answer with no subscriber, minus provider and bus.
- session writer: the same Runtime with a SessionWriter (a real file in a scratch folder, its
  thread's CPU counted), minus the Runtime alone.
- fold: RunState.apply_all over the events in the app's batches (64 a batch).
- app: the real app, headless, rendering every frame's segments (ui_bench's RenderingApp), no
  session: CPU from the start until the screen shows the whole answer, minus the Runtime alone
  and the fold. It is the transcript (AnswerBlock's frozen chunks and tail, Markdown parsed and
  laid out), Textual's layout and compositor, and the rest of the screen.
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
from collections.abc import Callable
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


def runtime_run(text: str, *, writer_folder: Path | None = None) -> float:
    async def run() -> None:
        async with Runtime(provider_for(text), tools=ToolRegistry([])) as runtime:
            if writer_folder is not None:
                writer = SessionWriter(
                    NewSession(provider="scripted", model="m", directory=writer_folder)
                )
                writer.attach(runtime)
            agent_id = runtime.start("write it")
            await runtime.wait(agent_id)

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


def app_run(text: str, profile: cProfile.Profile | None = None) -> float:
    async def run() -> float:
        fresh_heap()
        app = make_app(provider_for(text))
        async with app.run_test(size=(120, 40)):
            await until(lambda: app.host.started)
            assert app.host.runtime is not None
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


def profile(chars: int, runs: int) -> dict[str, Any]:
    text = markdown_text(chars)
    pieces = pieces_of(text)
    events = recorded_events(text)
    n = len(text)
    scripted = median_of(runs, lambda: scripted_provider(text))
    sdk = median_of(runs, lambda: anthropic_sdk(pieces))
    objects = median_of(runs, lambda: event_objects(pieces))
    emitted = median_of(runs, lambda: bus(pieces))
    # Interleaved, so the writer's share is not a change of the machine's load between blocks.
    alone_runs, written_runs = [], []
    for _ in range(runs):
        alone_runs.append(runtime_run(text))
        with tempfile.TemporaryDirectory(prefix="agentui-pipeline-") as folder:
            written_runs.append(runtime_run(text, writer_folder=Path(folder)))
    alone, written = statistics.median(alone_runs), statistics.median(written_runs)
    folded = median_of(runs, lambda: fold(events))
    app = median_of(runs, lambda: app_run(text))
    assert None not in (scripted, objects, emitted, alone, written, folded, app)

    def us(seconds: float) -> float:
        return round(seconds / n * 1e6, 3)

    stages = [
        ("provider (scripted)", us(scripted), "the provider's stream read alone"),
        (
            "provider (anthropic SDK, no network)",
            us(sdk) if sdk is not None else None,
            "SSE data JSON -> SDK event -> StreamTranslator (instead of the scripted one)",
        ),
        ("event objects", us(objects), "one TextDelta built per chunk"),
        ("bus", us(emitted - objects), "EventBus.emit to one drained subscriber, minus objects"),
        (
            "agent loop",
            us(alone - scripted - emitted),
            "Runtime with no subscriber, minus provider and bus",
        ),
        ("session writer", us(written - alone), "Runtime + SessionWriter, minus Runtime"),
        ("fold (core/state)", us(folded), f"RunState.apply_all, {BATCH} events a batch"),
        (
            "app (transcript + render)",
            us(app - alone - folded),
            "the headless app to the whole answer shown, minus Runtime and fold",
        ),
    ]
    total = us(app + written - alone)
    return {
        "chars": n,
        "chunks": len(pieces),
        "events": len(events),
        "runs": runs,
        "stages": [{"stage": s, "us_per_char": v, "how": h} for s, v, h in stages],
        "total_us_per_char": total,
        "total_how": "app + session writer (the app as `agentui` runs it, recording)",
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
    args = parser.parse_args()
    chars, runs = (100_000, 1) if args.quick else (args.chars, args.runs)
    before = load()
    result = profile(chars, runs)
    result["load"] = [before, load()]
    if args.app_profile:
        result["app_hotspots"] = app_hotspots(min(chars, 300_000))
    if args.json:
        print(json.dumps(result))
        return
    print(f"{result['chars']} characters, {result['chunks']} chunks, median of {runs}")
    print(f"{'stage':40} {'µs/char':>8}  how")
    for row in result["stages"]:
        value = "n/a" if row["us_per_char"] is None else f"{row['us_per_char']:.3f}"
        print(f"{row['stage']:40} {value:>8}  {row['how']}")
    print(f"{'total':40} {result['total_us_per_char']:8.3f}  {result['total_how']}")
    print(f"load {result['load'][0]} -> {result['load'][1]}")
    for line in result.get("app_hotspots", []):
        print(line)


if __name__ == "__main__":
    main()
