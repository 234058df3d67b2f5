"""The search index of saved sessions (core/session/search_index.py): what it finds, how it
follows files that grow, change or go, and what it does when it cannot be kept."""

from __future__ import annotations

import json
import sqlite3
import stat
from pathlib import Path
from typing import Any

import anyio

from agentui.core.providers.scripted.script import Turn
from agentui.core.session.search_index import INDEX_NAME, SearchIndex, fts_query, search

from .session_helpers import recorded_runtime

HEADER = {
    "record": "header",
    "format": 3,
    "agentui": "test",
    "started": 1_790_000_000.0,
    "task": "t",
    "provider": "scripted",
    "model": "scripted-1",
}


class Log:
    """A session file written line by line, as the writer writes it."""

    def __init__(self, folder: Path, name: str = "20260101T000000Z-0001") -> None:
        self.path = folder / f"{name}.jsonl"
        self.seq = 0
        self.path.write_text(json.dumps({**HEADER, "id": name}) + "\n")

    def add(self, type_: str, agent: str = "a1", **fields: Any) -> None:
        self.seq += 1
        line = {"type": type_, "seq": self.seq, "ts": 1_790_000_000.0 + self.seq, "agent_id": agent}
        with self.path.open("a") as file:
            file.write(json.dumps({**line, **fields}, separators=(",", ":")) + "\n")

    def spawn(self, agent: str, name: str, parent: str | None = None) -> None:
        self.add("agent:spawned", agent, parent_id=parent, name=name, task=f"task of {name}")

    def text(self, agent: str, *pieces: str, kind: str = "text:delta") -> None:
        for piece in pieces:
            self.add(kind, agent, iteration=1, delta=piece)


def found(folder: Path, text: str) -> list[tuple[str, str, str]]:
    results = search(text, directory=folder)
    assert results.notes == []
    return [(m.agent, m.kind, m.line[m.start : m.end]) for m in results.matches]


def rows(folder: Path) -> int:
    with SearchIndex.open(folder, []) as index:
        return index.rows()


def test_a_block_streamed_over_many_lines_is_found_whole_under_its_agent_path(
    tmp_path: Path,
) -> None:
    log = Log(tmp_path)
    log.spawn("a1", "main")
    log.spawn("a2", "research", parent="a1")
    log.text("a2", "The por", "t is confi", "gured in\nsettings.toml")
    log.text("a1", "unrelated")  # another agent's block between: its own row
    log.text("a2", "I was thinking of ports", kind="thinking:delta")

    assert found(tmp_path, "port is configured") == [
        ("main/research", "text", "port is configured")
    ]
    results = search("settings", directory=tmp_path)
    (match,) = results.matches
    assert match.line == "settings.toml"  # the line of the block that holds it
    assert (match.session, match.seq) == ("20260101T000000Z-0001", 3)
    assert found(tmp_path, "thinking of") == [("main/research", "thinking", "thinking of")]


def test_words_match_whatever_their_case_and_accents_and_the_last_is_a_prefix(
    tmp_path: Path,
) -> None:
    log = Log(tmp_path)
    log.spawn("a1", "main")
    log.text("a1", "Le Café de la Gare")
    assert found(tmp_path, "cafe de") == [("main", "text", "Café de")]
    assert found(tmp_path, "GAR") == [("main", "text", "Gare")]
    assert found(tmp_path, "de le") == []  # words in order
    assert fts_query("?!") is None  # no word: nothing to ask the index
    assert fts_query('say "hi"') == '"say ""hi"""*'  # quotes stay words, never syntax


def test_tools_questions_answers_steers_and_results_are_found(tmp_path: Path) -> None:
    log = Log(tmp_path)
    log.spawn("a1", "main")
    call = {"id": "c1", "name": "read_file", "arguments": {"path": "alpha.txt"}}
    log.add("tool:start", iteration=1, call=call)
    log.add("tool:complete", iteration=1, call_id="c1", name="read_file", result="bravo here")
    log.add("query:raised", query_id="q1", prompt="charlie or delta?", kind="ask_user")
    log.add("query:answered", query_id="q1", answer="echo please")
    log.add("note:queued", text="foxtrot now", from_person=True)
    log.add("execution:complete", execution_id="x", result="golf done", iterations=1, duration_s=1)
    log.add("usage:updated", delta={}, total={})  # nothing to find in it
    expected = {
        "alpha": "tool",
        "bravo": "tool result",
        "charlie": "question",
        "echo": "answer",
        "foxtrot": "steer",
        "golf": "result",
        "task of main": "task",
    }
    for word, kind in expected.items():
        assert [m[1] for m in found(tmp_path, word)] == [kind], word


def test_lines_added_since_the_last_search_are_read_and_nothing_twice(tmp_path: Path) -> None:
    log = Log(tmp_path)
    log.spawn("a1", "main")
    log.text("a1", "first answer")
    assert len(found(tmp_path, "first")) == 1
    before = rows(tmp_path)
    log.text("a1", "second answer")  # a line appended (a running session, or a resume)
    assert len(found(tmp_path, "answer")) == 2
    assert rows(tmp_path) == before + 1
    assert len(found(tmp_path, "first")) == 1  # the old lines were not read again


def test_a_line_still_being_written_waits_for_the_next_search(tmp_path: Path) -> None:
    log = Log(tmp_path)
    log.spawn("a1", "main")
    with log.path.open("a") as file:
        file.write('{"type":"text:delta","seq":2,"ts":1.0,"agent_id":"a1","iteration":1,"de')
    assert found(tmp_path, "hotel") == []
    with log.path.open("a") as file:
        file.write('lta":"hotel"}\n')
    assert found(tmp_path, "hotel") == [("main", "text", "hotel")]


def test_a_replaced_or_cut_file_is_read_again_and_a_removed_one_forgotten(
    tmp_path: Path,
) -> None:
    log = Log(tmp_path)
    log.spawn("a1", "main")
    log.text("a1", "india is here and is long enough to be cut")
    assert len(found(tmp_path, "india")) == 1
    # Cut back and written on (as a resume after a damaged last line does): what was read
    # is no longer in the file.
    text = log.path.read_text().splitlines(keepends=True)
    log.path.write_text("".join(text[:-1]))
    log.text("a1", "juliet is here instead, and is longer than the old line was")
    assert found(tmp_path, "india") == []
    assert len(found(tmp_path, "juliet")) == 1
    log.path.unlink()
    assert found(tmp_path, "juliet") == []
    assert rows(tmp_path) == 0


def test_damaged_lines_are_skipped_and_the_rest_found(tmp_path: Path) -> None:
    log = Log(tmp_path)
    log.spawn("a1", "main")
    with log.path.open("ab") as file:
        file.write(b'{"type":"text:delta", not json\n\xff\xfe\n{"type":"text:delta"}\n')
    log.text("a1", "kilo")
    with log.path.open("a") as file:  # spaced as no writer of ours writes it: still read
        file.write('{"type": "text:delta", "seq": 9, "ts": 1.0, "agent_id": "a2", ')
        file.write('"iteration": 1, "delta": "kilo again"}\n')
    # Newest first by when it happened: the hand-written line's ts is older than the others'.
    assert found(tmp_path, "kilo") == [("main", "text", "kilo"), ("a2", "text", "kilo")]


def test_a_damaged_index_is_built_again_and_said(tmp_path: Path) -> None:
    log = Log(tmp_path)
    log.spawn("a1", "main")
    log.text("a1", "lima")
    (tmp_path / INDEX_NAME).write_bytes(b"not a database at all" * 100)
    results = search("lima", directory=tmp_path)
    assert [m.line for m in results.matches] == ["lima"]
    (note,) = results.notes
    assert "was damaged" in note and "built again" in note
    assert found(tmp_path, "lima") == [("main", "text", "lima")]  # and kept this time


def test_an_index_that_cannot_be_kept_is_said_and_the_search_still_answers(
    tmp_path: Path,
) -> None:
    log = Log(tmp_path)
    log.spawn("a1", "main")
    log.text("a1", "mike")
    (tmp_path / INDEX_NAME).mkdir()  # in its place: nothing can open it as a file
    results = search("mike", directory=tmp_path)
    assert [m.line for m in results.matches] == ["mike"]
    (note,) = results.notes
    assert f"cannot keep the search index {tmp_path / INDEX_NAME}" in note


def test_an_index_that_cannot_be_written_is_searched_as_it_is_and_said(tmp_path: Path) -> None:
    log = Log(tmp_path)
    log.spawn("a1", "main")
    log.text("a1", "november")
    assert len(found(tmp_path, "november")) == 1
    log.text("a1", "oscar")
    # Opened as a folder the person cannot write to leaves it: read-only.
    read_only = sqlite3.connect(f"{(tmp_path / INDEX_NAME).as_uri()}?mode=ro", uri=True)
    notes: list[str] = []
    with SearchIndex(tmp_path, read_only, saved=True) as index:
        index.update(notes)
        matches, _more = index.query("november", 5)
    assert [m.line for m in matches] == ["november"]  # what it holds is still searched
    (note,) = notes
    assert "cannot update the search index" in note and "may miss" in note


def test_the_index_is_the_owners_alone_and_no_folder_is_made_for_nothing(
    tmp_path: Path,
) -> None:
    log = Log(tmp_path)
    log.spawn("a1", "main")
    found(tmp_path, "main")
    assert stat.S_IMODE((tmp_path / INDEX_NAME).stat().st_mode) == 0o600
    missing = tmp_path / "none"
    assert search("x", directory=missing).matches == []
    assert not missing.exists()


def test_a_limit_stops_at_the_newest_matches_and_says_there_are_more(tmp_path: Path) -> None:
    log = Log(tmp_path)
    log.spawn("a1", "main")
    for n in range(5):
        log.add("note:queued", text=f"papa {n}")
    results = search("papa", directory=tmp_path, limit=3)
    assert [m.line for m in results.matches] == ["papa 4", "papa 3", "papa 2"]
    assert results.more


def test_a_session_recorded_by_the_runtime_is_found(tmp_path: Path) -> None:
    async def record() -> None:
        runtime = recorded_runtime(tmp_path, Turn(text="The quebec answer, streamed."))
        async with runtime:
            await runtime.wait(runtime.start("find quebec"))

    anyio.run(record)
    kinds = sorted(kind for _agent, kind, _text in found(tmp_path, "quebec"))
    assert kinds == ["task", "text"]


def test_matches_are_listed_in_the_order_they_happened_not_indexed(tmp_path: Path) -> None:
    log = Log(tmp_path)
    log.spawn("a1", "main")
    with log.path.open("a") as file:  # indexed in this order, happened the other way round
        file.write(
            '{"type":"text:delta","seq":20,"ts":2000.0,"agent_id":"a1","iteration":1,'
            '"delta":"mike newer"}\n'
        )
        file.write(
            '{"type":"text:delta","seq":21,"ts":1000.0,"agent_id":"a2","iteration":1,'
            '"delta":"mike older"}\n'
        )
    results = search("mike", directory=tmp_path)
    assert [m.ts for m in results.matches] == sorted((m.ts for m in results.matches), reverse=True)
