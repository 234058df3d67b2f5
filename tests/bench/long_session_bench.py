"""A long session through a real pseudo-terminal (issue 33, point 4): one agent that said
10 million characters, resumed and replayed by the installed command. Not a test.

    .venv/bin/python tests/bench/long_session_bench.py [--chars N] [--runs R] [--speed X]
        [--dir DIR] [--only resume,resume_reading_the_log,replay,replay_from] [--quick] [--json]

The session is session_bench.make_session's (one agent, `--chars` characters of plain prose
in the scripted provider's chunks, written by the real SessionWriter, its checkpoint kept as
the writer keeps it when it closes the log). Making 10 M characters takes minutes of CPU and
several GB: it is made once under DIR (default: `longsess` in the temp folder) and reused; every
run works on a fresh copy of it (a resume appends to the log). Its checkpoint stands only for
the code that made it (any change in core's sources): when this code would not load it, it is
made anew first (as long as a resume without it takes), and `checkpoint_made_anew` says so. Each command is exec'd on a
120x40 pseudo-terminal (pty_terminal.py, as pty_bench.py does); the child's RSS is sampled
from /proc/PID/status every 20 ms while it runs (VmRSS; VmHWM, the kernel's peak, read last).

resume       `agentui --resume ID` (with the checkpoint): exec -> the first whole frame with the agent counted in the
             status bar and the end of its answer in the transcript (goal <= 1 s); the child's
             CPU and run-queue wait then; then until its CPU settles (idle 1 s): CPU, peak RSS
             (goal: never past 250 MiB).
resume_reading_the_log   the same without the checkpoint: the log read and folded whole.
replay       `agentui replay ID --speed X` (default 100): exec -> first whole frame, and ->
             the whole frame saying `replay finished` with the end of the answer shown; beside it the play's own length (the
             recording's span / X, long gaps cut to 2 s / X): `lag_s` is how far the screen
             finished behind it; frames read per second; peak RSS over the whole replay
             (goal: never past 250 MiB); the child's CPU.
replay_from  the same with `--from SEQ` near the end (the last 1 % of the events): what came
             before is shown at once.

Every figure is min / median / max over `--runs` (default 3), with the 1-minute load average
before and after it: a number taken on a busy machine says so. `--quick` is the smoke run: a
100 k-character session in a scratch folder, 1 run each (a few seconds). `--json` prints one
line.
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import anyio
from pty_bench import AGENTUI, SIZE, Loads, cpu_and_wait, scratch_env
from pty_terminal import PtyTerminal
from session_bench import long_text, make_session

from agentui.core.session.checkpoint import CHECKPOINT_SUFFIX, checkpoint_path, load_checkpoint
from agentui.core.session.checkpoint_keeping import keep_checkpoint

MIB = 1 << 20
RSS_GOAL_MIB = 250
FIRST_FRAME_GOAL_S = 1.0
SAMPLE_EVERY_S = 0.02
MAX_GAP_S = 2.0  # tui/app/replay_feed.py's: a longer silence is cut to this when replayed
SETTLE_S = 1.0  # the child is idle when its CPU grew less than IDLE_SHARE of this over this long
# What counts as idle: any Textual app idles at a few percent of a CPU (a bare one with a
# blinking Input measured 2.6 % on the 2-core VM, agentui 4 %: its prompt's cursor blink and
# the clock's tick), so a lower bar is never reached and the settle ran to its limit, adding
# two minutes of idle CPU to `cpu_settled_s` (reported as 6-8 s of "settling").
IDLE_SHARE = 0.10


# -- the session, made once ----------------------------------------------------------------------


@dataclass
class Saved:
    """A session made once and kept: `kept/` holds the files as the writer left them."""

    stem: str
    chars: int
    events: int
    first_seq: int
    last_seq: int
    recorded_s: float  # the first event's ts -> the last's
    replay_s_at_1x: float  # the same with every gap cut to MAX_GAP_S, as replay plays it
    log_bytes: int
    make_s: float


def span_of(log: Path) -> tuple[int, int, float, float]:
    """First and last seq, the recording's span and its span as replay plays it."""
    first_seq = last_seq = 0
    first_ts = previous = 0.0
    played = 0.0
    with log.open("rb") as lines:
        for line in lines:
            if b'"seq":' not in line:
                continue
            event = json.loads(line)
            if not first_seq:
                first_seq, first_ts, previous = event["seq"], event["ts"], event["ts"]
            played += min(max(event["ts"] - previous, 0.0), MAX_GAP_S)
            previous = event["ts"]
            last_seq = event["seq"]
    return first_seq, last_seq, previous - first_ts, played


def ensure_session(home: Path, chars: int) -> Saved:
    """`home` holds the session of `chars` characters (made now if it is not there yet) and the
    state folder whose key signed its checkpoint."""
    described = home / "saved.json"
    if described.exists():
        return Saved(**json.loads(described.read_text()))
    sessions = home / "data" / "sessions"
    kept = home / "kept"
    shutil.rmtree(home, ignore_errors=True)
    sessions.mkdir(parents=True)
    kept.mkdir()
    # The checkpoint is signed with the key of the state folder the command will read.
    os.environ["AGENTUI_STATE_DIR"] = str(home / "state")
    print(f"making a {chars:,}-character session in {home} ...", file=sys.stderr, flush=True)
    began = time.perf_counter()
    made = anyio.run(lambda: make_session(sessions, agents=1, text_chars=chars))
    keep_checkpoint(made.path, from_bytes=0)  # as its writer leaves a long log when it closes
    make_s = time.perf_counter() - began
    for saved in sessions.iterdir():
        shutil.copy2(saved, kept)  # the times too: a checkpoint stands for the log's mtime
    first_seq, last_seq, recorded_s, played_s = span_of(made.path)
    saved = Saved(
        stem=made.path.stem,
        chars=chars,
        events=made.events,
        first_seq=first_seq,
        last_seq=last_seq,
        recorded_s=round(recorded_s, 3),
        replay_s_at_1x=round(played_s, 3),
        log_bytes=made.path.stat().st_size,
        make_s=round(make_s, 1),
    )
    described.write_text(json.dumps(asdict(saved)))
    return saved


def restore(home: Path, *, checkpoint: bool = True) -> None:
    """The session's folder as its writer left it, with its checkpoint or without (as a crash
    leaves it, or another version of agentui)."""
    sessions = home / "data" / "sessions"
    for leftover in sessions.iterdir():
        leftover.unlink()
    for saved in (home / "kept").iterdir():
        if checkpoint or saved.suffix != CHECKPOINT_SUFFIX:
            shutil.copy2(saved, sessions)


def fresh_checkpoint(home: Path, saved: Saved) -> bool:
    """The kept checkpoint made anew if this code would not load it: one stands only for the
    code that made it (a fingerprint of core's sources: any change in them) and for the log's
    path. True when it had to be made anew."""
    restore(home)
    log = home / "data" / "sessions" / f"{saved.stem}.jsonl"
    os.environ["AGENTUI_STATE_DIR"] = str(home / "state")  # its key signs the checkpoint
    if load_checkpoint(log) is not None:
        return False
    print("the kept checkpoint is stale: making it anew ...", file=sys.stderr, flush=True)
    if not keep_checkpoint(log, from_bytes=0):
        raise RuntimeError(f"no checkpoint could be kept for {log}")
    shutil.copy2(checkpoint_path(log), home / "kept")
    return True


# -- one command on the pty ----------------------------------------------------------------------


class RssSampler:
    """The child's resident memory, sampled in a thread while it runs; VmHWM is the peak the
    kernel kept (a spike between two samples included)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.max_rss_kib = 0
        self.hwm_kib = 0
        self.samples: list[tuple[float, int]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def read(self) -> tuple[int, int]:
        """VmRSS and VmHWM in KiB (0 once the process is gone)."""
        rss = hwm = 0
        try:
            for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    rss = int(line.split()[1])
                elif line.startswith("VmHWM:"):
                    hwm = int(line.split()[1])
        except OSError:
            pass
        return rss, hwm

    def _run(self) -> None:
        while not self._stop.wait(SAMPLE_EVERY_S):
            rss, hwm = self.read()
            self.max_rss_kib = max(self.max_rss_kib, rss)
            self.hwm_kib = max(self.hwm_kib, hwm)
            self.samples.append((time.perf_counter(), rss))

    def stop(self) -> None:
        """Read the peak once more (the child still alive), then stop sampling."""
        rss, hwm = self.read()
        self.max_rss_kib = max(self.max_rss_kib, rss)
        self.hwm_kib = max(self.hwm_kib, hwm)
        self._stop.set()
        self._thread.join()

    def rss_at(self, moment: float) -> float:
        """MiB in the last sample before `moment`."""
        before = [rss for at, rss in self.samples if at <= moment]
        return round((before[-1] if before else 0) / 1024, 1)


def transcript_text(term: PtyTerminal) -> str:
    """The transcript pane's text, its lines joined and the whitespace collapsed."""
    top = term.screen.display[0]
    left = top.find("╭─ transcript")
    if left < 0:
        return ""
    right = top.find("╮", left)
    inside = (line[left + 1 : right] for line in term.screen.display[1:])
    return " ".join(" ".join(inside).split())


def answer_tail(chars: int) -> str:
    """The answer's last few words, as the transcript shows them at its end."""
    return " ".join(long_text(chars).split()[-6:-1])  # the last may be cut mid-word


def settle(term: PtyTerminal, limit_s: float = 120.0) -> None:
    """Read until the child has been idle for SETTLE_S (or `limit_s` passed)."""
    deadline = time.perf_counter() + limit_s
    before, _ = cpu_and_wait(term.pid)
    while time.perf_counter() < deadline and not term.closed:
        term.drain(SETTLE_S)
        now, _ = cpu_and_wait(term.pid)
        if now - before < SETTLE_S * IDLE_SHARE:
            return
        before = now


def resume_once(home: Path, saved: Saved, checkpoint: bool) -> dict[str, float]:
    restore(home, checkpoint=checkpoint)
    tail = answer_tail(saved.chars)
    argv = [str(AGENTUI), "--resume", saved.stem]
    term = PtyTerminal(argv, scratch_env(home), SIZE)
    rss = RssSampler(term.pid)
    try:
        arrived = term.until(
            lambda: (
                "done 1 " in term.text() and "^q" in term.text() and tail in transcript_text(term)
            ),
            "the resumed agent and the end of its answer",
        )
        cpu, wait = cpu_and_wait(term.pid)
        hwm_at_frame = rss.read()[1]
        settle(term)
        cpu_settled, _ = cpu_and_wait(term.pid)
        rss_end = rss.read()[0]
        rss.stop()
        return {
            "first_frame_s": arrived - term.began,
            "cpu_at_first_frame_s": cpu,
            "waiting_for_a_cpu_s": wait,
            "peak_rss_at_first_frame_mib": hwm_at_frame / 1024,
            "cpu_settled_s": cpu_settled,
            "peak_rss_mib": rss.hwm_kib / 1024,
            "rss_settled_mib": rss_end / 1024,
        }
    finally:
        rss.stop()
        term.close()


def replay_once(home: Path, saved: Saved, speed: float, from_seq: int | None) -> dict[str, float]:
    restore(home)
    argv = [str(AGENTUI), "replay", saved.stem, "--speed", f"{speed:g}"]
    if from_seq is not None:
        argv += ["--from", str(from_seq)]
    tail = answer_tail(saved.chars)
    term = PtyTerminal(argv, scratch_env(home), SIZE)
    rss = RssSampler(term.pid)
    try:
        first = term.until(lambda: "replay" in term.text() and "q Quit" in term.text(), "replay")
        frames_at_first = term.frames
        finished = term.until(
            lambda: "replay finished" in term.text() and tail in transcript_text(term),
            "replay finished with the end of the answer shown",
            safety_s=3600,
        )
        cpu, wait = cpu_and_wait(term.pid)
        rss_end = rss.read()[0]
        rss.stop()
        playing_s = finished - first
        return {
            "first_frame_s": first - term.began,
            "finished_s": finished - term.began,
            "frames_per_s": (term.frames - frames_at_first) / max(playing_s, 1e-9),
            "cpu_s": cpu,
            "waiting_for_a_cpu_s": wait,
            "peak_rss_mib": rss.hwm_kib / 1024,
            "rss_at_first_frame_mib": rss.rss_at(first),
            "rss_at_end_mib": rss_end / 1024,
        }
    finally:
        rss.stop()
        term.close()


def spread(values: list[float], digits: int = 3) -> dict[str, float]:
    return {
        "min": round(min(values), digits),
        "median": round(statistics.median(values), digits),
        "max": round(max(values), digits),
    }


def spreads(runs: list[dict[str, float]]) -> dict[str, Any]:
    return {key: spread([r[key] for r in runs]) for key in runs[0]}


# -- the parts -----------------------------------------------------------------------------------


def resume(home: Path, saved: Saved, runs: int, checkpoint: bool) -> dict[str, Any]:
    resume_once(home, saved, checkpoint)  # bytecode written, the log in the page cache
    loads = Loads()
    figures = spreads([resume_once(home, saved, checkpoint) for _ in range(runs)])
    return {
        "runs": runs,
        "checkpoint": checkpoint,
        **figures,
        "goal": f"first frame <= {FIRST_FRAME_GOAL_S:g} s; peak RSS <= {RSS_GOAL_MIB} MiB",
        "met": figures["first_frame_s"]["median"] <= FIRST_FRAME_GOAL_S
        and figures["peak_rss_mib"]["max"] <= RSS_GOAL_MIB,
    } | loads.done()


def replay(
    home: Path, saved: Saved, runs: int, speed: float, from_seq: int | None
) -> dict[str, Any]:
    first = saved.first_seq if from_seq is None else from_seq
    share = (saved.last_seq - first + 1) / max(saved.last_seq - saved.first_seq + 1, 1)
    loads = Loads()
    figures = spreads([replay_once(home, saved, speed, from_seq) for _ in range(runs)])
    # The play's own length: the recording's span (gaps cut) at `speed`, roughly the share of
    # it from `from_seq` on (events are near-evenly spaced in a paced-0 recording).
    play_s = saved.replay_s_at_1x * share / speed
    lag = [
        figures["finished_s"][k] - figures["first_frame_s"][k] - play_s
        for k in ("min", "median", "max")
    ]
    return {
        "runs": runs,
        "speed": speed,
        "from_seq": from_seq,
        "events_played": saved.last_seq - first + 1,
        "play_s": round(play_s, 3),
        **figures,
        "lag_s_median": round(lag[1], 3),
        "goal": f"peak RSS <= {RSS_GOAL_MIB} MiB (lag_s beside it, no goal)",
        "met": figures["peak_rss_mib"]["max"] <= RSS_GOAL_MIB,
    } | loads.done()


def table(result: dict[str, Any]) -> str:
    s = result["session"]
    cpus = os.cpu_count() or 1
    now = os.getloadavg()
    lines = [
        f"cpus {cpus}, load average now {now[0]:.2f} {now[1]:.2f} {now[2]:.2f}",
        f"session {s['stem']}: {s['chars']:,} chars, {s['events']:,} events,"
        f" {s['log_bytes'] / MIB:.1f} MiB log, recorded over {s['recorded_s']} s",
    ]
    if now[1] > cpus / 2:
        lines.append(
            f"  a busy machine: wall times include waiting for a CPU (load > {cpus / 2:g})"
        )
    for part in ("resume", "resume_reading_the_log", "replay", "replay_from"):
        if part not in result:
            continue
        r = result[part]
        head = part if "speed" not in r else f"{part} --speed {r['speed']:g}"
        if r.get("from_seq") is not None:
            head += f" --from {r['from_seq']}"
        if "play_s" in r:
            head += f" ({r['events_played']:,} events; the play itself {r['play_s']} s)"
        lines.append(
            f"{head}  [n={r['runs']}, load {r['load_before']} -> {r['load_after']};"
            f" goal {r['goal']}: {'met' if r['met'] else 'MISSED'}]"
        )
        for key, v in r.items():
            if isinstance(v, dict):
                lines.append(
                    f"  {key:<30} min {v['min']:>9}  median {v['median']:>9}  max {v['max']:>9}"
                )
        if "lag_s_median" in r:
            lines.append(
                f"  {'lag_s (finished behind the play)':<30} median {r['lag_s_median']:>9}"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--chars", type=int, help="the answer's length (default 10,000,000)")
    parser.add_argument("--runs", type=int, help="runs of each (default 3, quick 1)")
    parser.add_argument("--speed", type=float, default=100.0, help="replay speed (default 100)")
    parser.add_argument("--dir", type=Path, help="where sessions are made once and kept")
    parser.add_argument(
        "--only", help="resume,resume_reading_the_log,replay,replay_from (default all)"
    )
    parser.add_argument("--quick", action="store_true", help="smoke run: 100 k chars, 1 run")
    parser.add_argument("--json", action="store_true", help="one JSON line instead of a table")
    args = parser.parse_args()
    chars = args.chars or (100_000 if args.quick else 10_000_000)
    runs = args.runs or (1 if args.quick else 3)
    if args.dir is not None:
        where = args.dir
    elif args.quick:  # CI's smoke: a scratch folder, gone after
        where = Path(tempfile.mkdtemp(prefix="agentui-long-session-"))
        atexit.register(shutil.rmtree, where, ignore_errors=True)
    else:
        where = Path(tempfile.gettempdir()) / "longsess"
    home = where / f"{chars}-chars"
    parts = (args.only or "resume,resume_reading_the_log,replay,replay_from").split(",")
    os.environ.setdefault("TEXTUAL_ANIMATIONS", "none")
    saved = ensure_session(home, chars)
    result: dict[str, Any] = {
        "bench": "long_session",
        "cpus": os.cpu_count(),
        "quick": args.quick,
        "session": asdict(saved),
    }

    def say(part: str) -> None:
        print(f"{part}: {json.dumps(result[part])}", file=sys.stderr, flush=True)

    result["checkpoint_made_anew"] = fresh_checkpoint(home, saved)
    if "resume" in parts:
        result["resume"] = resume(home, saved, runs, checkpoint=True)
        say("resume")
    if "resume_reading_the_log" in parts:
        result["resume_reading_the_log"] = resume(home, saved, runs, checkpoint=False)
        say("resume_reading_the_log")
    if "replay" in parts:
        result["replay"] = replay(home, saved, runs, args.speed, None)
        say("replay")
    if "replay_from" in parts:
        near_end = saved.last_seq - max(10, (saved.last_seq - saved.first_seq) // 100)
        result["replay_from"] = replay(home, saved, runs, args.speed, near_end)
        say("replay_from")
    print(json.dumps(result) if args.json else table(result))


if __name__ == "__main__":
    main()
