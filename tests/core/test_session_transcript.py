"""Transcript text is built from pieces: one join when read, not a new string per piece."""

from __future__ import annotations

from agentui.core.protocol.events import AgentSpawned, LLMRequested, TextDelta
from agentui.core.state import RunState
from agentui.core.state.transcript import TranscriptBuilder, TranscriptItem


def test_text_joins_its_pieces_when_read_and_keeps_the_join() -> None:
    item = TranscriptItem("a1", "text", "Hel")
    item.append_text("lo")
    item.append_text(", you")

    first = item.text
    assert first == "Hello, you"
    assert item.text is first, "read again without a new piece: the same string, not a new join"
    item.append_text("!")
    assert item.text == "Hello, you!"


def test_text_can_still_be_set_and_added_to() -> None:
    item = TranscriptItem("a1", "text", "draft")
    item.append_text(" one")
    item.text = "replaced"
    assert item.text == "replaced"
    item.text += " and more"
    assert item.text == "replaced and more"


def _answer(chunks: int) -> list[TextDelta]:
    return [
        TextDelta(seq=3 + n, ts=0.0, agent_id="a1", iteration=1, delta=f"{n % 10}")
        for n in range(chunks)
    ]


def test_a_long_stream_folds_into_one_item_with_every_piece_in_order() -> None:
    fold = RunState()
    fold.apply(AgentSpawned(seq=1, ts=0.0, agent_id="a1", parent_id=None, name="m", task="t"))
    fold.apply(
        LLMRequested(
            seq=2, ts=0.0, agent_id="a1", iteration=1, model="m", message_count=1, tool_names=[]
        )
    )
    deltas = _answer(50_000)
    for event in deltas:
        fold.apply(event)

    task, text = fold.transcripts["a1"]
    expected = "".join(d.delta for d in deltas)
    assert (task.kind, text.kind, text.text) == ("task", "text", expected)
    assert fold.streaming["a1"] == expected, "the text a crash would cut off, joined"


def test_a_listener_hears_of_every_piece_and_reads_the_text_so_far() -> None:
    seen: list[str] = []
    builder = TranscriptBuilder("a1", on_changed=lambda item: seen.append(item.text))
    for event in _answer(5):
        builder.apply(event)
    assert seen == ["01", "012", "0123", "01234"]
