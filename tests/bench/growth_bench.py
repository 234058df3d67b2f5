"""Growth benchmark (issue 33): how the app's cost grows with the run. Not a test.

    .venv/bin/python tests/bench/growth_bench.py --chars 1000000 [--json]
    .venv/bin/python tests/bench/growth_bench.py --agents 10000 [--json]
    .venv/bin/python tests/bench/growth_bench.py --all-view [--agents 100 --chars-each 100000]
    .venv/bin/python tests/bench/growth_bench.py --quick --json     # CI's smoke run, seconds

The real app, headless, with every frame's segments rendered as a terminal would (ui_bench's
RenderingApp), on the scripted provider (the offline model, 3-8 character chunks):

- `--chars N`: one agent's answer of N characters of Markdown (headings, paragraphs, lists,
  code) grows through checkpoints 10 k, 30 k, 100 k, ... up to N. The provider is held at each
  checkpoint; `fill_us_per_char` is the process's CPU per character for the stretch before it
  (streamed unpaced, until the screen shows it all). Then, for `--window` seconds, the answer
  streams on at 100 chunks/s (about 550 characters/s, a fast model) while letters are typed in
  the prompt: frames/s, CPU per frame and the typed key's latency (key event handed to the app
  -> the first frame showing the letter, p50/p95). Then the transcript is scrolled to random
  places and back to the end: each scroll's latency to its frame, and CPU per frame.
- `--agents N`: root agents grow through checkpoints 100, 300, 1 k, 3 k, 10 k, 20 k up to N;
  the first 100 stream 5 chunks/s for ever, the rest hold a stream open after a few characters.
  At each checkpoint, after they are all in the tree: the same window (frames/s, CPU per frame,
  typed key p50/p95, and arrow-down on the tree to the transcript switched).
- `--all-view`: `--agents` N (default 100) root agents each write `--chars-each` C characters
  (default 100 k) of the Markdown above, the provider held at N x C in all; then every agent's
  view is switched to: the app thread's CPU and the wall time to the first frame that shows its
  blocks, what it mounted (blocks, widgets) of how many entries, RSS; the window above with the
  agents streaming on at 5 chunks/s each; scrolls to random places; going to random entries as
  a search does (reveal, then the block at the top of the pane), timed to the first frame that
  shows the entry's top where it stays, with the frames drawn up to it (`reveal_frames`); and
  the monologue's switch from every agent's lines to the selected agent's
  (`monologue_to_selected_cpu_ms`) and back (`monologue_switch_cpu_ms`), with 100 lines per
  agent put in the fold (the bench runs no narrator) and handed to the every-agent view as
  they would have come. `--quick`: 10 agents x 10 k.

At every checkpoint: RSS after a collection. `*_exponent` is the slope of the curve from the
checkpoint before on log-log axes (0: flat; 1: linear in the size): where it rises, the curve
bends. Prints a table (or with `--json`, one line: the points, and the last point's `rss_mib`
and `cpu_per_frame_ms` at the top). Timings are wall clock and CPU of a shared machine: run it
more than once.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import anyio.lowlevel
from figures import spread_ms
from live_bench import FrameProbe, fresh_heap
from ui_bench import RenderingApp, make_app, until

from agentui.core.providers.base import ProviderRequest
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, Turn
from agentui.tui.app.widgets.monologue import MAX_SHOWN as MONOLOGUE_SHOWN

SIZE = (120, 40)
CHAR_POINTS = (10_000, 30_000, 100_000, 300_000, 1_000_000, 3_000_000, 10_000_000)
AGENT_POINTS = (100, 300, 1_000, 3_000, 10_000, 20_000)
STREAMING_AGENTS = 100
WORDS = [
    "agent", "tree", "stream", "token", "render", "layout", "widget", "batch", "flush",
    "frame", "markdown", "session", "fold", "event", "transcript", "scroll", "virtual",
    "height", "chunk", "cursor",
]  # fmt: skip


def markdown_text(chars: int, seed: int = 33) -> str:
    """About `chars` characters of varied Markdown, the same for the same arguments."""
    rng = random.Random(seed)
    out: list[str] = []
    size = 0
    index = 0
    while size < chars:
        if index % 60 == 0:
            part = f"## Section {index // 60 + 1}"
        elif index % 25 == 7:
            part = "\n".join(
                f"- **{rng.choice(WORDS)}** {' '.join(rng.choices(WORDS, k=5))}"
                for _ in range(rng.randint(2, 5))
            )
        elif index % 40 == 19:
            body = "\n".join(
                f"    {rng.choice(WORDS)}_{n} = {rng.randint(0, 999)}"
                for n in range(rng.randint(2, 6))
            )
            part = f"```python\ndef {rng.choice(WORDS)}():\n{body}\n```"
        else:
            words = rng.choices(WORDS, k=rng.randint(8, 30))
            if rng.random() < 0.3:
                words[rng.randrange(len(words))] = f"`{rng.choice(WORDS)}`"
            part = " ".join(words).capitalize() + "."
        out.append(part)
        size += len(part) + 2
        index += 1
    return "\n\n".join(out)[:chars]


class GrowthProvider(ScriptedProvider):
    """The scripted provider, held at a checkpoint: no chunk past `stop_at` characters streams
    until the bench moves it on. `streamers` (agent ids) get the long turn, paced; every other
    agent gets a short one and holds its stream open."""

    def __init__(self, script: Script, *, streaming_turn: Turn | None = None) -> None:
        super().__init__(script, record_requests=False)
        self.sent = 0  # characters cut from the text, the held piece too
        self.released = 0  # characters past the gate (streamed)
        self.stop_at = math.inf
        self.held = False
        self._go = anyio.Event()
        self.streamers: set[str] = set()
        self.streaming_turn = streaming_turn

    def move_to(self, stop_at: float, *, pace_s: float = 0.0) -> None:
        self.stop_at, self.pace_s = stop_at, pace_s
        self.held = False  # until the stream is held again, at the new point
        self._go.set()
        self._go = anyio.Event()

    def _next_turn(self, request: ProviderRequest) -> Turn:
        if (
            self.streaming_turn is not None
            and request.purpose == "agent"
            and request.agent_id in self.streamers
        ):
            return self.streaming_turn
        return super()._next_turn(request)

    def _chunks(self, text: str, rng: random.Random) -> Any:
        for piece in super()._chunks(text, rng):
            self.sent += len(piece)
            yield piece

    async def _tick(self) -> None:
        while self.sent > self.stop_at:
            self.held = True
            await self._go.wait()
        self.held = False
        self.released = self.sent
        if self.pace_s > 0:
            await anyio.sleep(self.pace_s)
        else:
            await super()._tick()


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def exponent(before: dict[str, Any] | None, now: dict[str, Any], size: str, key: str) -> float:
    """Slope on log-log axes from the point before: 0 flat, 1 linear."""
    if before is None or not before.get(key) or not now.get(key):
        return 0.0
    return round(math.log(now[key] / before[key]) / math.log(now[size] / before[size]), 2)


async def window(app: RenderingApp, seconds: float, presses: int, pressing: Any) -> dict[str, Any]:
    """Frames/s, CPU per frame and key latencies over `seconds` while `pressing` presses."""
    probe = FrameProbe(app)
    frames0, cpu0, wall0 = app.frames, time.process_time(), time.perf_counter()
    rng = random.Random(5)
    latencies: list[float] = []
    for index in range(presses):
        await pressing(probe, index)
        await asyncio.sleep(rng.uniform(0.5, 1.5) * seconds / max(presses, 1))
    latencies, probe.latencies = probe.latencies, []
    app.on_frame.remove(probe._frame)
    rest = seconds - (time.perf_counter() - wall0)
    if rest > 0:
        await asyncio.sleep(rest)
    frames = app.frames - frames0
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    return {
        "frames_per_s": round(frames / wall, 1),
        "cpu_per_frame_ms": round(cpu / frames * 1000, 2) if frames else None,
        "app_cpu": round(cpu / wall, 2),
        "key_ms": spread_ms(latencies),
    }


async def type_letter(app: RenderingApp, probe: FrameProbe, index: int) -> None:
    prompt = app.main.prompt_view
    letter = "abcdefghij"[index % 10]
    before = len(prompt.text)
    await probe.press(letter, letter, lambda: len(prompt.text) > before)


# -- one agent's transcript ----------------------------------------------------------------------


def shown_chars(app: RenderingApp, agent_id: str) -> int:
    agent = app.main.model.agents.get(agent_id)
    if agent is None:
        return 0
    return sum(len(entry.text) for entry in agent.entries if entry.kind == "text")


async def settle(app: RenderingApp, provider: GrowthProvider, agent_id: str) -> None:
    """Until the provider is held and the screen shows everything it sent."""
    await until(lambda: provider.held and shown_chars(app, agent_id) >= provider.released, 7200)
    synced = time.perf_counter()
    await until(lambda: app.last_frame >= synced)


async def scrolls(app: RenderingApp, count: int) -> dict[str, Any]:
    """Scroll the transcript to `count` random places, each timed to its frame; then back."""
    view = app.main.transcript_view
    rng = random.Random(9)
    latencies: list[float] = []
    cpu_each: list[float] = []  # the app thread's CPU from the scroll to its frame
    frames0, cpu0 = app.frames, time.process_time()
    for _ in range(count):
        target = round(rng.random() * view.max_scroll_y)
        began, thread0 = time.perf_counter(), time.thread_time()
        view.scroll_to(y=target, animate=False)
        wall, thread1 = await frame_after(app, lambda t=target: view.scroll_y == t, began)
        latencies.append(wall)
        cpu_each.append(thread1 - thread0)
        await asyncio.sleep(0.05)
    began = time.perf_counter()
    view.scroll_end(animate=False)
    await until(lambda: app.last_frame > began and view.scroll_y == view.max_scroll_y, 60)
    latencies.append(app.last_frame - began)
    frames = app.frames - frames0
    cpu = time.process_time() - cpu0
    return {
        "scroll_ms": spread_ms(latencies),
        "scroll_cpu_ms": spread_ms(cpu_each),
        "scroll_cpu_per_frame_ms": round(cpu / frames * 1000, 2) if frames else None,
        "virtual_height": view.virtual_size.height,
    }


async def grow_chars(chars: int, points: list[int], seconds: float, presses: int) -> list[dict]:
    fresh_heap()
    text = markdown_text(chars + 200_000)  # the windows stream past the checkpoints
    provider = GrowthProvider(Script.for_all(Turn(text=text)))
    provider.stop_at = 0
    app = make_app(provider)
    rows: list[dict[str, Any]] = []
    async with app.run_test(size=SIZE):
        await until(lambda: app.host.started)  # it starts after the first frame
        assert app.host.runtime is not None
        agent_id = app.host.runtime.start("write a long answer")
        await until(lambda: provider.held)
        for point in points:
            filled_from = provider.released
            cpu0, wall0 = time.process_time(), time.perf_counter()
            provider.move_to(point)
            await settle(app, provider, agent_id)
            fill_cpu, fill_wall = time.process_time() - cpu0, time.perf_counter() - wall0
            added = max(provider.released - filled_from, 1)
            gc.collect()
            row: dict[str, Any] = {
                "chars": provider.released,
                "fill_us_per_char": round(fill_cpu / added * 1e6, 2),
                "fill_s": round(fill_wall, 2),
                "rss_mib": rss_mib(),
            }
            app.main.prompt_view.focus()
            provider.move_to(math.inf, pace_s=0.01)  # 100 chunks/s
            row.update(
                await window(app, seconds, presses, lambda probe, i: type_letter(app, probe, i))
            )
            provider.move_to(provider.sent)
            await settle(app, provider, agent_id)
            app.main.prompt_view.clear()
            row.update(await scrolls(app, max(3, presses // 2)))
            rows.append(row)
            say(row)
    return rows


# -- many agents -------------------------------------------------------------------------------


async def grow_agents(agents: int, points: list[int], seconds: float, presses: int) -> list[dict]:
    fresh_heap()
    hold = Turn(text="Holding this stream open while the others work.", hang_after_chunks=3)
    stream = Turn(text="word " * 200_000)
    provider = GrowthProvider(Script.for_all(hold), streaming_turn=stream)
    provider.pace_s = 0.2  # the streamers' 5 chunks/s (the others stop after 3 chunks)
    app = make_app(provider)
    rows: list[dict[str, Any]] = []
    async with app.run_test(size=SIZE):
        await until(lambda: app.host.started)
        runtime = app.host.runtime
        assert runtime is not None
        started = 0
        for point in points:
            spent = 0.0
            while started < point:
                began = time.perf_counter()
                for _ in range(min(250, point - started)):
                    agent_id = runtime.start(f"agent {started} works on its part of the job")
                    if started < STREAMING_AGENTS:
                        provider.streamers.add(agent_id)
                    started += 1
                spent += time.perf_counter() - began
                await asyncio.sleep(0)
            await until(lambda n=started: len(app.main.tree_view._agent_nodes) == n, 600)
            await asyncio.sleep(1.0)  # every new agent streaming or holding
            gc.collect()
            row: dict[str, Any] = {
                "agents": started,
                "start_per_s": round((point - (rows[-1]["agents"] if rows else 0)) / spent),
                "rss_mib": rss_mib(),
            }
            app.main.prompt_view.focus()
            await asyncio.sleep(0.1)
            row.update(
                await window(app, seconds, presses, lambda probe, i: type_letter(app, probe, i))
            )
            app.main.prompt_view.clear()
            app.main.tree_view.focus()
            await asyncio.sleep(0.1)
            transcript = app.main.transcript_view

            async def arrow(probe: FrameProbe, index: int, view: Any = transcript) -> None:
                before = view.source
                await probe.press("down", None, lambda: view.source != before)

            arrows = await window(app, seconds / 2, max(3, presses // 2), arrow)
            row["arrow_down_ms"] = arrows["key_ms"]
            rows.append(row)
            say(row)
    return rows


# -- every agent's transcript at once ------------------------------------------------------------


def timeline_chars(app: RenderingApp) -> int:
    return sum(len(entry.text) for entry in app.main.model.timeline if entry.kind == "text")


def widgets_in(view: Any) -> int:
    return sum(1 for _ in view.walk_children())


async def frame_after(
    app: RenderingApp, condition: Any = lambda: True, began: float | None = None
) -> tuple[float, float]:
    """Seconds from `began` (default: now) to the first frame drawn after it with `condition`
    true as it is drawn, and the app thread's CPU time (time.thread_time) then."""
    began = time.perf_counter() if began is None else began
    seen: list[tuple[float, float]] = []

    def frame(at: float) -> None:
        if not seen and at > began and condition():
            seen.append((at - began, time.thread_time()))

    app.on_frame.append(frame)
    try:
        await until(lambda: bool(seen), safety_s=120)
    finally:
        app.on_frame.remove(frame)
    return seen[0]


async def reveals(app: RenderingApp, count: int) -> dict[str, Any]:
    """Go to `count` random entries of the view (as a search does: reveal, then its block at
    the top of the pane after the refresh), each timed to the first frame that shows the
    entry's top where it stays (its first part: an answer's head, not its live tail), with
    the frames drawn up to it."""
    view = app.main.transcript_view
    rng = random.Random(11)
    latencies: list[float] = []
    cpu_each: list[float] = []  # the app thread's CPU from going there to the frame
    frames_each: list[int] = []
    frames0, cpu0 = app.frames, time.process_time()
    for _ in range(count):
        index = rng.randrange(len(view.entries))
        drawn: list[tuple[float, float, Any]] = []  # each frame: when, CPU then, where the top was

        def frame(at: float, drawn: list[Any] = drawn, uid: int = view.entries[index].uid) -> None:
            block = view.block_of(uid)
            top = block.parts()[0] if block is not None else None
            shown = top is not None and top.is_mounted and top.region.overlaps(view.region)
            drawn.append((at, time.thread_time(), top.region if shown else None))

        app.on_frame.append(frame)
        began, thread0 = time.perf_counter(), time.thread_time()
        block = view.reveal(index)
        assert block is not None, "an entry of the view was not reachable"
        scrolled: list[float] = []

        def show(block: Any = block, scrolled: list[float] = scrolled) -> None:
            view.show_block(block)
            scrolled.append(time.perf_counter())

        view.call_after_refresh(show)
        try:
            await until(lambda d=drawn, s=scrolled: bool(s) and any(r for *_, r in d), 120)
            await asyncio.sleep(0.05)  # what the scroll after the refresh still moves
        finally:
            app.on_frame.remove(frame)
        final = block.parts()[0].region
        at, thread1, _ = next((f for f in drawn if f[2] == final), drawn[-1])
        latencies.append(at - began)
        cpu_each.append(thread1 - thread0)
        frames_each.append(sum(1 for f in drawn if f[0] <= at))
    frames = app.frames - frames0
    cpu = time.process_time() - cpu0
    return {
        "reveal_ms": spread_ms(latencies),
        "reveal_cpu_ms": spread_ms(cpu_each),
        "reveal_frames": {"p50": statistics.median(frames_each), "max": max(frames_each)},
        "reveal_cpu_per_frame_ms": round(cpu / frames * 1000, 2) if frames else None,
    }


async def monologue_switch(
    app: RenderingApp, agent_ids: list[str], lines: int
) -> tuple[float, float]:
    """CPU ms (the app thread's) of switching the monologue from every agent's lines to the
    selected agent's, and back, each to the frame that shows them all laid out, with `lines`
    narratives of all the agents in the fold (made here: the bench runs no narrator), handed
    to the every-agent view as the screen hands it new ones."""
    from agentui.core.protocol.narrative import NarrativeEntry, NarrativeMetadata
    from agentui.core.state.run_state import MonologueLine

    metadata = NarrativeMetadata(
        event_count=40, history_length=3, is_final=False, model="bench", latency_ms=1.0
    )
    model = app.main.model
    for index in range(lines):
        agent_id = agent_ids[index % len(agent_ids)]
        text = f"I am on part {index} of the job and the {WORDS[index % len(WORDS)]} is next."
        entry = NarrativeEntry(
            timestamp=time.time(), agent_name=agent_id, task_id=agent_id, text=text,
            metadata=metadata,
        )  # fmt: skip
        model.monologue.append(MonologueLine(agent_id, entry))
    view = app.main.monologue_view
    # As the screen hands the view new lines, the newest (the view keeps no more).
    view.add([(line.agent_id, line.entry) for line in model.monologue[-MONOLOGUE_SHOWN:]])

    def laid_out(count: int) -> bool:
        lines = [s for s in view.query(".narrative") if s.display]
        return len(lines) == count and all(s.size.height > 0 for s in lines)

    await frame_after(app, lambda: laid_out(min(MONOLOGUE_SHOWN, lines)))
    await asyncio.sleep(0.3)  # what the switch left to do (widgets being removed) is done
    thread0 = time.thread_time()
    app.main.action_toggle_monologue_filter()  # the selected agent's
    _, thread1 = await frame_after(
        app, lambda: laid_out(min(MONOLOGUE_SHOWN, lines // len(agent_ids)))
    )
    await asyncio.sleep(0.3)
    thread2 = time.thread_time()
    app.main.action_toggle_monologue_filter()  # every agent's
    _, thread3 = await frame_after(app, lambda: laid_out(min(MONOLOGUE_SHOWN, lines)))
    return round((thread1 - thread0) * 1000, 1), round((thread3 - thread2) * 1000, 1)


async def all_view(agents: int, chars_each: int, seconds: float, presses: int) -> dict[str, Any]:
    fresh_heap()
    text = markdown_text(chars_each + 100_000)  # the window streams on past the point
    provider = GrowthProvider(Script.for_all(Turn(text=text)))
    provider.stop_at = 0
    app = make_app(provider)
    async with app.run_test(size=SIZE):
        await until(lambda: app.host.started)
        runtime = app.host.runtime
        assert runtime is not None
        agent_ids = [runtime.start(f"agent {n} writes its long answer") for n in range(agents)]
        await until(lambda: provider.held, 600)
        cpu0, wall0 = time.process_time(), time.perf_counter()
        provider.move_to(agents * chars_each)  # the agents take turns: each about chars_each
        await until(lambda: provider.held and timeline_chars(app) >= provider.released, 7200)
        await frame_after(app)
        fill_cpu, fill_wall = time.process_time() - cpu0, time.perf_counter() - wall0
        main = app.main
        view = main.transcript_view
        assert not main.show_all
        gc.collect()
        row: dict[str, Any] = {
            "agents": agents,
            "chars": provider.released,
            "fill_us_per_char": round(fill_cpu / max(provider.released, 1) * 1e6, 2),
            "fill_s": round(fill_wall, 2),
            "rss_before_mib": rss_mib(),
        }
        # The switch: its CPU until the frame showing the view, and until the next.
        began, thread0 = time.perf_counter(), time.thread_time()
        main.action_toggle_all()
        wall, thread1 = await frame_after(
            app,
            lambda: all(b.is_mounted for b in view.mounted_blocks()) and view.source == "*",
            began,
        )
        # The app's own thread (the process's CPU counts the session writer's thread too).
        row["switch_cpu_ms"] = round((thread1 - thread0) * 1000, 1)
        row["switch_ms"] = round(wall * 1000, 1)
        _, thread2 = await frame_after(app)
        row["switch_settled_cpu_ms"] = round((thread2 - thread0) * 1000, 1)
        row["entries"] = len(view.entries)
        row["mounted_blocks"] = len(view.mounted_blocks())
        row["widgets"] = widgets_in(view)
        gc.collect()
        row["rss_mib"] = rss_mib()
        main.prompt_view.focus()
        provider.move_to(math.inf, pace_s=0.2)  # each agent 5 chunks/s
        row.update(await window(app, seconds, presses, lambda p, i: type_letter(app, p, i)))
        provider.move_to(provider.sent)
        await until(lambda: provider.held and timeline_chars(app) >= provider.released, 600)
        main.prompt_view.clear()
        row.update(await scrolls(app, max(3, presses // 2)))
        row.update(await reveals(app, max(3, presses // 2)))
        row["widgets_after"] = widgets_in(view)
        gc.collect()
        row["rss_after_mib"] = rss_mib()
        to_selected, to_all = await monologue_switch(app, agent_ids, 100 * agents)
        row["monologue_to_selected_cpu_ms"] = to_selected
        row["monologue_switch_cpu_ms"] = to_all
        say(row)
    return row


# -- output ------------------------------------------------------------------------------------


def say(row: dict[str, Any]) -> None:
    print(json.dumps(row), file=sys.stderr, flush=True)


def with_exponents(rows: list[dict[str, Any]], size: str) -> list[dict[str, Any]]:
    before = None
    for row in rows:
        row["rss_exponent"] = exponent(before, row, size, "rss_mib")
        row["cpu_per_frame_exponent"] = exponent(before, row, size, "cpu_per_frame_ms")
        before = row
    return rows


def table(rows: list[dict[str, Any]], size: str) -> str:
    columns = [
        (size, size),
        ("rss_mib", "RSS MiB"),
        ("rss_exponent", "RSS slope"),
        ("frames_per_s", "frames/s"),
        ("cpu_per_frame_ms", "CPU/frame ms"),
        ("cpu_per_frame_exponent", "CPU/frame slope"),
        ("app_cpu", "app CPU"),
    ]
    if size == "chars":
        columns.insert(1, ("fill_us_per_char", "fill µs/char"))
        columns.append(("scroll_cpu_per_frame_ms", "scroll CPU/frame ms"))
    lines = [" | ".join(title for _, title in columns)]
    for row in rows:
        cells = [str(row.get(key)) for key, _ in columns]
        cells.append(f"key p50/p95 {row['key_ms']['p50']}/{row['key_ms']['p95']} ms")
        if "scroll_ms" in row:
            cells.append(f"scroll p95 {row['scroll_ms']['p95']} ms")
        if "arrow_down_ms" in row:
            cells.append(f"arrow p95 {row['arrow_down_ms']['p95']} ms")
        lines.append(" | ".join(cells))
    return "\n".join(lines)


def points_up_to(limit: int, points: tuple[int, ...]) -> list[int]:
    chosen = [p for p in points if p < limit]
    return [*chosen, limit]


async def main(args: argparse.Namespace) -> dict[str, Any]:
    seconds, presses = (0.6, 4) if args.quick else (args.window, 12)
    result: dict[str, Any] = {"bench": "agentui.growth", "load": _load()}
    chars = args.chars or (30_000 if args.quick else None)
    agents = args.agents or (300 if args.quick else None)
    if args.all_view and args.quick:
        agents, args.chars_each = args.agents or 10, min(args.chars_each, 10_000)
    if args.all_view:
        row = await all_view(agents or 100, args.chars_each, seconds, presses)
        result["all_view"] = row
        result["rss_mib"] = row["rss_mib"]
        result["cpu_per_frame_ms"] = row["cpu_per_frame_ms"]
        result["load_after"] = _load()
        return result
    if chars is None and agents is None:
        chars = 1_000_000
    if chars:
        rows = await grow_chars(chars, points_up_to(chars, CHAR_POINTS), seconds, presses)
        result["chars"] = with_exponents(rows, "chars")
    if agents:
        rows = await grow_agents(agents, points_up_to(agents, AGENT_POINTS), seconds, presses)
        result["agents"] = with_exponents(rows, "agents")
    last = (result.get("chars") or result.get("agents"))[-1]
    result["rss_mib"] = last["rss_mib"]
    result["cpu_per_frame_ms"] = last["cpu_per_frame_ms"]
    result["load_after"] = _load()
    return result


def _load() -> list[float]:
    return [float(x) for x in Path("/proc/loadavg").read_text().split()[:3]]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--chars", type=int, help="grow one agent's answer to N characters")
    parser.add_argument("--agents", type=int, help="grow the run to N live root agents")
    parser.add_argument(
        "--all-view",
        action="store_true",
        help="--agents N (default 100) each write --chars-each characters; then every agent's view",
    )
    parser.add_argument(
        "--chars-each", type=int, default=100_000, help="with --all-view: each agent's answer"
    )
    parser.add_argument("--window", type=float, default=3.0, help="seconds measured per point")
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--json", action="store_true", help="one line of JSON")
    arguments = parser.parse_args()
    outcome = asyncio.run(main(arguments))
    if arguments.json:
        print(json.dumps(outcome))
    else:
        if "all_view" in outcome:
            for key, value in outcome["all_view"].items():
                print(f"{key}: {value}")
        for kind in ("chars", "agents"):
            if kind in outcome:
                print(table(outcome[kind], kind))
        print(f"load {outcome['load']} -> {outcome['load_after']}")
