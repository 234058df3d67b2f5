"""Every key of the app in one table: the bindings, the help screen and the palette read it.

Where a key works is part of the key. Letters are commands only where nobody types: agent
commands on the agent tree, view keys on the three panes. A text box takes every printable key,
so prose typed into it can never pause, cancel or delete anything; keys that work everywhere
carry a modifier (ctrl+...) or are function keys.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from textual.binding import Binding

# agent: on the tree (they act on the selected agent); view: on the tree, the transcript and
# the monologue; everywhere: in text boxes too (never a printable key).
Scope = Literal["agent", "view", "everywhere"]


@dataclass(frozen=True, slots=True)
class Key:
    key: str  # Textual key name(s), comma separated
    action: str
    label: str  # short, for the footer
    description: str  # one line, for the help screen and the command palette
    scope: Scope
    show: bool = True  # in the footer
    palette: bool = True  # offered in the command palette


KEYS: tuple[Key, ...] = (
    # First, so a narrow footer that cuts the rest still shows them.
    Key("question_mark", "help", "Help", "Show every key", "view"),
    Key(
        "q",
        "quit",
        "Quit",
        "Quit (asks first while agents run or the prompt holds unsent words)",
        "view",
    ),
    Key("p", "pause", "Pause", "Pause the selected agent", "agent"),
    Key(
        "r",
        "resume",
        "Resume",
        "Resume a paused agent, or continue an ended one with a message",
        "agent",
    ),
    Key(
        "space",
        "toggle_pause",
        "Pause/resume",
        "Pause or resume the selected agent",
        "agent",
        show=False,
    ),
    Key(
        "s", "steer", "Steer", "Send the selected agent a message for its next model call", "agent"
    ),
    Key("c", "cancel", "Cancel", "Cancel the selected agent and its subagents", "agent"),
    Key(
        "d", "delete", "Delete", "Delete the selected agent and its subagents (asks first)", "agent"
    ),
    Key("m", "modify", "Modify", "Change the selected agent's instructions or task", "agent"),
    Key(
        "escape",
        "interrupt",
        "Interrupt",
        "Interrupt (cancel) the selected agent: esc twice",
        "agent",
    ),
    Key("n", "new_task", "New", "Start a new task (a new root agent)", "view"),
    Key(
        "ctrl+t",
        "new_task",
        "New task",
        "Start a new task beside the ones running (their prompt's words are theirs)",
        "everywhere",
        show=False,
        palette=False,
    ),
    Key(
        "a",
        "toggle_all",
        "All agents",
        "Show every agent's transcript, interleaved, or just the selected one",
        "view",
    ),
    Key(
        "f",
        "toggle_monologue_filter",
        "Filter",
        "Monologue: the selected agent only, or every agent",
        "view",
        show=False,
    ),
    Key("x", "toggle_folds", "Fold", "Fold or unfold thinking and tool calls", "view", show=False),
    Key("t", "change_theme", "Theme", "Pick a theme", "view", show=False),
    Key(
        "ctrl+n",
        "next_question",
        "Waiting",
        "Jump to the next agent waiting for you",
        "everywhere",
    ),
    # A function key: a scene's next round is usually waiting to be typed, and a letter would
    # go into that box.
    Key(
        "f2",
        "scene_state",
        "Scene",
        "Show the directed scene's world and characters as they stand now",
        "everywhere",
    ),
    Key(
        "f1",
        "help",
        "Help",
        "Show every key (also from a text box)",
        "everywhere",
        show=False,
        palette=False,
    ),
)

# Keys handled by Textual or by widgets themselves: (keys as people write them, where, what).
BUILT_IN_KEYS: tuple[tuple[str, str, str], ...] = (
    ("enter", "tree", "On a waiting agent: go to its question"),
    ("esc", "panes", "After a click: turn the letter keys on (a click leaves them off)"),
    ("enter", "text box", "Send it: follow up, start a task, answer, reject, steer, continue"),
    ("ctrl+j", "text box", "A new line (shift+enter too, where the terminal tells it apart)"),
    ("esc", "text box", "Leave it (a question keeps waiting; enter with nothing declines)"),
    ("1 / 2 / 3", "approval", "Allow once / always allow / reject with a reason (esc: later)"),
    ("tab / shift+tab", "anywhere", "Move between the tree, transcript, monologue and prompt"),
    ("ctrl+p", "anywhere", "Command palette: every action by name"),
    ("ctrl+q", "anywhere", "Quit (asks first while agents run or words are unsent)"),
)

# Where each scope's keys work, as the help screen and the README's key table name it.
WHERE: dict[Scope, str] = {"agent": "tree", "view": "panes", "everywhere": "anywhere"}


def help_rows() -> list[tuple[str, str, str]]:
    """Every key for the help screen, (keys, where, what), by where they work."""
    rows = [
        # Interrupt takes esc twice: the first press only says what the second will do.
        (
            "esc esc" if k.action == "interrupt" else display_key(k.key),
            WHERE[k.scope],
            k.description,
        )
        for k in KEYS
    ]
    rows += BUILT_IN_KEYS
    order = ["tree", "panes", "text box", "approval", "anywhere"]
    return sorted(rows, key=lambda row: order.index(row[1]))


AGENT_KEYS = tuple(k for k in KEYS if k.scope == "agent")
VIEW_KEYS = tuple(k for k in KEYS if k.scope == "view")
# The tree's footer: help and quit first (a narrow footer cuts from the right), then what acts
# on the selected agent, then the view keys.
LEADING_KEYS = VIEW_KEYS[:2]
TRAILING_VIEW_KEYS = VIEW_KEYS[2:]
EVERYWHERE_KEYS = tuple(k for k in KEYS if k.scope == "everywhere")


def bindings(keys: tuple[Key, ...]) -> list[Binding]:
    """Bindings for a pane: the actions are the app's, whichever widget holds the keys, asked
    for as a pane's key (`pane_action`): the app refuses a pane's letter when the letters are
    words (after a click, or while a text box waits), and only that: the same action asked for
    by a modifier key or the palette still acts."""
    return [Binding(k.key, pane_action(k.action), k.label, show=k.show) for k in keys]


def pane_action(action: str) -> str:
    """The binding action of `action` asked for by a key on a pane."""
    return f"app.pane_key('{action}')"


def app_bindings() -> list[Binding]:
    # ctrl+n shows in the footer only while someone waits (that is the footer saying so);
    # otherwise the same key falls through to a hidden binding that says nobody waits.
    return [
        *(Binding(k.key, k.action, k.label, show=k.show) for k in EVERYWHERE_KEYS),
        Binding("ctrl+n", "nobody_waiting", "Waiting", show=False),
        Binding("f2", "no_scene", "Scene", show=False),  # likewise when no scene plays
        # After a click the letters are words (tui/app/focus.py): esc turns them on, and
        # the footer says so only then.
        Binding("escape", "keys_on", "Keys on"),
    ]


def shadowing(keys: tuple[Key, ...], action: str) -> list[Binding]:
    """Hidden bindings that take `keys` over inside a widget (its footer then does not offer
    the outer widget's commands for them)."""
    return [Binding(k.key, action, k.label, show=False) for k in keys]


def display_key(key: str) -> str:
    """A key as people write it: `?`, `esc`, not Textual's `question_mark`, `escape`."""
    names = {"question_mark": "?", "escape": "esc", "space": "space"}
    return ",".join(names.get(part, part) for part in key.split(","))
