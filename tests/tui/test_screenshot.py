"""The palette's Screenshot saves where the person can find it and says where, as plain text,
or says why it could not (a home without ~/Downloads failed with no reason)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import make_app, notifications, settle

pytestmark = pytest.mark.anyio


async def test_a_screenshot_goes_to_the_current_directory_and_says_where(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    home.mkdir()  # no Downloads in it
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_DOWNLOAD_DIR", raising=False)
    monkeypatch.chdir(work)
    app = make_app()
    async with app.run_test() as pilot:
        # As the palette runs it (Textual's own command calls deliver_screenshot, not the
        # action: a fix in the action alone was never used).
        (screenshot,) = [c for c in app.get_system_commands(app.screen) if c.title == "Screenshot"]
        screenshot.callback()
        await settle(pilot, lambda: any(n.title == "Screenshot" for n in notifications(app)))
        (saved,) = work.glob("*.svg")
        (toast,) = [n for n in notifications(app) if n.title == "Screenshot"]
        assert str(saved) in toast.message and "[$" not in toast.message
        assert toast.severity == "information"


async def test_a_screenshot_that_cannot_be_written_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = make_app()
    async with app.run_test() as pilot:
        app.deliver_screenshot(path=str(tmp_path / "no" / "such" / "dir"))
        await settle(pilot, lambda: any(n.title == "Screenshot" for n in notifications(app)))
        (toast,) = [n for n in notifications(app) if n.title == "Screenshot"]
        assert toast.severity == "error" and "not saved" in toast.message
        assert "No such file" in toast.message, "the reason is said"
