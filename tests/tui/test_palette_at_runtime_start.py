"""The runtime starts while the command palette is being opened, or under a dialog."""

from __future__ import annotations

import pytest
from textual.command import CommandPalette

from .helpers import make_app, runtime_of

pytestmark = pytest.mark.anyio


async def test_a_palette_still_composing_when_the_runtime_starts_is_no_crash() -> None:
    app = make_app()
    async with app.run_test() as pilot:
        await runtime_of(pilot)
        app.push_screen(CommandPalette())  # on the stack, its widgets not composed yet
        app.host.runtime_has_started()  # as the runtime's worker calls it, in that moment
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
