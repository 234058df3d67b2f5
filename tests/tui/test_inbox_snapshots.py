"""The inbox's pictures: empty, and one row of each kind (the stalled agent's first: it holds
up every agent under it), at 80x24 and 120x40. Frozen clock, fixed ids, zero-delay scripts; the
stalled row's clock time in UTC."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from textual.pilot import Pilot

from .helpers import make_app, runtime_of
from .inbox_helpers import every_kind, mixed_app, open_inbox

SIZES = [(80, 24), (120, 40)]


@pytest.fixture(autouse=True)
def _utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_an_empty_inbox(snap_compare: Any, size: tuple[int, int]) -> None:
    async def run_before(pilot: Pilot[int]) -> None:
        await runtime_of(pilot)
        await open_inbox(pilot)

    assert snap_compare(make_app(), run_before=run_before, terminal_size=size)


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_an_inbox_with_every_kind_of_row(snap_compare: Any, size: tuple[int, int]) -> None:
    async def run_before(pilot: Pilot[int]) -> None:
        await every_kind(pilot)
        await open_inbox(pilot)

    assert snap_compare(mixed_app(), run_before=run_before, terminal_size=size)
