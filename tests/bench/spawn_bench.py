"""Benchmark of starting agents: roots/s and children/s as the tree grows. Not a test.

    .venv/bin/python tests/bench/spawn_bench.py [--quick]

Prints one JSON object on stdout (see tests/bench/README.md).

roots: N root agents (1,000 and 5,000) started one after another with `runtime.start(task)` on
    the scripted provider (a two-word answer, pace 0), one lossless subscriber attached as the
    app has. `start_per_s` = N / the time of the N start() calls (the command itself);
    `first_per_s` and `last_per_s` time the first and the last tenth of the calls on their own:
    they stay alike when a start costs the same however many agents exist (a per-start cost
    that grows with the tree shows as a last tenth much slower than the first).
    `run_per_s` = N / the time from the first start() until the subscriber saw every agent end
    (each agent's whole life: spawn, one model call, its events, completion).
    `gc_s` is the part of the start() calls spent in CPython's cyclic collector (its full
    collections walk every live object, so they grow with the heap, not with the call); each
    run starts from a collected heap, so it does not pay for the runs before it.
children: the same with 5,000 children of one root (`start(task, parent_id=root)`), the root
    held paused so it stays live while they run.
Target: >= 5,000 starts/s at 5,000 roots (collector included, its default thresholds).
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import sys
import time

import anyio

from agentui.core import __version__
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, Turn
from agentui.core.runtime import Runtime
from agentui.core.tools.registry import ToolRegistry

FINAL_STATUSES = {"completed", "error", "cancelled", "deleted"}


def make_runtime() -> Runtime:
    provider = ScriptedProvider(
        Script.for_all(Turn(text="all done")), pace_s=0.0, record_requests=False
    )
    return Runtime(provider, tools=ToolRegistry([]))


class CollectorTime:
    """Seconds spent in the cyclic collector while installed (gc.callbacks)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._began = 0.0

    def __enter__(self) -> CollectorTime:
        gc.callbacks.append(self._observe)
        return self

    def __exit__(self, *exc_info: object) -> None:
        gc.callbacks.remove(self._observe)

    def _observe(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        else:
            self.seconds += time.perf_counter() - self._began


async def spawn(count: int, *, children: bool) -> dict[str, object]:
    gc.collect()  # the runs before this one leave their garbage behind
    async with make_runtime() as runtime:
        events = runtime.subscribe(maxsize=None)
        parent: str | None = None
        if children:
            parent = runtime.start("hold the children")
            runtime.pause(parent)
        tenth = max(1, count // 10)
        marks: list[float] = []
        with CollectorTime() as collector:
            started = time.perf_counter()
            for n in range(count):
                if n % tenth == 0:
                    marks.append(time.perf_counter())
                runtime.start(f"task {n}", parent_id=parent)
            called = time.perf_counter()
        marks.append(called)
        ended = 0
        while ended < count:
            batch = await events.next_batch()
            ended += sum(
                1
                for e in batch
                if e.type == "agent:status" and e.agent_id != parent and e.new in FINAL_STATUSES  # type: ignore[attr-defined]
            )
        finished = time.perf_counter()
        events.close()
        if parent is not None:
            runtime.cancel(parent)
    return {
        "agents": count,
        "start_s": round(called - started, 4),
        "start_per_s": round(count / (called - started)),
        "gc_s": round(collector.seconds, 4),
        "start_per_s_without_gc": round(count / (called - started - collector.seconds)),
        "first_per_s": round(tenth / (marks[1] - marks[0])),
        "last_per_s": round(tenth / (marks[-1] - marks[-2])),
        "run_per_s": round(count / (finished - started)),
    }


async def bench(quick: bool) -> dict[str, object]:
    begun = time.perf_counter()
    sizes = (100, 500) if quick else (1_000, 5_000)
    await spawn(200, children=False)  # warm-up (imports, validators), not reported
    roots = [await spawn(size, children=False) for size in sizes]
    children = await spawn(sizes[-1], children=True)
    at_most = roots[-1]
    return {
        "bench": "agentui.spawn",
        "version": __version__,
        "python": platform.python_version(),
        "roots": roots,
        "children_of_one_parent": children,
        "targets": {
            f"roots_start_per_s>=5000 at {at_most['agents']}": int(at_most["start_per_s"])  # type: ignore[call-overload]
            >= 5_000,
            f"children_start_per_s>=5000 at {children['agents']}": int(children["start_per_s"])  # type: ignore[call-overload]
            >= 5_000,
        },
        "total_s": round(time.perf_counter() - begun, 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller runs, for a smoke check")
    args = parser.parse_args()
    json.dump(anyio.run(bench, args.quick), sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
