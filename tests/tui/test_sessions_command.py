"""`agentui sessions` and `agentui export` on what the sessions folder holds: a summary file's
text reaches the terminal only made visible, and a session file copied or renamed is listed
and opened by its own name, with one line saying whose id it holds."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from agentui.core.session.summary import SessionSummary, write_summary
from agentui.tui.cli.main import main

ESC, BEL = "\x1b", "\x07"
# What a terminal would obey; none may reach it raw.
RAW_CONTROLS = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
ORIGINAL = "20260101T000000Z-aaaa"


@pytest.fixture
def sessions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("AGENTUI_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("AGENTUI_DATA_DIR", str(tmp_path / "data"))
    folder = tmp_path / "data" / "sessions"
    folder.mkdir(parents=True)
    return folder


def _session(path: Path, session_id: str, task: str = "Plan a trip") -> Path:
    header = {
        "record": "header",
        "format": 2,
        "agentui": "0.1.0",
        "id": session_id,
        "started": 1_767_225_600.0,
        "task": task,
        "provider": "scripted",
        "model": "scripted-1",
    }
    path.write_text(json.dumps(header) + "\n", "utf-8")
    return path


def _summary_saying(path: Path, **fields: object) -> None:
    """A summary beside `path` that describes it as it is, so the listing believes it."""
    stat = path.stat()
    row: dict[str, object] = {
        "id": path.stem,
        "started": 1_767_225_600.0,
        "task": "Plan a trip",
        "status": "completed",
        "agents": 1,
        "tokens": 10,
        "size": stat.st_size,
        "mtime_ns": stat.st_mtime_ns,
    }
    write_summary(path, SessionSummary.model_validate(row | fields))


def test_a_summary_status_reaches_the_terminal_made_visible(
    sessions: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _session(sessions / f"{ORIGINAL}.jsonl", ORIGINAL)
    _summary_saying(path, status=f"done{ESC}]0;pwned{BEL}{ESC}[2J\u202eevil")

    assert main(["sessions"]) == 0

    out = capsys.readouterr().out
    assert RAW_CONTROLS.search(out.replace("\n", "")) is None
    assert "done␛]0;pwned␇␛[2J<U+202E>evil" in out


def test_a_start_no_clock_can_show_lists_as_a_question_mark(
    sessions: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _session(sessions / f"{ORIGINAL}.jsonl", ORIGINAL)
    _summary_saying(path, started=1e300)

    assert main(["sessions"]) == 0

    (row,) = capsys.readouterr().out.splitlines()[1:]
    assert row.split()[:3] == [ORIGINAL, "?", "completed"]


def test_a_renamed_file_lists_by_its_name_with_one_line_and_exports_by_it(
    sessions: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hostile_id = f"{ORIGINAL}{ESC}]0;t{BEL}"  # the id inside a file is the file's text
    _session(sessions / "mine.jsonl", hostile_id)
    _session(sessions / f"{ORIGINAL}.jsonl", ORIGINAL)

    assert main(["sessions"]) == 0

    listed = capsys.readouterr()
    assert sorted(row.split()[0] for row in listed.out.splitlines()[1:]) == [ORIGINAL, "mine"]
    assert RAW_CONTROLS.search(listed.err.replace("\n", "")) is None
    assert listed.err.splitlines() == [
        f"agentui: warning: mine.jsonl holds session {ORIGINAL}␛]0;t␇ "
        "(the id in its first line): it is listed and opened as mine"
    ]

    assert main(["export", "mine"]) == 0

    exported = capsys.readouterr()
    assert exported.out.startswith("# Session mine\n")
    assert "- Note: mine.jsonl holds session" in exported.out
    assert exported.err.count("listed and opened as mine") == 1


def test_export_of_a_listed_copy_finds_it_when_the_original_is_gone(
    sessions: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _session(sessions / "copy.jsonl", ORIGINAL)  # its original, ORIGINAL.jsonl, is no more

    assert main(["sessions", "--json"]) == 0
    (row,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert (row["id"], row["header_id"]) == ("copy", ORIGINAL)

    assert main(["export", row["id"], "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["session"]["id"] == ORIGINAL, "the JSON keeps the file's header exact"
    assert document["warnings"] == [
        f"copy.jsonl holds session {ORIGINAL} (the id in its first line): "
        "it is listed and opened as copy"
    ]


def test_a_session_of_several_tasks_lists_by_its_first_and_counts_the_others(
    sessions: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one = _session(sessions / f"{ORIGINAL}.jsonl", ORIGINAL)
    _summary_saying(one, tasks=7)
    older = _session(sessions / "20250101T000000Z-bbbb.jsonl", "20250101T000000Z-bbbb")
    _summary_saying(older, id=older.stem)  # a summary from before tasks were counted
    assert main(["sessions"]) == 0
    rows = {row.split()[0]: row for row in capsys.readouterr().out.splitlines()[1:]}
    assert rows[older.stem].endswith("  Plan a trip") and "more" not in rows[older.stem]
    assert rows[ORIGINAL].endswith("  (+6 more) Plan a trip")
