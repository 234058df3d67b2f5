"""The answer box's hint fits its box: at 100 columns (the transcript beside the monologue)
it is cut with an ellipsis, never at a word with the rest wrapped onto a hidden line."""

from __future__ import annotations

import pytest

from agentui.tui.app.widgets.query_blocks import AnswerInput

from .helpers import app_when

pytestmark = pytest.mark.anyio

HINT = "enter answers (empty: declines) · esc leaves"


@pytest.mark.parametrize("width", [80, 100, 120])
async def test_the_answer_hint_is_whole_or_cut_with_an_ellipsis(width: int) -> None:
    waiting = app_when(
        lambda app: bool(app.main.model.open_queries), "Plan a party", size=(width, 30)
    )
    async with waiting as (app, _pilot):
        box = app.query_one(AnswerInput)
        shown = box.render_line(0).text.rstrip()
        room = box.content_size.width
        if len(HINT) <= room:
            assert shown == HINT
        else:
            assert shown.endswith("…") and len(shown) == room, shown
            assert HINT.startswith(shown[:-1]), shown
