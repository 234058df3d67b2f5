"""Snapshot determinism (no blinking cursors, no toasts unless a test keeps one), keys pressed
without Textual's full idle wait between them, and pauses that wait for the app to settle."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from .quick_keys import press_quickly
from .settled import settled


@pytest.fixture(autouse=True)
def _no_cursor_blink(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    # A blinking cursor would be drawn on or off depending on when the frame is taken.
    monkeypatch.setattr(Input, "_toggle_cursor", lambda self: None)
    yield


@pytest.fixture(autouse=True)
def _quick_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """Real key events, each handled before the next, without Textual's idle waits between
    them (quick_keys.py)."""
    monkeypatch.setattr(Pilot, "press", press_quickly)


@pytest.fixture(autouse=True)
def _pause_until_settled(monkeypatch: pytest.MonkeyPatch) -> None:
    """`pilot.pause()` with no delay, and the snapshots' wait for animations, wait until the
    app has settled (settled.py) instead of sleeping until it seems idle; a pause of so many
    seconds still sleeps them."""
    sleep_for = Pilot.pause

    async def pause(self: Pilot[Any], delay: float | None = None) -> None:
        if delay is not None:
            await sleep_for(self, delay)
        else:
            await settled(self)

    monkeypatch.setattr(Pilot, "pause", pause)
    monkeypatch.setattr(Pilot, "wait_for_scheduled_animations", settled)


@pytest.fixture
def snap_compare(snap_compare: Any) -> Any:
    """snap_compare without toasts (unless `keep_toasts`) and without a blinking cursor: both
    change on the wall clock, so what the picture shows would depend on the machine's speed."""

    def compare(
        app: Any, *, run_before: Any = None, keep_toasts: bool = False, **options: Any
    ) -> bool:
        async def then_quiet(pilot: Pilot[int]) -> None:
            if run_before is not None:
                await run_before(pilot)
            if not keep_toasts:
                pilot.app.clear_notifications()
            # A blinking cursor is drawn or not depending on when the picture is taken.
            for screen in pilot.app.screen_stack:
                for area in screen.query(TextArea):
                    area.cursor_blink = False
            await pilot.pause()

        return bool(snap_compare(app, run_before=then_quiet, **options))

    return compare
