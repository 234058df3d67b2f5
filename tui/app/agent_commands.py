"""The person's commands on the selected agent (pause, resume, steer, cancel, interrupt, delete,
modify, answer, the next question), when each applies (`availability`, what the footer, the
palette and the keys ask), and the command palette's entries.

The commands act through the runtime's methods only; the screen they read is the main screen
(its fold and its selection).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from textual.app import SystemCommand
from textual.notifications import Notification
from textual.widgets import TextArea

from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.protocol.commands import Command, allowed
from agentui.core.support.errors import AgentUIError
from agentui.tui.app import textual_compat
from agentui.tui.app.keymap import AGENT_KEYS, display_key
from agentui.tui.app.status_notices import SWITCHED
from agentui.tui.app.widgets.prompt import PromptMode

if TYPE_CHECKING:
    from agentui.core.state import RunState
    from agentui.tui.app.app import AgentUIApp
    from agentui.tui.app.screens.main import MainScreen
    from agentui.tui.app.screens.modify import KeptDraft, ModifyResult

# The palette's search of every saved session (tui/app/session_search.py, loaded when chosen).
SEARCH_SESSIONS = "Search all sessions…"
SEARCH_SESSIONS_HELP = "the saved sessions' transcripts, as agentui search lists them"
INTERRUPT_WINDOW_S = 3.0  # the second esc must come this soon after the first
# The actions that are commands to the runtime (the rest only change what the screen shows).
RUNTIME_ACTIONS = {
    "pause", "resume", "toggle_pause", "cancel", "interrupt", "delete", "modify", "new_task",
    "next_question", "steer",
}  # fmt: skip
AGENT_ACTIONS = frozenset(k.action for k in AGENT_KEYS)


class AgentCommands:
    """The selected agent's commands, run for the app's keys and palette."""

    # Every action this object runs (`run`): the keys' and the palette's names for them.
    ACTIONS = AGENT_ACTIONS | {"answer_selected", "next_question"}

    def __init__(self, app: AgentUIApp) -> None:
        self.app = app
        self._interrupt_armed: tuple[str, float] | None = None  # (agent, when esc was pressed)
        # "esc again interrupts ...", withdrawn once it does.
        self._interrupt_toast: Notification | None = None
        # Agent id -> Modify edits closed with esc, not applied: the next m opens them.
        self.kept_drafts: dict[str, KeptDraft] = {}
        # `waiting`'s last answer: (fold, its inbox_revision, the list). Textual asks whether
        # ctrl+n applies for every binding's state, several times a key; each answer walked
        # every agent for budget stops.
        self._waiting_seen: tuple[RunState, int, list[tuple[str, str]]] | None = None
        # `allowed_for`'s last answer: (fold, what it depends on, the commands).
        self._allowed_seen: tuple[RunState, tuple[object, ...], frozenset[Command]] | None = None

    @property
    def main(self) -> MainScreen:
        return self.app.main

    def run(self, action: str) -> None:
        """Run one of ACTIONS (already allowed by `availability`)."""
        getattr(self, action)()

    # -- which commands apply ------------------------------------------------------------

    def allowed_now(self) -> frozenset[Command]:
        """What the runtime accepts for the selected agent now."""
        return self.allowed_for(self.main.selected_id)

    def allowed_for(self, agent_id: str | None) -> frozenset[Command]:
        """What the runtime accepts for `agent_id` now: core's one table, read from the fold
        the screen draws (the runtime reads the same facts from its own tree)."""
        fold = self.main.fold
        agent = fold.agents.get(agent_id or "") if fold is not None else None
        mode = self.app.host.mode
        if fold is None or agent is None:
            return allowed(None, mode)
        # Asked for each binding's state, several times a key: the same answer until an event
        # of the inbox's kinds (a status, a question, a budget's stop) moved the revision.
        key = (agent_id, agent.status, mode, fold.inbox_revision)
        seen = self._allowed_seen
        if seen is not None and seen[0] is fold and seen[1] == key:
            return seen[2]
        table = allowed(fold.view(agent), mode)
        self._allowed_seen = (fold, key, table)
        return table

    def availability(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Textual's check_action: True offered, None shown greyed out and refused, False
        hidden."""
        app, main = self.app, self.main
        fold = main.fold  # None: nothing has happened yet (the first frame loads no fold)
        # Nothing is a command in this mode (a replay): not even a new task.
        read_only = not allowed(None, app.host.mode)
        if action == "key":  # a key that works anywhere: the action it names (key_actions.py)
            (named,) = parameters
            assert isinstance(named, str)
            return self.availability(named, ())
        if action == "keys_on":
            return app.keeper.reading and not isinstance(app.focused, TextArea)
        if action == "pane_key":
            # A key on a pane: not while the letters are words after a click (esc turns them
            # on first), nor a letter while a box waits for it (see on_event). The same action
            # from a modifier key or the palette is asked for by its own name, below.
            (asked,) = parameters
            assert isinstance(asked, str)
            typed = asked in app.key_map.typed_actions
            if app.keeper.reading or (typed and main.keys.box_for_typed_keys()):
                return False
            return self.availability(asked, ())
        if action == "next_question" and (fold is None or not self.waiting(fold) or read_only):
            return False  # hidden (and falls through) when nobody waits, or only in a recording
        agent = main.selected_agent()
        status = agent.status if agent is not None else None
        if status is None and action in AGENT_ACTIONS:
            return False  # no agent yet: the footer keeps its room for what works
        if action in RUNTIME_ACTIONS:
            if read_only:
                return False  # never offered
            if not app.host.started and action != "new_task":
                return None  # greyed in the moment before the runtime starts (a task waits)
        table = self.allowed_now()
        paused = status is AgentStatus.PAUSED
        applies: dict[str, bool] = {
            "pause": Command.PAUSE in table and not paused,  # pausing it again changes nothing
            # resume a paused agent, continue one that ended (a follow-up, or after a crash),
            # or, where the table has a budget stop instead of a resume, open its budget
            "resume": (Command.RESUME in table and paused)
            or bool(table & {Command.CONTINUE, Command.PAST_BUDGET}),
            "toggle_pause": Command.PAUSE in table,
            "cancel": Command.CANCEL in table,
            "interrupt": Command.INTERRUPT in table,
            "delete": Command.DELETE in table,
            "modify": Command.MODIFY in table,
            # a live agent takes the words as a steer, an ended one as a continue
            "steer": bool(table & {Command.STEER, Command.CONTINUE}),
            "toggle_all": fold is not None and bool(fold.agents),
            "toggle_monologue_filter": app.monologue_enabled,
            # Offered with an agent selected where commands are given: the window says why
            # it cannot go back (a scene's own agent has no steps) rather than a silent key.
            "time_travel": agent is not None and not read_only and app.host.runtime is not None,
        }
        if action == "next_question":
            return True  # somebody waits (checked above)
        if action == "scene_state":
            # Hidden unless a scene is in the run (a replay or an attached screen has loaded
            # no scene module until the view opens: the fold knows the scenes' roots).
            return fold is not None and bool(fold.scene_roots)
        if action == "answer_selected":
            # Offered only on a waiting agent (a question, or its budget's stop); else enter is
            # the tree's own (fold a node).
            waiting = bool(table & {Command.ANSWER, Command.PAST_BUDGET})
            return app.host.runtime is not None and waiting
        if action in applies:
            return True if applies[action] else None  # None: shown greyed out, and refused
        return True

    # -- the palette ---------------------------------------------------------------------

    def palette(self, textual_own: Iterable[SystemCommand]) -> Iterable[SystemCommand]:
        """The palette's commands: every key's action that applies now, in the footer's words,
        then Textual's own that the app does not offer under another name."""
        # Textual's own Theme, Quit and Keys are offered below in the app's words (Help shows
        # every key): listed twice, a person cannot tell which is which.
        keys = self.app.key_map.keys
        ours = {f"action_{key.action}" for key in keys if key.palette} | {"action_show_help_panel"}
        for command in textual_own:
            if getattr(command.callback, "__name__", "") not in ours:
                yield command
        for key in keys:
            if key.palette and self.app.check_action(key.action, ()):
                # The footer's word first, so "All agents" finds what the footer calls so.
                title = f"{key.label}: {key.description}"
                yield SystemCommand(title, f"key: {display_key(key.key)}", self._runner(key.action))
        if self.app.host.provider_switch is not None and self.app.host.started:
            yield SystemCommand(
                "Switch provider/model…", "for the next task", self.open_provider_switch
            )
        yield from self.app.copy_export.palette()
        from agentui.tui.app.agent_comparison import compare_commands  # its window: when chosen

        yield from compare_commands(self.app)
        yield SystemCommand(SEARCH_SESSIONS, SEARCH_SESSIONS_HELP, self.open_session_search)
        yield from self._budget_commands()

    def open_session_search(self) -> None:
        from agentui.tui.app.session_search import open_session_search

        open_session_search(self.app)

    def _budget_commands(self) -> Iterable[SystemCommand]:
        """Set or raise the selected agent's budget; at its budget stop, continue once."""
        agent = self.main.selected_agent()
        if agent is None:
            return
        table = self.allowed_now()
        if Command.BUDGET in table:
            title = "Raise budget…" if agent.budget is not None else "Set budget…"
            yield SystemCommand(
                title, "what the selected agent's subtree may spend", self.open_budget
            )
        if Command.PAST_BUDGET in table:
            yield SystemCommand(
                "Continue once past the budget",
                "one more model or tool call, then it stops again",
                self.continue_past_budget,
            )

    def open_budget(self) -> None:
        """The budget modal for the selected agent (its spend and its stop, if any)."""
        from agentui.tui.app.budget_window import apply_budget_choice, budget_window

        agent = self.main.selected_agent()
        if agent is None or self.app.host.runtime is None:
            return
        agent_id = agent.id
        self.app.open_overlay(
            budget_window(agent), lambda choice: apply_budget_choice(self.app, agent_id, choice)
        )

    def continue_past_budget(self) -> None:
        runtime = self.app.host.runtime
        assert runtime is not None
        self._command("continue past the budget", runtime.continue_past_budget)

    def _runner(self, action: str) -> Callable[[], object]:
        if action == "interrupt":
            return self.interrupt_now  # chosen by name, it is meant: no second press
        return lambda: self.app.key_actions.run(action)

    def open_provider_switch(self) -> None:
        from agentui.tui.app.provider_switch import provider_palette

        switch = self.app.host.provider_switch
        assert switch is not None
        palette = provider_palette(switch, self.app.open_overlay, self.switch_to)
        self.app.open_overlay(palette)

    def switch_to(self, name: str, model: str) -> None:
        """New root agents run on `name` `model`; running agents keep theirs."""
        host = self.app.host
        # The switch is offered only for a runtime in this process (its provider is here).
        runtime = host.local_runtime
        assert host.provider_switch is not None and runtime is not None
        try:
            provider = host.provider_switch.build(name, model)
        except AgentUIError as exc:
            self.app.notify(str(exc), title="Cannot switch", severity="error", timeout=10)
            return
        runtime.set_provider(provider)
        host.provider_notice = SWITCHED
        self.main.refresh_status()
        self.app.notify(f"New tasks run on {name} {model}.", title="Provider switched")

    # -- the commands --------------------------------------------------------------------

    def _command(self, name: str, call: Callable[[str], None]) -> None:
        if self.main.selected_id is None:
            self.app.notify("Select an agent first.", severity="warning")
            return
        self.app.run_command(name, call, self.main.selected_id)

    def pause(self) -> None:
        runtime = self.app.host.runtime
        assert runtime is not None
        self._command("pause", runtime.pause)

    def resume(self) -> None:
        runtime = self.app.host.runtime
        assert runtime is not None
        status = self._selected()
        selected = self.main.selected_id
        if status is not None and status.is_final and selected is not None:
            # An ended agent continues from its conversation with a message from the person.
            name = self.main.model.agents[selected].name
            self.main.addressing.address_prompt(PromptMode("continue", selected, name))
            return
        if Command.PAST_BUDGET in self.allowed_now():
            self.open_budget()  # the table has no plain resume at a budget stop
            return
        self._command("resume", runtime.resume)

    def _selected(self) -> AgentStatus | None:
        agent = self.main.selected_agent()
        return agent.status if agent is not None else None

    def toggle_pause(self) -> None:
        if self._selected() is AgentStatus.PAUSED:
            self.resume()
        else:
            self.pause()

    def cancel(self) -> None:
        runtime = self.app.host.runtime
        assert runtime is not None
        self._command("cancel", runtime.cancel)

    def answer_selected(self) -> None:
        agent = self.main.model.agents.get(self.main.selected_id or "")
        if agent is not None and agent.open_queries:
            self.main.focus_question(agent.open_queries[0])
        elif Command.PAST_BUDGET in self.allowed_for(agent.id if agent is not None else None):
            self.open_budget()  # raise it, or continue once
        else:
            self.main.tree_view.action_select_cursor()

    def steer(self) -> None:
        agent = self.main.model.agents.get(self.main.selected_id or "")
        if agent is None:
            self.app.notify("Select an agent first.", severity="warning")
            return
        if not agent.status.is_live:
            self.main.addressing.offer_continue(agent.id, "")
            return
        self.main.addressing.address_prompt(PromptMode("steer", agent.id, agent.name))

    def interrupt(self) -> None:
        """esc twice: the first press says what the second will do, so an esc pressed to get
        out of something never stops an agent by itself."""
        agent = self.main.model.agents.get(self.main.selected_id or "")
        if agent is None or not agent.status.is_live or self.app.host.runtime is None:
            return
        now = self.main.clock.monotonic()
        armed, self._interrupt_armed = self._interrupt_armed, None
        if armed is None or armed[0] != agent.id or now - armed[1] > INTERRUPT_WINDOW_S:
            self._interrupt_armed = (agent.id, now)
            self._interrupt_toast = self.app.notify(
                f"esc again interrupts {agent.name} (r continues it later).", timeout=3
            )
            return
        self.interrupt_now()

    def interrupt_now(self) -> None:
        """The palette's Interrupt: chosen by name, it is meant; no second press."""
        toast, self._interrupt_toast = self._interrupt_toast, None
        if toast is not None:
            # What it said would happen has happened.
            textual_compat.withdraw_notification(self.app, toast)
        runtime = self.app.host.runtime
        if runtime is None:
            return
        self._command(
            "interrupt", lambda agent_id: runtime.cancel(agent_id, "interrupted by the person")
        )

    def delete(self) -> None:
        agent = self.main.model.agents.get(self.main.selected_id or "")
        if agent is None:
            return
        subtree = self.main.model.subtree(agent.id)  # the agent, then every agent under it
        below = len(subtree) - 1
        what = (
            f"{agent.name} and its {below} subagent{'s' if below != 1 else ''}"
            if below
            else agent.name
        )

        def confirmed(yes: bool | None) -> None:
            # The agent the dialog named, whatever is selected by the time of the answer.
            runtime = self.app.host.runtime
            if yes and runtime is not None:
                self._command("delete", lambda _: runtime.delete(agent.id))

        # Only work that runs is said to stop (a finished agent has none).
        running = any(a.status.is_live for a in subtree)
        told = "its parent is told" if agent.parent_id else ""
        if running:
            after = f" Running work stops now{' and ' + told if told else ''}."
        else:
            after = f" {told[0].upper()}{told[1:]}." if told else ""
        from agentui.tui.app.screens.confirm import ConfirmScreen  # none in the first frame

        dialog = ConfirmScreen(f"Delete {what}?{after}", "Delete", "Keep")
        self.app.open_overlay(dialog, confirmed)

    def modify(self) -> None:
        from agentui.tui.app.screens.modify import KeptDraft, ModifyScreen  # not first-frame

        if self.main.selected_id is None or self.app.host.runtime is None:
            return
        agent_id = self.main.selected_id
        agent = self.main.model.agents.get(agent_id)
        if agent is None:
            return

        def apply(change: ModifyResult) -> None:
            if isinstance(change, KeptDraft):
                self.kept_drafts[agent_id] = change
                self.app.notify("Not applied: m opens your edits again.", timeout=4)
                return
            if self.kept_drafts.pop(agent_id, None) is not None and change is None:
                self.app.notify("Your Modify edits were discarded.", timeout=3)
            if change is None or (change.instructions is None and change.content is None):
                return
            runtime = self.app.host.runtime
            if runtime is not None:
                self._command(
                    "modify",
                    lambda _: runtime.modify(
                        agent_id, instructions=change.instructions, content=change.content
                    ),
                )

        # A modification not yet read by a model call is what the window starts from.
        pending = agent.pending_modification
        instructions = pending.instructions if pending is not None else None
        task = pending.content if pending is not None else None
        window = ModifyScreen(
            agent.name,
            instructions if instructions is not None else agent.conversation.instructions,
            task if task is not None else agent.task,
            self.kept_drafts.get(agent_id),
        )
        self.app.open_overlay(window, apply)

    def waiting(self, fold: RunState) -> list[tuple[str, str]]:
        """Everything that waits for the person, in ctrl+n's order: the questions and
        approvals ("query", id), then the budget stops ("budget", agent id). Computed again
        only when the fold's inbox revision moved: every event that raises or settles a
        question, or sets, stops or ends a budget's stop, counts in it."""
        seen = self._waiting_seen
        if seen is not None and seen[0] is fold and seen[1] == fold.inbox_revision:
            return seen[2]
        waiting = [("query", q) for q in fold.open_queries] + [
            ("budget", agent.id) for agent in fold.budget_stops()
        ]
        self._waiting_seen = (fold, fold.inbox_revision, waiting)
        return waiting

    def next_question(self) -> None:
        if self.app.screen is not self.main:
            return  # an overlay is open: closing it brings the focus to the question
        waiting = self.waiting(self.main.model)
        if not waiting:
            self.app.key_actions.nobody_waiting()
            return
        focused = self.main.focused_query()
        if focused is not None:
            current: tuple[str, str] | None = ("query", focused)
        else:
            current = ("budget", self.main.selected_id or "")
        after = waiting.index(current) + 1 if current in waiting else 0
        kind, key = waiting[after % len(waiting)]
        if kind == "query":
            self.main.focus_question(key)
        else:
            self.main.select(key)
            self.open_budget()
