"""The summary beside each session: `agentui sessions` prints a row without reading the session,
and reads the session (leaving a fresh summary) when the summary is missing, damaged or stale."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentui.core.providers.scripted.script import Script, Turn
from agentui.core.session import store
from agentui.core.session.fold import fold_session
from agentui.core.session.reader import read_session
from agentui.core.session.resume import plan_resume
from agentui.core.session.store import list_sessions
from agentui.core.session.summary import read_summary, summary_path

from .session_helpers import recorded_runtime, resumed_runtime, session_being_written

pytestmark = pytest.mark.anyio


async def _finished(directory: Path) -> Path:
    runtime = recorded_runtime(directory, Turn(text="The answer is 42."))
    async with runtime:
        root = runtime.start("First task")
        runtime.start("A part of it", parent_id=root)
        await runtime.wait(root)
        await runtime.wait("a2")
    assert runtime.session.path is not None
    return runtime.session.path


def _no_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the listing read a session file")

    monkeypatch.setattr(store, "read_session", refuse)


async def test_the_writer_leaves_a_summary_that_describes_the_file(tmp_path: Path) -> None:
    path = await _finished(tmp_path)

    summary = read_summary(path)

    assert summary is not None and summary.describes(path.stat())
    state = fold_session(read_session(path))
    assert (summary.id, summary.task, summary.status) == (path.stem, "First task", "completed")
    assert (summary.agents, summary.tokens) == (2, state.tokens)
    assert summary_path(path).name == f"{path.stem}.summary.json"


async def test_listing_prints_rows_from_summaries_without_reading_sessions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = await _finished(tmp_path)
    expected = list_sessions(tmp_path)
    _no_reading(monkeypatch)

    (info,) = list_sessions(tmp_path)

    assert info == expected[0]
    assert (info.id, info.status, info.agents, info.task) == (
        path.stem,
        "completed",
        2,
        "First task",
    )


async def test_a_session_being_written_is_listed_from_its_summary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with session_being_written(tmp_path):
        _no_reading(monkeypatch)
        (info,) = list_sessions(tmp_path)
        assert (info.status, info.agents, info.task) == ("running", 1, "hold")
        monkeypatch.undo()


@pytest.mark.parametrize("summary", ["missing", "damaged", "stale"])
async def test_without_a_summary_that_fits_the_session_is_read_and_summed_up_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, summary: str
) -> None:
    path = await _finished(tmp_path)
    (expected,) = list_sessions(tmp_path)
    beside = summary_path(path)
    if summary == "missing":
        beside.unlink()
    elif summary == "damaged":
        beside.write_text('{"summary": 1, "id": "cut sh')
    else:  # the session grew after its summary (a crash after a flush)
        with path.open("ab") as file:
            file.write(b'{"type":"future:thing","seq":999,"ts":0.0,"agent_id":"a1"}\n')

    (info,) = list_sessions(tmp_path)

    assert (info.id, info.status, info.agents, info.tokens) == (
        expected.id,
        expected.status,
        expected.agents,
        expected.tokens,
    )
    fresh = read_summary(path)
    assert fresh is not None and fresh.describes(path.stat()), "left behind for next time"
    _no_reading(monkeypatch)
    assert list_sessions(tmp_path) == [info]


async def test_a_damaged_session_keeps_listing_as_damaged_from_its_summary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = await _finished(tmp_path)
    lines = path.read_bytes().split(b"\n")
    lines[2] = b"garbage"
    path.write_bytes(b"\n".join(lines))
    (first,) = list_sessions(tmp_path)
    _no_reading(monkeypatch)

    (again,) = list_sessions(tmp_path)

    assert first == again
    assert again.status == "damaged (1 line skipped)"
    assert f"{path}:3: skipped a damaged line" in again.problem


async def test_a_resumed_session_keeps_its_summary_up_to_date(tmp_path: Path) -> None:
    path = await _finished(tmp_path)
    plan = plan_resume(read_session(path))
    runtime = resumed_runtime(plan, Script.for_all(Turn(text="More.")))
    async with runtime:
        runtime.send("a1", "Go on")
        await runtime.wait("a1")

    summary = read_summary(path)
    assert summary is not None and summary.describes(path.stat())
    assert (summary.status, summary.agents) == ("completed", 2)
    assert summary.tokens == fold_session(read_session(path)).tokens


async def test_a_resumed_damaged_session_leaves_the_listing_to_read_it(tmp_path: Path) -> None:
    path = await _finished(tmp_path)
    lines = path.read_bytes().split(b"\n")
    lines[2] = b"garbage"
    path.write_bytes(b"\n".join(lines))
    summary_path(path).unlink()
    plan = plan_resume(read_session(path))
    runtime = resumed_runtime(plan, Script.for_all(Turn(text="More.")))
    async with runtime:
        runtime.send("a1", "Go on")
        await runtime.wait("a1")

    assert read_summary(path) is None, "a summary cannot say what the damaged line lost"
    (info,) = list_sessions(tmp_path)
    assert info.status == "damaged (1 line skipped)"
