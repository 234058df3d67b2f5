"""`agentui search` through the real command, in child processes: a recorded run's words found
as `session · agent · time · line`, as JSON, and how to open the session."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from .cli_runs import child_env
from .preloaded_cli import completed

TIMEOUT_S = 60  # a safety net against a hung child, never a measurement


def agentui(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    return completed(list(args), env=child_env(home, COLUMNS="200"), cwd=home)


def test_a_recorded_run_is_found_and_the_way_to_open_it_said(tmp_path: Path) -> None:
    ran = agentui("run", "--json", "Plan a trip to Zanzibar\x1b[2J", home=tmp_path)
    assert ran.returncode == 0, ran.stderr
    (session,) = [p.stem for p in (tmp_path / "data" / "sessions").glob("*.jsonl")]

    listed = agentui("search", "zanzibar", home=tmp_path)
    assert listed.returncode == 0, listed.stderr
    rows = [line for line in listed.stdout.splitlines() if line.startswith(session)]
    assert rows, listed.stdout
    task_row = next(row for row in rows if row.endswith("Plan a trip to Zanzibar␛[2J"))
    session_cell, agent, when, _line = task_row.split(" · ", 3)
    assert (session_cell, agent) == (session, "main")
    assert len(when) == len("2026-01-01 09:30:00")
    assert "\x1b" not in listed.stdout  # the task's escape is shown, never obeyed
    assert f"agentui --resume {session}" in listed.stdout
    assert f"agentui replay {session} --from " in listed.stdout  # at the newest match

    as_json = agentui("search", "--json", "zanzibar", home=tmp_path)
    matches = [json.loads(line) for line in as_json.stdout.splitlines()]
    assert {m["session"] for m in matches} == {session}
    task = next(m for m in matches if m["kind"] == "task")
    assert task["line"] == "Plan a trip to Zanzibar\x1b[2J"  # exact, as JSON keeps it
    assert task["line"][task["start"] : task["end"]] == "Zanzibar"
    assert "\x1b" not in as_json.stdout  # escaped in the JSON text


def test_no_match_no_word_and_no_sessions_are_said(tmp_path: Path) -> None:
    none_yet = agentui("search", "anything", home=tmp_path)
    assert none_yet.returncode == 0
    assert none_yet.stdout.startswith("No match for 'anything'")
    assert not (tmp_path / "data").exists()  # a search makes nothing where there is nothing

    no_word = agentui("search", "?!", home=tmp_path)
    assert no_word.returncode == 2
    assert "holds no word to search for" in no_word.stderr
