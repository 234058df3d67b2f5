"""Tool approvals in the app: allow once, always allow, reject with a reason, in place."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from textual.pilot import Pilot
from textual.widgets import Button

from agentui.core.agent.tree import AgentStatus as S
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.state import TranscriptItem as Entry
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.widgets.query_blocks import ApprovalBlock, ReasonInput

from ..core.helpers import deploy_tool
from .helpers import app_when, has_status, provider_of, settle, toasts, write

pytestmark = pytest.mark.anyio

DEPLOY = Turn(tool_calls=[ScriptedToolCall(name="deploy", arguments={"target": "prod"})])
DEPLOY_TWICE = Script.for_all(DEPLOY, DEPLOY, Turn(text="shipped"))


@asynccontextmanager
async def pending_approval(
    script: Script = DEPLOY_TWICE,
) -> AsyncIterator[tuple[AgentUIApp, Pilot[int], list[str]]]:
    """The app once its first deploy call waits for approval; `runs` lists deploys done."""
    runs: list[str] = []
    asking = app_when(
        lambda app: bool(app.main.model.open_queries), "Ship it", script, tools=[deploy_tool(runs)]
    )
    async with asking as (app, pilot):
        yield app, pilot, runs


def approvals(app: AgentUIApp) -> list[Entry]:
    agent = app.main.model.agents.get("a1")
    entries = agent.entries if agent is not None else []
    return [e for e in entries if e.kind == "question" and e.title == "approval"]


def last_tool_result(app: AgentUIApp) -> tuple[str, bool]:
    request = provider_of(app).requests[-1]
    results = [b for m in request.messages for b in m.tool_results]
    return results[-1].content, results[-1].is_error


ONE_DEPLOY = Script.for_all(DEPLOY, Turn(text="understood"))


async def test_an_approval_waits_in_place_with_its_choices_and_takes_the_keys() -> None:
    async with pending_approval() as (app, _pilot, runs):
        assert app.main.model.agents["a1"].status is S.AWAITING_USER
        block = app.query_one(ApprovalBlock)
        assert app.focused is block, "keys go to the approval, not to the agent keys"
        labels = [str(b.label) for b in block.query(Button)]
        assert labels == [
            "1 Allow once",
            "2 Always allow deploy",
            "3 Reject, with a reason",
        ]
        assert "deploy" in block.entry.text and "prod" in block.entry.text
        active = app.active_bindings
        assert all(active[key].node is block for key in ("1", "2", "3", "escape"))
        assert all(active[key].binding.show for key in ("1", "2", "3")), "listed in the footer"
        assert not active["a"].binding.show, "the transcript's letter keys do nothing here"
        await _pilot.press(*"no code needed")
        assert not app.main.show_all, "prose typed here starts nothing"
        # The person is writing: the prompt takes the words (and any digit after them).
        assert app.focused is app.main.prompt_view
        assert app.main.prompt_view.text == "no code needed"
        assert app.main.model.agents["a1"].status is S.AWAITING_USER
        assert runs == [], "nothing runs before the person decides"


async def test_1_allows_once_and_the_next_call_asks_again() -> None:
    async with pending_approval() as (app, pilot, runs):
        await pilot.press("1")
        await settle(pilot, lambda: len(approvals(app)) == 2 and bool(app.main.model.open_queries))
        assert runs == ["prod"]
        first, second = approvals(app)
        assert (first.open, first.detail, first.failed) == (False, "allowed once", False)
        assert second.open
        assert app.focused is app.main.transcript_view.block_for_query(second.key)
        await pilot.press("1")
        await settle(pilot, has_status(app, "a1", S.COMPLETED))
        assert runs == ["prod", "prod"]


async def test_2_always_allows_the_tool_for_the_rest_of_the_session() -> None:
    async with pending_approval() as (app, pilot, runs):
        await pilot.press("2")
        await settle(pilot, has_status(app, "a1", S.COMPLETED))
        assert runs == ["prod", "prod"], "the second call ran without asking"
        (only,) = approvals(app)
        assert only.detail == "always allowed"
        assert app.main.model.agents["a1"].entries[-1].text == "shipped"


async def test_3_takes_a_reason_that_goes_back_to_the_model() -> None:
    async with pending_approval(ONE_DEPLOY) as (app, pilot, runs):
        await pilot.press("3")
        assert isinstance(app.focused, ReasonInput)
        await write(pilot, "not on a Friday")
        await pilot.press("enter")
        await settle(pilot, has_status(app, "a1", S.COMPLETED))
        assert runs == []
        assert last_tool_result(app) == ("the person rejected the call: not on a Friday", True)
        (entry,) = approvals(app)
        assert (entry.detail, entry.failed) == ("rejected: not on a Friday", True)
        assert not app.query(ReasonInput), "the controls go once it is decided"
        tool = next(e for e in app.main.model.agents["a1"].entries if e.kind == "tool")
        assert (tool.text, tool.failed) == ("not run", True)


async def test_escape_in_the_reason_box_goes_back_without_deciding() -> None:
    async with pending_approval(ONE_DEPLOY) as (app, pilot, runs):
        await pilot.press("3", *"hm", "escape")
        block = app.query_one(ApprovalBlock)
        assert app.focused is block and block.entry.open
        await pilot.press("1")
        await settle(pilot, has_status(app, "a1", S.COMPLETED))
        assert runs == ["prod"]


async def test_escape_leaves_an_approval_waiting_and_3_enter_rejects_without_a_reason() -> None:
    """An approval may take the cursor between the two presses of esc-esc: esc decides
    nothing, it leaves the approval waiting."""
    async with pending_approval(ONE_DEPLOY) as (app, pilot, runs):
        await pilot.press("escape")
        assert app.focused is app.main.prompt_view, "to the prompt: never the tree's letters"
        (entry,) = approvals(app)
        assert entry.open and app.main.model.agents["a1"].status is S.AWAITING_USER
        await pilot.press("ctrl+n")  # back to the approval that waits
        assert isinstance(app.focused, ApprovalBlock)
        await pilot.press("3", "enter")
        await settle(pilot, has_status(app, "a1", S.COMPLETED))
        assert runs == []
        (entry,) = approvals(app)
        assert (entry.detail, entry.failed) == ("rejected", True)


async def test_the_buttons_decide_and_reject_asks_for_the_reason_first() -> None:
    async with pending_approval() as (app, pilot, runs):
        await pilot.click("#reject")
        assert isinstance(app.focused, ReasonInput) and app.main.model.open_queries
        await pilot.click("#always")
        await settle(pilot, has_status(app, "a1", S.COMPLETED))
        assert runs == ["prod", "prod"]


async def test_enter_on_the_tree_does_not_approve() -> None:
    async with pending_approval() as (app, pilot, runs):
        app.main.tree_view.focus()
        await pilot.press("enter")  # on a waiting node: jumps to the approval, decides nothing
        await settle(pilot, lambda: isinstance(app.focused, ApprovalBlock))
        assert app.main.model.open_queries and runs == []


async def test_an_approval_settled_by_a_cancel_gives_the_keys_back() -> None:
    async with pending_approval() as (app, pilot, runs):
        assert isinstance(app.focused, ApprovalBlock)
        app.host.runtime.cancel("a1")  # type: ignore[union-attr]
        await settle(pilot, has_status(app, "a1", S.CANCELLED))
        # The prompt, not the tree: the person did not choose where the letters command.
        assert app.focused is app.main.prompt_view
        await pilot.press("a")
        assert app.main.prompt_view.text == "a" and not app.main.show_all, "a word, no command"
        assert runs == []


async def test_long_code_is_shown_whole() -> None:
    code = "\n".join(f"x{i} = {i}" for i in range(60)) + "\nimport shutil; shutil.rmtree('/tmp/x')"
    script = Script.for_all(
        Turn(tool_calls=[ScriptedToolCall(name="deploy", arguments={"target": code})])
    )
    async with pending_approval(script) as (app, _, runs):
        block = app.query_one(ApprovalBlock)
        assert "shutil.rmtree('/tmp/x')" in block.entry.text
        assert runs == []


async def test_a_new_approval_does_not_steal_the_focus_and_ctrl_n_reaches_it() -> None:
    async with pending_approval() as (app, pilot, _):
        first = app.focused
        assert isinstance(first, ApprovalBlock)
        app.host.runtime.start("Ship it again")  # type: ignore[union-attr]
        await settle(pilot, lambda: len(app.main.model.open_queries) == 2)
        assert app.focused is first, "the person is deciding the first one"
        await pilot.press("ctrl+n")
        await pilot.pause()
        second = app.focused
        assert isinstance(second, ApprovalBlock) and second.query_id != first.query_id
        assert second.entry.agent_id == "a2"


async def test_words_typed_while_an_approval_has_the_cursor_are_given_back() -> None:
    """An approval can take the cursor just as the person starts typing (esc, then s and a
    steer): the first letter takes the cursor to the prompt with the words after it (not
    sent), a toast says where the approval is, and the approval waits."""
    async with pending_approval(ONE_DEPLOY) as (app, pilot, runs):
        assert isinstance(app.focused, ApprovalBlock)
        await pilot.press(*"Please add a rain plan")
        (entry,) = approvals(app)
        assert entry.open and runs == [], "letters decide nothing"
        assert app.main.prompt_view.text == "Please add a rain plan"
        assert any("ctrl+n" in t for t in toasts(app)), "said how to get back to it"
        assert app.main.model.agents["a1"].status is S.AWAITING_USER, "nothing was sent"
        # The cursor is where the words are: the letters typed next are words, not commands
        # (on the tree, a space paused the agent and t opened the theme picker).
        assert app.focused is app.main.prompt_view
        await pilot.press(*" thanks 2")
        assert app.main.prompt_view.text == "Please add a rain plan thanks 2"
        assert app.main.model.agents["a1"].status is S.AWAITING_USER
        assert len(app.screen_stack) == 1, "no picker opened"
