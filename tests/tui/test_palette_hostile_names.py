"""Names from settings or files in the palettes of "Switch provider/model…" and of a session's
commands ("Search all sessions…", a match picked): a name that looks like markup is listed as
it is, found by a search, never styled; one holding an escape sequence and an unmatched closing
tag (`␛[2J[/x]`) made Textual's Matcher.highlight raise, and the search listed nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.command import CommandInput, CommandList, CommandPalette

from agentui.core.session.search_index import Match
from agentui.core.support.terminal_text import visible_controls
from agentui.tui.app.session_search import _offer_commands

from .helpers import make_app, runtime_of, settle
from .test_provider_switch import choose, searched, switch_for

pytestmark = pytest.mark.anyio

HOSTILE = "gpt[bold]x\x1b[2J[/x]"
IN_TOML = "gpt[bold]x\\u001b[2J[/x]"  # the same, as config.toml writes an escape


def listed(palette: CommandPalette) -> list[str]:
    """Each option's first line (its title), as plain text."""
    commands = palette.query_one(CommandList)
    return [
        str(commands.get_option_at_index(i).prompt).split("\n")[0]
        for i in range(commands.option_count)
    ]


async def test_a_model_named_like_markup_is_found_and_listed_as_it_is(tmp_path: Path) -> None:
    config = f'provider = "openai"\nmodel = "{IN_TOML}"\n'
    switch = switch_for(tmp_path, {"OPENAI_API_KEY": "o"}, config)
    assert switch.options()[0].models[0] == HOSTILE
    app = make_app(provider_switch=switch)
    async with app.run_test() as pilot:
        await runtime_of(pilot)
        app.action_command_palette()
        await choose(pilot, "Switch provider")
        await choose(pilot, "openai")
        models = app.screen
        assert isinstance(models, CommandPalette)
        await settle(pilot, lambda: bool(models.query(CommandInput)))
        models.query_one(CommandInput).value = "bold"
        await settle(pilot, lambda: searched(models, "bold"))
        assert listed(models)[0] == visible_controls(HOSTILE), "found; its brackets are text"


async def test_a_session_id_named_like_markup_is_found_and_listed_as_it_is() -> None:
    session = f"s-{HOSTILE}"
    match = Match(session, "a1", "main", 1_790_000_000.0, 3, "text", "a line", 0, 1)
    app = make_app()
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        _offer_commands(app, match)
        await settle(pilot, lambda: isinstance(app.screen, CommandPalette))
        palette = app.screen
        assert isinstance(palette, CommandPalette)
        await settle(pilot, lambda: bool(palette.query(CommandInput)))
        palette.query_one(CommandInput).value = "resume bold"
        await settle(pilot, lambda: any("resume" in row.lower() for row in listed(palette)))
        shown = visible_controls(session)
        assert listed(palette)[0] == f"Resume (continue) the session: agentui --resume {shown}"
        prompt = palette.query_one(CommandList).get_option_at_index(0).prompt
        assert prompt.spans, "the letters the search matched are marked"
