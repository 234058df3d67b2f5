"""Key fuzz of the app: N seeded random keys while agents spawn, stream, ask and wait for
approval. Not a test: prints one JSON object.

    .venv/bin/python tests/bench/key_fuzz.py [--keys 20000] [--seed 7]

Keys come from every binding of the app, plus letters, digits, enter, esc, tab, arrows and
ctrl+n/p/q. Every 40 keys a new root task starts (each agent asks a question, then calls a tool
that needs approval, then streams an answer), so there is always something to answer, approve
or steer. A crash ends that app and is counted (0 required); a quit (ctrl+q twice, or q with
nothing running) starts a new app. Also prints the slowest key: the time `Pilot.press` took to
deliver it and let the app settle (headless rendering).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import string
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from figures import spread_ms

from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock
from agentui.core.tools.ask_user import ASK_USER
from agentui.core.tools.registry import ToolRegistry
from agentui.core.tools.tool import tool
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.keymap import KEYS

ASK = Turn(tool_calls=[ScriptedToolCall(name="ask_user", arguments={"question": "Which one?"})])
DEPLOY = Turn(tool_calls=[ScriptedToolCall(name="deploy", arguments={"target": "prod"})])
ANSWER = Turn(text=" ".join(["Here is a long streamed answer about the plan."] * 20))
SCRIPT = Script.for_all(ASK, DEPLOY, ANSWER, ANSWER, ANSWER)

EXTRA_KEYS = [
    *string.ascii_lowercase,
    *string.digits,
    "enter", "escape", "tab", "shift+tab", "up", "down", "left", "right", "space",
    "ctrl+n", "ctrl+p", "ctrl+q", "ctrl+j", "ctrl+s", "question_mark",
]  # fmt: skip


@tool(needs_approval=True)
async def deploy(target: str) -> str:
    """Deploy to a target."""
    return f"deployed to {target}"


def make_app() -> AgentUIApp:
    clock = FrozenClock()

    def runtime() -> Runtime:
        registry = ToolRegistry([ASK_USER, deploy])
        return Runtime(ScriptedProvider(SCRIPT, pace_s=0.002), tools=registry, clock=clock)

    return AgentUIApp(runtime, initial_task="first task", clock=clock, remember_theme=False)


def key_pool() -> list[str]:
    bound = [part for key in KEYS for part in key.key.split(",")]
    return bound + EXTRA_KEYS


async def fuzz(keys: int, seed: int) -> dict[str, object]:
    rng = random.Random(seed)
    pool = key_pool()
    pressed = crashes = quits = apps = 0
    slowest = (0.0, "")
    durations: list[float] = []
    crash_reports: list[str] = []
    while pressed < keys:
        app = make_app()
        apps += 1
        try:
            async with app.run_test(size=(120, 40)) as pilot:
                while pressed < keys and app.is_running:
                    if pressed % 40 == 0 and app.host.started and app.host.runtime is not None:
                        app.host.runtime.start(f"task {pressed}")
                    key = rng.choice(pool)
                    started = time.perf_counter()
                    await pilot.press(key)
                    took = time.perf_counter() - started
                    durations.append(took)
                    if took > slowest[0]:
                        slowest = (took, key)
                    pressed += 1
                if not app.is_running:
                    quits += 1
        except Exception:
            crashes += 1
            crash_reports.append(traceback.format_exc(limit=8))
            pressed += 1  # never loop on a crash that repeats at once
    durations.sort()
    return {
        "keys": pressed,
        "seed": seed,
        "crashes": crashes,
        "apps_started": apps,
        "quits": quits,
        "slowest_key": {"key": slowest[1], "ms": round(slowest[0] * 1000, 1)},
        "key_ms": spread_ms(durations),
        "crash_reports": crash_reports[:3],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(fuzz(args.keys, args.seed)), indent=2))


if __name__ == "__main__":
    main()
