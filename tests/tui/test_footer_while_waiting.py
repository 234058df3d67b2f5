"""The footer at 80 columns while something waits on the person: the keys that go to it
(ctrl+n Waiting, f4 Inbox) are shown before less urgent ones, on the tree as in a text box; the
answer box and the approval keep their way out (esc To prompt) and their own keys."""

from __future__ import annotations

import pytest
from textual.widgets._footer import FooterKey

from agentui.core.agent.tree import AgentStatus as S
from agentui.core.providers.scripted.script import Script, Turn
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.widgets.footer import KeyFooter
from agentui.tui.app.widgets.query_blocks import AnswerInput, ApprovalBlock

from .helpers import has_status, make_app, runtime_of, settle
from .inbox_helpers import ASK_CITY, HOLD
from .test_approvals import pending_approval

pytestmark = pytest.mark.anyio

SIZE = (80, 24)


def shown(app: AgentUIApp) -> list[str]:
    """The footer's keys on screen, as `key Description`, the palette key aside."""
    footer = app.screen_stack[0].query_one(KeyFooter)
    keys = [k for k in footer.query(FooterKey) if not k.has_class("-command-palette")]
    assert all(k.region.right <= SIZE[0] for k in keys if k.display)
    return [f"{k.key} {k.description}" for k in keys if k.display]


async def test_on_the_tree_the_waiting_keys_come_before_less_urgent_commands() -> None:
    script = Script(agents={"main": [HOLD], "main.1": [ASK_CITY, Turn(text="Noted.")]})
    app = make_app("Plan the offsite", script)
    async with app.run_test(size=SIZE) as pilot:
        runtime = await runtime_of(pilot)
        await settle(pilot, has_status(app, "a1", S.RUNNING))
        runtime.start("Find a venue", parent_id="a1")
        await settle(pilot, lambda: app.inbox.waiting)
        app.main.tree_view.select_agent("a1")  # main runs; main.1 waits out of sight
        await pilot.pause()
        await pilot.press("escape")  # from the prompt to the tree: the letters act
        await settle(pilot, lambda: app.focused is app.main.tree_view)
        keys = shown(app)
        assert {"ctrl+n Waiting", "f4 Inbox"} <= set(keys), keys
        assert keys[:2] == ["question_mark Help", "q Quit"], "help and quit still lead"
        assert "a All agents" not in keys, "a less urgent key gave way"


async def test_the_answer_box_keeps_leave_and_shows_the_waiting_keys() -> None:
    app = make_app("Plan a party")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, lambda: isinstance(app.focused, AnswerInput))
        keys = shown(app)
        assert {"enter Send", "escape To prompt", "ctrl+n Waiting", "f4 Inbox"} <= set(keys), keys


async def test_the_approval_keeps_its_choices_and_leave_and_shows_where_to_go_next() -> None:
    async with pending_approval() as (app, pilot, _runs):
        await settle(pilot, lambda: isinstance(app.focused, ApprovalBlock))
        keys = shown(app)
        choices = ["1 Allow once", "2 Always allow", "3 Reject…", "escape To prompt"]
        assert keys[:4] == choices and "ctrl+n Waiting" in keys, keys


async def test_the_prompt_keeps_its_way_out_and_the_waiting_keys() -> None:
    app = make_app("Plan a party")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, lambda: isinstance(app.focused, AnswerInput))
        app.main.prompt_view.focus()
        await settle(pilot, lambda: "enter Send" in shown(app) and "escape Back" in shown(app))
        keys = shown(app)
        assert {"ctrl+n Waiting", "f4 Inbox", "f1 Help"} <= set(keys), keys
