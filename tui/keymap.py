"""Every key of the app in one table: the bindings, the help screen and the palette read it."""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding


@dataclass(frozen=True, slots=True)
class Key:
    key: str  # Textual key name(s), comma separated
    action: str
    label: str  # short, for the footer
    description: str  # one line, for the help screen and the command palette
    show: bool = True  # in the footer
    palette: bool = True  # offered in the command palette


KEYS: tuple[Key, ...] = (
    Key("n", "new_task", "New", "Start a new task (a new root agent)"),
    Key("p", "pause", "Pause", "Pause the selected agent"),
    Key("r", "resume", "Resume", "Resume a paused agent, or continue an ended one with a message"),
    Key("space", "toggle_pause", "Pause/resume", "Pause or resume the selected agent", show=False),
    Key("c", "cancel", "Cancel", "Cancel the selected agent and its subagents"),
    Key("d", "delete", "Delete", "Delete the selected agent and its subagents (asks first)"),
    Key("m", "modify", "Modify", "Change the selected agent's instructions or task"),
    Key(
        "escape",
        "interrupt",
        "Interrupt",
        "Decline the focused question or approval, else interrupt the selected agent",
        show=False,
    ),
    Key("ctrl+n", "next_question", "Next question", "Jump to the next agent waiting for you"),
    Key(
        "a",
        "toggle_all",
        "All agents",
        "Show every agent's transcript, interleaved, or just the selected one",
    ),
    Key(
        "f",
        "toggle_monologue_filter",
        "Filter",
        "Monologue: the selected agent only, or every agent",
        show=False,
    ),
    Key("x", "toggle_folds", "Fold", "Fold or unfold thinking and tool calls", show=False),
    Key("t", "change_theme", "Theme", "Pick a theme", show=False),
    Key("question_mark", "help", "Help", "Show every key"),
    Key("q", "quit", "Quit", "Quit (asks first while agents are running)"),
)

# Keys handled by Textual or by widgets themselves, listed on the help screen for completeness.
BUILT_IN_KEYS: tuple[tuple[str, str], ...] = (
    ("enter", "On a waiting agent: jump to its question. In a question: answer it."),
    ("1 / 2 / 3", "On a tool approval: allow once, always allow the tool, reject with a reason"),
    ("tab / shift+tab", "Move between the tree, the transcript and the monologue"),
    ("ctrl+p", "Command palette: every action by name"),
    ("ctrl+q", "Quit"),
)


def bindings() -> list[Binding]:
    return [Binding(k.key, k.action, k.label, show=k.show) for k in KEYS]


def display_key(key: str) -> str:
    return {"question_mark": "?", "escape": "esc", "space": "space"}.get(key, key)
