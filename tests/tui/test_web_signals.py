"""In a browser tab (agentui web) Textual's web driver takes SIGINT and SIGTERM for itself and
only asks the app to exit, however often: the app takes them back once its screen is up, so a
first signal stops in order (every sandbox killed) and a second ends even a stuck process."""

from __future__ import annotations

import signal
from collections.abc import Iterator

import pytest

from agentui.tui.app.terminal_watch import WEB_DRIVER

from .helpers import make_app

pytestmark = pytest.mark.anyio

TAKEN = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


@pytest.fixture
def handlers_restored() -> Iterator[None]:
    before = {signum: signal.getsignal(signum) for signum in TAKEN}
    yield
    for signum, handler in before.items():
        signal.signal(signum, handler)


@pytest.mark.usefixtures("handlers_restored")
async def test_a_browser_tab_s_app_takes_the_termination_signals_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TEXTUAL_DRIVER", WEB_DRIVER)
    app = make_app()
    async with app.run_test() as pilot:  # headless: the driver the variable names is not used
        await pilot.pause()
        for signum in TAKEN:
            handler = signal.getsignal(signum)
            assert callable(handler), signum
            assert "end_on_termination_signals" in handler.__qualname__, signum


@pytest.mark.usefixtures("handlers_restored")
async def test_in_a_terminal_the_app_leaves_the_signals_to_the_command_line() -> None:
    before = {signum: signal.getsignal(signum) for signum in TAKEN}
    app = make_app()
    async with app.run_test() as pilot:
        await pilot.pause()
        assert {signum: signal.getsignal(signum) for signum in TAKEN} == before
