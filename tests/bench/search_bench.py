"""Benchmark of `agentui search`: time and index size over many big sessions. Not a test.

    .venv/bin/python tests/bench/search_bench.py [--quick] [--sessions N] [--events N] [--keep DIR]

Prints one JSON object on stdout (progress on stderr). The sessions (default 100 of 100,000
events each, the issue's measure) are written straight as session files (format 3, as the
writer writes them: an agent's streamed deltas merged per line, status, usage and model calls
between them, tool calls and results), from a seeded vocabulary of 2,000 words in which a few
needle words are planted a known number of times. Then:

build: the first search, which indexes every file (seconds, rows, the index's bytes beside the
    sessions' bytes);
search: each query below, searched as `agentui search` does it (the index brought up to date
    first: one stat per file), in process: p50/p95/max ms over the repeats, and its matches;
    the issue's target is <= 1 s for 100 sessions of 100k events;
    - rare: a word planted up to 10 times in all (where an event is a delta); common: a word in most blocks (stops at the limit);
    - phrase: two planted words in a row; prefix: the start of a planted word; none: no match;
append: 1,000 events appended to one session, then a search (the incremental update: only the
    new lines are read);
command: `agentui search` as a child process, wall time (Python's start included).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from figures import spread_ms

from agentui.core.session.search_index import INDEX_NAME, SearchIndex, search

WORDS = 2000
NEEDLE = "zanzibarquux"  # rare: planted RARE_COUNT times in all
RARE_COUNT = 10
PHRASE = ("velvet", "hammerhead")  # planted side by side in a tenth of the sessions
AGENTS = 20


def vocabulary(rng: random.Random) -> list[str]:
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = {"".join(rng.choices(letters, k=rng.randint(3, 9))) for _ in range(WORDS * 2)}
    return sorted(words - {NEEDLE, *PHRASE})[:WORDS]


def write_session(
    path: Path, events: int, rng: random.Random, words: list[str], plant: dict[int, str]
) -> None:
    """One session of `events` events; `plant` maps an event index to text planted there."""
    started = 1_790_000_000.0 + rng.random() * 1e6
    ts = started
    lines = [
        json.dumps(
            {
                "record": "header",
                "format": 3,
                "agentui": "bench",
                "id": path.stem,
                "started": started,
                "task": "the bench's task",
                "provider": "scripted",
                "model": "scripted-1",
            },
            separators=(",", ":"),
        )
    ]
    seq = 0

    def add(kind: str, agent: str, body: str) -> None:
        nonlocal seq, ts
        seq += 1
        ts += 0.01
        lines.append(f'{{"type":"{kind}","seq":{seq},"ts":{ts:.4f},"agent_id":"{agent}",{body}}}')

    for n in range(AGENTS):
        parent = "null" if n == 0 else '"a1"'
        add("agent:spawned", f"a{n + 1}", f'"parent_id":{parent},"name":"worker{n}","task":"t"')
    while seq < events:
        agent = f"a{rng.randint(1, AGENTS)}"
        iteration = rng.randint(1, 50)
        kind = rng.random()
        if kind < 0.75:
            text = " ".join(rng.choices(words, k=8))
            planted = plant.get(seq)
            if planted:
                text = f"{text} {planted}"
            delta = "thinking:delta" if kind < 0.15 else "text:delta"
            add(delta, agent, f'"iteration":{iteration},"delta":{json.dumps(text + " ")}')
        elif kind < 0.8:
            arguments = json.dumps({"path": "/".join(rng.choices(words, k=3))})
            add(
                "tool:start",
                agent,
                f'"iteration":{iteration},"call":{{"id":"c{seq}","name":"read_file",'
                f'"arguments":{arguments}}}',
            )
        elif kind < 0.85:
            result = json.dumps(" ".join(rng.choices(words, k=20)))
            add(
                "tool:complete",
                agent,
                f'"iteration":{iteration},"call_id":"c{seq}","name":"read_file",'
                f'"result":{result},"mocked":false,"duration_s":0.01',
            )
        elif kind < 0.92:
            add(
                "usage:updated",
                agent,
                '"delta":{"input_tokens":10,"output_tokens":5},'
                '"total":{"input_tokens":100,"output_tokens":50},'
                '"cost_usd":null,"total_cost_usd":null',
            )
        else:
            add(
                "llm:request",
                agent,
                f'"iteration":{iteration},"model":"scripted-1","message_count":3,"tool_names":[]',
            )
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def make_sessions(folder: Path, count: int, events: int) -> None:
    rng = random.Random(31)
    words = vocabulary(rng)
    rare_at = {(rng.randrange(count), rng.randrange(AGENTS, events)) for _ in range(RARE_COUNT)}
    for number in range(count):
        plant = {at: NEEDLE for s, at in rare_at if s == number}
        if number % 10 == 0:
            for _ in range(5):
                plant[rng.randrange(AGENTS, events)] = " ".join(PHRASE)
        name = f"20260101T{number // 60:02d}{number % 60:02d}00Z-{number:04x}.jsonl"
        write_session(folder / name, events, rng, words, plant)
        if number % 10 == 9:
            print(f"search_bench: wrote {number + 1} sessions", file=sys.stderr)
    (folder / "common.txt").write_text(words[0])


def timed_search(folder: Path, text: str, repeats: int) -> dict[str, object]:
    times: list[float] = []
    found = 0
    for _ in range(repeats):
        begun = time.perf_counter()
        results = search(text, directory=folder)
        times.append(time.perf_counter() - begun)
        found = len(results.matches)
        assert not results.notes, results.notes
    return {"query": text, "matches": found, **spread_ms(times)}


def index_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.glob(f"{INDEX_NAME}*"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 sessions of 10,000 events")
    parser.add_argument("--sessions", type=int, default=100)
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--keep", type=Path, help="write (or reuse) the sessions here")
    args = parser.parse_args()
    count, events = (5, 10_000) if args.quick else (args.sessions, args.events)
    repeats = 3 if args.quick else 7
    scratch = None if args.keep else Path(tempfile.mkdtemp(prefix="search-bench-"))
    folder = args.keep or (scratch / "sessions" if scratch else None)
    assert folder is not None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if not any(folder.glob("*.jsonl")):
            begun = time.perf_counter()
            make_sessions(folder, count, events)
            print(f"search_bench: wrote in {time.perf_counter() - begun:.1f} s", file=sys.stderr)
        common = (folder / "common.txt").read_text()
        session_bytes = sum(p.stat().st_size for p in folder.glob("*.jsonl"))
        (folder / INDEX_NAME).unlink(missing_ok=True)
        begun = time.perf_counter()
        search(NEEDLE, directory=folder)
        build_s = time.perf_counter() - begun
        with SearchIndex.open(folder, []) as index:
            rows = index.rows()
        size = index_bytes(folder)
        print(f"search_bench: indexed in {build_s:.1f} s", file=sys.stderr)
        queries = {
            "rare": NEEDLE,
            "common": common,
            "phrase": " ".join(PHRASE),
            "prefix": NEEDLE[:6],
            "none": "nosuchwordanywhere",
        }
        searched = {name: timed_search(folder, text, repeats) for name, text in queries.items()}
        victim = sorted(folder.glob("*.jsonl"))[count // 2]
        rng = random.Random(7)
        extra = victim.with_suffix(".extra")
        write_session(extra, 1000 + AGENTS, rng, vocabulary(rng), {AGENTS + 5: NEEDLE})
        with victim.open("a", encoding="utf-8") as file:
            file.writelines(extra.read_text(encoding="utf-8").splitlines(keepends=True)[1:])
        extra.unlink()
        begun = time.perf_counter()
        appended = search(NEEDLE, directory=folder)
        append_ms = round((time.perf_counter() - begun) * 1000, 1)
        env = {**os.environ, "AGENTUI_DATA_DIR": str(folder.parent)}
        command_ms = None
        if folder.name == "sessions":  # the command finds sessions only in DATA/sessions
            begun = time.perf_counter()
            subprocess.run(
                [sys.executable, "-m", "agentui.tui.cli.main", "search", NEEDLE],
                env=env,
                check=True,
                capture_output=True,
            )
            command_ms = round((time.perf_counter() - begun) * 1000, 1)
        print(
            json.dumps(
                {
                    "sessions": count,
                    "events_per_session": events,
                    "session_bytes": session_bytes,
                    "build": {"seconds": round(build_s, 2), "rows": rows, "index_bytes": size},
                    "search": searched,
                    "append": {
                        "events": 1000,
                        "ms": append_ms,
                        "rare_matches": len(appended.matches),
                    },
                    "command_ms": command_ms,
                },
                indent=2,
            )
        )
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
