"""Loading session files: a torn tail is skipped with a warning, damage elsewhere is an error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentui.core.providers.script import Turn
from agentui.core.session.errors import SessionCorruptError, SessionError
from agentui.core.session.reader import read_header, read_session

from .session_helpers import recorded_runtime

pytestmark = pytest.mark.anyio


async def _session(tmp_path: Path) -> Path:
    runtime = recorded_runtime(tmp_path, Turn(thinking="Plan.", text="The answer is 42."))
    async with runtime:
        await runtime.wait(runtime.start("What is the answer?"))
    assert runtime.session.path is not None
    return runtime.session.path


async def test_a_whole_file_loads_without_warnings(tmp_path: Path) -> None:
    path = await _session(tmp_path)
    log = read_session(path)
    assert log.warnings == []
    assert log.valid_bytes == path.stat().st_size
    assert log.header.task == "What is the answer?"
    assert [e.seq for e in log.events] == list(range(1, log.last_seq + 1))
    assert log.conversations, "conversation records are written beside the events"
    assert read_header(path) == log.header


async def test_a_torn_last_line_is_skipped_with_a_warning(tmp_path: Path) -> None:
    path = await _session(tmp_path)
    whole = read_session(path)
    data = path.read_bytes()
    last_start = data.rstrip(b"\n").rfind(b"\n") + 1
    path.write_bytes(data[: last_start + 10])  # a crash cut the last write short

    log = read_session(path)
    assert len(log.warnings) == 1
    assert "incomplete last line" in log.warnings[0]
    line_count = data.count(b"\n")
    assert f":{line_count}:" in log.warnings[0], "the warning names the line"
    assert log.valid_bytes == last_start
    kept = len(log.events) + len(log.conversations)
    assert kept == len(whole.events) + len(whole.conversations) - 1


async def test_a_damaged_last_whole_line_is_skipped_with_a_warning(tmp_path: Path) -> None:
    path = await _session(tmp_path)
    size = path.stat().st_size
    with path.open("ab") as file:
        file.write(b'{"type": "text:del\x00\x00\n')

    log = read_session(path)
    assert len(log.warnings) == 1 and "damaged last line" in log.warnings[0]
    assert log.valid_bytes == size


async def test_a_corrupt_middle_line_is_an_error_naming_the_line(tmp_path: Path) -> None:
    path = await _session(tmp_path)
    lines = path.read_bytes().split(b"\n")
    lines[3] = b'{"type": "text:delta", "seq": "not a number"}'
    path.write_bytes(b"\n".join(lines))

    with pytest.raises(SessionCorruptError) as caught:
        read_session(path)
    assert caught.value.line == 4
    assert str(caught.value).startswith(f"{path}:4: bad text:delta event")


async def test_unknown_event_types_from_a_newer_version_are_left_out(tmp_path: Path) -> None:
    path = await _session(tmp_path)
    whole = read_session(path)
    with path.open("ab") as file:
        future = {"type": "future:thing", "seq": 999, "ts": 0.0, "agent_id": "a1"}
        file.write(json.dumps(future).encode() + b"\n")

    log = read_session(path)
    assert log.events == whole.events
    assert log.unknown_events == 1
    assert "newer version" in log.warnings[0]


async def test_skip_deltas_leaves_out_only_text_and_thinking(tmp_path: Path) -> None:
    path = await _session(tmp_path)
    full = read_session(path).events
    quick = read_session(path, skip_deltas=True).events
    assert quick == [e for e in full if e.type not in ("text:delta", "thinking:delta")]


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"", "no header line"),
        (b'{"record": "header", "format": 1', "no header line"),
        (b'{"type": "agent:spawned"}\n', "not a session header"),
        (b"[1, 2]\n", "not a JSON object"),
    ],
)
def test_a_file_without_a_header_is_not_a_session(
    tmp_path: Path, content: bytes, problem: str
) -> None:
    path = tmp_path / "broken.jsonl"
    path.write_bytes(content)
    with pytest.raises(SessionError, match=problem):
        read_session(path)


def test_a_newer_format_asks_for_an_upgrade(tmp_path: Path) -> None:
    path = tmp_path / "future.jsonl"
    header = {
        "record": "header",
        "format": 99,
        "agentui": "9.0",
        "id": "future",
        "started": 0.0,
        "task": "t",
        "provider": "scripted",
        "model": "m",
    }
    path.write_text(json.dumps(header) + "\n")
    with pytest.raises(SessionError, match="upgrade"):
        read_session(path)


def test_a_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SessionError, match="no session file"):
        read_session(tmp_path / "nope.jsonl")
