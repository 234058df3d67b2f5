"""Benchmark of the runtime core: event throughput and pause latency. Not a test.

    .venv/bin/python tests/bench/core_bench.py [--quick]

Prints one JSON object on stdout (see tests/bench/README.md). Runs in well under a minute.

throughput: agents on the scripted provider stream a long text at pace 0; one subscriber
    (lossless, maxsize=None) drains and discards every event. events/s = all events / seconds,
    from the first start() to the moment the subscriber sees the last agent end.
pause: 50 agents stream at 5 ms a chunk; ~100 times, at a random moment, one agent is paused,
    held, then resumed. The runtime's clock is time.perf_counter, so each event's `ts` is the
    moment the bus emitted it. For every pause:
    - latency = max(0, emit time of the agent's last event before resume - the pause() call),
      not counting the pause's own events (execution:paused, intervention:applied,
      agent:status). The contract says pause is immediate, so this should be 0.
    - late events = events of that agent emitted after pause() returned and before resume(),
      other than the pause's own. Must be 0.
    - seen_ms = when the subscriber *received* the agent's last event (or the pause's own
      execution:paused) minus the pause() call: how soon a front end sees the agent stop.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from dataclasses import dataclass, field

import anyio
from figures import spread_ms

from agentui.core import __version__
from agentui.core.protocol.events import Event
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, Turn
from agentui.core.runtime import Runtime
from agentui.core.tools.registry import ToolRegistry

PAUSE_OWN_EVENTS = {"execution:paused", "intervention:applied", "agent:status"}
FINAL_STATUSES = {"completed", "error", "cancelled", "deleted"}
SENTENCE = "The quick brown fox jumps over the lazy dog while the agent keeps streaming. "


class PerfClock:
    """Stamps events with time.perf_counter so emit times compare with the bench's own."""

    def now(self) -> float:
        return time.perf_counter()

    def monotonic(self) -> float:
        return time.perf_counter()


def long_text(chars: int) -> str:
    return (SENTENCE * (chars // len(SENTENCE) + 1))[:chars]


def make_runtime(text_chars: int, pace_s: float) -> Runtime:
    provider = ScriptedProvider(
        Script.for_all(Turn(text=long_text(text_chars))), pace_s=pace_s, record_requests=False
    )
    return Runtime(provider, tools=ToolRegistry([]), clock=PerfClock())


def ms(seconds: float) -> float:
    return round(seconds * 1000, 3)


# -- (a) throughput ------------------------------------------------------------------------------


async def throughput(agents: int, text_chars: int) -> dict[str, object]:
    async with make_runtime(text_chars, pace_s=0.0) as runtime:
        events = runtime.subscribe(maxsize=None)  # the null subscriber: drain and discard
        count = 0
        ended = 0
        started = time.perf_counter()
        for n in range(agents):
            runtime.start(f"stream {n}")
        while ended < agents:
            batch = await events.next_batch()
            count += len(batch)
            ended += sum(
                1
                for e in batch
                if e.type == "agent:status" and e.new in FINAL_STATUSES  # type: ignore[attr-defined]
            )
        seconds = time.perf_counter() - started
        events.close()
    return {
        "agents": agents,
        "text_chars": text_chars,
        "events": count,
        "seconds": round(seconds, 3),
        "events_per_s": round(count / seconds),
    }


# -- (b) pause latency ---------------------------------------------------------------------------


@dataclass
class Arrival:
    event: Event
    seen: float  # perf_counter when the subscriber received it


@dataclass
class PauseWindow:
    agent_id: str
    called: float  # just before runtime.pause()
    returned: float  # just after it returned
    resumed: float = 0.0  # just before runtime.resume()


@dataclass
class PauseRun:
    windows: list[PauseWindow] = field(default_factory=list)
    arrivals: list[Arrival] = field(default_factory=list)


async def pause_latency(
    agents: int, pauses: int, pace_s: float, hold_s: float, gap_s: tuple[float, float], seed: int
) -> dict[str, object]:
    rng = random.Random(seed)
    run = PauseRun()
    async with make_runtime(100_000, pace_s=pace_s) as runtime:
        events = runtime.subscribe(maxsize=None)

        async def record() -> None:
            while batch := await events.next_batch():
                seen = time.perf_counter()
                run.arrivals.extend(Arrival(e, seen) for e in batch)

        async with anyio.create_task_group() as group:
            group.start_soon(record)
            ids = [runtime.start(f"stream {n}") for n in range(agents)]
            await anyio.sleep(0.2)  # let every agent get into its stream
            for _ in range(pauses):
                await anyio.sleep(rng.uniform(*gap_s))  # a random moment in the streams
                agent_id = rng.choice(ids)
                window = PauseWindow(agent_id, time.perf_counter(), 0.0)
                runtime.pause(agent_id)
                window.returned = time.perf_counter()
                await anyio.sleep(hold_s)  # long enough for a leaked event to show
                window.resumed = time.perf_counter()
                runtime.resume(agent_id)
                run.windows.append(window)
            events.close()
            group.cancel_scope.cancel()
        still_streaming = sum(1 for i in ids if runtime.node(i).status.is_live)
    return summarize_pauses(run, agents, pace_s, hold_s, still_streaming)


def summarize_pauses(
    run: PauseRun, agents: int, pace_s: float, hold_s: float, still_streaming: int
) -> dict[str, object]:
    by_agent: dict[str, list[Arrival]] = {}
    for arrival in run.arrivals:
        by_agent.setdefault(arrival.event.agent_id, []).append(arrival)
    latencies: list[float] = []
    seen_latencies: list[float] = []
    late_events = 0
    paused_events_seen = 0
    for window in run.windows:
        before_resume = [a for a in by_agent[window.agent_id] if a.event.ts < window.resumed]
        work = [a for a in before_resume if a.event.type not in PAUSE_OWN_EVENTS]
        late_events += sum(1 for a in work if a.event.ts > window.returned)
        last = work[-1]
        latencies.append(max(0.0, last.event.ts - window.called))
        own = [
            a
            for a in before_resume
            if a.event.type == "execution:paused" and a.event.ts >= window.called
        ]
        paused_events_seen += len(own)
        last_seen = max([last.seen, *(a.seen for a in own)])
        seen_latencies.append(max(0.0, last_seen - window.called))
    pause_calls = [w.returned - w.called for w in run.windows]
    return {
        "agents": agents,
        "pace_s": pace_s,
        "hold_s": hold_s,
        "pauses": len(run.windows),
        "paused_events": paused_events_seen,
        "agents_still_streaming_at_end": still_streaming,
        "late_events": late_events,
        "latency_ms": spread_ms(latencies, digits=3),
        "seen_by_subscriber_ms": spread_ms(seen_latencies, digits=3),
        "pause_call_ms": {"p50": ms(statistics.median(pause_calls)), "max": ms(max(pause_calls))},
    }


# -- main ----------------------------------------------------------------------------------------


async def bench(quick: bool) -> dict[str, object]:
    started = time.perf_counter()
    text_chars = 20_000 if quick else 200_000
    await throughput(2, 5_000)  # warm-up (imports, pydantic validators), not reported
    # The same streams at a tenth of the length too: events/s should not depend on it.
    runs = [
        await throughput(agents, chars)
        for chars in (text_chars, text_chars // 10)
        for agents in (1, 10)
    ]
    pause = await pause_latency(
        agents=50,
        pauses=20 if quick else 100,
        pace_s=0.005,
        hold_s=0.03,
        gap_s=(0.005, 0.05),
        seed=1234,
    )
    best = max(int(r["events_per_s"]) for r in runs)  # type: ignore[call-overload]
    p95 = pause["latency_ms"]["p95"]  # type: ignore[index]
    return {
        "bench": "agentui.core",
        "version": __version__,
        "python": platform.python_version(),
        "throughput": runs,
        "pause": pause,
        "targets": {
            "events_per_s>=100000": all(int(r["events_per_s"]) >= 100_000 for r in runs),  # type: ignore[call-overload]
            "best_events_per_s": best,
            "pause_p95_ms<=20": p95 <= 20,
            "late_events==0": pause["late_events"] == 0,
        },
        "total_s": round(time.perf_counter() - started, 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller runs, for a smoke check")
    args = parser.parse_args()
    result = anyio.run(bench, args.quick)
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
