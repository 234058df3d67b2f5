"""The footer and the prompt's hint on a narrow terminal: whole keys, whole hints, never half
of one; the palette's own keys in the footer while it is open."""

from __future__ import annotations

import pytest
from textual._context import active_message_pump
from textual.command import CommandPalette
from textual.compose import compose
from textual.widgets._footer import FooterKey

from agentui.core.agent.tree import AgentStatus as S
from agentui.core.providers.scripted.script import Script, Turn
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.widgets.footer import KeyFooter, _label_cells
from agentui.tui.app.widgets.prompt import PromptMode

from .helpers import a1_is, app_when, settle

pytestmark = pytest.mark.anyio

HOLD = Script.for_all(Turn(text="one two three four five six seven", hang_after_chunks=2))


def shown_keys(app: AgentUIApp) -> list[str]:
    """What the main screen's footer shows (a dialog opens over it), the palette key aside."""
    footer = app.screen_stack[0].query_one(KeyFooter)
    return [
        key.description
        for key in footer.query(FooterKey)
        if key.display and not key.has_class("-command-palette")
    ]


@pytest.mark.parametrize("width", [80, 120])
async def test_a_narrow_footer_shows_whole_keys_in_their_order(width: int) -> None:
    async with app_when(a1_is(S.RUNNING), "hold", HOLD) as (app, pilot):
        await pilot.resize_terminal(width, 24)
        await settle(pilot, lambda: bool(shown_keys(app)))
        footer = app.screen_stack[0].query_one(KeyFooter)
        keys = [k for k in footer.query(FooterKey) if not k.has_class("-command-palette")]
        shown = [k for k in keys if k.display]
        assert shown == keys[: len(shown)], "the first keys stay, the last go first"
        assert len(shown) < len(keys), "this footer is wider than the terminal"
        assert all(k.region.right <= width for k in shown)
        palette = footer.query_one(".-command-palette", FooterKey)
        assert all(k.region.right <= palette.region.x for k in shown), "none under the palette"


async def test_the_footer_shows_the_palettes_keys_while_it_is_open() -> None:
    async with app_when(a1_is(S.RUNNING), "hold", HOLD) as (app, pilot):
        assert "Pause" in shown_keys(app)
        await pilot.press("ctrl+p")
        await settle(pilot, lambda: isinstance(app.screen, CommandPalette))
        await settle(pilot, lambda: "Close" in shown_keys(app))
        assert shown_keys(app) == ["Choose", "Run", "Close"]
        await pilot.press("escape")
        await settle(pilot, lambda: "Pause" in shown_keys(app))


@pytest.mark.parametrize(
    "mode",
    [PromptMode(), PromptMode("steer", "a1", "main.12"), PromptMode("continue", "a1", "main")],
)
@pytest.mark.parametrize("room", [30, 46, 60, 72, 100])
def test_the_prompt_hint_fits_whole(mode: PromptMode, room: int) -> None:
    hint = mode.placeholder_for(room)
    assert hint in mode.placeholders
    assert len(hint) <= room or hint == mode.placeholders[-1]
    longer = [p for p in mode.placeholders if len(p) > len(hint)]
    assert all(len(p) > room for p in longer), "the longest that fits"


@pytest.mark.parametrize("compact", [True, False])
async def test_a_key_is_measured_as_wide_as_it_draws(compact: bool) -> None:
    """The fit measures each key from its parts, not by drawing it: the measure must be what
    Textual's FooterKey draws, every key (with a description and without), compact or not."""
    async with app_when(a1_is(S.RUNNING), "hold", HOLD) as (app, pilot):
        footer = app.screen_stack[0].query_one(KeyFooter)
        footer.compact = compact
        await pilot.pause()
        keys = list(footer.query(FooterKey))
        assert keys and any(k.description for k in keys)
        for key in keys:
            assert _label_cells(key) == key.render().cell_len, key.key_display


def composed_anew(footer: KeyFooter) -> list[FooterKey]:
    """The keys the footer would mount if composed now (as from its own handler: its keys bind
    to its `compact`)."""
    token = active_message_pump.set(footer)
    try:
        return [k for k in compose(footer) if isinstance(k, FooterKey)]
    finally:
        active_message_pump.reset(token)


def _labels(keys: list[FooterKey]) -> list[tuple[str, str, str, bool, bool]]:
    return [
        (
            k.key,
            k.key_display,
            k.description,
            k.has_class("-disabled"),
            k.has_class("-command-palette"),
        )
        for k in keys
    ]


async def test_keys_relabelled_as_the_focus_moves_are_those_a_new_footer_shows() -> None:
    """Moving between panes gives the footer's key widgets the new keys' labels (fewer or more
    of them) instead of mounting new ones: each time, what it shows is what composing it anew
    shows, the palette's key last and still the palette's."""
    async with app_when(a1_is(S.RUNNING), "hold", HOLD) as (app, pilot):
        footer = app.screen_stack[0].query_one(KeyFooter)
        for place in ("#tree", "#prompt", "#tree", "#transcript", "#prompt"):
            app.query_one(place).focus()
            await pilot.pause()
            shown = _labels(list(footer.query_children(FooterKey)))
            assert shown == _labels(composed_anew(footer)), place
            assert shown[-1][-1], "the palette's key is the last"
