"""Tool approvals in the app: allow once, always allow, reject with a reason, in place."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from textual.pilot import Pilot
from textual.widgets import Button

from agentui.core.providers.script import Script, ScriptedToolCall, Turn
from agentui.core.tree import AgentStatus as S
from agentui.tui.app import AgentUIApp
from agentui.tui.view_model import Entry
from agentui.tui.widgets.blocks import ApprovalBlock, ReasonInput

from ..core.helpers import deploy_tool
from .helpers import app_when, has_status, provider_of, settle

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
        lambda app: bool(app.model.open_queries), "Ship it", script, tools=[deploy_tool(runs)]
    )
    async with asking as (app, pilot):
        yield app, pilot, runs


def approvals(app: AgentUIApp) -> list[Entry]:
    agent = app.model.agents.get("a1")
    entries = agent.entries if agent is not None else []
    return [e for e in entries if e.kind == "question" and e.title == "approval"]


def last_tool_result(app: AgentUIApp) -> tuple[str, bool]:
    request = provider_of(app).requests[-1]
    results = [b for m in request.messages for b in m.tool_results]
    return results[-1].content, results[-1].is_error


async def test_an_approval_waits_in_place_with_its_choices_and_takes_the_keys() -> None:
    async with pending_approval() as (app, _, runs):
        assert app.model.agents["a1"].status is S.AWAITING_USER
        block = app.query_one(ApprovalBlock)
        assert app.focused is block, "keys go to the approval, not to the agent keys"
        labels = [str(b.label) for b in block.query(Button)]
        assert labels == [
            "Allow once (y)",
            "Always allow deploy (a)",
            "Reject, with a reason (n)",
        ]
        assert "deploy" in block.entry.text and "prod" in block.entry.text
        active = app.active_bindings
        assert all(active[key].node is block for key in ("y", "a", "n", "escape"))
        assert all(active[key].binding.show for key in ("y", "a", "n")), "listed in the footer"
        assert runs == [], "nothing runs before the person decides"


async def test_y_allows_once_and_the_next_call_asks_again() -> None:
    async with pending_approval() as (app, pilot, runs):
        await pilot.press("y")
        await settle(pilot, lambda: len(approvals(app)) == 2 and bool(app.model.open_queries))
        assert runs == ["prod"]
        first, second = approvals(app)
        assert (first.open, first.detail, first.failed) == (False, "allowed once", False)
        assert second.open
        assert app.focused is app.transcript_view.block_for_query(second.key)
        await pilot.press("y")
        await settle(pilot, has_status(app, "a1", S.COMPLETED))
        assert runs == ["prod", "prod"]


async def test_a_always_allows_the_tool_for_the_rest_of_the_run() -> None:
    async with pending_approval() as (app, pilot, runs):
        await pilot.press("a")
        await settle(pilot, has_status(app, "a1", S.COMPLETED))
        assert runs == ["prod", "prod"], "the second call ran without asking"
        (only,) = approvals(app)
        assert only.detail == "always allowed"
        assert app.model.agents["a1"].entries[-1].text == "shipped"


async def test_n_takes_a_reason_that_goes_back_to_the_model() -> None:
    async with pending_approval(Script.for_all(DEPLOY, Turn(text="understood"))) as (
        app,
        pilot,
        runs,
    ):
        await pilot.press("n")
        assert isinstance(app.focused, ReasonInput)
        await pilot.press(*"not on a Friday", "enter")
        await settle(pilot, has_status(app, "a1", S.COMPLETED))
        assert runs == []
        assert last_tool_result(app) == ("the person rejected the call: not on a Friday", True)
        (entry,) = approvals(app)
        assert (entry.detail, entry.failed) == ("rejected: not on a Friday", True)
        assert not app.query(ReasonInput), "the controls go once it is decided"


async def test_escape_rejects_without_a_reason() -> None:
    async with pending_approval(Script.for_all(DEPLOY, Turn(text="understood"))) as (
        app,
        pilot,
        runs,
    ):
        await pilot.press("escape")
        await settle(pilot, has_status(app, "a1", S.COMPLETED))
        assert runs == []
        (entry,) = approvals(app)
        assert (entry.detail, entry.failed) == ("rejected", True)


async def test_the_buttons_decide_too() -> None:
    async with pending_approval() as (app, pilot, runs):
        await pilot.click("#always")
        await settle(pilot, has_status(app, "a1", S.COMPLETED))
        assert runs == ["prod", "prod"]


async def test_enter_on_the_tree_does_not_approve() -> None:
    async with pending_approval() as (app, pilot, runs):
        app.tree_view.focus()
        await pilot.press("enter")  # on a waiting node: jumps to the approval, decides nothing
        await settle(pilot, lambda: isinstance(app.focused, ApprovalBlock))
        assert app.model.open_queries and runs == []
