"""The app with N live root agents, run on the terminal it was started in: what pty_bench.py's
--tree-keys execs in its pseudo-terminal. Not a test.

    .venv/bin/python tests/bench/pty_live_app.py N READY_FILE [TRACE_FILE]

The `agentui` command cannot start thousands of live roots (one task, or a script's agents
under one main), so this runs the app `agentui` runs (AgentUIApp, Textual's own Linux driver,
its input thread and writer thread, the collector policy, the executable's collector and
switch interval at start) on live_bench.py's provider: the
first 100 agents stream 5 chunks/s for ever, the rest hold a stream open. Once every agent is
in the tree and has run 1.5 s, the tree is focused and READY_FILE is written: the bench's
keys start then.

With TRACE_FILE, a line is written there (perf_counter seconds, the clock the bench reads: both
are CLOCK_MONOTONIC) for each key as the app takes it (`key NAME PARSED HANDLED`: when the
driver's input thread made the event, when the app's loop got to it), each screen update
(`update START`: the refresh timer fired) and each frame handed to the driver's writer thread
(`frame START END NAME`: the selected agent's name), so the bench can say where a key's time
went.

With PTY_LIVE_FRAME_DETAIL=1 in the environment (pty_bench passes it on), each update is
followed by a `detail START END layout=0|1 reflow=MS | Widget#id=MS/LINES ...` line: whether it
laid the screen out, the compositor's reflow, and each widget drawn (wall ms, the
lines asked for), dearest first: which widgets a key's frame drew. Off by default: timing every
widget's drawing adds a little to each frame.
"""

from __future__ import annotations

import gc

gc.disable()  # as the `agentui` executable starts (tui/cli/launch.py); the app turns it on

import asyncio  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any, TextIO  # noqa: E402

from live_bench import spawn, streaming_provider  # noqa: E402
from textual import events  # noqa: E402
from textual._compositor import Compositor  # noqa: E402
from textual.screen import Screen  # noqa: E402
from textual.widget import Widget  # noqa: E402
from ui_bench import PerfClock  # noqa: E402

from agentui.core.monologue.config import MonologueConfig  # noqa: E402
from agentui.core.runtime import Runtime  # noqa: E402
from agentui.core.tools.registry import ToolRegistry  # noqa: E402
from agentui.tui.app.app import AgentUIApp  # noqa: E402
from agentui.tui.cli.launch import FRAME_HANDOFF_S  # noqa: E402

sys.setswitchinterval(FRAME_HANDOFF_S)  # as the `agentui` executable runs (launch.py)

STREAMING = 100
CHUNKS_PER_S = 5.0
SETTLE_S = 1.5  # every agent streaming or holding before the first key (as live_bench)


class TracedApp(AgentUIApp):
    """AgentUIApp noting when keys and frames happen (nothing else differs)."""

    trace: TextIO | None = None

    async def on_event(self, event: events.Event) -> None:
        if self.trace is not None and isinstance(event, events.Key):
            self.trace.write(f"key {event.key} {event.time} {time.perf_counter()}\n")
        await super().on_event(event)

    def _display(self, screen: Screen[Any], renderable: Any) -> None:
        began = time.perf_counter()
        super()._display(screen, renderable)
        if self.trace is not None and renderable is not None and self._main is not None:
            selected = self._main.selected_agent()
            name = selected.name if selected is not None else "-"
            self.trace.write(f"frame {began} {time.perf_counter()} {name}\n")


def trace_updates(trace: TextIO) -> None:
    """Note when each screen update starts (the refresh timer's tick: frame pacing)."""
    update = Screen._on_timer_update

    def traced(screen: Screen[Any]) -> None:
        trace.write(f"update {time.perf_counter()}\n")
        update(screen)

    Screen._on_timer_update = traced  # type: ignore[method-assign]  # this process only


def trace_frame_detail(trace: TextIO) -> None:
    """After each update, what it drew: its reflow and each widget's drawing (this process
    only; see the module's docstring)."""
    drawn: dict[str, list[float]] = {}
    reflows: list[float] = []
    render_lines = Widget.render_lines
    reflow = Compositor.reflow
    update = Screen._on_timer_update

    def timed_render_lines(widget: Widget, crop: Any) -> Any:
        began = time.perf_counter()
        strips = render_lines(widget, crop)
        name = f"{type(widget).__name__}#{widget.id or ''}"
        spent = drawn.setdefault(name, [0.0, 0])
        spent[0] += time.perf_counter() - began
        spent[1] += crop.height
        return strips

    def timed_reflow(compositor: Compositor, parent: Any, size: Any) -> Any:
        began = time.perf_counter()
        result = reflow(compositor, parent, size)
        reflows.append(time.perf_counter() - began)
        return result

    def detailed(screen: Screen[Any]) -> None:
        drawn.clear()
        reflows.clear()
        laid_out = int(screen._layout_required)
        began = time.perf_counter()
        update(screen)
        ended = time.perf_counter()
        widgets = " ".join(
            f"{name}={spent * 1000:.1f}/{lines}"
            for name, (spent, lines) in sorted(drawn.items(), key=lambda item: -item[1][0])
        )
        trace.write(
            f"detail {began} {ended} layout={laid_out} reflow={sum(reflows) * 1000:.1f}"
            f" | {widgets}\n"
        )

    Widget.render_lines = timed_render_lines  # type: ignore[method-assign]  # this process only
    Compositor.reflow = timed_reflow  # type: ignore[method-assign]
    Screen._on_timer_update = detailed  # type: ignore[method-assign]


def main(count: int, ready: Path, trace_path: Path | None) -> None:
    provider = streaming_provider(min(STREAMING, count), CHUNKS_PER_S)
    app = TracedApp(
        lambda: Runtime(provider, tools=ToolRegistry([]), clock=PerfClock()),
        clock=PerfClock(),
        monologue=MonologueConfig(enabled=False),
        remember_theme=False,
    )
    if trace_path is not None:
        trace = trace_path.open("w", buffering=1)  # a line at a time: the bench kills the app
        app.trace = trace
        if os.environ.get("PTY_LIVE_FRAME_DETAIL") == "1":
            trace_frame_detail(trace)  # wrapped by trace_updates: its line comes first
        trace_updates(trace)

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
    main(int(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]) if len(sys.argv) > 3 else None)
