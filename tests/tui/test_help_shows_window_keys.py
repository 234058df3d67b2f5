"""The help screen lists the keys of the windows over the main screen (the inbox, Rewind or
fork…, Compare with…, Compare runs…, Modify) from the key table, and the comparison windows
take their bindings from that same table: what help says is what the window does."""

from __future__ import annotations

from rich.console import Console

from agentui.tui.app.keymap import (
    COMPARE_RUNS,
    COMPARE_WITH,
    DEFAULT_KEY_MAP,
    STEPS_WINDOW,
    WINDOW_KEYS,
    window_bindings,
)
from agentui.tui.app.screens.help import keys_table
from agentui.tui.app.screens.run_diff import ComparisonScreen
from agentui.tui.app.screens.runs_diff import RunsComparisonScreen

AS_WRITTEN = {"escape": "esc", "left": "←", "right": "→", "up": "↑", "down": "↓"}


def help_keys_of(window: str) -> set[str]:
    return {
        key
        for keys, where, _ in DEFAULT_KEY_MAP.help_rows()
        if where == window
        for key in keys.split(" / ")
    }


def test_help_lists_the_comparison_and_steps_windows_keys() -> None:
    assert {"←", "→", "↑", "↓", "esc"} <= help_keys_of(COMPARE_RUNS)
    assert {"↑", "↓", "esc"} <= help_keys_of(COMPARE_WITH)
    assert {"↑", "↓", "tab", "shift+tab"} <= help_keys_of(STEPS_WINDOW)
    console = Console(width=120, record=True)
    console.print(keys_table(windows=True))
    shown = console.export_text()
    assert "Compare runs…" in shown and "The previous or next page" in shown


def test_each_comparison_window_binds_what_help_says_and_only_that() -> None:
    for screen, window in ((ComparisonScreen, COMPARE_WITH), (RunsComparisonScreen, COMPARE_RUNS)):
        bound = [binding.key for binding in screen.BINDINGS]  # type: ignore[union-attr]
        assert bound == [binding.key for binding in window_bindings(window)]
        assert {AS_WRITTEN[key] for key in bound} <= help_keys_of(window), window


def test_every_window_key_is_in_help_once() -> None:
    rows = DEFAULT_KEY_MAP.help_rows()
    for key in WINDOW_KEYS:
        assert rows.count((key.keys, key.window, key.description)) == 1
