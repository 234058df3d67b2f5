"""MainScreen: the panes (agent tree, transcript, monologue), the prompt and the status bar, and
the flush that turns a batch of events into redraws (fold -> Change -> only those widgets).

It owns what the person sees and where the keys go on it: the selected agent (a reactive, so the
footer asks again what applies), the prompt's addressee, the open questions' boxes and the
focus they take. It drives core only through the app's runtime host.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import TextArea, Tree

from agentui.core.support.clock import Clock
from agentui.core.support.errors import AgentUIError
from agentui.core.support.terminal_text import clipped, visible_controls
from agentui.tui.app.block_checks import query_block_around
from agentui.tui.app.decision_progress import DecidingLine, deciding_line
from agentui.tui.app.key_routing import KeyRouting
from agentui.tui.app.overlay_focus import OverlayFocus
from agentui.tui.app.prompt_addressing import PromptAddressing
from agentui.tui.app.transcript_search import TranscriptSearch
from agentui.tui.app.widgets.agent_tree import AgentTree
from agentui.tui.app.widgets.composer import Composer, Draft
from agentui.tui.app.widgets.footer import KeyFooter
from agentui.tui.app.widgets.monologue import MonologueSidebar
from agentui.tui.app.widgets.prompt import PromptBar
from agentui.tui.app.widgets.status_bar import StatusBar
from agentui.tui.app.widgets.transcript import Transcript

# The fold loads after the first frame (see `model`).
if TYPE_CHECKING:
    from agentui.core.protocol.commands import RuntimePort
    from agentui.core.state import AgentState, Change, RunState
    from agentui.core.state import TranscriptItem as Entry
    from agentui.tui.app.app import AgentUIApp
    from agentui.tui.app.step_book import StepBook
    from agentui.tui.app.widgets.query_blocks import AnswerInput, ApprovalBlock, QueryBlock

FLUSH_HZ = 20  # redraws per second at most; events are batched in between
NARROW_COLUMNS = 100  # below this the monologue pane is hidden (at 80 it had 18 columns)
ALL_AGENTS = "*"


# Events that only add streamed words to an answer or a thought: nothing the status bar counts.
STREAMED = frozenset({"text:delta", "thinking:delta"})


class MainScreen(Screen[None]):
    # The agent every agent key acts on; the footer asks again what applies when it changes.
    selected_id: reactive[str | None] = reactive(None, bindings=True, repaint=False)

    def __init__(
        self,
        clock: Clock,
        *,
        state: RunState | None,
        monologue_enabled: bool,
        read_only: bool,
        initial_task: str | None,
    ) -> None:
        super().__init__()
        self.clock = clock
        self._monologue_enabled = monologue_enabled
        self.read_only = read_only  # a replay: nothing is answered or typed here
        self._initial_task = initial_task
        # The one fold, fed each batch; made when first read (see `model`).
        self._model: RunState | None = state
        # A resumed session's state, folded once by the resume plan: drawn whole at the first
        # flush, before anything new happens.
        self._show_whole_state = state is not None
        self._select_when_shown: str | None = None
        self.show_all = False  # transcript: every agent interleaved, or the selected one
        self.monologue_selected_only = False
        self.addressing = PromptAddressing(self, initial_task)  # whose words the prompt takes
        self.keys = KeyRouting(self)  # where typed keys go
        self.overlay_focus = OverlayFocus(self)  # where the keys go back after an overlay
        self.search = TranscriptSearch(self)  # `/`: its bar shows under the panes while open
        self._steps: StepBook | None = None  # made with the fold (see `steps`)
        self.steps_shown = False  # `#`: the transcript marks each step with its number
        # What the transcript's lower border says is being decided (its forms, longest first).
        self._deciding_shown: DecidingLine = ()
        self._resumed_before = False  # see _on_screen_resume

    @property
    def agent_app(self) -> AgentUIApp:
        return cast("AgentUIApp", self.app)

    @property
    def model(self) -> RunState:
        """The one fold of the run's events. Made on first use: its event models cost a
        tenth of a start-up, and the first frame (no agents yet) does not read it."""
        if self._model is None:
            from agentui.core.state import RunState

            self._model = RunState(streamed_text=False)  # its transcript shows that text
        return self._model

    @property
    def steps(self) -> StepBook:
        """Each agent's steps and the blocks they end at (`w`, `#`): made with the fold, which
        the first frame does not load either."""
        if self._steps is None:
            from agentui.tui.app.step_book import StepBook

            self._steps = StepBook()
        return self._steps

    @property
    def fold(self) -> RunState | None:
        """The fold if anything has happened yet (None: the first frame loads no fold)."""
        return self._model

    # -- layout --------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        # Kept as attributes: the timers reach them even while a dialog is the active screen.
        self.tree_view = AgentTree(self._screen_now, id="tree")
        self.transcript_view = Transcript(id="transcript")
        self.transcript_view.read_only = self.read_only  # nothing is answered there
        self.monologue_view = MonologueSidebar(enabled=self._monologue_enabled, id="monologue")
        self.prompt_bar = PromptBar(id="prompt-bar")
        self.prompt_view = self.prompt_bar.box
        self.status_view = StatusBar(id="status")
        with Horizontal(id="panes"):
            yield self.tree_view
            yield self.transcript_view
            yield self.monologue_view
        yield self.prompt_bar
        yield self.status_view
        # The key footer is mounted once the prompt has the focus (see on_mount).

    async def on_mount(self) -> None:
        app = self.agent_app
        self.fit_to(app.size.width)
        self.tree_view.border_title = "agents"
        if self._model is None:  # nothing to show yet: the empty tree says so
            self.tree_view.root.set_label(Text("No agents yet.", style="dim italic"))
            self.tree_view.root.allow_expand = False  # a line of text, not a branch
            self.tree_view.show_root = True
        self.tree_view.on_cursor = self._cursor_moved
        self.tree_view.rewound_to = self._rewound_to
        self.transcript_view.name_of = self.name_of
        # A task given on the command line is named from the first frame: its agent shows
        # once the runtime has started, a moment later.
        starting = self._initial_task and " ".join(visible_controls(self._initial_task).split())
        self.transcript_view.border_title = (
            Text.assemble("transcript · starting · ", starting) if starting else "transcript"
        )
        if starting:
            self.transcript_view.hint_starting()
        self.monologue_view.border_title = "monologue"
        # The app's timers: they run whichever screen is on top.
        app.set_interval(1 / FLUSH_HZ, self.flush_events)
        app.set_interval(1.0, self.tick)
        if self.read_only:
            app.host.start()  # the recording plays
            self.prompt_bar.display = False  # read-only: there is nothing to type
            self.set_focus(self.tree_view)
            await self.mount(KeyFooter())  # the view keys and quit work in a replay too
            return
        if self._show_whole_state:
            # A resumed session's agents are in the first frame, not one timer tick (and a
            # frame) later; that flush draws the status bar.
            self.flush_events()
        if self._show_whole_state or self._model is None:
            self.refresh_status()
        self.addressing.follow_the_runs()  # a task given on the command line: words typed are for it
        # Home: keys typed before anything else are words. Focused now, not at the next
        # idle as `focus()` does, so that the footer composes with the prompt's keys and the
        # first frame shows them.
        self.set_focus(self.prompt_view)
        await self.mount(KeyFooter())
        # The screen first: building the runtime loads most of core, which the first frame
        # does not need. Keys typed meanwhile are words in the prompt; a task sent is kept.
        app.call_after_refresh(app.host.start)

    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        # Runs before Screen's own handler (Textual calls each class's along the MRO). The
        # first resume comes once every widget of the first frame has been styled as it
        # mounted, with the theme set before start: styling them all again (Screen's
        # refresh) changed nothing and cost ~6 ms of the first frame. Later resumes (a dialog
        # closed, the theme may have changed meanwhile) refresh as Textual does.
        if not self._resumed_before:
            self._resumed_before = True
            event.refresh_styles = False

    def on_resize(self, event: events.Resize) -> None:
        self.fit_to(event.size.width)

    def fit_to(self, width: int) -> None:
        # Under NARROW_COLUMNS the transcript needs the room more than the monologue does.
        narrow = width < NARROW_COLUMNS
        if self.monologue_view.display == narrow:
            self.monologue_view.display = not narrow
            self.tree_view.styles.min_width = 16 if narrow else None

    # -- events to widgets ---------------------------------------------------------------

    def flush_events(self) -> None:
        """Apply every pending event to the screen now (the timer calls this ~20 times a second)."""
        if not self.is_attached:  # closing: the screens are gone (a service may still emit)
            return
        app = self.agent_app
        if not app.screen_stack:
            return
        # A resumed session's state is drawn at the first flush, even before the runtime runs.
        events = app.host.events
        batch = events.drain() if events is not None else []
        # Read before the fold closes a query that holds the keys (answered on another screen,
        # its agent cancelled) and the transcript drops its box: whether they were words.
        answering = self.focused_query() if batch else None
        # Its box goes once the fold closes the query; the box keeps its words till then.
        box = app.focused if answering and isinstance(app.focused, Composer) else None
        whole = self._show_whole_state
        if whole:
            self._show_whole_state = False
            if batch:
                folded, stepped = self.steps.fold(self.model, batch)
            else:  # a resumed session's first frame: no event, no step (nor the steps' modules)
                folded, stepped = self.model.apply_all(()), set()
            changes = self.model.as_change().merge(folded)
        elif batch:
            changes, stepped = self.steps.fold(self.model, batch)
        else:
            return
        tree = self.tree_view
        app.collector.after_batch(len(changes.added), len(batch))
        app.heap.folded(len(batch))
        roots_changed = False
        if changes.added:
            tree.show_root = False  # its hint goes with the first agent
            tree.add_agents(self.model.agents[i] for i in changes.added)
            new_roots = [i for i in changes.added if self.model.agents[i].parent_id is None]
            self.addressing.agents_shown(changes.added, new_roots)
            roots_changed = bool(new_roots)
            if self._select_when_shown in changes.added:
                self.select(self._select_when_shown)
                self._select_when_shown = None
            elif self.selected_id is None:
                self.select(self._shown_first(changes.added, resumed=whole))
        tree.relabel(self.model.agents[i] for i in changes.relabel)
        roots_changed = roots_changed or any(
            self.model.agents[i].parent_id is None for i in changes.relabel
        )
        self.transcript_view.sync(changes.changed_entries)
        if stepped and self.steps_shown:
            self.transcript_view.mark_steps(stepped)  # only blocks whose marker changed redraw
        self.monologue_view.add(changes.narratives)
        if answering is not None and answering in changes.closed_queries:
            self._leave_settled_query(box.draft() if box is not None else None)
            self.keys.give_back_words_typed_at_an_approval()
        if changes.closed_queries or changes.relabel:  # a toast may say what is over now
            app.waiting_toasts.withdraw_untrue()
        if changes.new_queries and not self.read_only:  # a replay asks nobody anything
            self._questions_arrived(changes)
        if whole and not self.read_only:
            self._cursor_to_a_resumed_query()
        if changes.budget_stops and not self.read_only:
            self._budgets_stopped(changes.budget_stops)
        if self.selected_id in changes.relabel:
            app.refresh_bindings()
            if not self.show_all:
                self._title_transcript()
        app.quit_dialog.recount()
        if changes.scenes:
            from agentui.tui.app.screens.scene_state import SceneStateScreen  # loaded by now

            if isinstance(app.screen, SceneStateScreen):
                app.screen.redraw()
        if roots_changed:
            self.addressing.follow_the_runs()  # a task started or ended: the prompt says whose words
        if whole or changes.added or changes.relabel or any(e.type not in STREAMED for e in batch):
            # The bar's counts walk every agent (costly with thousands): a batch of streamed
            # text changes none of them (the fold stops at a delta), and the clock has its tick.
            self.refresh_status()
        self._say_what_is_decided()

    def _questions_arrived(self, changes: Change) -> None:
        app = self.agent_app
        app.nudges.arrived(changes.new_queries)  # the bell, or a notification ([attention])
        takes_cursor = app.screen is self and not self._person_is_busy()
        if app.screen is not self:
            self.overlay_focus.question_arrived(changes.new_queries[0])
        elif takes_cursor:
            self.keys.cursor_promised_to = changes.new_queries[0]
            app.call_after_refresh(self._give_the_promised_cursor, changes.new_queries[0])
        shown = self.transcript_view.source in (ALL_AGENTS, self.selected_id)
        first = self.model.open_queries.get(changes.new_queries[0])
        first_agent = first.agent_id if first is not None else None
        if takes_cursor and shown and first_agent in (self.selected_id, None):
            return  # the cursor is in its box already: a toast would only cover the screen
        raised = [q for q in changes.new_queries if q in self.model.open_queries]
        if len(raised) > 1:
            # One toast for a burst: a dozen agents asking at once must not bury the screen.
            app.waiting_toasts.show(
                f"{len(raised)} agents are waiting for you (ctrl+n goes from one to the next)",
                "Waiting for you",
                raised,
            )
        elif raised:
            (query_id,) = raised
            agent = self.model.agents[self.model.open_queries[query_id].agent_id]
            entry = self.model.entry_for_query(query_id)
            if entry is not None and entry.title == "approval":
                message = f"{agent.name} wants to run {entry.tool} (ctrl+n)"
                app.waiting_toasts.show(message, "Approval needed", raised)
            else:
                message = f"{agent.name} asks you something (ctrl+n)"
                app.waiting_toasts.show(message, "Waiting for you", raised)

    def _shown_first(self, added: list[str], *, resumed: bool) -> str:
        """The agent selected at the first agents: in a resumed session where agents wait on
        the person, the one whose question or approval came last (what the person was most
        likely answering when the session ended), else the first agent."""
        if resumed and self.model.open_queries:
            newest = next(reversed(self.model.open_queries.values()))
            if newest.agent_id in self.model.agents:
                return newest.agent_id
        return added[0]

    def _cursor_to_a_resumed_query(self) -> None:
        """A resumed session whose agent waits on the person: its box takes the cursor once
        drawn, as a fresh run's does when the question comes (words typed meanwhile are its
        answer, not a follow-up for main); the selected agent's first."""
        open_queries = self.model.open_queries
        if not open_queries or self.agent_app.screen is not self or self._person_is_busy():
            return
        selected = self.selected_agent()
        mine = selected.open_queries if selected is not None else []
        query_id = next(iter(mine), None) or next(iter(open_queries))
        self.keys.cursor_promised_to = query_id
        self.agent_app.call_after_refresh(self._give_the_promised_cursor, query_id)

    def _budgets_stopped(self, agent_ids: list[str]) -> None:
        """A budget stop waits for the person as a question does: called back, and told which
        keys reach it (the transcript's stop says what can be done, not where)."""
        app = self.agent_app
        app.nudges.budget_stopped(agent_ids)
        stopped = [self.model.agents[a] for a in agent_ids if a in self.model.agents]
        if stopped:
            who = stopped[0].name if len(stopped) == 1 else f"{len(stopped)} agents"
            app.notify(
                f"{who} stopped at a budget: ctrl+n goes there; enter or r opens the budget",
                title="Budget reached",
                timeout=8,
            )

    def _person_is_busy(self) -> bool:
        """Writing in a text box (it holds words), or deciding an approval: the cursor stays
        where it is. An empty prompt is not writing: a question takes the cursor from it."""
        focused = self.agent_app.focused
        if isinstance(focused, TextArea) and focused.text.strip():
            return True
        return self.focused_query() is not None

    def _screen_now(self) -> float:
        """The time the tree's elapsed times read: now, or in a replay the recording's moment
        (the host's clock; the wall clock showed minutes for an agent that ran seconds)."""
        model = self._model
        return self.agent_app.host.now(model) if model is not None else self.clock.now()

    def tick(self) -> None:
        """A second passed: only elapsed times move. The tree repaints its visible rows of
        live agents and the status bar its clock; nothing here grows with the agents. (A
        replay's elapsed time is the recording's span: its events redraw it.)"""
        app = self.agent_app
        self.tree_view.tick()
        if app.host.runtime is not None:
            self.status_view.tick(self.clock.now())
            self._say_what_is_decided()
        app.heap.every_second()

    def refresh_status(self) -> None:
        self.agent_app.host.show_status(self.status_view, self._model)

    # -- selection and views -------------------------------------------------------------

    def name_of(self, agent_id: str) -> str:
        agent = self.model.agents.get(agent_id)
        return visible_controls(agent.name if agent is not None else agent_id)

    def _label_for(self, entry: Entry) -> str | None:
        return self.name_of(entry.agent_id)

    def show_transcript(self) -> None:
        transcript = self.transcript_view
        if self.show_all:
            transcript.show(ALL_AGENTS, self.model.timeline, self._label_for)
        elif self.selected_id is not None:
            agent = self.model.agents[self.selected_id]
            transcript.show(agent.id, agent.entries)
        self._title_transcript()
        self._say_what_is_decided()

    def _say_what_is_decided(self) -> None:
        """While a workflow decision streams unseen, the pane's lower border says what is being
        decided and for how long (so many seconds of nothing on screen do not look stuck). Read
        from the fold's agents deciding now: nothing here grows with the agents."""
        fold = self._model
        if fold is None:
            return
        now = self.agent_app.host.now(fold)
        if self.show_all:
            line = deciding_line(fold, None, now, self.name_of)
        elif self.selected_id is not None:
            line = deciding_line(fold, self.selected_id, now, self.name_of)
        else:
            line = ()
        if line != self._deciding_shown:
            self._deciding_shown = line
            self.transcript_view.show_deciding(line)  # shown as Text, never markup

    def _title_transcript(self) -> None:
        """The pane's title names what it shows: every agent, or one agent and its task (a
        modified task shows at once)."""
        if self.show_all:
            self.transcript_view.border_title = "transcript · all agents"
        elif self.selected_id is not None:
            agent = self.model.agents[self.selected_id]
            self.transcript_view.border_title = Text.assemble(
                "transcript · ", agent.name, " · ", " ".join(visible_controls(agent.task).split())
            )

    def show_monologue(self) -> None:
        self.monologue_view.show(
            self.model.narratives, self.selected_id if self.monologue_selected_only else None
        )

    def select(self, agent_id: str, *, move_cursor: bool = True) -> None:
        if agent_id == self.selected_id:
            return
        self.selected_id = agent_id  # the footer asks again what applies
        if move_cursor:
            self.tree_view.select_agent(agent_id)
        if not self.show_all:
            self.show_transcript()
        if self.monologue_selected_only:
            self.show_monologue()
        self.addressing.follow_the_runs()  # words typed now are for the selected agent's task
        self.agent_app.refresh_bindings()

    def select_when_shown(self, agent_id: str) -> None:
        """Select a root agent the person started, now or once its node is shown (an attached
        screen learns the id after the server's events may already have drawn it)."""
        if agent_id in self.model.agents:
            self.select(agent_id)
        elif agent_id:
            self._select_when_shown = agent_id
        addressing = self.addressing
        if agent_id and addressing.starting_root == "":  # the server said which: follow it
            # Until it shows; shown already (its events came first): followed as any root.
            addressing.starting_root = None if agent_id in self.model.agents else agent_id
            addressing.follow_the_runs()

    def _cursor_moved(self, agent_id: str) -> None:
        # The cursor is where the person put it: follow it, never move it back. Called as it
        # moves (not on NodeHighlighted, a message later): the transcript switches in the
        # frame that shows the cursor on its agent.
        if agent_id in self.model.agents:
            self.select(agent_id, move_cursor=False)

    @on(Tree.NodeSelected, "#tree")
    def _agent_chosen(self, event: Tree.NodeSelected[str]) -> None:
        agent = self.model.agents.get(event.node.data or "")
        if agent is not None and agent.open_queries:
            self.focus_question(agent.open_queries[0])

    def selected_agent(self) -> AgentState | None:
        fold = self._model  # None before anything happened: the first frame loads no fold
        return fold.agents.get(self.selected_id or "") if fold is not None else None

    def action_toggle_all(self) -> None:
        self.show_all = not self.show_all
        self.show_transcript()

    def action_toggle_steps(self) -> None:
        """`#`: mark each step in the transcript with its number (`w` picks one), or not."""
        self.steps_shown = not self.steps_shown
        self.transcript_view.step_mark = self._step_mark if self.steps_shown else None
        self.transcript_view.mark_steps()

    def _rewound_to(self, agent_id: str) -> int | None:
        return self._steps.rewound_to(agent_id) if self._steps is not None else None

    def _step_mark(self, entry: Entry) -> str | None:
        return self.steps.mark(entry.agent_id, entry.uid)

    def action_toggle_monologue_filter(self) -> None:
        self.monologue_selected_only = not self.monologue_selected_only
        self.show_monologue()
        if not self.monologue_view.display:  # a narrow terminal: the key would seem to do nothing
            whose = "the selected agent's" if self.monologue_selected_only else "every agent's"
            self.agent_app.notify(
                f"The monologue is hidden under {NARROW_COLUMNS} columns; wider, it shows "
                f"{whose} lines.",
                timeout=4,
            )

    # -- questions -----------------------------------------------------------------------

    def _give_the_promised_cursor(self, query_id: str) -> None:
        if self.keys.cursor_promised_to == query_id:
            self.keys.cursor_promised_to = None
        self.focus_question(query_id, switch=False)

    def focus_question(self, query_id: str, switch: bool = True) -> None:
        query = self.model.open_queries.get(query_id)
        if query is None:
            return
        agent_id = query.agent_id
        if switch:
            self.select(agent_id)
        transcript = self.transcript_view
        if transcript.source not in (agent_id, ALL_AGENTS):
            return
        block = transcript.block_for_query(query_id)
        target = block.focus_target() if block is not None else None
        if block is not None and target is not None:
            self.agent_app.screen.set_focus(target)  # at once: keys already queued land here
            # After the layout that gives the block its height: its top (the question, the
            # code) at the top of the pane, so what is asked is what is seen.
            self.agent_app.call_after_refresh(transcript.show_block, block)

    def _leave_settled_query(self, words: Draft | None) -> None:
        """A query settled while it held the focus (answered elsewhere, its agent cancelled).
        Words being typed go on into the prompt, where they stay words, and so do the words
        already in the box (they are not lost with it); keys deciding an approval go to the
        prompt too: on the tree a sentence typed next would be commands."""
        if words is None:
            self.keys.to_words()
            return
        self.addressing.go_home()
        self.keep_unsent_words(
            words,
            "The question was settled elsewhere (answered on another screen, or its agent ended)",
        )

    def keep_unsent_words(self, words: Draft, why: str) -> None:
        """Words typed for a box that no longer takes them: into the prompt when it is empty
        (not sent), else quoted in a toast; never lost, never mixed into the prompt's own."""
        if not words.text.strip():
            return
        if self.prompt_bar.display and not self.prompt_view.text.strip():
            self.prompt_view.put_draft(words)
            # With the cursor: the person was typing, and the next letters are words too (on
            # the tree they would be commands).
            self.prompt_view.focus()
            kept = "what you were typing is in the prompt"
        else:
            kept = f"you were typing: {clipped(words.text, 200)}"
        self.agent_app.notify(f"{why}; {kept}", title="Not sent", timeout=15)

    def focused_query(self) -> str | None:
        """The open query whose block holds the focus, if any."""
        block = self._focused_block()
        return block.query_id if block is not None and block.entry.open else None

    def _focused_block(self) -> QueryBlock | None:
        """The question or approval block the focus is in (on it, or in its input)."""
        return query_block_around(self.agent_app.focused)

    # The blocks' messages are handled by name (on_<block>_<message>), not with @on, which
    # would need the blocks' module at import: it loads with the transcript's first block.
    def on_answer_input_left(self, _event: AnswerInput.Left) -> None:
        self._left_a_question()

    def on_approval_block_left(self, _event: ApprovalBlock.Left) -> None:
        self._left_a_question()

    def _left_a_question(self) -> None:
        # The question or approval stays open; the cursor goes where letters are words (the
        # prompt): the query may have taken it by itself, so the tree was never chosen.
        self.keys.to_words()
        self.keys.give_back_words_typed_at_an_approval()

    def on_answer_input_answered(self, event: AnswerInput.Answered) -> None:
        self._settle_query(lambda runtime: runtime.answer(event.query_id, event.text))

    def on_approval_block_decided(self, event: ApprovalBlock.Decided) -> None:
        self._settle_query(
            lambda runtime: runtime.approve(event.query_id, event.choice, event.reason or None)
        )
        self.keys.give_back_words_typed_at_an_approval()

    def _settle_query(self, settle: Callable[[RuntimePort], None]) -> None:
        app = self.agent_app
        if app.host.runtime is None:  # a replay (queries come from a runtime)
            app.notify("This is a replay: nothing can be answered here.", severity="warning")
            return
        try:
            settle(app.host.runtime)
        except AgentUIError as exc:
            app.notify(str(exc), severity="warning")
        self.addressing.go_home()  # the toast about it goes once the query closes (see flush_events)
        self.transcript_view.follow()  # answered: what the agent does next is what to watch

    # -- the prompt ----------------------------------------------------------------------

    @on(Composer.Submitted, "#prompt")
    def _prompt_submitted(self, event: Composer.Submitted) -> None:
        event.stop()
        self.addressing.submitted(event.text)

    @on(TextArea.Changed, "#prompt")
    def _prompt_edited(self) -> None:
        # Emptied (sent, or erased): the prompt follows the runs again (see follow_the_runs).
        if not self.prompt_view.text.strip():
            self.addressing.follow_the_runs()

    def action_leave_prompt(self) -> None:
        self.addressing.leave_prompt()  # esc in the prompt

    def action_new_task(self) -> None:
        self.addressing.new_task()

    # Named as agent_commands.py calls them.
    def has_unsent_words(self) -> bool:
        return self.prompt_bar.display and bool(self.prompt_view.text.strip())
