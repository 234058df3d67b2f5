"""The scene state view: a directed scene's world and characters as they stand now, and the
context its agent calls used per section (the scene's rolling usage record).

Opened with its key (keymap.py); drawn from the one fold's SceneState, and drawn again while
open when the scene changes (the app calls `redraw`). Every name and value comes from a scene
file or a model: shown as rich Text through visible_controls, never as markup.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from agentui.core.support.terminal_text import visible_controls as shown

if TYPE_CHECKING:  # the app loads no scene module until a scene plays
    from agentui.core.scene.scene_state import SceneState
    from agentui.core.state import RunState

SUMMARY_LINES = 4  # of the running summary, the newest


def scene_for(model: RunState, agent_id: str | None) -> SceneState | None:
    """The scene the agent belongs to (its root's), else the newest scene; None without one."""
    # Loading core/scene registers its fold, which folds the scene events the state kept until
    # then (a replay or an attached screen plays a scene without starting one here).
    from agentui.core.scene.scene_state import scenes_of

    scenes = scenes_of(model)
    agent = model.agents.get(agent_id or "")
    while agent is not None:
        if agent.id in scenes:
            return scenes[agent.id]
        agent = model.agents.get(agent.parent_id or "")
    return next(reversed(scenes.values()), None)


def scene_state_view(scene: SceneState) -> RenderableType:
    # Here, not at the top: the app's first frame loads this module but no scene's models.
    from agentui.core.protocol.director_payloads import STATE_FIELDS

    record, progress = scene.record, scene.round
    if progress is not None:
        where = f"round {progress.number}, playing"
    elif record.rounds:
        where = f"{len(record.rounds)} round{'s' if len(record.rounds) != 1 else ''} played"
    else:
        where = "before its first round"
    heading = Text.assemble((shown(scene.file.title), "bold"), f" · {where}")
    world = Table(box=None, show_header=False, padding=(0, 2))
    world.add_column(style="bold", no_wrap=True)
    world.add_column()
    for name, value in record.world.facts.items():
        world.add_row(Text(shown(name)), Text(shown(value)))
    if not record.world.facts:
        world.add_row(Text("-"), Text("no facts yet", style="dim"))
    people = Table(box=None, padding=(0, 1), header_style="bold")
    people.add_column("character", no_wrap=True)
    people.add_column("in scene", no_wrap=True)
    for field in STATE_FIELDS:
        people.add_column(field)
    if progress is not None:
        people.add_column("this round", no_wrap=True)
    for character in record.characters:
        row: list[Text] = [
            Text(shown(character.name), style="bold"),
            Text("yes" if character.active else "waiting", style="" if character.active else "dim"),
            *(Text(shown(getattr(character, field)) or "-") for field in STATE_FIELDS),
        ]
        if progress is not None:
            flags = progress.flags(character.name)
            marks = [
                word
                for word, on in (
                    ("acted", flags.has_acted_this_round),
                    ("entered", flags.entered_this_round),
                    ("left", flags.exited_this_round),
                )
                if on
            ]
            row.append(Text(", ".join(marks) or "-", style="dim" if not marks else ""))
        people.add_row(*row)
    parts: list[RenderableType] = [
        heading,
        Text(""),
        Text("World", style="bold underline"),
        world,
        Text(""),
        Text("Characters", style="bold underline"),
        people,
    ]
    summary = record.running_summary.splitlines()[-SUMMARY_LINES:]
    if summary:
        parts += [Text(""), Text("The story so far", style="bold underline")]
        parts += [Text(shown(line)) for line in summary]
    if len(scene.context_usage):
        parts += [Text(""), _context_usage(scene)]
    return Group(*parts)


def _context_usage(scene: SceneState) -> RenderableType:
    """The context used per section, on average over the scene's recent agent calls."""
    usage = scene.context_usage
    calls = len(usage)
    heading = Text.assemble(
        ("Context per section", "bold underline"),
        (f"  tokens, mean of the last {calls} call{'s' if calls != 1 else ''}", "dim"),
    )
    table = Table(box=None, padding=(0, 2), header_style="bold")
    table.add_column("section", no_wrap=True)
    table.add_column("used", justify="right")
    table.add_column("given", justify="right")
    used, given = usage.mean_used(), usage.mean_budgets()
    for section in given:
        table.add_row(section.replace("_", " "), f"{used[section]:.0f}", f"{given[section]:.0f}")
    return Group(heading, table)


class SceneStateScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    SceneStateScreen { align: center middle; }
    SceneStateScreen #dialog {
        width: 90%; height: auto; max-height: 90%; padding: 1 2;
        border: thick $primary; background: $surface;
    }
    """
    # The key that opens it (and quit's) closes it; their ids follow a remap.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("f2", "close", "Close", show=False, id="scene"),
        Binding("q", "close", "Close", show=False, id="quit"),
    ]

    def __init__(self, scene: SceneState) -> None:
        super().__init__()
        self.scene = scene
        self._view = Static(scene_state_view(scene), id="scene-state")

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="dialog"):
            yield Static(Text("Scene state", style="bold"), id="title")
            yield self._view
            yield Static(
                Text("esc closes · it follows the scene while open", style="dim"), id="hint"
            )
        yield Footer()

    def on_mount(self) -> None:
        # The app focuses nothing by itself (AUTO_FOCUS): without the cursor, the arrows and
        # page keys scrolled nothing until a tab.
        self.set_focus(self.query_one("#dialog", VerticalScroll))

    def redraw(self) -> None:
        """The scene changed: show it as it stands now."""
        self._view.update(scene_state_view(self.scene))

    def action_close(self) -> None:
        self.dismiss(None)
