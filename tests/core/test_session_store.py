"""Where sessions live, how they are listed and found."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from agentui.core.protocol.events import RunResumed
from agentui.core.providers.scripted.script import Script, Turn
from agentui.core.session.errors import SessionError
from agentui.core.session.fold import fold_session
from agentui.core.session.naming import new_session_id, sessions_dir
from agentui.core.session.reader import read_session
from agentui.core.session.resume import plan_resume
from agentui.core.session.store import find_session, list_sessions
from agentui.core.session.summary import summary_path

from .session_helpers import (
    recorded_runtime,
    resumed_runtime,
    session_being_written,
)

pytestmark = pytest.mark.anyio


def _header(session_id: str, started: float, task: str) -> str:
    return json.dumps(
        {
            "record": "header",
            "format": 1,
            "agentui": "0.1.0",
            "id": session_id,
            "started": started,
            "task": task,
            "provider": "scripted",
            "model": "scripted-1",
        }
    )


def test_sessions_live_in_the_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTUI_DATA_DIR", str(tmp_path))
    assert sessions_dir() == tmp_path / "sessions"


def test_ids_sort_by_start_and_never_collide() -> None:
    ids = [new_session_id(1_767_225_600.0 + n) for n in (0, 1, 3600)]
    assert ids == sorted(ids)
    assert re.fullmatch(r"20260101T000000Z-[0-9a-f]{4}", ids[0])
    same_second = {new_session_id(1_767_225_600.0) for _ in range(50)}
    assert len(same_second) > 1


async def test_listing_shows_id_start_task_status_agents_and_tokens(tmp_path: Path) -> None:
    runtime = recorded_runtime(tmp_path, Turn(text="done"))
    async with runtime:
        root = runtime.start("First task")
        runtime.start("A part of it", parent_id=root)
        await runtime.wait(root)
        await runtime.wait("a2")
    (broken := tmp_path / "20250101T000000Z-dead.jsonl").write_text("not json\n")

    infos = {i.status: i for i in list_sessions(tmp_path)}

    assert set(infos) == {"unreadable", "completed"}
    assert "not a session file" in infos["unreadable"].problem
    info = infos["completed"]
    assert runtime.session.path is not None
    assert (info.id, info.path) == (runtime.session.path.stem, runtime.session.path)
    assert (info.task, info.agents) == ("First task", 2)
    assert info.tokens == sum(runtime.node(a).usage.total_tokens for a in ("a1", "a2"))
    assert broken.exists()


async def test_a_session_being_written_lists_as_running(tmp_path: Path) -> None:
    async with session_being_written(tmp_path):
        assert [i.status for i in list_sessions(tmp_path)] == ["running"]
    assert [i.status for i in list_sessions(tmp_path)] == ["completed"]


def test_find_by_last_id_prefix_or_path(tmp_path: Path) -> None:
    for session_id, started in (
        ("20260101T000000Z-aaaa", 1_767_225_600.0),
        ("20260102T000000Z-bbbb", 1_767_312_000.0),
        ("20260102T000000Z-bbcc", 1_767_312_000.5),
    ):
        (tmp_path / f"{session_id}.jsonl").write_text(_header(session_id, started, "t") + "\n")

    assert find_session("last", tmp_path).stem == "20260102T000000Z-bbcc"
    assert find_session("20260101", tmp_path).stem == "20260101T000000Z-aaaa"
    assert find_session("20260102T000000Z-bbbb", tmp_path).stem == "20260102T000000Z-bbbb"
    elsewhere = tmp_path / "copy" / "mine.jsonl"
    elsewhere.parent.mkdir()
    elsewhere.write_text(_header("mine", 0.0, "t") + "\n")
    assert find_session(str(elsewhere), tmp_path) == elsewhere
    with pytest.raises(SessionError, match="matches 2 sessions"):
        find_session("20260102T000000Z-bb", tmp_path)
    with pytest.raises(SessionError, match="no session 'nope'"):
        find_session("nope", tmp_path)


def test_find_without_any_session_says_so(tmp_path: Path) -> None:
    with pytest.raises(SessionError, match="no sessions yet"):
        find_session("last", tmp_path / "empty")


async def _finished_session(directory: Path) -> Path:
    runtime = recorded_runtime(directory, Turn(text="The answer is 42."))
    async with runtime:
        await runtime.wait(runtime.start("First task"))
    assert runtime.session.path is not None
    return runtime.session.path


@pytest.mark.parametrize("kind", [b'"text:delta"', b'"conversation:changed"'])
async def test_a_damaged_line_lists_as_damaged_with_its_count(tmp_path: Path, kind: bytes) -> None:
    path = await _finished_session(tmp_path)
    lines = path.read_bytes().split(b"\n")
    first, second = [i for i, line in enumerate(lines) if kind in line[:30]][:2]
    lines[first] = lines[first][:-5]  # cut short
    lines[second] = lines[second].replace(b'"seq":', b'"seq":"x","was":')  # not an event
    path.write_bytes(b"\n".join(lines))

    (info,) = list_sessions(tmp_path)

    assert info.status == "damaged (2 lines skipped)"
    assert (info.task, info.agents) == ("First task", 1)
    assert f"{path}:{first + 1}: skipped a damaged line: not valid JSON" in info.problem
    assert f"{path}:{second + 1}: skipped a damaged line: bad {kind.decode()[1:-1]}" in info.problem


async def test_a_session_with_a_damaged_header_is_listed_and_can_be_last(tmp_path: Path) -> None:
    older = tmp_path / "20250101T000000Z-aaaa.jsonl"
    older.write_text(_header(older.stem, 1_735_689_600.0, "older") + "\n")
    path = await _finished_session(tmp_path)  # the frozen clock starts in 2026
    lines = path.read_bytes().split(b"\n")
    lines[0] = b'{"record": "header", "format"'
    path.write_bytes(b"\n".join(lines))

    infos = list_sessions(tmp_path)

    assert [(i.id, i.task) for i in infos] == [(older.stem, "older"), (path.stem, "First task")]
    assert infos[1].status == "damaged (1 line skipped)"
    assert find_session("last", tmp_path) == path


# -- a session file under another name than the id inside it (a copy, a rename) ---------------


async def test_a_copy_lists_and_opens_by_its_own_name_and_says_whose_it_is(
    tmp_path: Path,
) -> None:
    original = await _finished_session(tmp_path)
    list_sessions(tmp_path)  # leaves the original's summary beside it
    copy = tmp_path / "before-the-fix.jsonl"
    for source in (original, summary_path(original)):  # `cp -p ID.* …`: the summary counts too
        shutil.copy2(source, summary_path(copy) if source.suffix == ".json" else copy)
    renamed = tmp_path / "renamed.jsonl"
    original.rename(renamed)

    infos = {i.id: i for i in list_sessions(tmp_path)}

    assert set(infos) == {"before-the-fix", "renamed"}, "one row per file, by its name"
    for name, info in infos.items():
        assert info.header_id == original.stem and info.row()["header_id"] == original.stem
        assert info.renamed_note() == (
            f"{name}.jsonl holds session {original.stem} (the id in its first line): "
            f"it is listed and opened as {name}"
        )
        assert find_session(name, tmp_path) == info.path
        assert (info.status, info.task) == ("completed", "First task")
    with pytest.raises(SessionError, match="no session"):
        find_session(original.stem, tmp_path)


async def test_a_session_under_its_own_id_says_nothing_of_names(tmp_path: Path) -> None:
    path = await _finished_session(tmp_path)

    (info,) = list_sessions(tmp_path)

    assert (info.id, info.header_id, info.renamed_note()) == (path.stem, None, None)
    assert info.row()["header_id"] is None
    assert read_session(path).warnings == []


async def test_a_renamed_session_reads_with_one_note_and_its_name_as_id(tmp_path: Path) -> None:
    original = await _finished_session(tmp_path)
    renamed = original.rename(tmp_path / "mine.jsonl")

    log = read_session(renamed)

    assert (log.id, log.header.id) == ("mine", original.stem)
    assert log.warnings == [
        f"mine.jsonl holds session {original.stem} (the id in its first line): "
        "it is listed and opened as mine"
    ]


async def test_a_damaged_renamed_session_says_the_rename_once(tmp_path: Path) -> None:
    original = await _finished_session(tmp_path)
    renamed = original.rename(tmp_path / "mine.jsonl")
    lines = renamed.read_bytes().split(b"\n")
    lines[2] = b"not json"  # a last line is a torn write, not damage: one in the middle
    renamed.write_bytes(b"\n".join(lines))

    (info,) = list_sessions(tmp_path)

    assert info.status == "damaged (1 line skipped)"
    assert "skipped a damaged line" in info.problem
    assert "listed and opened as" not in info.problem, "the listing says it on a line of its own"
    assert info.renamed_note() is not None


async def test_a_resumed_copy_goes_on_in_the_copy(tmp_path: Path) -> None:
    original = await _finished_session(tmp_path)
    before = original.read_bytes()
    copy = tmp_path / "try-again.jsonl"
    shutil.copy(original, copy)
    plan = plan_resume(read_session(copy))
    runtime = resumed_runtime(plan, Script.for_all(Turn(text="Still 42.")))
    async with runtime:
        runtime.send("a1", "Sure?")
        await runtime.wait("a1")

    assert original.read_bytes() == before, "the original is left as it was"
    after = read_session(copy)
    assert fold_session(after).agents["a1"].result == "Still 42."
    (resumed,) = [e for e in after.events if isinstance(e, RunResumed)]
    assert resumed.session_id == "try-again"
    infos = {i.id: i for i in list_sessions(tmp_path)}
    assert set(infos) == {original.stem, "try-again"}
    assert infos["try-again"].header_id == original.stem


async def test_a_session_of_several_tasks_counts_them_in_its_row(tmp_path: Path) -> None:
    runtime = recorded_runtime(tmp_path, Turn(text="done"))
    async with runtime:
        for task in ("First task", "Second task", "Third task"):
            await runtime.wait(runtime.start(task))
    (kept,) = list_sessions(tmp_path)  # from the summary the writer kept
    assert (kept.task, kept.tasks, kept.row()["tasks"]) == ("First task", 3, 3)
    assert runtime.session.path is not None
    summary_path(runtime.session.path).unlink()
    (read,) = list_sessions(tmp_path)  # from the session read whole
    assert (read.task, read.tasks) == ("First task", 3)
