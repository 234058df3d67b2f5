"""The suite's headless apps paint no frame as they run (tests/conftest.py), yet a widget that
cannot draw still fails its test: each screen is painted once as it goes."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult, RenderResult
from textual.screen import ModalScreen
from textual.widget import Widget

pytestmark = pytest.mark.anyio


class CannotDraw(Widget):
    def render(self) -> RenderResult:
        raise RuntimeError("cannot draw")


class Dialog(ModalScreen[None]):
    def compose(self) -> ComposeResult:
        yield CannotDraw()


class Empty(App[None]):
    pass


class Drawing(App[None]):
    def compose(self) -> ComposeResult:
        yield CannotDraw()


async def test_a_dialog_shown_then_closed_is_painted_as_it_closes() -> None:
    app = Empty()
    with pytest.raises(RuntimeError, match="cannot draw"):
        async with app.run_test() as pilot:
            await app.push_screen(Dialog())
            await pilot.pause()
            await app.pop_screen()
            await pilot.pause()


async def test_an_app_that_exits_by_itself_is_painted_as_it_exits() -> None:
    app = Drawing()
    with pytest.raises(RuntimeError, match="cannot draw"):
        async with app.run_test() as pilot:
            await pilot.pause()
            app.exit()
            await pilot.pause()


async def test_the_screen_an_app_ends_on_is_painted_as_it_shuts_down() -> None:
    app = Drawing()
    with pytest.raises(RuntimeError, match="cannot draw"):
        async with app.run_test() as pilot:
            await pilot.pause()
