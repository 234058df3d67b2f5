"""A replay asks nobody anything: its question left open at the end of the recording is shown
as not answerable, and the status bar's inbox count, the footer's f4 and the inbox window all
say the same (found in a hands-on pass: `inbox 1` and `f4 Inbox`, then "Inbox · empty")."""

from __future__ import annotations

import pytest

from agentui.tui.app.screens.inbox import InboxScreen
from agentui.tui.app.widgets.status_bar import StatusBar

from .helpers import settle
from .test_history_and_replay import _recorded_run, _replay_ending_on_an_approval

pytestmark = pytest.mark.anyio


async def test_a_replay_s_open_question_is_not_counted_in_the_inbox() -> None:
    app = _replay_ending_on_an_approval(await _recorded_run(), "q1")
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot, lambda: app.host.done)
        app.main.flush_events()
        await pilot.pause()
        assert "q1" in app.main.model.open_queries, "open at the end of the recording"
        await pilot.press("f4")
        await settle(pilot, lambda: isinstance(app.screen, InboxScreen))
        screen = app.screen
        assert isinstance(screen, InboxScreen)
        shown = len(screen._rows)
        status_bar_count = len(app.main.query_one(StatusBar).inbox_rows)
        assert shown == status_bar_count == len(app.inbox.rows) == 0, "nothing waits on you"
        assert not app.check_action("key", ("inbox_waiting",)), "f4 not offered in the footer"
        assert "inbox" not in str(app.main.query_one(StatusBar).render())
        assert "replay" in str(screen.query_one("#empty").render())
