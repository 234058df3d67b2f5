"""What a person feels: the benches whose figures carry a goal, measured through a real
pseudo-terminal (issue 36). Not a test.

    .venv/bin/python tests/bench/pty_bench.py [--startup] [--resume] [--tree-keys N[,N...]]
        [--runs R] [--presses P] [--no-in-process] [--quick] [--json]

With no part named, all three run (--tree-keys 5000). Each command is exec'd on a 120x40
pseudo-terminal (pty_terminal.py): keys are written to the terminal, and a figure ends when
the whole frame showing the effect has been read back (Textual's synchronized-output block,
?2026h .. ?2026l, has ended; the terminal says it supports the mode, as kitty, WezTerm or a
recent xterm do) and parsed by pyte (for --startup and --resume, once its last byte has come:
FrameReadingTerminal). Beside each, the in-process figure the older bench
reports for the same thing, so the difference is visible:

--startup   exec -> the first whole frame of `.venv/bin/agentui --no-session` (the panes,
            the status bar, the footer) against a bare Textual app (Static + Input) exec'd the
            same way: medians of R runs (default 9, interleaved, after a warm-up that writes
            bytecode), goal ratio <= 1.5 on a quiet machine; and Textual's stock widgets in
            agentui's layout with no agentui code (live_bench's `same widgets` app: what
            Textual itself costs for this screen). Beside: live_bench.py's harness (also a
            pty, a frame counted from a quiet gap after its bytes).
--resume    `.venv/bin/agentui --resume ID` of a 100k-event, 1,000-agent session made by
            session_bench.make_session (a scratch data directory): exec -> the first whole
            frame with every agent in it (the status bar's count), goal <= 0.5 s; with the
            checkpoint its writer kept when it closed the log (core/session/checkpoint.py),
            and without it (the log read and folded whole, as after a crash), interleaved.
            Beside: session_bench.resume_to_first_frame (in process, headless, Textual
            imported; with the checkpoint).
--tree-keys arrow-down on the tree with N live root agents (100 streaming 5 chunks/s, the rest
            holding a stream open; live_bench.py's provider), the app run on the pty by
            pty_live_app.py: the key written -> the whole frame whose transcript shows the
            next agent (its title and task). P presses (default 60) 50-250 ms apart; goal p95
            <= 50 ms at 5,000. Beside: live_bench.keys_at (in process, the key event handed
            to the app -> the frame rendered, no terminal).

Every figure: min / median / max (p95 for keys), with the 1-minute load average before and
after it (os.getloadavg): a number taken on a busy machine says so. `--quick` is the smoke
run (a few seconds each: 3 start-ups, a 2k-event resume, 200 agents, 10 presses).
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import json
import os
import random
import select
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
from figures import percentile
from live_bench import BARE_APP, SAME_WIDGETS_APP, first_frame_s, keys_at
from pty_terminal import SYNC_END, SYNC_START, PtyTerminal
from session_bench import Made, make_session, resume_to_first_frame

from agentui.core.session import checkpoint_keeping
from agentui.core.session.checkpoint import checkpoint_path
from agentui.core.session.checkpoint_keeping import keep_checkpoint

HERE = Path(__file__).resolve().parent
AGENTUI = Path(sys.executable).with_name("agentui")
SIZE = (120, 40)
APP_MARKS = ["agents", "transcript", "Nothing narrated yet", "offline scripted model", "^q Quit"]
BARE_MARKS = ["bare app ready"]
SAME_MARKS = ["same widgets ready", "^q Quit"]


def load() -> float:
    return round(os.getloadavg()[0], 2)


def machine_ms() -> float:
    """The CPU time of a fixed pure-Python workload, median of 5: how fast this machine's CPU
    is now. A virtual machine's host can slow its CPUs by a third without its load average
    showing it (bare Textual's start-up measured 256 ms one evening, 343 the next, both
    quiet): figures of different days compare only beside this."""
    times = []
    for _ in range(5):
        began = time.process_time()
        sum(i * i for i in range(400_000))
        times.append(time.process_time() - began)
    return round(statistics.median(times) * 1000, 1)


def spread(seconds: list[float], *, p95: bool = False) -> dict[str, Any]:
    """min / median / max (and p95) in ms."""
    out: dict[str, Any] = {
        "n": len(seconds),
        "min_ms": round(min(seconds) * 1000, 1),
        "median_ms": round(statistics.median(seconds) * 1000, 1),
    }
    if p95:
        out["p95_ms"] = round(percentile(seconds, 95) * 1000, 1)
    out["max_ms"] = round(max(seconds) * 1000, 1)
    return out


class Loads:
    """The load average around a figure."""

    def __init__(self) -> None:
        self.before = load()

    def done(self) -> dict[str, float]:
        return {"load_before": self.before, "load_after": load()}


def scratch_env(home: Path) -> dict[str, str]:
    """No API key, every agentui directory in `home`, a colour terminal; bytecode written (an
    installed agentui starts from .pyc files)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("ANTHROPIC_", "OPENAI_", "GEMINI_", "GOOGLE_", "AGENTUI_"))
        and k not in ("PYTHONDONTWRITEBYTECODE", "COLUMNS", "LINES")
    }
    return env | {
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_STATE_HOME": str(home / "state"),
        "AGENTUI_CONFIG_DIR": str(home / "config"),
        "AGENTUI_DATA_DIR": str(home / "data"),
        "AGENTUI_STATE_DIR": str(home / "state"),
        "TERM": "xterm-256color",
        "COLORTERM": "truecolor",
        # An agentui put first on PYTHONPATH (a copy of another commit, to compare) is the
        # one the commands run.
        "PYTHONPATH": os.pathsep.join(filter(None, [str(HERE), os.environ.get("PYTHONPATH")])),
    }


def make_home() -> Path:
    home = Path(tempfile.mkdtemp(prefix="agentui-pty-bench-"))
    atexit.register(shutil.rmtree, home, ignore_errors=True)
    return home


class Run:
    """One exec to a frame: its wall time, and the child's CPU time and run-queue wait then."""

    __slots__ = ("cpu_s", "wait_s", "wall_s")

    def __init__(self, wall_s: float, cpu_s: float, wait_s: float) -> None:
        self.wall_s = wall_s
        self.cpu_s = cpu_s  # every thread's time on a CPU (the app's own cost)
        self.wait_s = wait_s  # every thread's time runnable but waiting for a CPU (the load's)


def cpu_and_wait(pid: int) -> tuple[float, float]:
    """Seconds on a CPU and waiting for one, summed over the process's threads still alive
    (/proc/PID/task/*/schedstat, in ns)."""
    cpu = wait = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            on, waited, _ = (task / "schedstat").read_text().split()
        except (OSError, ValueError):
            continue  # the thread ended meanwhile
        cpu += int(on)
        wait += int(waited)
    return cpu / 1e9, wait / 1e9


# How long the rest of a frame may take to come once its synchronized block has begun.
REST_OF_A_FRAME_S = 1.0


class FrameReadingTerminal(PtyTerminal):
    """A PtyTerminal that reads a frame to its end before parsing any of it.

    pyte parses ~1 ms per KB (a 1,000-agent resume's first frame, 25 KB: ~45 ms; agentui's
    empty one, 15 KB: ~19 ms; the bare app's: a few). A pty holds ~4 KB: parsed as it is
    read, the frame's last bytes wait in the app's write for the emulator to parse the first
    ones, and its time counted the emulator's parsing (a real terminal parses a frame in well
    under a millisecond). Here the bytes of a block that has begun are read as they come, and
    parsed once its end has arrived; its time is that arrival."""

    def pump(self, timeout: float, shown: Callable[[], bool] | None = None) -> float | None:
        wait = timeout
        while not self.closed and select.select([self.fd], [], [], wait)[0]:
            chunk = self._read()
            arrived = time.perf_counter()
            while chunk and self._block_open(chunk):
                if not select.select([self.fd], [], [], REST_OF_A_FRAME_S)[0]:
                    break  # the app stopped mid-frame: parse what came
                more = self._read()
                if not more:
                    break
                chunk += more
                arrived = time.perf_counter()
            if not chunk:
                self.closed = True
                break
            if self._take(chunk, arrived, shown):
                return arrived
            wait = 0.0
        return None

    def _read(self) -> bytes:
        try:
            return os.read(self.fd, 1 << 16)
        except OSError:  # the command exited: the pty is closed
            return b""

    def _block_open(self, chunk: bytes) -> bool:
        """Whether a synchronized block has begun and not ended by the end of `chunk` (what
        is pending from earlier reads counted)."""
        data = self._pending + chunk
        return data.rfind(SYNC_START) > data.rfind(SYNC_END)


def first_whole_frame(argv: list[str], env: dict[str, str], shown: Callable[[str], bool]) -> Run:
    """exec -> the first whole frame for which `shown(screen text)` holds (read to its end
    before it is parsed: FrameReadingTerminal); the child killed."""
    term = FrameReadingTerminal(argv, env, SIZE)
    try:
        arrived = term.until(lambda: shown(term.text()), " ".join(argv))
        cpu, wait = cpu_and_wait(term.pid)
        return Run(arrived - term.began, cpu, wait)
    finally:
        term.close()


def runs_spread(runs: list[Run]) -> dict[str, Any]:
    """Wall time min / median / max, and the child's median CPU and run-queue wait."""
    return spread([r.wall_s for r in runs]) | {
        "cpu_median_ms": round(statistics.median(r.cpu_s for r in runs) * 1000, 1),
        "waiting_for_a_cpu_median_ms": round(statistics.median(r.wait_s for r in runs) * 1000, 1),
    }


def has_all(marks: list[str]) -> Callable[[str], bool]:
    return lambda text: all(mark in text for mark in marks)


# -- start-up ------------------------------------------------------------------------------------


def startup(runs: int, in_process: bool) -> dict[str, Any]:
    home = make_home()
    env = scratch_env(home)
    bare = home / "bare.py"
    bare.write_text(BARE_APP)
    same = home / "same_widgets.py"
    same.write_text(SAME_WIDGETS_APP)
    agentui = [str(AGENTUI), "--no-session"]
    bare_argv = [sys.executable, str(bare)]
    same_argv = [sys.executable, str(same)]
    warm_up = ((bare_argv, BARE_MARKS), (same_argv, SAME_MARKS), (agentui, APP_MARKS))
    for argv, marks in warm_up:  # bytecode written
        first_whole_frame(argv, env, has_all(marks))
    loads = Loads()
    ours: list[Run] = []
    theirs: list[Run] = []
    textuals: list[Run] = []
    old_ours: list[float] = []
    old_theirs: list[float] = []
    for _ in range(runs):
        theirs.append(first_whole_frame(bare_argv, env, has_all(BARE_MARKS)))
        textuals.append(first_whole_frame(same_argv, env, has_all(SAME_MARKS)))
        ours.append(first_whole_frame(agentui, env, has_all(APP_MARKS)))
        if in_process:
            old_theirs.append(first_frame_s(bare_argv, env, BARE_MARKS))
            old_ours.append(first_frame_s(agentui, env, APP_MARKS))
    result: dict[str, Any] = {
        "runs": runs,
        "agentui": runs_spread(ours),
        "bare_textual": runs_spread(theirs),
        # Textual's stock widgets in agentui's layout, no agentui code: Textual's own cost.
        "same_widgets": runs_spread(textuals),
        "ratio_of_medians": round(
            statistics.median(r.wall_s for r in ours) / statistics.median(r.wall_s for r in theirs),
            2,
        ),
        "cpu_ratio_of_medians": round(
            statistics.median(r.cpu_s for r in ours) / statistics.median(r.cpu_s for r in theirs),
            2,
        ),
        "goal": "ratio <= 1.5 (quiet machine)",
    }
    if in_process:
        result["live_bench_harness"] = {
            "agentui": spread(old_ours),
            "bare_textual": spread(old_theirs),
            "ratio_of_medians": round(
                statistics.median(old_ours) / statistics.median(old_theirs), 2
            ),
        }
    return result | loads.done()


# -- resume --------------------------------------------------------------------------------------


async def session_of(directory: Path, agents: int) -> Made:
    """session_bench's resume session: a root waiting on a gate while `agents - 1` children
    think and answer (~100 events each)."""
    return await make_session(directory, agents=agents, text_chars=340, thinking_chars=150)


def resume(agents: int, runs: int, in_process: bool) -> dict[str, Any]:
    home = make_home()
    env = scratch_env(home)
    sessions = home / "data" / "sessions"
    sessions.mkdir(parents=True)
    # The session's checkpoint is signed with the key of the state folder the command reads.
    os.environ["AGENTUI_STATE_DIR"] = env["AGENTUI_STATE_DIR"]
    made = anyio.run(lambda: session_of(sessions, agents))
    # As its writer leaves it when it closes the log (a small log's too: --quick's).
    keep_checkpoint(made.path, from_bytes=0)
    kept = home / "kept"
    kept.mkdir()
    for saved in sessions.iterdir():
        shutil.copy2(saved, kept)  # the times too: a checkpoint stands for the log's mtime
    argv = [str(AGENTUI), "--resume", made.path.stem]
    # Every agent in the tree: the status bar counts them (each had ended when it was saved).
    counted = f"done {agents} "

    def restored(checkpoint: bool) -> None:
        """The session as its writer left it (a resume appends to it: each run on a copy),
        with its checkpoint or without (as a crash leaves it, or an older agentui's log)."""
        for leftover in sessions.iterdir():
            leftover.unlink()
        for saved in kept.iterdir():
            if checkpoint or saved.name != checkpoint_path(made.path).name:
                shutil.copy2(saved, sessions)

    def once(checkpoint: bool) -> Run:
        restored(checkpoint)
        return first_whole_frame(argv, env, lambda text: counted in text and "^q" in text)

    once(True)  # bytecode written
    loads = Loads()
    with_checkpoint: list[Run] = []
    from_the_log: list[Run] = []
    for _ in range(runs):  # interleaved: the load falls on both alike
        with_checkpoint.append(once(True))
        from_the_log.append(once(False))
    result: dict[str, Any] = {
        "agents": agents,
        "events": made.events,
        "runs": runs,
        "agentui_resume": runs_spread(with_checkpoint),
        "agentui_resume_reading_the_log": runs_spread(from_the_log),
        "goal": "median <= 500 ms",
    }
    if in_process:
        # Each run's writer would keep a checkpoint when it closes the log (~0.5 s in a worker
        # thread, after its run is timed, while the next one is): not here.
        checkpoint_keeping.CHECKPOINT_FROM_BYTES = 1 << 62
        inside = []
        for _ in range(runs):
            restored(True)
            inside.append(anyio.run(resume_to_first_frame, made.path)["first_frame_s"])
        result["in_process"] = spread(inside)
    for leftover in sessions.iterdir():
        leftover.unlink()
    return result | loads.done()


# -- arrow-down on the tree ----------------------------------------------------------------------


def name_of(index: int) -> str:
    """The tree's name for the index-th root started (they are all called main)."""
    return "main" if index == 0 else f"main-{index + 1}"


def key_breakdown(trace: Path, sends: list[tuple[float, float, str]]) -> dict[str, Any]:
    """Where each arrow-down's time went, from the app's trace (pty_live_app.py) and the
    bench's own times (written, whole frame read back; the agent it should select):

    input     written -> the driver's input thread made the key event (the pty, the thread's
              select, Textual's escape-sequence parser)
    queue     -> the app's loop took it (what the loop was doing meanwhile: a flush, a frame)
    to_tick   -> the screen's refresh timer fired for the frame that shows it: the key's
              handling (the cursor, the transcript switched, the footer asked again), then
              the wait for the timer (frame pacing: Textual draws at most 60 frames/s)
    render    -> that frame began to be handed to the driver (layout, the changed widgets
              rendered, the compositor's update)
    display   -> every byte of it handed to the writer thread (segments to escape codes)
    delivery  -> its last byte read here (the writer thread, the pty, this reader)
    """
    keys: list[tuple[float, float]] = []
    frames: list[tuple[float, float, str]] = []
    updates: list[float] = []
    for line in trace.read_text().splitlines():
        kind, *rest = line.split(" ")
        if kind == "key" and rest[0] == "down" and (not keys or float(rest[1]) != keys[-1][0]):
            keys.append((float(rest[1]), float(rest[2])))  # once: the key comes back up to the app
        elif kind == "frame":
            frames.append((float(rest[0]), float(rest[1]), rest[2]))
        elif kind == "update":
            updates.append(float(rest[0]))
    parts: dict[str, list[float]] = {
        k: [] for k in ("input", "queue", "to_tick", "render", "display", "delivery")
    }
    for (sent, arrived, name), (parsed, handled) in zip(sends, keys, strict=False):
        frame = next((f for f in frames if f[0] >= handled and f[2] == name), None)
        if frame is None:
            continue
        ticks = [u for u in updates if handled <= u <= frame[0]]
        parts["input"].append(parsed - sent)
        parts["queue"].append(handled - parsed)
        tick = ticks[-1] if ticks else frame[0]
        parts["to_tick"].append(tick - handled)
        parts["render"].append(frame[0] - tick)
        parts["display"].append(frame[1] - frame[0])
        parts["delivery"].append(arrived - frame[1])
    return {k: spread(v, p95=True) for k, v in parts.items() if v}


def tree_keys(count: int, presses: int, in_process: bool) -> dict[str, Any]:
    home = make_home()
    env = scratch_env(home)
    ready = home / "ready"
    trace = home / "trace"
    argv = [sys.executable, str(HERE / "pty_live_app.py"), str(count), str(ready), str(trace)]
    rng = random.Random(count)
    term = PtyTerminal(argv, env, SIZE)
    try:
        deadline = time.perf_counter() + 600
        while not ready.exists():
            term.pump(0.1)
            if term.closed or time.perf_counter() > deadline:
                raise RuntimeError(f"the app never got its {count} agents:\n{term.text()}")
        loads = Loads()
        cpu_before, _ = cpu_and_wait(term.pid)
        began = time.perf_counter()
        sends: list[tuple[float, float, str]] = []
        for index in range(1, presses + 1):
            title = f"transcript · {name_of(index)} ·"
            task = f"task: agent {index} works"

            def shown(title: str = title, task: str = task) -> bool:
                return title in term.screen.display[0] and task in term.screen.display[1]

            term.drain(rng.uniform(0.05, 0.25))  # the app's frames go on meanwhile
            sent = term.send(b"\x1b[B")
            arrived = term.until(shown, f"agent {index} selected", safety_s=30)
            sends.append((sent, arrived, name_of(index)))
        cpu_after, _ = cpu_and_wait(term.pid)
        result: dict[str, Any] = {
            "agents": count,
            "streaming": min(100, count),
            "arrow_down": spread([a - s for s, a, _ in sends], p95=True),
            "goal": "p95 <= 50 ms at 5,000",
            "app_cpu_cores_while_pressing": round(
                (cpu_after - cpu_before) / (time.perf_counter() - began), 2
            ),
            "breakdown": key_breakdown(trace, sends),
            "synced_frames": term.synced_frames,
        } | loads.done()
    finally:
        term.close()
    if in_process:
        loads = Loads()
        inside = asyncio.run(keys_at(count, presses))
        result["in_process_arrow_down"] = inside["arrow_down_ms"] | loads.done()
    return result


# -- main ----------------------------------------------------------------------------------------


def table(result: dict[str, Any]) -> str:
    """The figures as lines a person reads."""

    def row(name: str, s: dict[str, Any], load: dict[str, Any]) -> str:
        p95 = f" p95 {s['p95_ms']:>7}" if "p95_ms" in s else ""
        cpu = (
            f"  cpu {s['cpu_median_ms']:>6} waiting {s['waiting_for_a_cpu_median_ms']:>6}"
            if "cpu_median_ms" in s
            else ""
        )
        return (
            f"{name:<40} min {s['min_ms']:>7}  median {s['median_ms']:>7}{p95}"
            f"  max {s['max_ms']:>7} ms{cpu}  (n={s['n']}; load {load.get('load_before')}"
            f" -> {load.get('load_after')})"
        )

    cpus = os.cpu_count() or 1
    now = os.getloadavg()
    lines = [f"cpus {cpus}, load average now {now[0]:.2f} {now[1]:.2f} {now[2]:.2f}"]
    if "machine_ms" in result:
        lines.append(
            f"machine speed: a fixed workload took {result['machine_ms']} ms of CPU before and"
            f" {result['machine_ms_after']} after (compare figures of other days beside it)"
        )
    if now[1] > cpus / 2:
        lines.append(
            f"  a busy machine (5-minute load {now[1]:.2f} on {cpus} CPUs): wall times include"
            " waiting for a CPU; compare with the goals on a quiet one (load < " + f"{cpus / 2:g})"
        )
    if "startup" in result:
        s = result["startup"]
        lines.append(row("startup pty: agentui --no-session", s["agentui"], s))
        lines.append(row("startup pty: bare Textual", s["bare_textual"], s))
        lines.append(row("startup pty: same widgets, no agentui", s["same_widgets"], s))
        lines.append(
            f"  ratio of medians {s['ratio_of_medians']} ({s['goal']});"
            f" of CPU medians {s['cpu_ratio_of_medians']}"
        )
        if "live_bench_harness" in s:
            h = s["live_bench_harness"]
            lines.append(row("startup live_bench harness: agentui", h["agentui"], s))
            lines.append(row("startup live_bench harness: bare", h["bare_textual"], s))
            lines.append(f"  ratio of medians {h['ratio_of_medians']}")
    if "resume" in result:
        s = result["resume"]
        what = f"resume pty: {s['events']} events, {s['agents']} agents"
        lines.append(row(what, s["agentui_resume"], s))
        lines.append(
            row("  the same without its checkpoint", s["agentui_resume_reading_the_log"], s)
        )
        if "in_process" in s:
            lines.append(row("resume in process (session_bench)", s["in_process"], s))
    for s in result.get("tree_keys", []):
        lines.append(row(f"arrow-down pty: {s['agents']} live agents", s["arrow_down"], s))
        for part, figures in s["breakdown"].items():
            lines.append(
                f"  {part:<10} median {figures['median_ms']:>6}  p95 {figures['p95_ms']:>6}"
                f"  max {figures['max_ms']:>6} ms"
            )
        if "in_process_arrow_down" in s:
            inside = s["in_process_arrow_down"]
            lines.append(
                f"{'arrow-down in process (live_bench)':<44} median {inside['p50']:>7}"
                f" p95 {inside['p95']:>7}  max {inside['max']:>7} ms  (n={inside['n']};"
                f" load {inside['load_before']} -> {inside['load_after']})"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--startup", action="store_true")
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--tree-keys", metavar="N[,N...]", help="live agents, e.g. 1000,3000,5000")
    parser.add_argument("--runs", type=int, help="start-ups and resumes (default 9, quick 3)")
    parser.add_argument("--presses", type=int, help="arrow-downs (default 60, quick 10)")
    parser.add_argument("--no-in-process", action="store_true", help="skip the older figures")
    parser.add_argument("--quick", action="store_true", help="smoke run: seconds, not minutes")
    parser.add_argument("--json", action="store_true", help="one JSON object instead of a table")
    args = parser.parse_args()
    everything = not (args.startup or args.resume or args.tree_keys)
    runs = args.runs or (3 if args.quick else 9)
    presses = args.presses or (10 if args.quick else 60)
    in_process = not args.no_in_process
    os.environ.setdefault("TEXTUAL_ANIMATIONS", "none")
    result: dict[str, Any] = {"bench": "pty", "cpus": os.cpu_count(), "quick": args.quick}
    result["machine_ms"] = machine_ms()

    def say(part: str) -> None:
        print(f"{part}: {json.dumps(result[part])}", file=sys.stderr, flush=True)

    if args.startup or everything:
        result["startup"] = startup(runs, in_process)
        say("startup")
    if args.resume or everything:
        result["resume"] = resume(20 if args.quick else 1000, runs, in_process)
        say("resume")
    if args.tree_keys or everything:
        sizes = [int(n) for n in (args.tree_keys or ("200" if args.quick else "5000")).split(",")]
        result["tree_keys"] = [tree_keys(n, presses, in_process) for n in sizes]
        say("tree_keys")
    result["machine_ms_after"] = machine_ms()
    print(json.dumps(result) if args.json else table(result))


if __name__ == "__main__":
    main()
