"""f8 (copy the selected block) is in the footer while a block is selected, and only then;
the palette offers "Copy the selected block" then too; the toast names a block by what it is."""

from __future__ import annotations

from types import SimpleNamespace
from typing import cast

import pytest
from textual.widgets._footer import FooterKey

from agentui.core.providers.scripted.script import Script, Turn
from agentui.core.state import TranscriptItem
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.copy_export import block_words
from agentui.tui.app.keymap import key_map_for
from agentui.tui.app.widgets.blocks import AnswerBlock, EntryBlock
from agentui.tui.app.widgets.footer import KeyFooter

from .helpers import app_when, settle

pytestmark = pytest.mark.anyio

SCRIPT = Script.for_all(Turn(text="A zebra is striped."))
COPY_BLOCK = "Copy the selected block"


def done(app: AgentUIApp) -> bool:
    agent = app.main.model.agents.get("a1")
    return agent is not None and agent.status.value == "completed"


def footer_keys(app: AgentUIApp) -> list[str]:
    footer = app.screen_stack[0].query_one(KeyFooter)
    return [f"{k.key} {k.description}" for k in footer.query(FooterKey) if k.display]


def palette_titles(app: AgentUIApp) -> list[str]:
    return [command.title for command in app.get_system_commands(app.screen)]


@pytest.mark.parametrize("size", [(80, 24), (100, 30)], ids=["80x24", "100x30"])
async def test_f8_is_in_the_footer_once_a_block_is_clicked(size: tuple[int, int]) -> None:
    async with app_when(done, "Tell me about zebras", SCRIPT, size=size) as (app, pilot):
        assert "f8 Copy" not in footer_keys(app), "nothing is selected yet"
        answer = next(
            b for b in app.main.transcript_view.mounted_blocks() if isinstance(b, AnswerBlock)
        )
        await pilot.click(answer)
        await settle(pilot, lambda: "f8 Copy" in footer_keys(app))
        assert COPY_BLOCK in palette_titles(app)
        await pilot.press("f8")
        await settle(pilot, lambda: app.clipboard == "A zebra is striped.")


def _block(kind: str, title: str = "") -> EntryBlock:
    item = TranscriptItem(agent_id="a1", kind=kind, text="Spent 1,000 of 1,000 tokens", title=title)  # type: ignore[arg-type]  # a kind as the fold writes it
    return cast(EntryBlock, SimpleNamespace(entry=item))


def test_the_toast_names_a_notice_by_what_it_is() -> None:
    assert block_words(_block("notice", "budget reached")) == "the notice 'budget reached'"
    assert block_words(_block("notice")) == "the notice"
    assert block_words(_block("text")) == "the answer"
    assert block_words(_block("tool", "web_search")) == "the web_search call"


async def test_after_a_search_went_to_a_block_f8_is_in_the_tree_s_footer() -> None:
    async with app_when(done, "Tell me about zebras", SCRIPT, size=(100, 30)) as (app, pilot):
        await pilot.press("slash", *"zebra", "escape")
        await settle(pilot, lambda: app.focused is app.main.tree_view)
        assert app.main.transcript_view.selected_block() is not None
        keys = footer_keys(app)
        assert "f8 Copy" in keys and keys[:2] == ["question_mark Help", "q Quit"], keys
        assert COPY_BLOCK in palette_titles(app)


async def test_a_remapped_copy_key_shows_and_copies_and_f8_no_longer_does() -> None:
    key_map = key_map_for({"copy_block": "f9"}, "config file config.toml")
    async with app_when(done, "Tell me about zebras", SCRIPT, size=(100, 30), key_map=key_map) as (
        app,
        pilot,
    ):
        answer = next(
            b for b in app.main.transcript_view.mounted_blocks() if isinstance(b, AnswerBlock)
        )
        await pilot.click(answer)
        await settle(pilot, lambda: "f9 Copy" in footer_keys(app))
        await pilot.press("f8")
        await pilot.pause()
        assert app.clipboard == "", "f8 is no key of the app now"
        await pilot.press("f9")
        await settle(pilot, lambda: app.clipboard == "A zebra is striped.")
