"""The app with N live root agents, run on the terminal it was started in: what pty_bench.py's
--tree-keys execs in its pseudo-terminal. Not a test.

    .venv/bin/python tests/bench/pty_live_app.py N READY_FILE

The `agentui` command cannot start thousands of live roots (one task, or a script's agents
under one main), so this runs the app `agentui` runs (AgentUIApp, Textual's own Linux driver,
its input thread and writer thread, the collector policy) on live_bench.py's provider: the
first 100 agents stream 5 chunks/s for ever, the rest hold a stream open. Once every agent is
in the tree and has run 1.5 s, the tree is focused and READY_FILE is written: the bench's
keys start then.
"""

from __future__ import annotations

import gc

gc.disable()  # as the `agentui` executable starts (tui/cli/launch.py); the app turns it on

import asyncio  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

from live_bench import spawn, streaming_provider  # noqa: E402
from ui_bench import PerfClock  # noqa: E402

from agentui.core.monologue.config import MonologueConfig  # noqa: E402
from agentui.core.runtime import Runtime  # noqa: E402
from agentui.core.tools.registry import ToolRegistry  # noqa: E402
from agentui.tui.app.app import AgentUIApp  # noqa: E402

STREAMING = 100
CHUNKS_PER_S = 5.0
SETTLE_S = 1.5  # every agent streaming or holding before the first key (as live_bench)


def main(count: int, ready: Path) -> None:
    provider = streaming_provider(min(STREAMING, count), CHUNKS_PER_S)
    app = AgentUIApp(
        lambda: Runtime(provider, tools=ToolRegistry([]), clock=PerfClock()),
        clock=PerfClock(),
        monologue=MonologueConfig(enabled=False),
        remember_theme=False,
    )

    async def populate() -> None:
        await spawn(app, count)
        await asyncio.sleep(SETTLE_S)
        app.main.tree_view.focus()
        await asyncio.sleep(0.2)  # the focus drawn
        ready.write_text(str(count))

    async def run() -> None:
        task = asyncio.get_running_loop().create_task(populate())
        await app.run_async()
        task.cancel()

    asyncio.run(run())


if __name__ == "__main__":
    main(int(sys.argv[1]), Path(sys.argv[2]))
