"""Benchmark of `agentui diff`: two saved runs of 50k events each compared. Not a test.

    .venv/bin/python tests/bench/diff_bench.py [--quick]

Two runs of one agent on the scripted provider (pace 0) that calls a tool every turn until its
events number 50k (5k with --quick), each recorded as a session file; the second run's call at
its middle turn has other arguments. Then, as `agentui diff A B` does:
- read_ms: both session files read (core/session/reader.py);
- outline_ms: both runs outlined (core/session/run_outline.py: steps, their content, figures);
- diff_ms: the two compared (core/session/run_diff.py: agents matched, steps aligned);
- text_ms / json_ms: the text (80 columns) and the --json document made (after gc.freeze(),
  as the command does);
- total_ms: all of it; same_run_diff_ms: a run compared with itself (no divergence).
Prints one JSON object on stdout.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import sys
import tempfile
import time
from pathlib import Path

import anyio

from agentui.core.agent.limits import Limits
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.session.reader import read_session
from agentui.core.session.recording import RecordingRuntime
from agentui.core.session.run_diff import diff_runs
from agentui.core.session.run_outline import run_outline
from agentui.core.session.writer import NewSession, SessionWriter
from agentui.core.tools.registry import ToolRegistry
from agentui.core.tools.tool import tool
from agentui.tui.cli.diff_json import diff_document
from agentui.tui.cli.diff_text import diff_lines

EVENTS_PER_TURN = 11  # in a saved file, about: its deltas merged (see elision.py)


@tool
async def echo(text: str) -> str:
    """Say it back."""
    return f"echo: {text}"


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


async def _recorded(directory: Path, turns: int, odd_turn: int | None) -> Path:
    def call(n: int) -> Turn:
        said = "another part" if n == odd_turn else "part"
        return Turn(text="Looking at the next part of the work now.",
                    tool_calls=[ScriptedToolCall(name="echo", arguments={"text": said})])  # fmt: skip

    script = Script.for_all(*[call(n) for n in range(turns)], Turn(text="done"))
    limits = Limits(max_iterations=10_000, max_tool_calls=100_000, max_duration_s=None)
    writer = SessionWriter(NewSession(provider="scripted", model="scripted-1", directory=directory))
    runtime = RecordingRuntime(
        ScriptedProvider(script), session=writer, tools=ToolRegistry([echo]), limits=limits
    )
    async with runtime:
        root = runtime.start("work through every part")
        await runtime.wait(root)
    assert writer.path is not None and writer.error is None, writer.error
    return writer.path


async def measure(target_events: int) -> dict[str, object]:
    turns = target_events // EVENTS_PER_TURN
    with tempfile.TemporaryDirectory() as directory:
        a_path = await _recorded(Path(directory), turns, None)
        b_path = await _recorded(Path(directory), turns, turns // 2)
        # Measured as in a fresh `agentui diff` process: the two runs' leftovers out of the way.
        gc.collect()
        gc.freeze()

        started = time.perf_counter()
        a_log, b_log = read_session(a_path), read_session(b_path)
        read = time.perf_counter()
        a, b = run_outline(a_log.events, a_log.id), run_outline(b_log.events, b_log.id)
        outlined = time.perf_counter()
        result = diff_runs(a, b)
        gc.freeze()  # as `agentui diff` does before it prints (tui/cli/diff.py)
        diffed = time.perf_counter()
        lines = list(diff_lines(result))
        text = time.perf_counter()
        document = json.dumps(diff_document(result))
        made = time.perf_counter()
        same = diff_runs(a, a)
        same_time = time.perf_counter() - made
    first = result.first
    assert first is not None and not same.diverged
    return {
        "events": [len(a_log.events), len(b_log.events)],
        "steps": [len(a.agents["main"].steps), len(b.agents["main"].steps)],
        "first_divergence": first.divergence(),
        "text_lines": len(lines),
        "json_bytes": len(document),
        "read_ms": _ms(read - started),
        "outline_ms": _ms(outlined - read),
        "diff_ms": _ms(diffed - outlined),
        "text_ms": _ms(text - diffed),
        "json_ms": _ms(made - text),
        "total_ms": _ms(made - started),
        "same_run_diff_ms": _ms(same_time),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5k events a run instead of 50k")
    args = parser.parse_args()
    figures = anyio.run(measure, 5_000 if args.quick else 50_000)
    figures["python"] = platform.python_version()
    json.dump(figures, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
