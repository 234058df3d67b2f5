"""Benchmark of time travel: rewind and fork at 100k events. Not a test.

    .venv/bin/python tests/bench/time_travel.py [--quick]

One agent on the scripted provider (pace 0) calls a tool every turn until its events number
100k (10k with --quick); it ends, and then, on the runtime's own state:
- rewind_ms: `Runtime.rewind(agent, step)` of the ended agent (it is rewound at once: the
  conversation at the step is rebuilt from its changes, the agent:rewound and
  conversation:changed events emitted, the agent paused), to its middle step and to its first;
- fork_ms: `Runtime.fork_from(agent, step)` from its middle step (the copy made, the new root
  spawned and its conversation announced);
- steps_from_log_ms: folding the agent's steps from all its events (`steps_in`, what `agentui
  steps`, `--rewind` and `agentui fork` do with a saved session's log).
Prints one JSON object on stdout.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time

import anyio

from agentui.core.agent.limits import Limits
from agentui.core.agent.steps import steps_in
from agentui.core.protocol.events import Event
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.tools.registry import ToolRegistry
from agentui.core.tools.tool import tool

EVENTS_PER_TURN = 18  # about: a turn's request, deltas, response, tool and changes


@tool
async def echo(text: str) -> str:
    """Say it back."""
    return f"echo: {text}"


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


async def measure(target_events: int) -> dict[str, object]:
    turns = target_events // EVENTS_PER_TURN
    call = Turn(
        text="Looking at the next part of the work now.",
        tool_calls=[ScriptedToolCall(name="echo", arguments={"text": "part"})],
    )
    script = Script.for_all(*[call] * turns, Turn(text="done"), *[Turn(text="again")] * 4)
    limits = Limits(max_iterations=10_000, max_tool_calls=100_000, max_duration_s=None)
    runtime = Runtime(ScriptedProvider(script), tools=ToolRegistry([echo]), limits=limits)
    events: list[Event] = []
    async with runtime:
        subscription = runtime.subscribe(maxsize=None)
        root = runtime.start("work through every part")
        await runtime.wait(root)
        events.extend(subscription.drain())
        steps = runtime.steps(root)
        middle = steps[len(steps) // 2].number

        started = time.perf_counter()
        runtime.rewind(root, middle)
        rewind_middle = time.perf_counter() - started
        runtime.cancel(root)  # its paused run ends; then it is rewound again
        await runtime.wait(root)
        started = time.perf_counter()
        runtime.rewind(root, 0)
        rewind_first = time.perf_counter() - started
        runtime.cancel(root)
        await runtime.wait(root)

        started = time.perf_counter()
        fork = runtime.fork_from(root, middle)
        fork_time = time.perf_counter() - started
        runtime.cancel(fork)
        await runtime.wait(fork)
        events.extend(subscription.drain())

    started = time.perf_counter()
    folded = steps_in(events, root)
    steps_time = time.perf_counter() - started
    return {
        "events": len(events),
        "steps": len(folded.steps),
        "messages_at_middle_step": steps[len(steps) // 2].messages,
        "rewind_ms": {"to_middle": _ms(rewind_middle), "to_first": _ms(rewind_first)},
        "fork_ms": _ms(fork_time),
        "steps_from_log_ms": _ms(steps_time),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10k events instead of 100k")
    args = parser.parse_args()
    figures = anyio.run(measure, 10_000 if args.quick else 100_000)
    figures["python"] = platform.python_version()
    json.dump(figures, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
