"""Snapshot determinism: no blinking cursors."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from textual.widgets import Input


@pytest.fixture(autouse=True)
def _no_cursor_blink(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    # A blinking cursor would be drawn on or off depending on when the frame is taken.
    monkeypatch.setattr(Input, "_toggle_cursor", lambda self: None)
    yield
