"""Benchmark of session logs: size, resume, export, listing and the fold. Not a test.

    .venv/bin/python tests/bench/session_bench.py [--quick] [--keep DIR]

Prints one JSON object on stdout (see tests/bench/README.md). Every session is made by running
the scripted provider (pace 0 unless said) in a Runtime whose real SessionWriter writes it;
`events` counts what the bus emitted (every delta), not lines in the file.

bytes_per_char: session file bytes / characters streamed (text and thinking deltas), for one
    agent streaming a 20,000-character answer at pace 0 (the issue's measure), for 8 agents at
    20 ms a chunk (about a real model's pace: each flush then holds ~5 chunks of a block), and
    for the big multi-agent sessions below.
resume: a 100k-event session of 1,000 agents (a root waiting on a tool while 999 children each
    think and answer), resumed as `agentui --resume` does it (open_for_resume from the checkpoint
    its writer kept, a recording runtime adopting the plan, the app given its state; and, as
    `reading_the_log`, a copy of it without its checkpoint), timed from nothing to the app's first
    frame with every agent in its tree (headless `App.run_test`, 160x50; Textual imported
    before). Wall and CPU time (the machine may be busy). Split into the core part
    (open_for_resume, adopt), the app's first flush (its fold of the history), and the same app
    opened on a new, empty session (Textual's own start, not the session's).
export: `agentui export --format json` of a 400k-event, 1,000-agent session in a child process:
    wall time, time inside (read + fold + dump) and the child's peak RSS.
sessions: `agentui sessions` over 1,000 sessions (998 small ones and the two big ones): in
    process, and as the command in a child; `cold` is the first listing after every summary was
    deleted (each file read once, summaries left behind).
fold: RunState (with transcripts) over one answer of 10k, 40k and 160k chunks: µs per chunk
    (flat when building text is linear), reading the text every 1,000 chunks as a screen would.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path

import anyio

from agentui.core import __version__
from agentui.core.agent.limits import Limits
from agentui.core.protocol.events import AgentSpawned, LLMRequested, TextDelta
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.session import checkpoint_keeping
from agentui.core.session.checkpoint import checkpoint_path
from agentui.core.session.checkpoint_keeping import keep_checkpoint
from agentui.core.session.recording import RecordingRuntime
from agentui.core.session.resume_open import open_to_show
from agentui.core.session.store import list_sessions
from agentui.core.session.writer import NewSession, SessionWriter
from agentui.core.state import RunState
from agentui.core.support.clock import SystemClock
from agentui.core.tools.registry import ToolRegistry
from agentui.core.tools.tool import tool

SENTENCE = "The quick brown fox jumps over the lazy dog while the agent keeps streaming. "
STREAMED = ("text:delta", "thinking:delta")
# Subagents one agent may run at once: the most Limits accepts (its max_live_children's bound).
LIVE_CHILDREN = 256


def long_text(chars: int) -> str:
    return (SENTENCE * (chars // len(SENTENCE) + 1))[:chars]


def seconds(value: float) -> float:
    return round(value, 4)


@dataclass
class Made:
    path: Path
    events: int
    streamed_chars: int
    seconds: float

    @property
    def bytes_per_char(self) -> float:
        return round(self.path.stat().st_size / max(self.streamed_chars, 1), 3)


# -- making sessions with the real writer ----------------------------------------------------


async def make_session(
    directory: Path,
    *,
    agents: int,
    text_chars: int,
    thinking_chars: int = 0,
    pace_s: float = 0.0,
) -> Made:
    """A root that waits on a gate while `agents - 1` children think and answer (or, with one
    agent, just the root answering)."""
    release = anyio.Event()

    async def gate() -> str:
        await release.wait()
        return "all parts are done"

    gate.__doc__ = "Wait for the parts."
    answer = Turn(thinking=long_text(thinking_chars), text=long_text(text_chars))
    turns = {"*": [answer]}
    if agents > 1:
        turns["main"] = [Turn(tool_calls=[ScriptedToolCall(name="gate")]), Turn(text="Done.")]
    provider = ScriptedProvider(Script(agents=turns), pace_s=pace_s, record_requests=False)
    writer = SessionWriter(NewSession(provider="scripted", model="scripted-1", directory=directory))
    runtime = RecordingRuntime(
        provider,
        session=writer,
        tools=ToolRegistry([tool(no_timeout=True)(gate)]),
        clock=SystemClock(),
        limits=Limits(max_live_children=LIVE_CHILDREN, max_duration_s=None),
        workflow="plain",
    )
    started = time.perf_counter()
    async with runtime:
        counter = runtime.subscribe(maxsize=None)
        root = runtime.start("Split the work and answer")
        # The children in waves of at most LIVE_CHILDREN (the most Limits allows running at
        # once): the log holds the same agents and events, some of them later.
        for first in range(1, agents, LIVE_CHILDREN):
            wave = range(first, min(agents, first + LIVE_CHILDREN))
            children = [runtime.start(f"Part {n}: answer it", parent_id=root) for n in wave]
            for child in children:
                await runtime.wait(child)
        release.set()
        await runtime.wait(root)
    events = counter.drain()
    assert writer.path is not None and writer.error is None, writer.error
    streamed = sum(len(e.delta) for e in events if e.type in STREAMED)  # type: ignore[attr-defined]
    return Made(writer.path, len(events), streamed, time.perf_counter() - started)


async def make_small_sessions(directory: Path, count: int) -> None:
    for n in range(count):
        writer = SessionWriter(NewSession(provider="scripted", model="s", directory=directory))
        provider = ScriptedProvider(Script.for_all(Turn(text=f"Answer {n}.")))
        runtime = RecordingRuntime(provider, session=writer, tools=ToolRegistry([]))
        async with runtime:
            await runtime.wait(runtime.start(f"Small task {n}"))


def made_json(made: Made) -> dict[str, object]:
    return {
        "events": made.events,
        "streamed_chars": made.streamed_chars,
        "file_bytes": made.path.stat().st_size,
        "lines": made.path.read_bytes().count(b"\n"),
        "bytes_per_char": made.bytes_per_char,
        "made_s": seconds(made.seconds),
    }


# -- resume to the first frame -----------------------------------------------------------------


async def resume_to_first_frame(path: Path | None) -> dict[str, float]:
    """`agentui --resume` as the command does it, up to the frame with every agent in it.

    Without a path: the same app with a new, empty session (Textual's own start).
    """
    from agentui.core.monologue.config import MonologueConfig
    from agentui.tui.app.app import AgentUIApp
    from agentui.tui.app.screens.main import MainScreen

    times: dict[str, float] = {}
    gc.collect()  # each run starts from a clean heap, as a new process would (not the last's garbage)
    started, cpu = time.perf_counter(), time.process_time()
    if path is None:
        app = AgentUIApp(
            lambda: RecordingRuntime(
                ScriptedProvider(Script.for_all(Turn(text="unused"))),
                session=SessionWriter(NewSession(provider="scripted", model="s")),
            ),
            monologue=MonologueConfig(enabled=False),
            remember_theme=False,
        )
        async with app.run_test(size=(160, 50)) as pilot:
            await pilot.pause()
            times["first_frame_s"] = time.perf_counter() - started
            times["first_frame_cpu_s"] = time.process_time() - cpu
        return {k: seconds(v) for k, v in times.items()}
    plan = open_to_show(str(path))  # as the app does
    times["open_for_resume_s"] = time.perf_counter() - started
    times["open_for_resume_cpu_s"] = time.process_time() - cpu

    def make_runtime() -> RecordingRuntime:
        begun = time.perf_counter()
        runtime = RecordingRuntime(
            ScriptedProvider(Script.for_all(Turn(text="unused"))),
            session=SessionWriter(plan.continued_session()),
            last_seq=plan.last_seq,
            ids=plan.id_source(),
        )
        plan.adopt_into(runtime)
        times["adopt_s"] = time.perf_counter() - begun
        return runtime

    app = AgentUIApp(
        make_runtime,
        state=plan.state,
        monologue=MonologueConfig(enabled=False),
        remember_theme=False,
    )
    # The main screen is made as the app runs: its class's flush is timed.
    original_flush = MainScreen.flush_events

    def timed_flush(screen: MainScreen) -> None:
        begun = time.perf_counter()
        original_flush(screen)
        times.setdefault("app_fold_s", time.perf_counter() - begun)

    MainScreen.flush_events = timed_flush  # type: ignore[method-assign]  # timed here, put back
    try:
        async with app.run_test(size=(160, 50)) as pilot:
            while "app_fold_s" not in times:
                await pilot.pause()
            await pilot.pause()  # the frame that shows them
            times["first_frame_s"] = time.perf_counter() - started
            times["first_frame_cpu_s"] = time.process_time() - cpu
    finally:
        MainScreen.flush_events = original_flush  # type: ignore[method-assign]  # as it was
    return {k: seconds(v) for k, v in times.items()}


# -- export in a child process -------------------------------------------------------------------

EXPORT_CHILD = textwrap.dedent(
    """
    import json, sys, time
    started = time.perf_counter()
    from agentui.core.session.export import export_session
    from agentui.core.session.reader import read_session
    imported = time.perf_counter()
    text = export_session(read_session(__import__("pathlib").Path(sys.argv[1])), "json")
    with open("/dev/null", "w", encoding="utf-8") as out:
        out.write(text)
    done = time.perf_counter()
    # VmHWM, not ru_maxrss: Linux keeps ru_maxrss across exec, so a child would report the
    # bench's own peak when that is higher.
    status = open("/proc/self/status", encoding="ascii").read()
    peak = int(status.split("VmHWM:")[1].split()[0]) / 1024
    print(json.dumps({"inside_s": done - imported, "peak_rss_mib": peak, "bytes": len(text)}))
    """
)


def export_in_child(path: Path, data_dir: Path) -> dict[str, float]:
    env = {**os.environ, "AGENTUI_DATA_DIR": str(data_dir)}
    begun = time.perf_counter()
    inside = subprocess.run(
        [sys.executable, "-c", EXPORT_CHILD, str(path)],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    wall_inside = time.perf_counter() - begun
    measured = json.loads(inside.stdout)
    begun = time.perf_counter()
    command = subprocess.run(
        [
            sys.executable,
            "-m",
            "agentui.tui.cli.main",
            "export",
            path.stem,
            "--format",
            "json",
            "-o",
            os.devnull,
        ],
        capture_output=True,
        text=True,
        env=env,
    )
    wall = time.perf_counter() - begun
    assert command.returncode == 0, command.stderr
    return {
        "command_wall_s": seconds(wall),
        "child_wall_s": seconds(wall_inside),
        "inside_s": seconds(measured["inside_s"]),
        "peak_rss_mib": round(measured["peak_rss_mib"], 1),
        "export_bytes": measured["bytes"],
    }


# -- listing -----------------------------------------------------------------------------------


def listing(data_dir: Path, sessions: Path, repeats: int) -> dict[str, object]:
    for summary in sessions.glob("*.summary.json"):
        summary.unlink()
    begun = time.perf_counter()
    infos = list_sessions(sessions)
    cold = time.perf_counter() - begun
    warm = []
    for _ in range(repeats):
        begun = time.perf_counter()
        infos = list_sessions(sessions)
        warm.append(time.perf_counter() - begun)
    env = {**os.environ, "AGENTUI_DATA_DIR": str(data_dir), "COLUMNS": "120"}
    command = []
    for _ in range(repeats):
        begun = time.perf_counter()
        run = subprocess.run(
            [sys.executable, "-m", "agentui.tui.cli.main", "sessions"],
            capture_output=True,
            text=True,
            env=env,
        )
        command.append(time.perf_counter() - begun)
        assert run.returncode == 0, run.stderr
    startup = []
    for _ in range(repeats):
        begun = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "agentui.tui.cli.main", "--help"], capture_output=True
        )
        startup.append(time.perf_counter() - begun)
    return {
        "sessions": len(infos),
        "statuses": sorted({i.status for i in infos}),
        "cold_in_process_s": seconds(cold),
        "in_process_s": [seconds(t) for t in warm],
        "command_wall_s": [seconds(t) for t in command],
        "command_help_wall_s": [seconds(t) for t in startup],
    }


# -- the fold of one long answer ---------------------------------------------------------------


def fold_per_chunk(chunks: int) -> dict[str, float]:
    events = [AgentSpawned(seq=1, ts=0.0, agent_id="a1", parent_id=None, name="main", task="t")]
    events.append(
        LLMRequested(
            seq=2, ts=0.0, agent_id="a1", iteration=1, model="m", message_count=1, tool_names=[]
        )
    )
    events += [
        TextDelta(seq=3 + n, ts=0.0, agent_id="a1", iteration=1, delta="word ")
        for n in range(chunks)
    ]
    fold = RunState()
    begun = time.perf_counter()
    for n, event in enumerate(events):
        fold.apply(event)
        if n % 1000 == 0:
            _ = fold.transcripts["a1"][-1].text  # a screen reads it ~20 times a second
    text = fold.transcripts["a1"][-1].text
    elapsed = time.perf_counter() - begun
    assert len(text) == 5 * chunks
    return {
        "chunks": chunks,
        "total_s": seconds(elapsed),
        "us_per_chunk": round(elapsed / chunks * 1e6, 3),
    }


# -- main --------------------------------------------------------------------------------------


async def run(quick: bool, keep: Path | None) -> dict[str, object]:
    scale = 10 if quick else 1
    root = keep or Path(tempfile.mkdtemp(prefix="agentui-session-bench-"))
    data = root / "data"
    sessions = data / "sessions"
    sessions.mkdir(parents=True, exist_ok=True)
    os.environ["AGENTUI_DATA_DIR"] = str(data)
    os.environ["AGENTUI_STATE_DIR"] = str(root / "state")  # the checkpoints' key
    scratch = root / "scratch"
    scratch.mkdir(exist_ok=True)
    out: dict[str, object] = {
        "bench": "session",
        "agentui": __version__,
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "quick": quick,
    }

    one = await make_session(scratch, agents=1, text_chars=20_000 // scale)
    paced = await make_session(scratch, agents=8, text_chars=2_000 // scale, pace_s=0.02)
    # ~100 events an agent: ~27 thinking and ~62 text chunks of 3-8 characters, and 11 others.
    resumed = await make_session(sessions, agents=1000 // scale, text_chars=340, thinking_chars=150)
    # ~400 events an agent.
    exported = await make_session(
        sessions, agents=1000 // scale, text_chars=1_500, thinking_chars=600
    )
    out["bytes_per_char"] = {
        "one_agent_pace_0": made_json(one),
        "eight_agents_20ms_chunks": made_json(paced),
        "resume_session": made_json(resumed),
        "export_session": made_json(exported),
    }

    # The session as its writer left it, with the checkpoint it kept (a small log's too:
    # --quick's), and a copy of it elsewhere (a resume appends: each run on a fresh copy).
    keep_checkpoint(resumed.path, from_bytes=0)
    # Each timed resume's writer would keep a checkpoint when it closes the log (~0.5 s in a
    # worker thread, after its run is timed, while the next one is): not here.
    checkpoint_keeping.CHECKPOINT_FROM_BYTES = 1 << 62
    kept = scratch / "kept"
    kept.mkdir()
    shutil.copy2(resumed.path, kept)
    shutil.copy2(checkpoint_path(resumed.path), kept)
    resumes = []
    from_the_log = []
    for _ in range(2 if quick else 3):
        for saved in kept.iterdir():
            shutil.copy2(saved, sessions)  # its time too: a checkpoint stands for the log's
        resumes.append(await resume_to_first_frame(resumed.path))
        copy = sessions / "copy"  # under another name: its checkpoint is not the copy's
        copy.mkdir(exist_ok=True)
        target = copy / resumed.path.name
        shutil.copy(kept / resumed.path.name, target)
        from_the_log.append(await resume_to_first_frame(target))
        shutil.rmtree(copy)
    empty = [await resume_to_first_frame(None) for _ in range(3)]
    out["resume"] = {
        "agents": 1000 // scale,
        "events": resumed.events,
        "runs": resumes,
        "first_frame_median_s": statistics.median(r["first_frame_s"] for r in resumes),
        "first_frame_cpu_median_s": statistics.median(r["first_frame_cpu_s"] for r in resumes),
        "reading_the_log": {
            "runs": from_the_log,
            "first_frame_median_s": statistics.median(r["first_frame_s"] for r in from_the_log),
            "first_frame_cpu_median_s": statistics.median(
                r["first_frame_cpu_s"] for r in from_the_log
            ),
        },
        "new_session_first_frame_s": [r["first_frame_s"] for r in empty],
        "new_session_first_frame_cpu_s": [r["first_frame_cpu_s"] for r in empty],
    }

    out["export"] = [export_in_child(exported.path, data) for _ in range(2)]
    out["export_events"] = exported.events

    await make_small_sessions(sessions, 1000 // scale - 2)
    out["sessions"] = listing(data, sessions, 3)

    out["fold"] = [fold_per_chunk(n // scale) for n in (10_000, 40_000, 160_000)]
    if keep is None:
        shutil.rmtree(root)
    else:
        out["kept"] = str(root)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of every size")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="make and keep the files here")
    args = parser.parse_args()
    os.environ.setdefault("TEXTUAL_ANIMATIONS", "none")
    result = anyio.run(run, args.quick, args.keep)
    result["peak_rss_mib"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
