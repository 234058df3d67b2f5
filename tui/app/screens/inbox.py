"""The inbox window: everything across the tree that waits on the person, one row each, what
unblocks most first (core/state/inbox.py), each acted on from its row without leaving it.

The rows come from the status bar's reading of the fold (tui/app/inbox.py hands new ones in)
and are read again each second while the window is open, as the waits grow. What the person
chooses for a row goes to the runtime's port, only when core's table (`allowed`) holds it
for that agent now (checked_command.py).

Typing is sacred here too: no letter is a command; the digits press a row's numbered buttons
only while the keys are the keyboard's. After a click (on a row, a button, anywhere), or a
letter typed outside a box (the person is writing: a digit later in the sentence is no
choice), a printable key goes into the row's text box, or nowhere, until a deliberate key
(esc, tab, enter) turns the digits on again: the same FocusKeeper as the main screen decides. Letters go
into a row's box only for the row the person went into (enter, a digit that opens its box, a
click in its pane): never into a row the highlight merely rests on. When the row the person
was acting on leaves the inbox (settled elsewhere: another front end, a parent's cancel), the
highlight moves to another row under their fingers, so the keeper turns to reading, as after
a click, and a toast says why: what they go on typing acts on no other row.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widget import AwaitMount, Widget
from textual.widgets import Footer, OptionList, Static, TextArea

from agentui.core.protocol.commands import Command
from agentui.tui.app.budget_window import apply_budget_choice, budget_window
from agentui.tui.app.checked_command import run_checked
from agentui.tui.app.focus import FocusKeeper, KeyRoute
from agentui.tui.app.inbox import IN_A_REPLAY, waiting_rows
from agentui.tui.app.widgets.footer import footer_key_at
from agentui.tui.app.widgets.inbox_actions import ALL_ASKERS, InboxBox, RowActions, RowFacts
from agentui.tui.app.widgets.inbox_rows import InboxList

if TYPE_CHECKING:
    from agentui.core.state.inbox import InboxKind, InboxRow
    from agentui.tui.app.app import AgentUIApp
    from agentui.tui.app.screens.budget import BudgetChoice, BudgetScreen

EMPTY = "Nothing waits on you."
DIGITS = ("1", "2", "3")  # a row's numbered buttons (an approval's digits, as in the transcript)
HINT = "↑↓ a row · enter: into it · 1 2 3: its numbered buttons · esc closes"
# What a row waits for, in the toast that says it was settled elsewhere.
ROW_NOUNS: dict[InboxKind, str] = {
    "question": "question",
    "approval": "approval",
    "budget": "budget stop",
    "stalled": "stall",
    "steer": "unread steer",
}


class InboxScreen(ModalScreen["InboxRow | None"]):
    """Dismissed with the row to go to (its agent in the main screen), or None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # After a click esc only turns the digits on (as on the main screen); else it closes.
        Binding("escape", "keys_on", "Digits on"),
        Binding("escape", "close", "Close"),
        # The key that opened it closes it (its id: a remap in config.toml moves it too).
        Binding("f4", "close", "Close", show=False, id="inbox_anywhere"),
        *(Binding(digit, f"number('{digit}')", show=False) for digit in DIGITS),
    ]

    def __init__(self, rows: list[InboxRow], drafts: dict[str, str] | None = None) -> None:
        super().__init__(classes="inbox")
        self._rows = rows
        # Words typed in a row's box, by row and box: they outlive the window (and its
        # redraws) for as long as the app runs.
        self.drafts: dict[str, str] = drafts if drafts is not None else {}
        self.keeper = FocusKeeper()  # after a click the digits are nothing
        self._shape: object = None  # what the actions pane was built for
        self._shown: InboxRow | None = None  # the row it was built for
        self._entered: str | None = None  # the row whose pane the person went into
        self._settled_here: set[str] = set()  # rows the person acted on here: not "elsewhere"
        self._told_keys_are_off = False
        self.left_by_a_click = False  # "Go to it" clicked (see Inbox.go_to)
        # Keys typed after the digit that opens the budget window, before it is up to take
        # them (a fast typist, a paste): its words, handed to it once it is (see _typed_on).
        self._typed_ahead: list[events.Key | events.Paste] | None = None
        self._window: BudgetScreen | None = None
        self._pane_mounting: AwaitMount | None = None  # the pane being built, for on_mount
        # Where enter on a row put the cursor, until it lands there (after the next refresh):
        # keys typed behind enter meanwhile are that box's or button's (see on_key).
        self._cursor_going_to: Widget | None = None

    @property
    def agent_app(self) -> AgentUIApp:
        return cast("AgentUIApp", self.app)

    def compose(self) -> ComposeResult:
        empty = IN_A_REPLAY if self.agent_app.host.read_only else EMPTY
        with Vertical(id="dialog"):
            yield Static("", id="title")
            yield Static(Text(empty, style="italic"), id="empty")
            yield InboxList(id="rows")
            yield Vertical(id="actions")
            yield Static(Text(HINT, style="dim"), id="hint")
        yield Footer()

    async def on_mount(self) -> None:
        self.set_interval(1.0, self._tick)  # the waits grow; the agents each holds up change
        self._tick()  # read afresh: how many agents each row holds up may have changed since
        mounting, self._pane_mounting = self._pane_mounting, None
        if mounting is not None:
            await mounting  # keys typed behind f4 wait here: enter must find the row's pane
        # At once, not through the app's queue as focus() does: a key typed behind f4 that is
        # already in this window's queue (handed here while nothing had the cursor) is the
        # rows' (enter goes into the highlighted row), not a key for nothing.
        self.set_focus(self.query_one(InboxList))

    # -- the rows ------------------------------------------------------------------------

    def show_rows(self, rows: list[InboxRow]) -> None:
        """Other rows, as the status bar read them (see tui/app/inbox.py)."""
        self._rows = rows
        if self.is_mounted:
            self._draw()

    def _tick(self) -> None:
        fold = self.agent_app.main.fold
        if fold is not None:
            self._rows = waiting_rows(self.agent_app, fold)
        self._draw()

    def _now(self) -> float:
        app = self.agent_app
        fold = app.main.fold
        return app.host.now(fold) if fold is not None else app.clock.now()

    def _agent_name(self, agent_id: str) -> str:
        fold = self.agent_app.main.fold
        agent = fold.agents.get(agent_id) if fold is not None else None
        return agent.name if agent is not None else agent_id

    def _draw(self) -> None:
        rows = self._rows
        listing = self.query_one(InboxList)
        listing.show(rows, self._now(), self._agent_name)
        listing.display = bool(rows)
        self.query_one("#empty").display = not rows
        self.query_one("#actions").display = self.query_one("#hint").display = bool(rows)
        waiting = f"{len(rows)} waiting on you" if rows else "empty"
        self.query_one("#title", Static).update(Text(f"Inbox · {waiting}", style="bold"))
        self._show_actions()

    def _highlighted(self) -> InboxRow | None:
        row_id = self.query_one(InboxList).highlighted_id
        return next((row for row in self._rows if row.id == row_id), None)

    def _show_actions(self) -> None:
        """The highlighted row's pane, built again only when what it offers changed (another
        row, another status, another table): words typed in its box stay."""
        row = self._highlighted()
        pane = self.query_one("#actions", Vertical)
        facts = self._facts(row) if row is not None else None
        shape = (
            None
            if row is None or facts is None
            else (row.id, row.kind, row.query_ids, row.text, row.tool, facts.status, facts.table)
        )
        if shape == self._shape:
            return
        same_row = isinstance(self._shape, tuple) and row is not None and self._shape[0] == row.id
        self._shape = shape
        focused = self.focused
        was_in_pane = focused is not None and pane in focused.ancestors
        left, self._shown = self._shown, row
        if left is not None and not same_row and left.id not in {r.id for r in self._rows}:
            self._row_left(left, acting=was_in_pane or left.id == self._entered)
        # Back into the box only for the same row: words typed on go to no other agent.
        box_id = focused.id if isinstance(focused, InboxBox) and same_row else None
        pane.remove_children()
        if row is None or facts is None:
            if was_in_pane:
                self.query_one(InboxList).focus()
            return
        actions = RowActions(row, facts, self.drafts)
        self._pane_mounting = pane.mount(actions)
        if was_in_pane:
            self.call_after_refresh(self._focus_again, actions, box_id)

    def _row_left(self, row: InboxRow, *, acting: bool) -> None:
        """`row` left the inbox. If the person was acting on it and did not settle it here,
        the keys they go on typing were meant for it: reading, as after a click, until esc."""
        settled_here = row.id in self._settled_here
        self._settled_here.discard(row.id)
        if self._entered == row.id:
            self._entered = None
        if not acting or settled_here:
            return
        self.keeper.clicked()
        self._told_keys_are_off = True  # this toast says it
        self.refresh_bindings()
        self.agent_app.notify(
            f"{row.path}: its {ROW_NOUNS[row.kind]} was settled elsewhere. Keys typed now act "
            "on no other row (esc turns the digits on).",
            timeout=5,
        )

    def _enter(self, row_id: str) -> None:
        """The person went into `row_id`'s pane: letters may go into its box."""
        self._entered = row_id
        self._settled_here.discard(row_id)  # acting on it again: its leaving may be news

    def _focus_again(self, actions: RowActions, box_id: str | None) -> None:
        """The pane was built again under the cursor: back into the same box, else the rows."""
        box = actions.query(f"#{box_id}").first(InboxBox) if box_id else None
        if box is not None:
            box.display = True
            box.focus()
        else:
            self.query_one(InboxList).focus()

    def _facts(self, row: InboxRow) -> RowFacts | None:
        app = self.agent_app
        fold = app.main.fold
        agent = fold.agents.get(row.agent_id) if fold is not None else None
        if agent is None:
            return None
        names = {
            agent_id: self._agent_name(agent_id) for agent_id in (row.agent_id, *row.agent_ids)
        }
        return RowFacts(names, agent.status, app.commands.allowed_for(row.agent_id))

    def _actions(self) -> RowActions | None:
        return next(iter(self.query(RowActions)), None)

    @on(OptionList.OptionHighlighted)
    def _row_highlighted(self) -> None:
        self._show_actions()

    @on(OptionList.OptionSelected)
    def _row_chosen(self) -> None:
        """enter on a row: into its box, or onto its first button. A click only shows it."""
        self._show_actions()
        if self.keeper.reading:
            return
        self._go_into_row()

    def _go_into_row(self) -> None:
        """Into the highlighted row: its box, or its first button, once it is drawn."""
        actions = self._actions()
        if actions is None:
            return
        self._enter(actions.row.id)  # keys typed before the cursor lands are its words too
        target = actions.first_control()
        if target is None:
            return
        self._cursor_going_to = target
        self.call_after_refresh(self._cursor_lands, target)

    def _cursor_lands(self, target: Widget) -> None:
        if self._cursor_going_to is target:
            self._cursor_going_to = None
            if target.is_attached:
                target.focus()

    @on(InboxBox.Left)
    def _left_a_box(self) -> None:
        self.query_one(InboxList).focus()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """The cursor went into a row's pane (enter, a digit opening its box, a click): that
        row is the one letters may go to. (The pane is built again for its own row only.)"""
        actions = next((a for a in event.widget.ancestors if isinstance(a, RowActions)), None)
        if actions is not None:
            self._enter(actions.row.id)

    # -- what the person chose -----------------------------------------------------------

    @on(RowActions.Chosen)
    def _chosen(self, event: RowActions.Chosen) -> None:
        app, row = self.agent_app, event.row
        runtime = app.host.runtime
        if event.action == "goto":
            # Chosen with a click: the agent it goes to takes no letters as commands either.
            self.left_by_a_click = self.keeper.reading
            self.dismiss(row)
            return
        if event.action != "raise":
            self._give_back_typed_ahead()
        if runtime is None:
            self._give_back_typed_ahead()
            app.notify("This is a replay: nothing in it can be changed.", severity="warning")
            return
        agent_id = row.agent_id
        taken = False
        match event.action:
            case "answer":
                for query_id, asker in zip(row.query_ids, row.agent_ids, strict=True):
                    if event.target in (ALL_ASKERS, query_id):
                        taken |= run_checked(
                            app,
                            "answer",
                            asker,
                            Command.ANSWER,
                            lambda q=query_id: runtime.answer(q, event.text),  # type: ignore[misc]
                        )
            case "approve":
                reason = event.text or None
                taken = run_checked(
                    app,
                    "approve",
                    agent_id,
                    Command.APPROVE,
                    lambda: runtime.approve(row.id, event.choice, reason),  # type: ignore[arg-type]
                )
            case "raise":
                self._open_budget(row)
            case "continue_once":
                taken = run_checked(
                    app,
                    "continue past the budget",
                    agent_id,
                    Command.PAST_BUDGET,
                    lambda: runtime.continue_past_budget(agent_id),
                )
            case "cancel":
                taken = run_checked(
                    app, "cancel", agent_id, Command.CANCEL, lambda: runtime.cancel(agent_id)
                )
            case "steer":
                text = event.text or ""
                taken = run_checked(
                    app, "steer", agent_id, Command.STEER, lambda: runtime.steer(agent_id, text)
                )
            case "resume":
                taken = run_checked(
                    app, "resume", agent_id, Command.RESUME, lambda: runtime.resume(agent_id)
                )
            case "continue":
                text = event.text or ""
                if not text:
                    app.notify("continue: write the message it continues with", timeout=4)
                    return
                taken = run_checked(
                    app,
                    "continue",
                    agent_id,
                    Command.CONTINUE,
                    lambda: runtime.send(agent_id, text),
                )
        if taken:
            self._settled_here.add(row.id)
            for key in [k for k in self.drafts if k.startswith(f"{row.id}:")]:
                del self.drafts[key]
            self.query_one(InboxList).focus()  # the row goes once the runtime says so

    def _open_budget(self, row: InboxRow) -> None:
        """The budget window over this one (it is a step of this row, not another overlay)."""
        app, agent_id = self.agent_app, row.agent_id
        fold = app.main.fold
        agent = fold.agents.get(agent_id) if fold is not None else None
        if agent is None:
            self._give_back_typed_ahead()
            return

        def chosen(choice: BudgetChoice) -> None:
            self._typed_ahead = self._window = None
            if choice is not None:
                self._settled_here.add(row.id)  # its row goes by the person's own act
            apply_budget_choice(app, agent_id, choice)

        window = self._window = budget_window(agent)
        if self._typed_ahead is not None:
            window.typed_ahead = self._typed_ahead
        app.push_screen(window, chosen)

    def _typed_on(self, event: events.Key | events.Paste) -> bool:
        """A key (or paste) that came after the digit that opens the budget window: the
        window's, typed before it could take it. True when it was kept for it."""
        kept = self._typed_ahead
        if kept is None:
            return False
        event.stop()
        event.prevent_default()
        window = self._window
        if window is not None and window.took_typed_ahead:
            window.post_typed(event)  # it is up: straight to it, after those kept before
        else:
            kept.append(event)
        return True

    def _give_back_typed_ahead(self) -> None:
        """No window opened after all: the keys kept for it are the inbox's, in order."""
        kept, self._typed_ahead = self._typed_ahead, None
        for event in kept or []:
            again = _copy_of(event)
            again.set_sender(self.app)  # as typed: through the app, bubbling up to here
            self.app.post_message(again)

    # -- keys ----------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "keys_on":
            return self.keeper.reading
        if action == "close":
            return not self.keeper.reading
        if action == "number":
            (digit,) = parameters
            actions = self._actions()
            typing = isinstance(self.focused, TextArea)
            return (
                not self.keeper.reading
                and not typing
                and actions is not None
                and actions.numbered(str(digit)) is not None
            )
        return True

    def action_close(self) -> None:
        self.dismiss(None)

    def action_keys_on(self) -> None:
        """esc after a click or a letter (or the footer's Digits on): the digits act again."""
        if self.keeper.chose():
            self.refresh_bindings()

    def action_number(self, digit: str) -> None:
        actions = self._actions()
        button = actions.numbered(digit) if actions is not None else None
        if button is not None:
            button.press()
        else:
            self._give_back_typed_ahead()

    def on_mouse_down(self, event: events.MouseDown) -> None:
        # A click is for reading and choosing with the mouse: the keys typed after it are
        # words (into a box) or nothing. A footer key's click is its key, not a click.
        if footer_key_at(self.app, event) is not None:
            return
        if self.keeper.clicked():
            self._told_keys_are_off = False
            self.refresh_bindings()

    def on_key(self, event: events.Key) -> None:
        """Before the screen's bindings: where the key goes (FocusKeeper's rules)."""
        if self._typed_on(event):
            return
        route = self.keeper.key_arrived(event, self.focused)
        box = self.focused
        if isinstance(box, TextArea) and event.is_printable and event.character:
            # A letter that reached the window, not the box that has the cursor (a box takes
            # its letters itself): typed behind enter, it was handed to the rows before the
            # cursor landed in the row's box. The box's words, not lost.
            self._stop(event)
            box.insert(event.character)
            if route is KeyRoute.CHOSE:
                self.refresh_bindings()
            return
        if route is KeyRoute.ARMED:
            self._stop(event)
            self.refresh_bindings()
            self.app.notify("Keys act here again: 1, 2 and 3 press a row's buttons.", timeout=3)
            return
        if route is KeyRoute.CHOSE:
            self.refresh_bindings()
            return
        going_to = self._cursor_going_to
        if going_to is not None and isinstance(self.focused, InboxList) and going_to.is_attached:
            # Typed behind enter, before the cursor landed in the row: the box's words (a
            # digit too: no button's), or the key of the box or button, as if it were there
            # (enter in a box sends its words).
            self._stop(event)
            if isinstance(going_to, TextArea) and event.is_printable and event.character:
                going_to.insert(event.character)
                return
            self._cursor_going_to = None
            going_to.focus()  # through the app's queue: before the key sent again
            again = _copy_of(event)
            again.set_sender(self.app)  # as typed: to the focused widget, its bindings
            self.app.post_message(again)
            return
        if event.key == "enter" and isinstance(self.focused, InboxList):
            # Into the row here, before the keys behind it: as the list's binding, enter
            # would go into the row only once it had come back through the app, after the
            # words typed right behind it had reached this window, for no row.
            self._stop(event)
            self._show_actions()
            self._go_into_row()
            return
        if not event.is_printable or isinstance(self.focused, TextArea):
            return
        actions = self._actions()
        numbered = actions.numbered(event.key) if actions is not None else None
        if route is KeyRoute.AS_IS and event.key in DIGITS and numbered is not None:
            # The row's numbered button (its binding, run once the key reaches the app: the
            # keys typed after it are here by then). Those after "1 Raise the budget…" are
            # for its window.
            if numbered.id == "raise":
                self._typed_ahead = []
            return
        # A letter (or a digit after a click) is words for the box of the row the person went
        # into, or nothing: never for a row the highlight only rests on (it may have moved).
        self._stop(event)
        entered = actions is not None and actions.row.id == self._entered
        box = actions.box_waiting() if actions is not None and entered else None
        if box is not None and event.character is not None:
            box.focus()
            box.insert(event.character)
            return
        # A letter outside a box: the person is writing, not choosing. The digits stop acting,
        # as after a click, so a digit later in the sentence ("takes 2 seconds") presses no
        # row's button; esc or enter turns them on again.
        reading = self.keeper.reading
        writing = event.key not in DIGITS and self.keeper.clicked()
        if writing:
            self._told_keys_are_off = False
            self.refresh_bindings()
        if not self._told_keys_are_off:
            self._told_keys_are_off = True
            if writing:
                said = (
                    "Letters are not commands here: enter goes into a row (its box takes words)."
                    " The digits are off now, so a digit you type presses nothing: esc or enter"
                    " turns them on."
                )
            elif reading:
                said = "After a click, keys are not commands here: esc turns the digits on."
            else:
                said = "This row has no button with that number."
            self.app.notify(said, timeout=5)

    def on_paste(self, event: events.Paste) -> None:
        self._typed_on(event)

    @staticmethod
    def _stop(event: events.Key) -> None:
        event.stop()
        event.prevent_default()


def _copy_of(event: events.Key | events.Paste) -> events.Key | events.Paste:
    """The same key or paste, to be handled again (an event is handled once)."""
    if isinstance(event, events.Paste):
        return events.Paste(event.text)
    return events.Key(event.key, event.character)
