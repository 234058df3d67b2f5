"""A widget as tall as a long answer (widgets/frozen_chunks.py) costs what its lines on screen
cost in Textual's line cache: the lines it drew elsewhere are let go of as it scrolls, and the
lines marked to be drawn again are ranges, not one int per line (textual_compat.keep_tall)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentui.tui.app.textual_compat import _DirtyLineRanges

from .helpers import app_when
from .test_long_answer import SCRIPT, answer_of, done, paragraphs_on_screen

LINES = st.builds(lambda start, length: range(start, start + length), st.integers(0, 300),
                  st.integers(0, 120))  # fmt: skip
STEPS = st.lists(st.tuples(st.sampled_from(["update", "difference", "clear"]), LINES), max_size=60)


@given(STEPS)
def test_the_ranges_hold_the_lines_a_set_would(steps: list[tuple[str, range]]) -> None:
    ranges, lines = _DirtyLineRanges(), set[int]()
    for step, span in steps:
        if step == "update":
            ranges.update(span)
            lines.update(span)
        elif step == "difference":
            ranges.difference_update(span)
            lines.difference_update(span)
        else:
            ranges.clear()
            lines.clear()
        assert bool(ranges) == bool(lines)
        assert [y for y in range(-1, 425) if y in ranges] == sorted(lines)


@pytest.mark.anyio
@pytest.mark.painted
async def test_a_long_answer_scrolled_through_keeps_about_three_screens_of_lines() -> None:
    async with app_when(done, "Write a long answer", SCRIPT, size=(100, 30)) as (app, pilot):
        block = answer_of(app)
        frozen = block.frozen_chunks
        transcript = app.main.transcript_view
        assert frozen.size.height > 10 * 30
        for y in range(0, transcript.max_scroll_y, 25):
            transcript.scroll_to(y=y, animate=False)
            await pilot.pause()
            shown = paragraphs_on_screen(app)
            assert shown == list(range(shown[0], shown[0] + len(shown))), "drawn whole, in order"
        kept = frozen._styles_cache._cache
        assert 0 < len(kept) <= 3 * 30
        assert len(block.head._styles_cache._cache) <= 3 * 30  # the head holding it as well
        # All of it marked to be drawn again: one range, the lines on screen drawn anew.
        frozen.refresh()
        assert repr(frozen._styles_cache._dirty_lines) == f"lines [range(0, {frozen.size.height})]"
        block.head.refresh()
        assert repr(block.head._styles_cache._dirty_lines).startswith("lines [range(0, ")
        await pilot.pause()
        shown = paragraphs_on_screen(app)
        assert shown == list(range(shown[0], shown[0] + len(shown)))
