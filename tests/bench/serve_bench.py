"""Benchmark of `agentui serve`: events/s through SSE, and pause latency over HTTP. Not a test.

    .venv/bin/python tests/bench/serve_bench.py [--quick | --smoke]

Prints one JSON object on stdout (see tests/bench/README.md). The server (FastAPI + uvicorn on
127.0.0.1), the runtime and the clients (RemoteClient: httpx2, parse_event) share one process
and one event loop, as in the tests: every figure includes the clients' own work.

sse: agents on the scripted provider stream a long text at pace 0 while 1 or 10 clients read
    `GET /events` from the start. events/s = the events the runtime published / seconds from
    the first start until every client has seen every agent end. `messages_per_client`: what
    each client received (fewer than the events when it fell behind and got deltas merged;
    the text is checked whole either way).
pause: 20 agents stream at 5 ms a chunk; ~60 times one agent is paused with `POST
    /agent/{id}/pause`, held, then resumed over HTTP. The runtime's clock is perf_counter, so
    an event's `ts` is when it was emitted. latency = emit time of the agent's last event
    before its resume (other than the pause's own) - the moment the POST was sent; `answered`
    = when the POST's answer came back; `seen_remotely` = when an SSE client received the
    agent's `execution:paused`.
memory: the server's event log of the sse run's events (tracemalloc), as logged
    (`keep_recent=None`: every entry as it came, the layout before compaction) and with older
    delta runs compacted (the default); then the compacted log of those events repeated up to
    840k events (a long-lived server; as logged, that many would take `as_logged_long_run_mb`).
    `catch_up_batch_ms`: what one batch of a client reading the compacted log from the start
    costs the event loop (read back + merged), median and max over the log.
    `lifecycles`: a long-lived server's log after 100k short agents' lifecycles (10k with
    --quick): 100 agents (20 at a time, a 180-character answer each) run on the scripted
    provider, their events logged again and again under new agent ids and seqs, in batches as
    the bus gives them. `unbounded`: the log with every entry kept in memory (`memory_bytes=None`,
    as before the log went to disk), per agent over 10k agents (2k), and that per agent times
    the agents; `bounded`: the default log (older entries on disk past MEMORY_BYTES) after
    all of them: what it holds in memory, what it wrote to disk, and what one catch-up batch
    read back from disk costs (a client reading from seq 0).

`--smoke`: --quick with 10k events repeated and 1k lifecycles (CI's smoke step: it runs each
part in a few seconds; its figures mean little).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
import tracemalloc
from collections import defaultdict
from collections.abc import Iterator

import anyio
from figures import spread_ms

from agentui.core import __version__
from agentui.core.protocol.events import Event, TextDelta
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, Turn
from agentui.core.remote.client import RemoteClient
from agentui.core.remote.event_log import MEMORY_BYTES, EventLog
from agentui.core.remote.server import ServerOptions
from agentui.core.remote.serving import listen, served
from agentui.core.remote.sse_batches import MAX_BATCH, merged
from agentui.core.runtime import Runtime
from agentui.core.tools.registry import ToolRegistry

TOKEN = "bench-token"
FINAL = {"completed", "error", "cancelled", "deleted"}
PAUSE_OWN_EVENTS = {"execution:paused", "intervention:applied", "agent:status"}
SENTENCE = "The quick brown fox jumps over the lazy dog while the agent keeps streaming. "


class PerfClock:
    def now(self) -> float:
        return time.perf_counter()

    def monotonic(self) -> float:
        return time.perf_counter()


def make_runtime(text_chars: int, pace_s: float) -> Runtime:
    text = (SENTENCE * (text_chars // len(SENTENCE) + 1))[:text_chars]
    provider = ScriptedProvider(
        Script.for_all(Turn(text=text)), pace_s=pace_s, record_requests=False
    )
    return Runtime(provider, tools=ToolRegistry([]), clock=PerfClock())


async def sse_throughput(
    clients: int, agents: int, text_chars: int, published_events: list[Event]
) -> dict[str, object]:
    runtime = make_runtime(text_chars, pace_s=0.0)
    listener = listen("127.0.0.1", 0)
    async with served(runtime, listener, ServerOptions(token=TOKEN)):
        published = runtime.subscribe(maxsize=None)
        readers = [RemoteClient(listener.url, TOKEN, timeout=60) for _ in range(clients)]
        received = [0] * clients
        texts: list[dict[str, str]] = [defaultdict(str) for _ in range(clients)]
        connected = anyio.Event()
        ready = 0

        async def read(number: int) -> None:
            nonlocal ready
            ended = 0
            stream = readers[number].events(0)
            ready += 1
            if ready == clients:
                connected.set()
            event: Event
            async for event in stream:
                received[number] += 1
                if isinstance(event, TextDelta):
                    texts[number][event.agent_id] += event.delta
                if event.type == "agent:status" and event.new in FINAL:  # type: ignore[attr-defined]
                    ended += 1
                    if ended == agents:
                        break
            await stream.aclose()  # type: ignore[attr-defined]

        async with anyio.create_task_group() as group:
            for number in range(clients):
                group.start_soon(read, number)
            await connected.wait()
            await anyio.sleep(0.2)  # every stream open (connected.set only means started)
            started = time.perf_counter()
            ids = [runtime.start(f"stream {n}") for n in range(agents)]
        seconds = time.perf_counter() - started
        events = published.drain()
        published_events[:] = events
        whole = all(
            text[agent_id] == runtime.node(agent_id).result for text in texts for agent_id in ids
        )
        for client in readers:
            await client.aclose()
    return {
        "clients": clients,
        "agents": agents,
        "text_chars": text_chars,
        "events": len(events),
        "seconds": round(seconds, 3),
        "events_per_s": round(len(events) / seconds),
        "messages_per_client": {"min": min(received), "max": max(received)},
        "text_whole": whole,
    }


async def pause_latency(agents: int, pauses: int, seed: int) -> dict[str, object]:
    rng = random.Random(seed)
    runtime = make_runtime(200_000, pace_s=0.005)
    listener = listen("127.0.0.1", 0)
    latencies: list[float] = []
    answered: list[float] = []
    seen_remotely: list[float] = []
    async with served(runtime, listener, ServerOptions(token=TOKEN)):
        emitted = runtime.subscribe(maxsize=None)
        client = RemoteClient(listener.url, TOKEN)
        viewer = RemoteClient(listener.url, TOKEN)
        paused_seen: dict[str, list[float]] = defaultdict(list)

        async def watch() -> None:
            async for event in viewer.events(0):
                if event.type == "execution:paused":
                    paused_seen[event.agent_id].append(time.perf_counter())

        async with anyio.create_task_group() as group:
            group.start_soon(watch)
            ids = [await client.start(f"stream {n}") for n in range(agents)]
            await anyio.sleep(0.3)  # every agent into its stream
            log: list[Event] = []
            for _ in range(pauses):
                await anyio.sleep(rng.uniform(0.01, 0.05))
                agent_id = rng.choice(ids)
                seen_before = len(paused_seen[agent_id])
                sent = time.perf_counter()
                await client.pause(agent_id)
                answered.append(time.perf_counter() - sent)
                await anyio.sleep(0.05)  # long enough for a leaked event to show
                resumed = time.perf_counter()
                await client.resume(agent_id)
                log.extend(emitted.drain())
                work = [
                    e
                    for e in log
                    if e.agent_id == agent_id and e.ts < resumed and e.type not in PAUSE_OWN_EVENTS
                ]
                latencies.append(max(0.0, work[-1].ts - sent))
                if len(paused_seen[agent_id]) > seen_before:
                    seen_remotely.append(paused_seen[agent_id][seen_before] - sent)
            group.cancel_scope.cancel()
        await client.aclose()
        await viewer.aclose()
    return {
        "agents": agents,
        "pace_s": 0.005,
        "pauses": pauses,
        "latency_to_last_event_ms": spread_ms(latencies, digits=2),
        "post_answered_ms": spread_ms(answered, digits=2),
        "paused_seen_by_sse_client_ms": spread_ms(seen_remotely, digits=2),
    }


def logged_bytes(events: list[Event], keep_recent: int | None) -> tuple[int, EventLog]:
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        # Compaction alone: nothing goes to disk (that is `lifecycles`).
        log = EventLog(events, keep_recent=keep_recent, memory_bytes=None)
        return tracemalloc.get_traced_memory()[0] - before, log
    finally:
        tracemalloc.stop()


def repeated(events: list[Event], count: int) -> list[Event]:
    """`events` again and again, seqs going on, until there are `count`."""
    out: list[Event] = []
    offset = 0
    while len(out) < count:
        out.extend(e.model_copy(update={"seq": e.seq + offset}) for e in events)
        offset += events[-1].seq
    return out[:count]


def log_memory(events: list[Event], long_run: int) -> dict[str, object]:
    def figures(size: int, count: int) -> dict[str, float]:
        return {
            "events": count,
            "bytes_per_event": round(size / count, 1),
            "mb": round(size / 1e6, 1),
        }

    deltas = [e for e in events if isinstance(e, TextDelta)]
    as_logged, _ = logged_bytes(events, keep_recent=None)
    compacted, log = logged_bytes(events, keep_recent=4096)
    batch_ms = []
    for start in range(0, len(log) - MAX_BATCH, MAX_BATCH):
        began = time.perf_counter()
        merged(log.entries(start, start + MAX_BATCH), 0)
        batch_ms.append((time.perf_counter() - began) * 1000)
    del log
    many = repeated(events, long_run)
    long_compacted, _ = logged_bytes(many, keep_recent=4096)
    return {
        "mean_delta_chars": round(sum(len(e.delta) for e in deltas) / max(1, len(deltas)), 1),
        "as_logged": figures(as_logged, len(events)),
        "compacted": figures(compacted, len(events)),
        # The newest 4096 to 8192 entries stay as logged: a long run shows the compacted cost.
        "compacted_long_run": figures(long_compacted, len(many)),
        "as_logged_long_run_mb": round(as_logged / len(events) * len(many) / 1e6, 1),
        "catch_up_batch_ms": {
            "batch": MAX_BATCH,
            "p50": round(statistics.median(batch_ms), 2) if batch_ms else None,
            "max": round(max(batch_ms), 2) if batch_ms else None,
        },
    }


async def short_lifecycles(agents: int, wave: int) -> list[Event]:
    """The events of `agents` agents that each answer at once, `wave` running at a time."""
    script = Script.for_all(Turn(text="The answer is forty-two, as it was yesterday. " * 4))
    provider = ScriptedProvider(script, pace_s=0.0, record_requests=False)
    runtime = Runtime(provider, tools=ToolRegistry([]), clock=PerfClock())
    async with runtime:
        published = runtime.subscribe(maxsize=None)
        for _ in range(agents // wave):
            for agent_id in [runtime.start("answer") for _ in range(wave)]:
                await runtime.wait(agent_id)
        return published.drain()


def relabelled(events: list[Event], copies: int) -> Iterator[list[Event]]:
    """`events` `copies` times, each copy's agents under new ids and seqs going on, in the
    batches the bus would give them."""
    step = events[-1].seq
    for copy in range(copies):
        names = {agent_id: f"{agent_id}.{copy}" for agent_id in {e.agent_id for e in events}}
        moved = [
            e.model_copy(update={"seq": e.seq + copy * step, "agent_id": names[e.agent_id]})
            for e in events
        ]
        for start in range(0, len(moved), 512):
            yield moved[start : start + 512]


def log_of(batches: Iterator[list[Event]], memory_bytes: int | None) -> tuple[int, EventLog]:
    """The log of `batches` and the bytes it holds (tracemalloc)."""
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        log = EventLog(memory_bytes=memory_bytes)
        for batch in batches:
            log.extend(batch)
        del batch
        return tracemalloc.get_traced_memory()[0] - before, log
    finally:
        tracemalloc.stop()


async def lifecycle_memory(agents: int, measured_unbounded: int) -> dict[str, object]:
    sample_agents = 100
    sample = await short_lifecycles(sample_agents, wave=20)
    unbounded, log = log_of(relabelled(sample, measured_unbounded // sample_agents), None)
    per_agent = unbounded / measured_unbounded
    log.discard()
    del log
    began = time.perf_counter()
    bounded, log = log_of(relabelled(sample, agents // sample_agents), MEMORY_BYTES)
    seconds = time.perf_counter() - began
    batch_s = []
    for start in range(0, log.spilled - MAX_BATCH, max(MAX_BATCH, log.spilled // 50)):
        began = time.perf_counter()
        merged(log.entries(start, start + MAX_BATCH), 0)
        batch_s.append(time.perf_counter() - began)
    figures = {
        "agents": agents,
        "events": len(log),
        "events_per_agent": round(len(sample) / sample_agents, 1),
        "unbounded": {
            "measured_agents": measured_unbounded,
            "bytes_per_agent": round(per_agent),
            "mb": round(per_agent * agents / 1e6, 1),
        },
        "bounded": {
            "memory_bytes": MEMORY_BYTES,
            "mb": round(bounded / 1e6, 1),
            "spilled_events": log.spilled,
            "disk_mb": round(log.spilled_bytes / 1e6, 1),
            "seconds_to_log": round(seconds, 1),
            # max: mostly a full garbage collection that the batch's allocations set off
            "disk_batch_ms": {"batch": MAX_BATCH}
            | (spread_ms(batch_s, digits=2) if batch_s else {}),
        },
    }
    log.discard()
    return figures


async def bench(quick: bool, smoke: bool = False) -> dict[str, object]:
    started = time.perf_counter()
    quick = quick or smoke
    repeated = 10_000 if smoke else 100_000 if quick else 840_000
    lifecycles = (1_000, 500) if smoke else (10_000, 2_000) if quick else (100_000, 10_000)
    agents, chars = (5, 5_000) if quick else (20, 20_000)
    events: list[Event] = []
    sse = [await sse_throughput(clients, agents, chars, events) for clients in (1, 10)]
    pause = await pause_latency(10 if quick else 20, 15 if quick else 60, seed=7)
    return {
        "agentui": __version__,
        "python": platform.python_version(),
        "sse": sse,
        "pause": pause,
        "memory": log_memory(events, repeated)
        | {"lifecycles": await lifecycle_memory(*lifecycles)},
        "total_s": round(time.perf_counter() - started, 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sizes = parser.add_mutually_exclusive_group()
    sizes.add_argument("--quick", action="store_true", help="smaller runs, about 30 s")
    sizes.add_argument("--smoke", action="store_true", help="smaller still, a few seconds")
    args = parser.parse_args()
    print(json.dumps(anyio.run(bench, args.quick, args.smoke), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
