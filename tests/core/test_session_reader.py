"""Loading session files: a damaged line anywhere is skipped with a warning naming it, and every
line written whole around it is kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentui.core.providers.scripted.script import Turn
from agentui.core.session.errors import SessionError
from agentui.core.session.fold import fold_session
from agentui.core.session.reader import (
    MAX_LINE_WARNINGS,
    UNKNOWN,
    SessionLog,
    read_header,
    read_session,
)

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
    seqs = [e.seq for e in log.events]
    assert seqs[0] == 1 and seqs == sorted(set(seqs)), "in order (merged deltas leave gaps)"
    assert log.conversations == [], "format 3 writes no records: conversations are events"
    assert any(e.type == "conversation:changed" for e in log.events)
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


def _lines(path: Path) -> list[bytes]:
    return path.read_bytes().split(b"\n")[:-1]


def _write_lines(path: Path, lines: list[bytes]) -> None:
    path.write_bytes(b"".join(line + b"\n" for line in lines))


def _line_of(lines: list[bytes], kind: bytes, nth: int = 0) -> int:
    """The index of the `nth` line of an event type or record kind."""
    found = [i for i, line in enumerate(lines) if kind in line[:40]]
    return found[nth]


DAMAGE = {
    "bad JSON": b"garbage {",
    "valid JSON, not a valid event": b'{"type": "text:delta", "seq": "not a number"}',
    "invalid UTF-8": b'{"type":"text:delta","seq":9,"delta":"\xff\xfe"}',
    "cut short": b'{"type":"agent:status","seq":2,"ts":1767',
    "empty": b"",
    "not an object": b"[1, 2, 3]",
    "unknown record": b'{"record": "mystery"}',
}


@pytest.mark.parametrize("damage", DAMAGE.values(), ids=DAMAGE.keys())
@pytest.mark.parametrize("kind", [b"text:delta", b"agent:status", b"conversation:changed"])
async def test_a_damaged_middle_line_is_skipped_and_the_rest_is_kept(
    tmp_path: Path, kind: bytes, damage: bytes
) -> None:
    path = await _session(tmp_path)
    whole = read_session(path)
    lines = _lines(path)
    index = _line_of(lines, kind)
    assert 0 < index < len(lines) - 1, "a line in the middle"
    lost = lines[index]
    lines[index] = damage
    _write_lines(path, lines)

    log = read_session(path)

    assert log.damaged_lines == [index + 1]
    (warning,) = [w for w in log.warnings if "skipped" in w]
    assert warning.startswith(f"{path}:{index + 1}: skipped a damaged line: ")
    kept = [e for e in whole.events if e.model_dump_json().encode() != lost]
    if kind == b"text:delta":
        # The response and the result repeat the lost text, which the file holds once (see
        # elision.py): they miss it too, and a warning says so.
        repeats = ("llm:response", "execution:complete")
        assert [e for e in log.events if e.type not in repeats] == [
            e for e in kept if e.type not in repeats
        ]
        missing = len(json.loads(lost)["delta"])
        assert any(f"misses {missing} of its characters" in w for w in log.warnings)
    else:
        assert log.events == kept, "every other event is kept, in order"
    assert len(log.conversations) == len(whole.conversations) - (kind == b'"conversation"')
    assert log.valid_bytes == path.stat().st_size, "a resumed session appends after it"
    assert log.header == whole.header


async def test_a_damaged_delta_costs_only_its_own_text_and_says_so(tmp_path: Path) -> None:
    path = await _session(tmp_path)
    lines = _lines(path)
    # Written over two flushes, the answer is (at least) two lines; make sure of it.
    index = _line_of(lines, b"text:delta")
    if b'"answer is 42."' in lines[index]:
        whole = json.loads(lines[index])
        second = {**whole, "seq": whole["seq"] + 1, "delta": whole["delta"][3:]}
        whole["delta"] = whole["delta"][:3]
        lines[index : index + 1] = [json.dumps(whole).encode(), json.dumps(second).encode()]
    assert fold_session(read_session_of(path, lines)).agents["a1"].result == "The answer is 42."
    last = max(i for i, line in enumerate(lines) if b'"text:delta"' in line[:40])
    lost = json.loads(lines[last])["delta"]
    lines[last] = b"\x00\x00\x00"
    _write_lines(path, lines)

    log = read_session(path)
    state = fold_session(log)

    (root,) = state.roots()
    left = "The answer is 42."[: -len(lost)]
    assert root.result == left, "the response and the result repeat only what is left"
    assert [i.text for i in state.transcripts["a1"] if i.kind == "text"] == [left]
    response = _line_of(lines, b"llm:response")
    skipped, shortened = log.warnings
    assert skipped.startswith(f"{path}:{last + 1}: skipped a damaged line")
    assert shortened == (
        f"{path}:{response + 1}: the response text of agent 'a1' misses {len(lost)} of its "
        "characters (they were in a damaged line)"
    )
    assert root.conversation.messages[-1].text == "The answer is 42.", "resume sends it whole"
    assert state.status == "completed"


def read_session_of(path: Path, lines: list[bytes]) -> SessionLog:
    _write_lines(path, lines)
    return read_session(path)


async def test_many_damaged_lines_are_summed_up_after_the_first_ones(tmp_path: Path) -> None:
    path = await _session(tmp_path)
    whole = read_session(path)
    lines = _lines(path)
    padding = [b"junk"] * (MAX_LINE_WARNINGS + 5)
    _write_lines(path, [lines[0], *padding, *lines[1:]])

    log = read_session(path)

    assert log.damaged_lines == list(range(2, MAX_LINE_WARNINGS + 7))
    assert len(log.warnings) == MAX_LINE_WARNINGS + 1
    assert log.warnings[-1] == (
        f"{path}: skipped 5 more damaged lines (lines {', '.join(str(n) for n in range(22, 27))})"
    )
    assert log.events == whole.events


async def test_a_damaged_header_keeps_the_events_under_a_stand_in(tmp_path: Path) -> None:
    path = await _session(tmp_path)
    whole = read_session(path)
    lines = _lines(path)
    lines[0] = lines[0][:30]  # the header itself cut short
    _write_lines(path, lines)

    log = read_session(path)

    assert log.events == whole.events and log.conversations == whole.conversations
    assert log.damaged_lines == [1]
    (warning,) = log.warnings
    assert warning.startswith(f"{path}:1: the session header is damaged (not valid JSON")
    assert (log.id, log.header.task) == (path.stem, "What is the answer?")
    assert log.header.started == whole.events[0].ts
    assert (log.header.provider, log.header.model, log.header.agentui) == (UNKNOWN,) * 3
    assert fold_session(log).status == "completed"
    with pytest.raises(SessionError, match="not a session file"):
        read_header(path)  # the quick look says what it sees; the full read recovers


async def test_a_missing_header_line_loses_no_event(tmp_path: Path) -> None:
    path = await _session(tmp_path)
    whole = read_session(path)
    _write_lines(path, _lines(path)[1:])

    log = read_session(path)

    assert log.events == whole.events
    assert log.damaged_lines == [], "nothing was skipped"
    assert "the first line is not a session header" in log.warnings[0]


async def test_a_lost_conversation_change_is_named_per_agent(tmp_path: Path) -> None:
    path = await _session(tmp_path)
    lines = _lines(path)
    lines[_line_of(lines, b"conversation:changed", 0)] = b"lost"
    _write_lines(path, lines)

    log = read_session(path)

    assert log.damaged_lines
    assert sum(e.type == "conversation:changed" for e in log.events) == 1
    assert any("agent 'a1' lost part of its saved conversation" in w for w in log.warnings)


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
