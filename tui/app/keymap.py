"""Every key of the app in one table: the bindings, the help screen and the palette read it.

Where a key works is part of the key. Letters are commands only where nobody types: agent
commands on the agent tree, view keys on the three panes. A text box takes every printable key,
so prose typed into it can never pause, cancel or delete anything; keys that work everywhere
carry a modifier (ctrl+...) or are function keys.

Each key has an id, and a person may give it other keys in config.toml's `[keys]` table
(`pause = "p"`, `cancel = "c,x"`). `key_map_for` checks such a table against these rules (an
id agentui has, key names Textual knows, no key taken twice, none that a text box or the panes
need, never a printable key for a key that works everywhere nor one a text box uses itself)
and gives the KeyMap the app
applies with Textual's `App.set_keymap` (every binding carries its key's id) and that the help
screen and the palette read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

from textual.binding import Binding
from textual.keys import Keys, key_to_character
from textual.widgets import TextArea

from agentui.core.config.sources import ConfigError
from agentui.tui.app.textual_compat import key_name_of_character
from agentui.tui.app.widgets.composer import Composer

# agent: on the tree (they act on the selected agent); view: on the tree, the transcript and
# the monologue; everywhere: in text boxes too (never a printable key).
Scope = Literal["agent", "view", "everywhere"]


class Key(NamedTuple):  # made before the first frame: see tui/cli/first_frame.py
    id: str  # what config.toml's [keys] table calls it
    key: str  # Textual key name(s), comma separated
    action: str
    label: str  # short, for the footer
    description: str  # one line, for the help screen and the command palette
    scope: Scope
    show: bool = True  # in the footer
    palette: bool = True  # offered in the command palette


KEYS: tuple[Key, ...] = (
    # First, so a narrow footer that cuts the rest still shows them.
    Key("help", "question_mark", "help", "Help", "Show every key", "view"),
    Key(
        "quit",
        "q",
        "quit",
        "Quit",
        "Quit (asks first while agents run or the prompt holds unsent words)",
        "view",
    ),
    Key("pause", "p", "pause", "Pause", "Pause the selected agent", "agent"),
    Key(
        "resume",
        "r",
        "resume",
        "Resume",
        "Resume a paused agent, or continue an ended one with a message",
        "agent",
    ),
    Key(
        "toggle_pause",
        "space",
        "toggle_pause",
        "Pause/resume",
        "Pause or resume the selected agent",
        "agent",
        show=False,
    ),
    Key(
        "steer",
        "s",
        "steer",
        "Steer",
        "Send the selected agent a message for its next model call",
        "agent",
    ),
    Key("cancel", "c", "cancel", "Cancel", "Cancel the selected agent and its subagents", "agent"),
    Key(
        "delete",
        "d",
        "delete",
        "Delete",
        "Delete the selected agent and its subagents (asks first)",
        "agent",
    ),
    Key(
        "modify",
        "m",
        "modify",
        "Modify",
        "Change the selected agent's instructions or task",
        "agent",
    ),
    Key(
        "interrupt",
        "escape",
        "interrupt",
        "Interrupt",
        "Interrupt (cancel) the selected agent: esc twice",
        "agent",
    ),
    Key("new_task", "n", "new_task", "New", "Start a new task (a new root agent)", "view"),
    Key(
        "new_task_anywhere",
        "ctrl+t",
        "new_task",
        "New task",
        "Start a new task beside the ones running (their prompt's words are theirs)",
        "everywhere",
        show=False,
        palette=False,
    ),
    Key(
        "all_agents",
        "a",
        "toggle_all",
        "All agents",
        "Show every agent's transcript, interleaved, or just the selected one",
        "view",
    ),
    Key(
        "monologue_filter",
        "f",
        "toggle_monologue_filter",
        "Filter",
        "Monologue: the selected agent only, or every agent",
        "view",
        show=False,
    ),
    Key(
        "folds",
        "x",
        "toggle_folds",
        "Fold",
        "Fold or unfold thinking and tool calls",
        "view",
        show=False,
    ),
    Key(
        "search",
        "slash",
        "search",
        "Search",
        "Search the transcript: enter or ↓ next, ↑ previous, esc closes",
        "view",
        show=False,
    ),
    Key(
        "steps",
        "number_sign",
        "toggle_steps",
        "Steps",
        "Mark each step in the transcript with its number (w picks one)",
        "view",
        show=False,
    ),
    Key(
        "time_travel",
        "w",
        "time_travel",
        "Rewind or fork…",
        "Rewind the selected agent to one of its steps, or fork from one",
        "view",
        show=False,
    ),
    Key("theme", "t", "change_theme", "Theme", "Pick a theme", "view", show=False),
    Key(
        "inbox",
        "i",
        "inbox",
        "Inbox",
        "Everything waiting on you, each acted on from its row",
        "view",
        show=False,
    ),
    Key(
        "next_question",
        "ctrl+n",
        "next_question",
        "Waiting",
        "Jump to the next agent waiting for you",
        "everywhere",
    ),
    # A function key: a scene's next round is usually waiting to be typed, and a letter would
    # go into that box.
    Key(
        "scene",
        "f2",
        "scene_state",
        "Scene",
        "Show the directed scene's world and characters as they stand now",
        "everywhere",
    ),
    # A function key: the inbox answers questions in a text box of its own, and from the
    # prompt a letter would be a word. In the footer only while something waits (app_bindings).
    Key(
        "inbox_anywhere",
        "f4",
        "inbox_waiting",
        "Inbox",
        "Open the inbox (also from a text box)",
        "everywhere",
        palette=False,
    ),
    # A function key: a block is chosen by clicking it, and after a click letters are words.
    # In the footer only while a block is selected (app_bindings).
    Key(
        "copy_block",
        "f8",
        "copy_selected",
        "Copy",
        "Copy the selected block (clicked last, or where / went) to the clipboard",
        "everywhere",
        palette=False,  # the palette's own Copy the selected block entry says it
    ),
    Key(
        "help_anywhere",
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
    ("esc", "text box", "Leave it for the prompt, never the tree (a question keeps waiting)"),
    ("1 / 2 / 3", "approval", "Allow once / always allow / reject with a reason (esc: later)"),
    ("tab / shift+tab", "anywhere", "Move between the tree, transcript, monologue and prompt"),
    ("ctrl+p", "anywhere", "Command palette: every action by name"),
    ("ctrl+q", "anywhere", "Quit (asks first while agents run or words are unsent)"),
)

# Where each scope's keys work, as the help screen and the manual's key reference name it.
WHERE: dict[Scope, str] = {"agent": "tree", "view": "panes", "everywhere": "anywhere"}


class WindowKey(NamedTuple):  # made before the first frame: see tui/cli/first_frame.py
    """A key of a window over the main screen, as the help screen lists it. `bindings`: the
    window's own bindings for it, which the window takes from here (a list's arrows are the
    list's: no binding)."""

    window: str  # as the palette and the footer name the window
    keys: str  # as people write them
    description: str
    bindings: tuple[Binding, ...] = ()


INBOX_WINDOW = "inbox"
STEPS_WINDOW = "Rewind or fork…"  # w, or the palette
COMPARE_WITH = "Compare with…"  # two agents of this session
COMPARE_RUNS = "Compare runs…"  # two saved runs
MODIFY_WINDOW = "Modify"
ANY_WINDOW = "windows"

WINDOW_KEYS: tuple[WindowKey, ...] = (
    WindowKey(INBOX_WINDOW, "↑ / ↓", "Pick a row: something that waits on you"),
    WindowKey(INBOX_WINDOW, "enter", "Into the row: its answer box, or its first button"),
    WindowKey(INBOX_WINDOW, "1 / 2 / 3", "The row's numbered buttons (an approval's choices)"),
    WindowKey(INBOX_WINDOW, "esc", "From a row's box: back to the rows; on the rows: close"),
    WindowKey(STEPS_WINDOW, "↑ / ↓", "Pick a step (set-aside steps: fork only)"),
    WindowKey(
        STEPS_WINDOW,
        "tab / shift+tab",
        "To the fork's instructions box and the buttons (letters are words here)",
    ),
    WindowKey(
        COMPARE_WITH,
        "↑ / ↓",
        "Move along the two agents' steps; the pair under the cursor shows whole below",
    ),
    WindowKey(
        COMPARE_WITH,
        "esc",
        "Close (letters do nothing here)",
        (Binding("escape", "close", "Close", priority=True),),
    ),
    # esc first: the footer shows the window's keys in this order.
    WindowKey(
        COMPARE_RUNS,
        "esc",
        "Close (letters do nothing here)",
        (Binding("escape", "close", "Close", priority=True),),
    ),
    WindowKey(
        COMPARE_RUNS,
        "← / →",
        "The previous or next page: the scenes' rounds, then each agent",
        # Priority: the list's own ← → (scrolling sideways, which it never needs) would
        # otherwise take the keys and hide these from the footer.
        (
            Binding("left", "turn(-1)", "Previous page", priority=True),
            Binding("right", "turn(1)", "Next page", priority=True),
        ),
    ),
    WindowKey(COMPARE_RUNS, "↑ / ↓", "Move along the page's steps or rounds, shown whole below"),
    WindowKey(MODIFY_WINDOW, "ctrl+s", "Apply the new instructions or task"),
    WindowKey(ANY_WINDOW, "esc", "Close it (a question: its safe answer; Modify keeps edits)"),
)
WINDOWS = tuple(dict.fromkeys(k.window for k in WINDOW_KEYS))  # in the help's order


def window_bindings(window: str) -> list[Binding]:
    """The bindings `window` declares here, for its BINDINGS: its keys and its help rows
    come from one place."""
    return [binding for k in WINDOW_KEYS if k.window == window for binding in k.bindings]


AGENT_KEYS = tuple(k for k in KEYS if k.scope == "agent")
VIEW_KEYS = tuple(k for k in KEYS if k.scope == "view")
# The tree's footer: help and quit first (a narrow footer cuts from the right), then what acts
# on the selected agent, then the view keys.
LEADING_KEYS = VIEW_KEYS[:2]
TRAILING_VIEW_KEYS = VIEW_KEYS[2:]
EVERYWHERE_KEYS = tuple(k for k in KEYS if k.scope == "everywhere")

# Interrupt is esc twice: esc also leaves a text box and turns the letters on after a click,
# and the second press is what the first one announces.
FIXED_IDS = frozenset({"interrupt"})
# Keys a remap may not take: the text boxes', the panes' moving and choosing keys, Textual's
# own (palette, quit, copy), and an approval's digits.
RESERVED_KEYS: dict[str, str] = {
    **dict.fromkeys(("enter", "tab", "shift+tab", "escape"), "choosing where keys go"),
    **dict.fromkeys(("ctrl+j", "shift+enter", "alt+enter"), "a new line in a text box"),
    **dict.fromkeys(("up", "down", "left", "right", "home", "end", "pageup", "pagedown"), "moving"),
    **dict.fromkeys(("backspace", "delete"), "editing a text box"),
    "ctrl+p": "the command palette",
    "ctrl+q": "quit",
    "ctrl+c": "copy (and how to quit)",
    **dict.fromkeys(("1", "2", "3"), "answering an approval"),
}
MODIFIERS = frozenset({"ctrl", "alt", "shift", "super", "meta", "hyper"})
# Key names Textual reads from a terminal, without their modifiers (`f5`, `escape`, `up`).
_NAMED_KEYS = frozenset(key.value.rpartition("+")[2] for key in Keys)
_WRITTEN_AS = {"esc": "escape", "return": "enter"}  # as people write them
# Textual names a few printable keys by a name its key_to_character cannot turn back (`slash`:
# Unicode calls "/" SOLIDUS; `minus`, `at`, ...): every printable ASCII key's name, both ways.
_ASCII_BY_NAME = {key_name_of_character(c): c for c in map(chr, range(0x21, 0x7F))}


@dataclass(frozen=True, slots=True)
class KeyMap:
    """Every key of the app as it is in effect: KEYS with the config's [keys] table applied."""

    keys: tuple[Key, ...] = KEYS
    # Actions on a printable key (a pane hands such keys to a text box that waits): asked for
    # each binding's state several times a key, so made once with the map (which a remap
    # replaces: key_map_for makes a new one).
    typed_actions: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        typed = frozenset(
            k.action for k in self.keys if any(_printable(part) for part in k.key.split(","))
        )
        object.__setattr__(self, "typed_actions", typed)  # frozen: set once, here

    def textual_keymap(self) -> dict[str, str]:
        """For `App.set_keymap`: the remapped ids (each binding carries its key's id)."""
        defaults = {k.id: k.key for k in KEYS}
        return {k.id: k.key for k in self.keys if k.key != defaults[k.id]}

    def help_rows(self) -> list[tuple[str, str, str]]:
        """Every key for the help screen, (keys, where, what), by where they work: the main
        screen's, then each window's."""
        rows = [
            # Interrupt takes esc twice: the first press only says what the second will do.
            (
                "esc esc" if k.id == "interrupt" else display_key(k.key),
                WHERE[k.scope],
                k.description,
            )
            for k in self.keys
        ]
        rows += BUILT_IN_KEYS
        rows += [(k.keys, k.window, k.description) for k in WINDOW_KEYS]
        order = ["tree", "panes", "text box", "approval", "anywhere", *WINDOWS]
        return sorted(rows, key=lambda row: order.index(row[1]))


def key_map_for(remapped: Mapping[str, str], where: str = "config file") -> KeyMap:
    """KEYS with `remapped` (config.toml's [keys] table: id -> keys, comma separated) applied.

    Raises ConfigError naming, one line each, an unknown id, a key name Textual does not know,
    a key taken twice or needed elsewhere, and for a key that works everywhere a printable key
    (it would run while a text box waits: typing is sacred) or one a text box uses itself (the
    box would act on the words instead). `where` says where the table is."""
    by_id = {k.id: k for k in KEYS}
    problems: list[str] = []
    keys: dict[str, str] = {}
    for key_id, written in remapped.items():
        problem = _problem(key_id, written, by_id)
        if problem is not None:
            problems.append(f"{where}: keys.{key_id}: {problem}")
        else:
            keys[key_id] = ",".join(_key_name(part) or "" for part in written.split(","))
    effective = tuple(k._replace(key=keys.get(k.id, k.key)) for k in KEYS)
    if not problems:
        problems += [f"{where}: keys.{clash}" for clash in _clashes(effective, set(keys))]
    if problems:
        raise ConfigError("\n".join(problems))
    return KeyMap(effective)


def _problem(key_id: str, written: object, by_id: Mapping[str, Key]) -> str | None:
    if key_id not in by_id:
        known = ", ".join(k for k in by_id if k not in FIXED_IDS)
        return f"not a key agentui has; the ids are: {known}"
    if key_id in FIXED_IDS:
        return "esc twice interrupts; esc also leaves a text box, so it cannot be remapped"
    if not isinstance(written, str) or not written.strip():
        return 'give one or more keys, comma separated (e.g. "ctrl+x" or "c,x")'
    for part in written.split(","):
        name = _key_name(part)
        if name is None:
            return (
                f"{part.strip()!r} is not a key name (a character, or a name such as f5, "
                "space, ctrl+x, alt+up)"
            )
        if name in RESERVED_KEYS:
            return f"{display_key(name)} is for {RESERVED_KEYS[name]}"
        if by_id[key_id].scope != "everywhere":
            continue
        if _printable(name):
            return (
                f"{display_key(name)} types a character: a key that works everywhere would "
                "act while you type in a text box; give it a modifier (ctrl+...) or a "
                "function key"
            )
        text_box_does = _text_box_keys(by_id).get(name)
        if text_box_does is not None:
            return (
                f"{display_key(name)} is a text box's own key ({text_box_does.lower()}): "
                "there it would do that to your words instead; give a key a text box "
                "does not use (e.g. ctrl+g or f8)"
            )
    return None


def _text_box_keys(by_id: Mapping[str, Key]) -> dict[str, str]:
    """What each key a text box takes for itself does there (Textual's TextArea and the
    Composer's own keys, read as they are now): a binding there wins over the app's. A binding
    with one of our ids is an app key the box shows, which a remap moves."""
    return {
        binding.key: binding.description
        for binding in Binding.make_bindings([*TextArea.BINDINGS, *Composer.BINDINGS])
        if binding.id not in by_id
    }


def _clashes(keys: tuple[Key, ...], remapped: set[str]) -> list[str]:
    """Keys taken twice: every key works on the tree, so none may have two meanings."""
    owner: dict[str, Key] = {}
    said: list[str] = []
    for key in keys:
        for name in key.key.split(","):
            other = owner.setdefault(name, key)
            if other is not key:
                # Named by the id the person remapped (both, when they remapped both).
                mine, theirs = (key, other) if key.id in remapped else (other, key)
                said.append(
                    f"{mine.id}: {display_key(name)} is {theirs.id}'s key too"
                    + ("" if theirs.id in remapped else " (give that one another key)")
                )
    return said


def _key_name(written: str) -> str | None:
    """Textual's name for a key as a person writes it (`?`, `esc`, `Ctrl+X`); None when
    Textual reads no such key."""
    text = written.strip()
    if len(text) == 1:
        return key_name_of_character(text)
    *modifiers, base = text.lower().split("+")
    base = _WRITTEN_AS.get(base, base)
    if len(base) == 1:
        base = key_name_of_character(base)
    if not set(modifiers) <= MODIFIERS or len(set(modifiers)) != len(modifiers):
        return None
    if base not in _NAMED_KEYS and key_to_character(base) is None:
        return None
    return "+".join([*modifiers, base])


def _character(key: str) -> str | None:
    """The character a key types (None: a key with a modifier, or one that types none)."""
    return key_to_character(key) or _ASCII_BY_NAME.get(key)


def _printable(key: str) -> bool:
    character = _character(key)
    return character is not None and character.isprintable()


# After _printable: a map makes its typed_actions as it is made.
DEFAULT_KEY_MAP = KeyMap()


def bindings(keys: tuple[Key, ...]) -> list[Binding]:
    """Bindings for a pane: the actions are the app's, whichever widget holds the keys, asked
    for as a pane's key (`pane_action`): the app refuses a pane's letter when the letters are
    words (after a click, or while a text box waits), and only that: the same action asked for
    by a modifier key or the palette still acts."""
    return [Binding(k.key, pane_action(k.action), k.label, show=k.show, id=k.id) for k in keys]


def pane_action(action: str) -> str:
    """The binding action of `action` asked for by a key on a pane."""
    return f"app.pane_key('{action}')"


def key_action(action: str) -> str:
    """The binding action of `action` asked for by a key that works anywhere (see
    tui/app/key_actions.py)."""
    return f"app.key('{action}')"


def app_bindings() -> list[Binding]:
    # ctrl+n shows in the footer only while someone waits (that is the footer saying so);
    # otherwise the same key falls through to a hidden binding that says nobody waits. f4
    # (the inbox) and f8 (copy the selected block) likewise.
    return [
        *(
            Binding(k.key, key_action(k.action), k.label, show=k.show, id=k.id)
            for k in EVERYWHERE_KEYS
        ),
        # Their keys' ids: a remap moves them with the key they stand in for.
        Binding("ctrl+n", key_action("nobody_waiting"), "Waiting", show=False, id="next_question"),
        Binding("f2", key_action("no_scene"), "Scene", show=False, id="scene"),  # no scene plays
        # f4 shows in the footer while the inbox holds something; empty, it opens all the same.
        Binding("f4", key_action("inbox"), "Inbox", show=False, id="inbox_anywhere"),
        # f8 shows while a block is selected; with none, it says how to select one.
        Binding("f8", key_action("copy_block"), "Copy", show=False, id="copy_block"),
        # After a click the letters are words (tui/app/focus.py): esc turns them on, and
        # the footer says so only then.
        Binding("escape", key_action("keys_on"), "Keys on"),
    ]


def shadowing(keys: tuple[Key, ...], action: str) -> list[Binding]:
    """Hidden bindings that take `keys` over inside a widget (its footer then does not offer
    the outer widget's commands for them)."""
    return [Binding(k.key, action, k.label, show=False, id=k.id) for k in keys]


def display_key(key: str) -> str:
    """A key as people write it: `?`, `esc`, not Textual's `question_mark`, `escape`."""
    return ",".join(_display_part(part) for part in key.split(","))


def _display_part(key: str) -> str:
    if key in ("escape", "space"):
        return "esc" if key == "escape" else key
    character = _character(key)
    return character if character is not None and character.isprintable() else key
