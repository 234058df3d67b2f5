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
from textual.dom import NoScreen
from textual.reactive import reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import TextArea, Tree

from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.support.clock import Clock
from agentui.core.support.errors import AgentEndedError, AgentUIError
from agentui.core.support.terminal_text import clipped, visible_controls
from agentui.tui.app.decision_progress import DecidingLine, deciding_line
from agentui.tui.app.focus import KeyRoute, home_box
from agentui.tui.app.screens.scene_state import SceneStateScreen
from agentui.tui.app.widgets.agent_tree import AgentTree
from agentui.tui.app.widgets.blocks import AnswerInput, ApprovalBlock, QueryBlock, QuestionBlock
from agentui.tui.app.widgets.composer import Composer, Draft
from agentui.tui.app.widgets.footer import KeyFooter
from agentui.tui.app.widgets.monologue import MonologueSidebar
from agentui.tui.app.widgets.prompt import CONTINUE_DEFAULT, PromptBar, PromptMode
from agentui.tui.app.widgets.status_bar import StatusBar
from agentui.tui.app.widgets.transcript import Transcript

# The fold loads after the first frame (see `model`).
if TYPE_CHECKING:
    from agentui.core.runtime import Runtime
    from agentui.core.state import AgentState, Change, RunState
    from agentui.core.state import TranscriptItem as Entry
    from agentui.tui.app.app import AgentUIApp

FLUSH_HZ = 20  # redraws per second at most; events are batched in between
NARROW_COLUMNS = 100  # below this the monologue pane is hidden (at 80 it had 18 columns)
ALL_AGENTS = "*"
APPROVAL_DIGITS = ("1", "2", "3")  # what acts on an approval (its ApprovalBlock's keys)


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
        self._read_only = read_only  # a replay: nothing is answered or typed here
        self._initial_task = initial_task
        # The one fold, fed each batch; made when first read (see `model`).
        self._model: RunState | None = state
        # A resumed session's state, folded once by the resume plan: drawn whole at the first
        # flush, before anything new happens.
        self._show_whole_state = state is not None
        self._select_when_shown: str | None = None
        self.show_all = False  # transcript: every agent interleaved, or the selected one
        self.monologue_selected_only = False
        # The root of a task just started, until its node shows ("": not known yet, the
        # runtime or the server has not started it): the prompt's words are for it.
        self.starting_root: str | None = "" if initial_task else None
        self.starting_name = ""  # its name, once the runtime has made it
        self._root_ids: list[str] = []  # every root agent, oldest first
        self._typed_at_approval = ""  # letters an approval holding the cursor took, not used
        self._told_letters_are_off = False
        # Where the keys were when an overlay opened (and the query it was in, if any).
        self._focus_before: tuple[Widget | None, str | None] = (None, None)
        self._arrived_under_overlay: str | None = None  # a question that came while one was open
        # What the transcript's lower border says is being decided (its forms, longest first).
        self._deciding_shown: DecidingLine = ()

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
    def fold(self) -> RunState | None:
        """The fold if anything has happened yet (None: the first frame loads no fold)."""
        return self._model

    # -- layout --------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        # Kept as attributes: the timers reach them even while a dialog is the active screen.
        self.tree_view = AgentTree(self.clock.now, id="tree")
        self.transcript_view = Transcript(id="transcript")
        self.transcript_view.read_only = self._read_only  # nothing is answered there
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
        self.transcript_view.name_of = self.name_of
        # A task given on the command line is named from the first frame: its agent shows
        # once the runtime has started, a moment later.
        starting = self._initial_task and " ".join(visible_controls(self._initial_task).split())
        self.transcript_view.border_title = (
            Text.assemble("transcript · starting · ", starting) if starting else "transcript"
        )
        self.monologue_view.border_title = "monologue"
        # The app's timers: they run whichever screen is on top.
        app.set_interval(1 / FLUSH_HZ, self.flush_events)
        app.set_interval(1.0, self.tick)
        if self._read_only:
            app.host.start()  # the recording plays
            self.prompt_bar.display = False  # read-only: there is nothing to type
            self.set_focus(self.tree_view)
            await self.mount(KeyFooter())  # the view keys and quit work in a replay too
            return
        self.refresh_status()
        self.follow_the_runs()  # a task given on the command line: words typed are for it
        # Home: keys typed before anything else are words. Focused now, not at the next
        # idle as `focus()` does, so that the footer composes with the prompt's keys and the
        # first frame shows them.
        self.set_focus(self.prompt_view)
        await self.mount(KeyFooter())
        # The screen first: building the runtime loads most of core, which the first frame
        # does not need. Keys typed meanwhile are words in the prompt; a task sent is kept.
        app.call_after_refresh(app.host.start)

    def on_resize(self, event: events.Resize) -> None:
        self.fit_to(event.size.width)

    def fit_to(self, width: int) -> None:
        # Under 80 columns the transcript needs the room more than the monologue does.
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
        if self._show_whole_state:
            self._show_whole_state = False
            changes = self.model.as_change().merge(self.model.apply_all(batch))
        elif batch:
            changes = self.model.apply_all(batch)
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
            self._root_ids += new_roots
            roots_changed = bool(new_roots)
            if self.starting_root in changes.added:
                self.starting_root = None  # shown: the prompt follows it as any root
            if self._select_when_shown in changes.added:
                self.select(self._select_when_shown)
                self._select_when_shown = None
            elif self.selected_id is None:
                self.select(changes.added[0])
        tree.relabel(self.model.agents[i] for i in changes.relabel)
        roots_changed = roots_changed or any(
            self.model.agents[i].parent_id is None for i in changes.relabel
        )
        self.transcript_view.sync(changes.changed_entries)
        self.monologue_view.add(changes.narratives)
        if answering is not None and answering in changes.closed_queries:
            self._leave_settled_query(box.draft() if box is not None else None)
            self._give_back_words_typed_at_an_approval()
        if changes.closed_queries:
            app.withdraw_settled_toasts()
        if changes.new_queries and not self._read_only:  # a replay asks nobody anything
            self._questions_arrived(changes)
        if self.selected_id in changes.relabel:
            app.refresh_bindings()
            if not self.show_all:
                self._title_transcript()
        app.recount_quit_question()
        if changes.scenes and isinstance(app.screen, SceneStateScreen):
            app.screen.redraw()
        if roots_changed:
            self.follow_the_runs()  # a task started or ended: the prompt says whose words
        self.refresh_status()
        self._say_what_is_decided()

    def _questions_arrived(self, changes: Change) -> None:
        app = self.agent_app
        app.bell()
        takes_cursor = app.screen is self and not self._person_is_busy()
        if app.screen is not self:
            self._arrived_under_overlay = self._arrived_under_overlay or changes.new_queries[0]
        elif takes_cursor:
            app.call_after_refresh(self.focus_question, changes.new_queries[0], False)
        shown = self.transcript_view.source in (ALL_AGENTS, self.selected_id)
        first = self.model.open_queries.get(changes.new_queries[0])
        first_agent = first.agent_id if first is not None else None
        if takes_cursor and shown and first_agent in (self.selected_id, None):
            return  # the cursor is in its box already: a toast would only cover the screen
        raised = [q for q in changes.new_queries if q in self.model.open_queries]
        if len(raised) > 1:
            # One toast for a burst: a dozen agents asking at once must not bury the screen.
            app.toast_waiting(
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
                app.toast_waiting(message, "Approval needed", raised)
            else:
                message = f"{agent.name} asks you something (ctrl+n)"
                app.toast_waiting(message, "Waiting for you", raised)

    def _person_is_busy(self) -> bool:
        """Writing in a text box (it holds words), or deciding an approval: the cursor stays
        where it is. An empty prompt is not writing: a question takes the cursor from it."""
        focused = self.agent_app.focused
        if isinstance(focused, TextArea) and focused.text.strip():
            return True
        return self.focused_query() is not None

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
        self.follow_the_runs()  # words typed now are for the selected agent's task
        self.agent_app.refresh_bindings()

    def select_when_shown(self, agent_id: str) -> None:
        """Select a root agent the person started, now or once its node is shown (an attached
        screen learns the id after the server's events may already have drawn it)."""
        if agent_id in self.model.agents:
            self.select(agent_id)
        elif agent_id:
            self._select_when_shown = agent_id
        if agent_id and self.starting_root == "":  # the server said which: follow it
            # Until it shows; shown already (its events came first): followed as any root.
            self.starting_root = None if agent_id in self.model.agents else agent_id
            self.follow_the_runs()

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

    def action_toggle_monologue_filter(self) -> None:
        self.monologue_selected_only = not self.monologue_selected_only
        self.show_monologue()

    # -- where typed keys go -------------------------------------------------------------

    def waiting_box(self) -> Composer | None:
        """A text box on screen that waits for the person's words: an open question's answer
        box or a reason being written in the transcript, else a steer or continue message
        begun in the prompt. Printable keys typed on a pane go there."""
        if self.agent_app.screen is not self:
            return None
        selected = self.selected_id
        found: list[tuple[bool, Composer]] = []
        for block in self.transcript_view.open_query_blocks():
            box: Composer | None = None
            if isinstance(block, QuestionBlock):
                box = block.input
            elif isinstance(block, ApprovalBlock):
                box = block.reason_waiting()
            if box is not None and box.display:
                found.append((block.entry.agent_id != selected, box))
        if found:
            return min(found, key=lambda pair: pair[0])[1]  # the selected agent's first
        if self.prompt_bar.display and self.prompt_bar.mode.for_one_agent:
            return self.prompt_view  # a steer or continue message begun
        return None

    def clicked(self) -> None:
        if self.agent_app.screen is self and self.agent_app.keeper.clicked():
            self.show_whether_keys_act()

    def route_key(self, event: events.Key) -> bool:
        """Send the key where it belongs; False when it was used up here (nothing else sees it)."""
        app = self.agent_app
        if app.screen is not self:
            return True  # a dialog's keys are its own
        route = app.keeper.key_arrived(event, app.focused)
        if route is KeyRoute.ARMED:
            event.stop()
            event.prevent_default()
            self.show_whether_keys_act()
            app.notify("Keys act here again: letters are commands on the panes.", timeout=3)
            return False
        if route is KeyRoute.CHOSE:
            self.show_whether_keys_act()
            return True
        if route is KeyRoute.TO_BOX:
            box = home_box(self.waiting_box(), self.prompt_view, self.prompt_bar.display)
            if box is not None:
                app.screen.set_focus(box)
            if box is None or app.focused is not box:
                # Nowhere to type (a replay), or the box took no focus: the letter is no
                # command either.
                event.stop()
                event.prevent_default()
                self._say_letters_are_off()
                return False
            return True
        if event.is_printable:
            box = self.box_for_typed_keys()
            if box is not None:
                app.screen.set_focus(box)
            elif isinstance(app.focused, ApprovalBlock) and event.key not in APPROVAL_DIGITS:
                # Words typed as an approval took the cursor decide nothing: kept for later.
                self._typed_at_approval += event.character or ""
        return True

    def _say_letters_are_off(self) -> None:
        if not self._told_letters_are_off:
            self._told_letters_are_off = True
            self.agent_app.notify(
                "After a click, letters are not commands: esc turns them on.", timeout=5
            )

    def show_whether_keys_act(self) -> None:
        """The footer offers the letters only while they act; a pane's border is lit only then
        (dashed while a click left it focused for reading)."""
        self.set_class(self.agent_app.keeper.reading, "-reading")
        self._told_letters_are_off = False
        self.agent_app.refresh_bindings()

    def _give_back_words_typed_at_an_approval(self) -> None:
        """Once the approval is decided or left, the letters it took are kept as any words
        typed for a box gone are."""
        words, self._typed_at_approval = self._typed_at_approval.strip(), ""
        self.keep_unsent_words(
            Draft(words, {}),
            "An approval had the cursor while you typed (only 1, 2 and 3 act on it)",
        )

    def box_for_typed_keys(self) -> Composer | None:
        """Where a printable key typed now goes instead of being the focused pane's command
        (None: it is the pane's). The footer does not offer the keys that go elsewhere."""
        focused = self.agent_app.focused
        if focused is not None and focused not in self._panes():
            return None
        box = self.waiting_box()
        if box is not None or focused is not self.tree_view or not self.prompt_bar.display:
            return box
        fold = self._model
        empty = fold is None or not fold.agents
        return self.prompt_view if empty else None  # nothing to command yet: words for a task

    def _panes(self) -> tuple[Widget, ...]:
        return (self.tree_view, self.transcript_view, self.monologue_view)

    # -- questions -----------------------------------------------------------------------

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
        tree, the app's keys."""
        if words is None:
            self.tree_view.focus()
            return
        self.go_home()
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
        focused = self.agent_app.focused
        if focused is None:
            return None
        return next((n for n in focused.ancestors_with_self if isinstance(n, QueryBlock)), None)

    @on(AnswerInput.Left)
    @on(ApprovalBlock.Left)
    def _left_a_question(self) -> None:
        self.tree_view.focus()  # where the agents are; the question or approval stays open
        self._give_back_words_typed_at_an_approval()

    @on(AnswerInput.Answered)
    def _answered(self, event: AnswerInput.Answered) -> None:
        self._settle_query(lambda runtime: runtime.answer(event.query_id, event.text))

    @on(ApprovalBlock.Decided)
    def _decided(self, event: ApprovalBlock.Decided) -> None:
        self._settle_query(
            lambda runtime: runtime.approve(event.query_id, event.choice, event.reason or None)
        )
        self._give_back_words_typed_at_an_approval()

    def _settle_query(self, settle: Callable[[Runtime], None]) -> None:
        app = self.agent_app
        if app.host.runtime is None:  # a replay (queries come from a runtime)
            app.notify("This is a replay: nothing can be answered here.", severity="warning")
            return
        try:
            settle(app.host.runtime)
        except AgentUIError as exc:
            app.notify(str(exc), severity="warning")
        self.go_home()  # the toast about it goes once the query closes (see flush_events)
        self.transcript_view.follow()  # answered: what the agent does next is what to watch

    # -- the prompt ----------------------------------------------------------------------

    @on(Composer.Submitted, "#prompt")
    def _prompt_submitted(self, event: Composer.Submitted) -> None:
        event.stop()
        app = self.agent_app
        text = event.text.strip()
        mode = self.prompt_bar.mode
        if mode.kind == "task":
            taken = bool(text) and app.host.start_task(text)
            self.prompt_view.settle_sent(taken)  # kept when refused: nothing typed is lost
            if taken:  # the words typed next are for this task
                self.prompt_bar.retarget(self.default_prompt_mode())
            return
        if mode.kind == "follow_up":
            self.prompt_view.settle_sent(bool(text) and self._follow_up(mode, event.text))
            self.follow_the_runs()  # it may have kept a target for the words just sent
            return
        self.prompt_view.settle_sent(taken=False)  # the steer or continue below resets the box
        runtime = app.host.runtime
        if runtime is None or mode.agent_id is None:
            return
        agent_id = mode.agent_id
        if mode.kind == "continue":
            message = text or CONTINUE_DEFAULT
            if app.run_command(f"continue {mode.agent_name}", runtime.send, agent_id, message):
                self.go_home()
            return
        if not text:
            app.notify("Type a message first (esc leaves the prompt).", severity="warning")
            return
        agent = self.model.agents.get(agent_id)
        if agent is not None and not agent.status.is_live:
            # It ended while the words were typed: offer to continue it with them (a runtime
            # elsewhere would refuse the steer only a round trip later).
            self.offer_continue(agent_id, event.text)
            return
        try:
            runtime.steer(agent_id, event.text)
        except AgentEndedError:
            self.offer_continue(agent_id, event.text)  # it ended while the words were typed
        except AgentUIError as exc:
            app.notify(f"steer {mode.agent_name}: {exc}", severity="warning")
        else:
            self.go_home()
            if agent is not None and agent.status is AgentStatus.PAUSED:
                # The cursor is back in the prompt, where an r would be a word.
                app.notify(
                    f"{agent.name} is paused: it reads your message when it resumes "
                    "(esc to the tree, then r)."
                )

    def _follow_up(self, mode: PromptMode, text: str) -> bool:
        """Words for the task that runs, as a steer for its root (its next model call reads
        them; a paused one reads them with the call it makes on resume). True when sent."""
        app = self.agent_app
        if mode.agent_id is None:  # its root is not known yet
            return app.host.follow_up_before_start(text)
        agent = self.model.agents.get(mode.agent_id)
        if agent is not None and not agent.status.is_live:
            # It ended while the words were typed: offer to continue it with them (a runtime
            # elsewhere would refuse the steer only a round trip later).
            self._move_words_to_a_continue(agent.id, text)
            return False
        if agent is not None and agent.driver is not None:
            return self._give_to_a_driven_root(agent, text)
        if app.host.runtime is None:
            return False
        try:
            app.host.runtime.steer(mode.agent_id, text)
        except AgentEndedError:  # it ended since the screen last heard
            self._move_words_to_a_continue(mode.agent_id, text)
            return False
        except AgentUIError as exc:
            app.notify(f"{mode.agent_name}: {exc}", severity="warning")
            return False
        return True

    def _move_words_to_a_continue(self, agent_id: str, text: str) -> None:
        """The words move to the offer to continue the agent, not kept twice (the offer would
        keep the box's words as a draft of their own)."""
        self.prompt_view.clear()
        self.offer_continue(agent_id, text)

    def _give_to_a_driven_root(self, agent: AgentState, text: str) -> bool:
        """A scene's root reads no model call: the words answer the question it asks (the
        next round's input); with none open they stay, with what to do instead."""
        app = self.agent_app
        if agent.open_queries and app.host.runtime is not None:
            try:
                app.host.runtime.answer(agent.open_queries[0], text)
            except AgentUIError as exc:
                app.notify(f"{agent.name}: {exc}", severity="warning")
                return False
            return True
        app.notify(
            f"{agent.name} is a {agent.driver} that agentui runs: your words will answer its "
            "next question; steer the agents under it with s on the tree, or ctrl+t for a new "
            "task. Your words stay in the prompt.",
            severity="warning",
            timeout=8,
        )
        return False

    @on(TextArea.Changed, "#prompt")
    def _prompt_edited(self) -> None:
        # Emptied (sent, or erased): the prompt follows the runs again (see follow_the_runs).
        if not self.prompt_view.text.strip():
            self.follow_the_runs()

    def offer_continue(self, agent_id: str, text: str) -> None:
        """A steer for an agent that makes no further model call: keep the words, and offer
        to continue the agent with them instead."""
        agent = self.model.agents[agent_id]
        self.prompt_bar.set_mode(PromptMode("continue", agent_id, agent.name), text)
        self.focus_prompt()
        self.agent_app.notify(
            f"{agent.name} has ended and will read no more messages. "
            "Enter continues it with your message; esc keeps it as it is.",
            title="Not steered",
            severity="warning",
            timeout=8,
        )

    def address_prompt(self, mode: PromptMode) -> None:
        """The prompt's words go to one agent (a steer, a continue): the cursor goes there."""
        self.prompt_bar.set_mode(mode, "")
        self.focus_prompt()

    def action_leave_prompt(self) -> None:
        """esc in the prompt: a steer or continue goes back to a new-task prompt (the cursor
        stays; its words wait for the next message to that agent); a new-task prompt gives
        the keys to the tree, where the commands are."""
        name = self.prompt_bar.mode.agent_name
        kept = self.prompt_bar.keep_agent_message()
        if self._back_to_default():
            if kept:
                self.agent_app.notify(
                    f"Your message to {name} is kept: s (or r) on {name} brings it back."
                )
            self.focus_prompt()
        else:
            self.agent_app.keeper.chose()  # esc to the tree: its letters are wanted
            self.show_whether_keys_act()
            self.tree_view.focus()

    def action_new_task(self) -> None:
        """A new task, on purpose: while a root runs the prompt says "new task" until the task
        is sent or esc goes back; words already typed stay in the box."""
        self._back_to_default()
        if self.prompt_bar.mode.kind == "follow_up":
            self.prompt_bar.retarget(PromptMode("task", chosen=True))
        self.focus_prompt()

    def _back_to_default(self) -> bool:
        """The prompt follows the runs again (a follow-up for the task that runs, else a new
        task); True when it was asked for something else (a steer, a continue, a new task)."""
        mode = self.prompt_bar.mode
        if mode.is_default:
            return False
        default = self.default_prompt_mode()
        if mode.for_one_agent:
            self.prompt_bar.set_mode(default, "")  # the words written before come back
        else:
            self.prompt_bar.retarget(default)  # a new task asked for: its words stay
        return True

    def default_prompt_mode(self) -> PromptMode:
        """A follow-up for the task just started (until its root shows), else for the root of
        the selected agent while it runs, else for the newest root that runs; a new task once
        every root has ended."""
        starting = self.starting_root
        if starting is not None:
            return PromptMode("follow_up", starting or None, self.starting_name)
        root = self._root_that_runs()
        if root is None:
            return PromptMode()
        return PromptMode("follow_up", root.id, root.name, driven=root.driver is not None)

    def _root_that_runs(self) -> AgentState | None:
        fold = self._model
        if fold is None or self._read_only:
            return None
        agent = fold.agents.get(self.selected_id or "")
        while agent is not None and agent.parent_id is not None:
            agent = fold.agents.get(agent.parent_id)
        if agent is not None and agent.status.is_live:
            return agent
        for root_id in reversed(self._root_ids):
            root = fold.agents.get(root_id)
            if root is not None and root.status.is_live:
                return root
        return None

    def follow_the_runs(self) -> None:
        """Point a prompt that follows the runs at the root that runs now. A steer, a continue
        or a new task asked for stay as they were asked; and words being typed stay addressed
        to the task they were typed for (a root that ended meanwhile: enter offers to continue
        it), only learning its name or id once it has started."""
        mode = self.prompt_bar.mode
        if not mode.is_default:
            return
        default = self.default_prompt_mode()
        if default == mode:
            return
        if self.prompt_view.text.strip():
            same_task = mode.kind == default.kind == "follow_up" and (
                mode.agent_id in (None, default.agent_id)
            )
            if not same_task:
                return
        self.prompt_bar.retarget(default)

    def go_home(self) -> None:
        """After a message is sent or a question settled, the cursor goes back to the prompt
        (as in other agent terminals): words typed next stay words."""
        self._back_to_default()
        if self.prompt_bar.display:
            self.focus_prompt()
        else:
            self.tree_view.focus()

    def focus_prompt(self) -> None:
        """The prompt takes the keys now, not after the keys already queued (`focus()` waits
        for them): `n` and the words typed right after it must all be words."""
        try:
            self.prompt_view.screen.set_focus(self.prompt_view)
        except NoScreen:
            self.prompt_view.focus()

    def has_unsent_words(self) -> bool:
        return self.prompt_bar.display and bool(self.prompt_view.text.strip())

    # -- focus around overlays -----------------------------------------------------------

    def remember_focus(self) -> None:
        """An overlay opens: where the keys were (and the question they were in)."""
        self._focus_before = (self.agent_app.focused, self.focused_query())

    def restore_focus(self) -> None:
        """Back where the keys were before the overlay, if that place still takes them; else
        the question it was in (its block may have been rebuilt), the selected agent's
        waiting question, or the tree."""
        app = self.agent_app
        if len(app.screen_stack) != 1:
            return
        before, query_id = self._focus_before
        self._focus_before = (None, None)
        arrived, self._arrived_under_overlay = self._arrived_under_overlay, None
        writing = isinstance(before, TextArea) and _takes_keys(before)
        if arrived in self.model.open_queries and not writing and query_id is None:
            # It came while the dialog was open: it takes the cursor now, as it would have.
            self.focus_question(arrived, switch=False)
            if self.focused_query() == arrived:
                return
        if before is not None and _takes_keys(before):
            app.screen.set_focus(before)
            return
        if query_id is not None and query_id in self.model.open_queries:
            self.focus_question(query_id, switch=False)
            if self.focused_query() == query_id:
                return
        if app.focused is not None and _takes_keys(app.focused) and before is None:
            return
        waiting = self.model.agents.get(self.selected_id or "")
        if waiting is not None and waiting.open_queries:
            self.focus_question(waiting.open_queries[0], switch=False)
            if self.focused_query() is not None:
                return
        self.tree_view.focus()


def _takes_keys(widget: Widget) -> bool:
    """Still on screen, shown, and not part of a question that was settled meanwhile."""
    if not widget.is_attached or not widget.display or not widget.focusable:
        return False
    block = next((n for n in widget.ancestors_with_self if isinstance(n, QueryBlock)), None)
    return block is None or block.entry.open
