"""Benchmark of the live screen at scale (issue 14), headless with real rendering. Not a test.

    .venv/bin/python tests/bench/live_bench.py [--quick | --smoke] [--only keys,gc,streams,pause,startup,memory]

Prints one JSON object (and a line per part on stderr as it goes).

1. keys: 1,000 / 3,000 / 5,000 live root agents (100 streaming 5 chunks/s, the rest holding a
   stream open), 120x40: a letter typed in the prompt, and arrow-down on the tree, each timed from
   the key event handed to the app to the first rendered frame that shows its effect (the letter
   in the box; the transcript switched to the next agent). p50/p95/max, app CPU, spawn rate.
2. gc: every collection during part 1 timed with gc.callbacks: the longest pause per size.
3. streams: 200 agents x 100 chunks/s for 10 s, the first agent selected: lag from a chunk's
   event to the first frame after it (p95 <= 100 ms, max <= 300 ms), CPU (< 1 core).
4. pause: under the load of 3, `p` on the selected agent: time from the key event to the last
   chunk that agent emitted (p95 <= 20 ms).
5. startup: exec -> the first full frame of `agentui` in a 120x40 pseudo-terminal, against a
   bare Textual app (Static + Input) in the same harness (ratio <= 1.5), median of runs; and
   against Textual's stock widgets in agentui's layout with no agentui code (what Textual
   itself costs for this screen); and `agentui` with an API key set (Claude's path: its SDK
   must load after the first frame; the key is fake, nothing is sent before a task).
6. memory: 4 M characters streamed over 100 agents in the app (a child process): peak RSS
   (<= 120 MiB), beside the same app with no agent; once as the benchmark's app (no session),
   and once as the issue measured it: the app `agentui` builds (cli's own path: settings, the
   offline scripted model playing a script, the six-step workflow off) recording its session.

`--quick` runs every part smaller (about 45 s); `--smoke` smaller still (CI's smoke step: each
part runs, in a few seconds; its figures mean little).
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import fcntl
import gc
import json
import os
import pty
import random
import select
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyte
from figures import spread_ms
from textual import events
from ui_bench import MultiProvider, PacedProvider, make_app, until

from agentui.core.protocol.events import TextDelta

SIZE = (120, 40)
SIZES = (1000, 3000, 5000)


def fresh_heap() -> None:
    """Start a part as in a process of its own: the garbage of the parts before collected, and
    what survives them frozen out of the collector's way (the app gives it back at exit)."""
    gc.collect()
    gc.freeze()


class GcPauses:
    """Every collection's duration, from gc.callbacks."""

    def __init__(self) -> None:
        self.pauses: list[tuple[float, int]] = []  # (seconds, generation)
        self._started = 0.0

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.pauses.append((time.perf_counter() - self._started, info["generation"]))

    def __enter__(self) -> GcPauses:
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._callback)

    def summary(self) -> dict[str, Any]:
        longest = max(self.pauses, default=(0.0, -1))
        return {
            "collections": len(self.pauses),
            "longest_ms": round(longest[0] * 1000, 1),
            "longest_generation": longest[1],
            "total_ms": round(sum(p for p, _ in self.pauses) * 1000, 1),
            "tracked_objects": len(gc.get_objects()),
            "frozen_objects": gc.get_freeze_count(),
        }


class FrameProbe:
    """Times a key from the moment it is handed to the app to the first frame showing its
    effect (`shown()` true when the frame is drawn)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.waiting: tuple[float, Callable[[], bool]] | None = None
        self.latencies: list[float] = []
        app.on_frame.append(self._frame)

    def _frame(self, at: float) -> None:
        if self.waiting is not None and self.waiting[1]():
            self.latencies.append(at - self.waiting[0])
            self.waiting = None

    async def press(self, key: str, character: str | None, shown: Callable[[], bool]) -> None:
        event = events.Key(key, character)
        event.set_sender(self.app)
        self.waiting = (time.perf_counter(), shown)
        self.app._driver.send_message(event)
        await until(lambda: self.waiting is None, safety_s=30)


def streaming_provider(streaming: int, chunks_per_s: float) -> MultiProvider:
    """Agents a1..a{streaming} stream `chunks_per_s` for ever; the others hold a stream open."""
    counter = iter(range(10**9))
    words = ["word "] * 10**6  # one list for every agent: 200 copies would take 1.6 GB

    def make() -> PacedProvider:
        if next(counter) < streaming:
            return PacedProvider(words, per_tick=1, tick_s=1 / chunks_per_s, hold=True)
        return PacedProvider(["x"], per_tick=1, tick_s=0.0, hold=True)

    return MultiProvider(make)


async def spawn(app: Any, count: int) -> float:
    """Start `count` roots in batches (as a burst would arrive); returns roots/s of start()."""
    await until(lambda: app.host.started)  # it starts after the first frame
    spent = 0.0
    for first in range(0, count, 250):
        began = time.perf_counter()
        for index in range(first, min(count, first + 250)):
            app.host.runtime.start(f"agent {index} works on its part of the job")
        spent += time.perf_counter() - began
        await asyncio.sleep(0)
    await until(lambda: len(app.main.tree_view._agent_nodes) == count, safety_s=300)
    return count / spent


# -- 1 + 2. keys and gc --------------------------------------------------------------------------


async def keys_at(count: int, presses: int) -> dict[str, Any]:
    fresh_heap()
    app = make_app(streaming_provider(min(100, count), 5.0))
    rng = random.Random(count)
    async with app.run_test(size=SIZE):
        rate = await spawn(app, count)
        await asyncio.sleep(1.5)  # every agent streaming or holding
        probe = FrameProbe(app)
        with GcPauses() as pauses:
            cpu0, wall0 = time.process_time(), time.perf_counter()
            app.main.prompt_view.focus()
            await asyncio.sleep(0.1)
            typing: list[float] = []
            for index in range(presses):
                letter = "abcdefghij"[index % 10]
                before = len(app.main.prompt_view.text)
                await probe.press(
                    letter, letter, lambda b=before: len(app.main.prompt_view.text) > b
                )
                await asyncio.sleep(rng.uniform(0.05, 0.25))
            typing, probe.latencies = probe.latencies, []
            app.main.prompt_view.clear()
            app.main.tree_view.focus()
            await asyncio.sleep(0.1)
            for _ in range(presses):
                before = app.main.transcript_view.source
                await probe.press(
                    "down", None, lambda b=before: app.main.transcript_view.source != b
                )
                await asyncio.sleep(rng.uniform(0.05, 0.25))
            arrows = probe.latencies
            cpu = time.process_time() - cpu0
            wall = time.perf_counter() - wall0
            gc_summary = pauses.summary()
    return {
        "agents": count,
        "streaming": min(100, count),
        "spawn_roots_per_s": round(rate),
        "typing_ms": spread_ms(typing),
        "arrow_down_ms": spread_ms(arrows),
        "cpu_cores": round(cpu / wall, 3),
        "gc": gc_summary,
    }


# -- 3 + 4. many streams, and pause under them ---------------------------------------------------


async def streams_and_pause(agents: int, seconds: float, pauses_n: int) -> dict[str, Any]:
    fresh_heap()
    app = make_app(streaming_provider(agents, 100.0))
    lags: list[float] = []
    pending: list[float] = []
    last_chunk: dict[str, float] = {}
    result: dict[str, Any] = {}
    async with app.run_test(size=SIZE):
        await until(lambda: app.host.started)  # it starts after the first frame
        assert app.host.runtime is not None and app.host.events is not None
        # The app's own stream, read where the app reads it: a chunk's lag runs from its
        # event to the first frame after the flush that applied it.
        source = app.host.events
        original_drain = source.drain

        def drain() -> list[Any]:
            batch = original_drain()
            pending.extend(e.ts for e in batch if isinstance(e, TextDelta) and e.agent_id == "a1")
            return batch

        source.drain = drain  # type: ignore[method-assign]
        # Every chunk, lossless, for when each agent's last one was emitted (the app's own
        # stream may merge deltas under load, which would hide the later ones' times).
        every = app.host.runtime.subscribe(maxsize=None)

        async def watch() -> None:
            while batch := await every.next_batch():
                for event in batch:
                    if isinstance(event, TextDelta):
                        last_chunk[event.agent_id] = event.ts

        watcher = asyncio.create_task(watch())

        def frame(at: float) -> None:
            lags.extend(at - ts for ts in pending)
            pending.clear()

        app.on_frame.append(frame)
        for index in range(agents):
            app.host.runtime.start(f"stream {index}")
        await asyncio.sleep(1.0)  # every agent streaming before measuring
        lags.clear()
        with GcPauses() as gcs:
            cpu0, wall0 = time.process_time(), time.perf_counter()
            await asyncio.sleep(seconds)
            cpu = time.process_time() - cpu0
            wall = time.perf_counter() - wall0
            gc_streams = gcs.summary()
        result["streams"] = {
            "agents": agents,
            "chunks_per_s_per_agent": 100,
            "seconds": seconds,
            "lag_ms": spread_ms(lags),
            "cpu_cores": round(cpu / wall, 3),
            "gc": gc_streams,
        }
        # 4. p on the selected agent (a1, the first), then r, many times, under the same load.
        app.main.tree_view.focus()
        await until(lambda: app.main.selected_id == "a1")
        latencies: list[float] = []
        to_call: list[float] = []  # key -> the app's call of runtime.pause (the app's share)
        called: list[float] = []
        runtime_pause = app.host.runtime.pause

        def pause(agent_id: str) -> None:
            called.append(time.perf_counter())
            runtime_pause(agent_id)

        app.host.runtime.pause = pause  # type: ignore[method-assign]
        rng = random.Random(4)
        for _ in range(pauses_n):
            pressed = time.perf_counter()
            event = events.Key("p", "p")
            event.set_sender(app)
            app._driver.send_message(event)
            await asyncio.sleep(0.3)  # long enough for anything still in flight to land
            await until(lambda: str(app.main.model.agents["a1"].status) == "paused")
            latencies.append(max(0.0, last_chunk.get("a1", 0.0) - pressed))
            to_call.append(called[-1] - pressed)
            app.host.runtime.resume("a1")
            await until(lambda at=pressed: last_chunk.get("a1", 0.0) > at + 0.3)
            await asyncio.sleep(rng.uniform(0.05, 0.2))
        result["pause"] = {
            "under": f"{agents} agents x 100 chunks/s",
            "key_to_last_chunk_ms": spread_ms(latencies),
            "key_to_pause_call_ms": spread_ms(to_call),
        }
        watcher.cancel()
    return result


# -- 5. start-up ---------------------------------------------------------------------------------

BARE_APP = """
from textual.app import App
from textual.widgets import Input, Static

class Bare(App):
    def compose(self):
        yield Static("bare app ready")
        yield Input(placeholder="type here")

Bare().run()
"""

# Textual's own widgets in agentui's layout, and no agentui code: what Textual itself costs
# for this screen, the floor under any agentui start-up.
SAME_WIDGETS_APP = """
from textual.app import App
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Footer, Static, TextArea, Tree

class SameWidgets(App):
    CSS = '''
    #panes { height: 1fr; }
    Tree { width: 30; border: round $primary; }
    #transcript { width: 1fr; border: round $primary; }
    #monologue { width: 30; border: round $primary; }
    TextArea { height: 3; }
    #status { height: 1; }
    '''
    BINDINGS = [("ctrl+q", "quit", "Quit"), ("n", "new", "New task"), ("p", "pause", "Pause")]

    def compose(self):
        with Horizontal(id="panes"):
            tree = Tree("agents")
            tree.show_root = False
            yield tree
            yield VerticalScroll(Static("transcript"), id="transcript")
            yield VerticalScroll(Static("Nothing narrated yet"), id="monologue")
        yield TextArea(id="prompt")
        yield Static("offline scripted model, same widgets ready", id="status")
        yield Footer()

    def on_mount(self):
        self.query_one(TextArea).focus()

SameWidgets().run()
"""


def on_a_pty(argv: list[str], env: dict[str, str]) -> tuple[int, int, pyte.Screen, Any]:
    """`argv` started on a SIZE pseudo-terminal: its pid, the terminal's fd, and the pyte
    screen with the stream that feeds it."""
    columns, rows = SIZE
    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe(argv[0], argv, env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    screen = pyte.Screen(columns, rows)
    return pid, fd, screen, pyte.ByteStream(screen)


NEXT_PIECE_S = 0.02  # a frame's next piece comes within this once the pty has room


def first_frame_s(argv: list[str], env: dict[str, str], marks: list[str]) -> float:
    """exec -> every mark on the pseudo-terminal's screen; the child is killed after."""
    began = time.perf_counter()
    pid, fd, screen, stream = on_a_pty(argv, env)
    shown_at = None
    deadline = began + 30
    while shown_at is None and time.perf_counter() < deadline:
        # Everything the child has written is read before any of it is parsed, and a frame
        # counts from when its last byte arrived: parsing as bytes come would make the
        # child wait on a full pty buffer, and charge a big frame for this harness's pace.
        # The pty holds 4 KB: a frame of 30 KB comes in pieces, each written once the one
        # before was read, so the reading waits a moment for the next piece (a wait that is
        # not counted: the frame's time is its last byte's) instead of parsing between them.
        received: list[bytes] = []
        arrived = 0.0
        ended = False  # the child closed the terminal (it exited)
        while select.select([fd], [], [], 0.5 if not received else NEXT_PIECE_S)[0]:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                ended = True
                break
            received.append(chunk)
            arrived = time.perf_counter()
        if not received:
            if ended:
                break
            continue  # a busy machine's child may be silent a while: the deadline bounds it
        stream.feed(b"".join(received))
        text = "\n".join(screen.display)
        if all(mark in text for mark in marks):
            shown_at = arrived
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    os.close(fd)
    if shown_at is None:
        raise TimeoutError(f"never showed {marks}")
    return shown_at - began


def first_key_s(argv: list[str], env: dict[str, str], marks: list[str]) -> float:
    """A letter typed the moment the first full frame is on the pty -> the frame showing it in
    the prompt (the runtime loads right after the first frame: a key must not wait for it)."""
    pid, fd, screen, stream = on_a_pty(argv, env)
    sent = shown = None
    deadline = time.perf_counter() + 30
    while shown is None and time.perf_counter() < deadline:
        if not select.select([fd], [], [], 0.5)[0]:
            continue
        try:
            stream.feed(os.read(fd, 65536))
        except OSError:
            break
        text = "\n".join(screen.display)
        if sent is None and all(mark in text for mark in marks):
            os.write(fd, b"z")
            sent = time.perf_counter()
        elif sent is not None and "task ›  z" in text:
            shown = time.perf_counter()
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    os.close(fd)
    if sent is None or shown is None:
        raise TimeoutError("the typed letter never showed")
    return shown - sent


def startup(runs: int) -> dict[str, Any]:
    home = Path(tempfile.mkdtemp(prefix="agentui-bench-"))
    atexit.register(shutil.rmtree, home, ignore_errors=True)
    # Bytecode is written (and a first run of each discarded): an installed agentui starts
    # from .pyc files; compiling every module on every start is not what a person sees.
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("ANTHROPIC_") and k != "PYTHONDONTWRITEBYTECODE"
    }
    env |= {
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_STATE_HOME": str(home / "state"),
        "TERM": "xterm-256color",
        "COLUMNS": str(SIZE[0]),
        "LINES": str(SIZE[1]),
    }
    bare = home / "bare.py"
    bare.write_text(BARE_APP)
    same = home / "same_widgets.py"
    same.write_text(SAME_WIDGETS_APP)
    same_marks = ["same widgets ready", "^q Quit"]
    agentui = [str(Path(sys.executable).with_name("agentui")), "--no-session"]
    # The app's full first frame: the panes' titles, the status bar and the footer.
    app_marks = [
        "agents",
        "transcript",
        "Nothing narrated yet",
        "offline scripted model",
        "^q Quit",
    ]
    first_frame_s([sys.executable, str(bare)], env, ["bare app ready"])
    first_frame_s([sys.executable, str(same)], env, same_marks)
    first_frame_s(agentui, env, app_marks)
    keyed_env = env | {"ANTHROPIC_API_KEY": "sk-ant-not-a-real-key"}
    keyed_marks = [*app_marks[:3], "picked by ANTHROPIC_API_KEY", "^q Quit"]
    first_frame_s(agentui, keyed_env, keyed_marks)
    ours, theirs, textuals, keyed = [], [], [], []
    for _ in range(runs):
        theirs.append(first_frame_s([sys.executable, str(bare)], env, ["bare app ready"]))
        textuals.append(first_frame_s([sys.executable, str(same)], env, same_marks))
        ours.append(first_frame_s(agentui, env, app_marks))
        keyed.append(first_frame_s(agentui, keyed_env, keyed_marks))
    app_s, bare_s = statistics.median(ours), statistics.median(theirs)
    same_s, keyed_s = statistics.median(textuals), statistics.median(keyed)
    keys = [first_key_s(agentui, env, app_marks) for _ in range(runs)]
    # The SDK loads in a thread right then: a key must not wait for it.
    keyed_keys = [first_key_s(agentui, keyed_env, keyed_marks) for _ in range(runs)]
    return {
        "runs": runs,
        "agentui_first_frame_s": round(app_s, 3),
        "bare_textual_first_frame_s": round(bare_s, 3),
        "ratio": round(app_s / bare_s, 2),
        "same_widgets_first_frame_s": round(same_s, 3),
        "same_widgets_ratio": round(same_s / bare_s, 2),
        "ratio_to_same_widgets": round(app_s / same_s, 2),
        "with_anthropic_key_first_frame_s": round(keyed_s, 3),
        "with_anthropic_key_ratio": round(keyed_s / bare_s, 2),
        "first_key_at_first_frame_ms": spread_ms(keys),
        "first_key_at_first_frame_with_anthropic_key_ms": spread_ms(keyed_keys),
        "agentui_all_s": [round(s, 3) for s in ours],
        "bare_all_s": [round(s, 3) for s in theirs],
    }


# -- 6. memory -----------------------------------------------------------------------------------


async def _stream_to_the_end(app: Any, agents: int) -> tuple[float, dict[str, float]]:
    """Start `agents` agents in the running app, wait for all to end; the RSS before and after."""
    await until(lambda: app.host.started)  # it starts after the first frame
    assert app.host.runtime is not None
    idle_rss = _rss()["VmRSS"]
    for index in range(agents):
        app.host.runtime.start(f"stream {index}")

    def done() -> bool:
        agents_ = app.main.model.agents.values()
        return len(agents_) == agents and all(a.status.is_final for a in agents_)

    await until(done)
    # A second and a half: the app gives freed memory back to the system on its next tick.
    await asyncio.sleep(1.5)
    gc.collect()
    return idle_rss, _rss()


async def _memory_child(agents: int, chars: int) -> dict[str, Any]:
    per_agent = chars // agents
    piece = "lorem ipsum dolor si"  # 20 characters a chunk
    provider = MultiProvider(
        lambda: PacedProvider([piece] * (per_agent // len(piece)), per_tick=50, tick_s=0.0)
    )
    app = make_app(provider)
    async with app.run_test(size=SIZE):
        idle_rss, rss = await _stream_to_the_end(app, agents)
    return {
        "agents": agents,
        "chars": chars,
        "idle_app_rss_mib": idle_rss,
        "rss_mib": rss["VmRSS"],
        "peak_rss_mib": rss["VmHWM"],
    }


async def _memory_child_recording(agents: int, chars: int) -> dict[str, Any]:
    """The app as `agentui --script FILE --pace 0 --workflow plain --no-monologue` builds it,
    recording its session under a scratch home; frames rendered as a terminal would."""
    home = Path(tempfile.mkdtemp(prefix="agentui-memory-"))
    atexit.register(shutil.rmtree, home, ignore_errors=True)
    for variable, folder in (
        ("XDG_CONFIG_HOME", "config"),
        ("XDG_DATA_HOME", "data"),
        ("XDG_STATE_HOME", "state"),
    ):
        os.environ[variable] = str(home / folder)
    for variable in [v for v in os.environ if v.startswith(("ANTHROPIC_", "AGENTUI_"))]:
        del os.environ[variable]
    sentence = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. "
    paragraph = sentence * 7 + "\n\n"
    answer = (paragraph * (chars // agents // len(paragraph) + 1))[: chars // agents]
    script = home / "script.json"
    script.write_text(json.dumps({"agents": {"*": [{"text": answer}]}}))
    import ui_bench

    from agentui.tui.app import app as app_module
    from agentui.tui.cli import app_command

    app_module.AgentUIApp = ui_bench.RenderingApp  # type: ignore[misc]
    args = app_command.app_parser().parse_args(
        ["--script", str(script), "--pace", "0", "--workflow", "plain", "--no-monologue"]
    )
    app = app_command.build_app(args)
    async with app.run_test(size=SIZE):
        idle_rss, rss = await _stream_to_the_end(app, agents)
        streamed = sum(len(e.text) for a in app.main.model.agents.values() for e in a.entries)
    sessions = list((home / "data").rglob("*.jsonl"))
    return {
        "agents": agents,
        "transcript_chars": streamed,
        "session_bytes": sum(f.stat().st_size for f in sessions),
        "idle_app_rss_mib": idle_rss,
        "rss_mib": rss["VmRSS"],
        "peak_rss_mib": rss["VmHWM"],
    }


def _rss() -> dict[str, float]:
    values = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key, _, rest = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            values[key] = round(int(rest.split()[0]) / 1024, 1)
    return values


def memory(chars: int) -> dict[str, Any]:
    result = {}
    for name, flag in (("bench_app", "--memory-child"), ("recording", "--memory-child-recording")):
        out = subprocess.run(
            [sys.executable, __file__, flag, str(chars)],
            capture_output=True,
            text=True,
            check=True,
        )
        result[name] = json.loads(out.stdout)
    return result


async def main(quick: bool, only: set[str], smoke: bool = False) -> dict[str, Any]:
    result: dict[str, Any] = {"bench": "agentui.tui.live"}
    quick = quick or smoke

    def say(part: str) -> None:
        print(f"{part}: {json.dumps(result[part])}", file=sys.stderr, flush=True)

    if "keys" in only or "gc" in only:
        sizes = (100,) if smoke else (300, 1000) if quick else SIZES
        result["keys"] = [await keys_at(n, 5 if smoke else 15 if quick else 60) for n in sizes]
        say("keys")
    if "streams" in only or "pause" in only:
        parts = await (
            streams_and_pause(10, 1.0, 3)
            if smoke
            else streams_and_pause(50 if quick else 200, 3.0 if quick else 10.0, 5 if quick else 40)
        )
        result.update(parts)
        say("streams")
        say("pause")
    if "startup" in only:
        result["startup"] = startup(1 if smoke else 3 if quick else 9)
        say("startup")
    if "memory" in only:
        result["memory"] = memory(100_000 if smoke else 400_000 if quick else 4_000_000)
        say("memory")
    return result


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sizes = parser.add_mutually_exclusive_group()
    sizes.add_argument("--quick", action="store_true", help="every part smaller, about 45 s")
    sizes.add_argument("--smoke", action="store_true", help="smaller still: that each part runs")
    parser.add_argument("--only", default="keys,gc,streams,pause,startup,memory")
    parser.add_argument(
        "--sizes", help="live agents for the keys part, e.g. 5000 (default 1000,3000,5000)"
    )
    parser.add_argument("--memory-child", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--memory-child-recording", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.sizes:
        SIZES = tuple(int(n) for n in args.sizes.split(","))
    if args.memory_child:
        print(json.dumps(asyncio.run(_memory_child(100, args.memory_child))))
    elif args.memory_child_recording:
        print(json.dumps(asyncio.run(_memory_child_recording(100, args.memory_child_recording))))
    else:
        print(json.dumps(asyncio.run(main(args.quick, set(args.only.split(",")), args.smoke))))
