"""A turn's partial answer, read while it streams: every text piece so far, in order."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from agentui.core.agent.turn import TurnBuilder
from agentui.core.providers.base import TextChunk, ThinkingChunk, ToolUseStart, ToolUseStop

texts = st.text(min_size=1, max_size=8).map(TextChunk)
thoughts = st.text(min_size=1, max_size=8).map(lambda t: ThinkingChunk(text=t, signature=None))
tool_calls = st.integers(0, 99).map(
    lambda n: [ToolUseStart(id=f"c{n}", name="python"), ToolUseStop(id=f"c{n}")]
)


@given(st.lists(st.one_of(texts.map(lambda e: [e]), thoughts.map(lambda e: [e]), tool_calls)))
def test_the_partial_answer_is_every_text_piece_so_far(runs: list[list[object]]) -> None:
    builder = TurnBuilder()
    fed: list[str] = []
    for run in runs:
        for event in run:
            builder.feed(event)  # type: ignore[arg-type]
            if isinstance(event, TextChunk):
                fed.append(event.text)
        assert builder.partial_text() == "".join(fed)
    assert builder.finish().text == "".join(fed)
