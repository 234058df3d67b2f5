"""A compact session log: each block's deltas merged per flush, repeated text written once, and
logs written before that (one line per delta) still read, resumed and exported."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import anyio
import pytest

from agentui.core.protocol.events import (
    Event,
    ExecutionCompleted,
    LLMRequested,
    LLMResponded,
    NoteQueued,
    TextDelta,
    ThinkingDelta,
)
from agentui.core.protocol.usage import Usage
from agentui.core.providers.scripted.script import Script, Turn
from agentui.core.session import writer as writer_module
from agentui.core.session.delta_merge import DeltaMerge, merge_deltas
from agentui.core.session.elision import RESULT_IS_RESPONSE, TEXT_STREAMED, Elision
from agentui.core.session.export import export_session
from agentui.core.session.fold import fold_session
from agentui.core.session.reader import read_header, read_session
from agentui.core.session.resume import plan_resume

from .session_helpers import SAFETY_NET_S, next_event, recorded_runtime, resumed_runtime
from .session_story import assert_same_story, blocks

pytestmark = pytest.mark.anyio

GOLDEN_FORMAT_1 = Path(__file__).parent / "golden" / "session_format1.jsonl"
ANSWER = "".join(f"Sentence {n} of a long answer. " for n in range(100))


def _text(seq: int, delta: str, agent: str = "a1", iteration: int = 1) -> TextDelta:
    return TextDelta(seq=seq, ts=float(seq), agent_id=agent, iteration=iteration, delta=delta)


def _think(seq: int, delta: str, agent: str = "a1") -> ThinkingDelta:
    return ThinkingDelta(seq=seq, ts=float(seq), agent_id=agent, iteration=1, delta=delta)


def _note(seq: int, agent: str = "a1") -> NoteQueued:
    return NoteQueued(seq=seq, ts=float(seq), agent_id=agent, text="a note")


# -- merging --------------------------------------------------------------------------------


def test_consecutive_deltas_of_a_block_become_one_event_under_the_first_seq() -> None:
    merged = merge_deltas([_text(1, "Hel"), _text(2, "lo"), _text(3, ", you")])
    assert merged == [_text(1, "Hello, you")]


def test_a_block_ends_at_its_agents_next_event_or_another_kind_or_iteration() -> None:
    events: list[Event] = [
        _think(1, "Hm"),
        _think(2, "m."),
        _text(3, "A"),
        _text(4, "B", agent="a2"),  # another agent's delta: a block of its own
        _text(5, "C"),  # still a1's block: a2's events are not a1's
        _note(6, agent="a2"),
        _text(7, "D"),
        _note(8),  # a1's own event closes a1's block
        _text(9, "E"),
        _text(10, "F", iteration=2),
    ]
    assert merge_deltas(events) == [
        _think(1, "Hmm."),
        _text(3, "ACD"),
        _text(4, "B", agent="a2"),
        _note(6, agent="a2"),
        _note(8),
        _text(9, "E"),
        _text(10, "F", iteration=2),
    ]


def test_what_is_not_an_event_passes_through_and_take_starts_afresh() -> None:
    merge: DeltaMerge[str] = DeltaMerge()
    merge.add(_text(1, "a"))
    merge.add_other("a record line")
    merge.add(_text(2, "b"))
    assert merge.take() == [_text(1, "ab"), "a record line"]
    merge.add(_text(3, "c"))  # after a take (a flush) the block starts a new line
    assert merge.take() == [_text(3, "c")]


# -- the writer ------------------------------------------------------------------------------


async def test_a_streamed_answer_is_a_few_lines_and_reads_back_whole(tmp_path: Path) -> None:
    # Flushed only at status changes and at the end: the whole stream waits for one flush.
    runtime = recorded_runtime(
        tmp_path, Turn(thinking="Plan it.", text=ANSWER), flush_interval_s=3600
    )
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        await runtime.wait(runtime.start("Write a long answer"))
    emitted = events.drain()
    assert runtime.session.path is not None
    lines = runtime.session.path.read_bytes().splitlines()

    deltas = [line for line in lines if line.startswith(b'{"type":"text:delta"')]
    # (the first flush, at the status change, may hold the first piece on its own)
    assert len(deltas) <= 2 and sum(e.type == "text:delta" for e in emitted) > 100
    log = read_session(runtime.session.path)
    assert_same_story(log.events, emitted)
    assert log.warnings == []
    streamed = sum(len(text) for text in blocks(emitted).values())
    assert runtime.session.path.stat().st_size <= 3 * streamed, "≤ 3 bytes per character"


async def test_merging_keeps_the_flush_bound_and_never_rewrites_a_line(tmp_path: Path) -> None:
    runtime = recorded_runtime(
        tmp_path, Turn(text=ANSWER, hang_after_chunks=40), flush_interval_s=0.05
    )
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        root = runtime.start("Stream, then hang")
        streamed = [await next_event(events, "text:delta", root) for _ in range(40)]
        # The agent hangs now: no status change comes to force a flush, only the interval.
        with anyio.fail_after(SAFETY_NET_S):
            await runtime.session.wait_written(streamed[-1].seq)
        assert runtime.session.path is not None
        on_disk = runtime.session.path.read_bytes()
        # What a SIGKILL right now would leave: every piece streamed so far.
        assert blocks(read_session(runtime.session.path).events) == blocks(streamed)
        runtime.cancel(root)
    assert runtime.session.path.read_bytes().startswith(on_disk), "later flushes only append"


async def test_a_response_and_a_result_that_repeat_the_stream_are_written_once(
    tmp_path: Path,
) -> None:
    runtime = recorded_runtime(tmp_path, Turn(text=ANSWER))
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        await runtime.wait(runtime.start("Answer"))
    emitted = events.drain()
    assert runtime.session.path is not None
    raw = [json.loads(line) for line in runtime.session.path.read_bytes().splitlines()]

    (response,) = [line for line in raw if line.get("type") == "llm:response"]
    (complete,) = [line for line in raw if line.get("type") == "execution:complete"]
    assert "text" not in response and response[TEXT_STREAMED] == len(ANSWER)
    assert "result" not in complete and complete[RESULT_IS_RESPONSE] is True
    log = read_session(runtime.session.path)
    assert [e for e in log.events if e.type in ("llm:response", "execution:complete")] == [
        e for e in emitted if e.type in ("llm:response", "execution:complete")
    ]
    assert fold_session(log).agents["a1"].result == ANSWER


def test_a_response_or_result_that_says_more_than_the_stream_keeps_its_text() -> None:
    elision = Elision()
    usage = Usage()
    lines = [
        elision.line(event)
        for event in (
            LLMRequested(
                seq=1, ts=0, agent_id="a1", iteration=1, model="m", message_count=1, tool_names=[]
            ),
            _text(2, "Streamed"),
            LLMResponded(
                seq=3,
                ts=0,
                agent_id="a1",
                iteration=1,
                text="Streamed, and more",
                stop_reason="end_turn",
                tool_calls=[],
                usage=usage,
                duration_s=0,
            ),
            ExecutionCompleted(
                seq=4,
                ts=0,
                agent_id="a1",
                execution_id="x1",
                result="A hook's result",
                iterations=1,
                duration_s=0,
            ),
            LLMResponded(  # a hidden call (a workflow decision) streams nothing
                seq=5,
                ts=0,
                agent_id="a2",
                iteration=1,
                text='{"ok": true}',
                stop_reason="end_turn",
                tool_calls=[],
                usage=usage,
                duration_s=0,
            ),
        )
    ]
    assert [TEXT_STREAMED in line or RESULT_IS_RESPONSE in line for line in lines] == [False] * 5


async def test_a_new_session_never_takes_an_existing_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    names = iter(["20260101T000000Z-same", "20260101T000000Z-same", "20260101T000000Z-next"])
    monkeypatch.setattr(writer_module, "new_session_id", lambda started: next(names))
    taken = tmp_path / "20260101T000000Z-same.jsonl"
    taken.write_text("someone else's\n")

    runtime = recorded_runtime(tmp_path, Turn(text="Mine."))
    async with runtime:
        await runtime.wait(runtime.start("Mine"))

    assert taken.read_text() == "someone else's\n"
    assert runtime.session.error is None and runtime.session.path is not None
    assert runtime.session.path.name == "20260101T000000Z-next.jsonl"
    assert read_session(runtime.session.path).header.id == "20260101T000000Z-next"


# -- logs written before (format 1: one line per delta, nothing left out) ------------------


def _golden_format_1(folder: Path) -> Path:
    """A copy of the format-1 log named as agentui names it (by the id inside it)."""
    path = folder / f"{read_header(GOLDEN_FORMAT_1).id}.jsonl"
    shutil.copy(GOLDEN_FORMAT_1, path)
    return path


def test_a_format_1_log_reads_folds_and_exports_as_it_did(tmp_path: Path) -> None:
    log = read_session(_golden_format_1(tmp_path))

    assert log.warnings == [] and log.header.format == 1
    assert sum(e.type == "text:delta" for e in log.events) == 14, "one event per line, as written"
    state = fold_session(log)
    assert state.status == "completed"
    main, helper = state.agents.values()
    assert main.result == "The port is 8080, and the helper agrees."
    assert helper.result == "Helper here: 8080 it is."
    texts = [i.text for i in state.transcripts[main.id] if i.kind in ("text", "thinking")]
    assert texts == [
        "Let me check the port first.",
        "I'll ask the tool.",
        "The port is 8080, and the helper agrees.",
    ]
    assert main.conversation.messages[-1].text == main.result
    markdown = export_session(log, "md")
    assert "The port is 8080, and the helper agrees." in markdown


async def test_a_resumed_format_1_log_stays_format_1(tmp_path: Path) -> None:
    path = _golden_format_1(tmp_path)
    plan = plan_resume(read_session(path))
    runtime = resumed_runtime(plan, Script.for_all(Turn(text="Still 8080.")))
    async with runtime:
        runtime.send("a1", "Check again?")
        await runtime.wait("a1")

    after = read_session(path)
    assert after.warnings == [] and after.header.format == 1
    assert fold_session(after).agents["a1"].result == "Still 8080."
    added = path.read_bytes()[GOLDEN_FORMAT_1.stat().st_size :]
    assert (
        added and TEXT_STREAMED.encode() not in added and RESULT_IS_RESPONSE.encode() not in added
    )
