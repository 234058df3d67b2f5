"""Benchmark of the monologue: narrator calls per agent event. Not a test.

    .venv/bin/python tests/bench/monologue_bench.py [--quick]

One agent on the scripted provider does 333 steps of: think, call a tool, get its result,
then writes its answer: 1,000 agent events as the monologue counts them (thoughts, tool calls,
tool results, text). The narrator is a second scripted provider (pace 0), narrating offline.

Two regimes, because with one narrator call in flight per agent the count depends on how fast
the narrator is next to the agent:
- narrator_faster: the agent streams at 1 ms a chunk, so each narrator call ends before the
  agent's next event; the thresholds alone decide (a real agent, whose model and tools take
  seconds, beside a cheap narrator);
- same_speed: the agent at pace 0 too; events pile up while a call is in flight and are
  narrated together by the next one, whatever the thresholds.

For each config and regime the script prints, in one JSON object:

- events: the agent events the monologue buffered (1,000), and bus_events: every event the
  agent put on the bus for them (deltas included);
- narrator_calls, narratives (calls that wrote a line), waits (answered "..."), failures;
- events_per_call = events / narrator_calls; events_per_narrative = events / narratives;
- narrator_tokens, and seconds of wall time for the whole run.

Configs: the default (min_buffer=1, max_buffer=10), min=max=1 (ask after every counted event),
and the seed's "batched" example (min 5, max 15) for comparison.

`--quick`: 33 steps (100 events) instead of 333, a smoke run of a few seconds.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import anyio

from agentui.core.agent.limits import Limits
from agentui.core.monologue import MonologueConfig, attach_monologue
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.tools.registry import ToolRegistry
from agentui.core.tools.tool import tool

STEPS = 333  # x (thought, call, result) + the closing text = 1,000 events
QUICK_STEPS = 33

CONFIGS: dict[str, dict[str, int]] = {
    "default": {},
    "min=max=1": {"min_buffer": 1, "max_buffer": 1},
    "min=5,max=15": {"min_buffer": 5, "max_buffer": 15},
}


@tool
async def probe(step: int) -> str:
    """Check one thing."""
    return f"step {step} looks fine"


def script(steps: int) -> Script:
    turns = [
        Turn(
            thinking=f"Step {n}: I'll probe the next part.",
            tool_calls=[ScriptedToolCall(name="probe", arguments={"step": n})],
        )
        for n in range(steps)
    ]
    turns.append(Turn(text="Every part looks fine."))
    return Script.for_all(*turns)


REGIMES = {"narrator_faster": 0.001, "same_speed": 0.0}  # the agent's seconds per chunk


async def run(settings: dict[str, int], agent_pace_s: float, steps: int) -> dict[str, Any]:
    agent_provider = ScriptedProvider(script(steps), pace_s=agent_pace_s, record_requests=False)
    narrator_provider = ScriptedProvider(record_requests=False)
    limits = Limits(max_iterations=steps + 1, max_tool_calls=steps, max_duration_s=None)
    config = MonologueConfig.model_validate(settings)
    started = time.perf_counter()
    async with Runtime(agent_provider, tools=ToolRegistry([probe]), limits=limits) as runtime:
        events = runtime.subscribe(maxsize=None)
        monologue = attach_monologue(runtime, narrator_provider, config)
        agent = runtime.start("check every part")
        await runtime.wait(agent)
        await monologue.wait_idle()
        seconds = time.perf_counter() - started
        bus_events = sum(
            1 for e in events.drain() if e.agent_id == agent and not e.type.startswith("monologue")
        )
        status = runtime.node(agent).status.value
    service = monologue.service(agent)
    assert service is not None
    return {
        "agent_status": status,
        "events": service.actions,
        "bus_events": bus_events,
        "narrator_calls": service.calls,
        "narratives": service.narratives,
        "waits": service.waits,
        "failures": service.failures,
        "events_per_call": round(service.actions / service.calls, 2),
        "events_per_narrative": round(service.actions / max(1, service.narratives), 2),
        "narrator_tokens": service.usage.total_tokens,
        "seconds": round(seconds, 3),
    }


async def bench(steps: int) -> None:
    results = {
        regime: {name: await run(settings, pace, steps) for name, settings in CONFIGS.items()}
        for regime, pace in REGIMES.items()
    }
    print(json.dumps({"steps": steps, **results}, indent=2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="33 steps, for a smoke check")
    args = parser.parse_args()
    anyio.run(bench, QUICK_STEPS if args.quick else STEPS)


if __name__ == "__main__":
    main()
