"""Where a key typed on the main screen goes, as the FocusKeeper decides (focus.py): into the
text box that waits for the person's words, to a pane as its command, or nowhere; and what the
screen shows of it (the footer's letters, a pane's border lit or dashed)."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from functools import partial
from typing import TYPE_CHECKING

from textual import events
from textual.widgets import TextArea

from agentui.tui.app.block_checks import is_approval
from agentui.tui.app.focus import KeyRoute, home_box
from agentui.tui.app.widgets.composer import Composer, Draft
from agentui.tui.app.widgets.footer import footer_key_at

if TYPE_CHECKING:
    from textual.dom import DOMNode
    from textual.message_pump import MessagePump
    from textual.widget import Widget

    from agentui.tui.app.screens.main import MainScreen
    from agentui.tui.app.widgets.query_blocks import QueryBlock

APPROVAL_DIGITS = ("1", "2", "3")  # what acts on an approval (its ApprovalBlock's keys)
# The action of a key that works anywhere, as keymap.key_action names it (`app.key('inbox')`),
# or as a text box's own binding shows the same key in its footer (`app.help`).
ANYWHERE_ACTION = re.compile(r"app\.(?:key\('(\w+)'\)|(\w+))")


class KeyRouting:
    def __init__(self, screen: MainScreen) -> None:
        self.screen = screen
        # Letters an approval holding the cursor took, not used (only where there is no prompt
        # to carry them: see _words_typed_at_an_approval).
        self._typed_at_approval = ""
        self._told_letters_are_off = False
        self._told_approval_waits: str | None = None  # the approval the toast was about
        # A question that takes the cursor once it is drawn (after the next refresh). A key
        # typed at the empty prompt before then is its question's: a person who sees the
        # question and types at once must not write into the prompt.
        self.cursor_promised_to: str | None = None
        self._behind = KeysBehind(screen)

    def waiting_box(self) -> Composer | None:
        """A text box on screen that waits for the person's words: an open question's answer
        box or a reason being written in the transcript, else a steer or continue message
        begun in the prompt. Printable keys typed on a pane go there."""
        screen = self.screen
        if screen.agent_app.screen is not screen:
            return None
        selected = screen.selected_id
        found: list[tuple[bool, Composer]] = []
        for block in screen.transcript_view.open_query_blocks():
            box = _box_waiting_in(block)
            if box is not None and box.display:
                found.append((block.entry.agent_id != selected, box))
        if found:
            return min(found, key=lambda pair: pair[0])[1]  # the selected agent's first
        if screen.prompt_bar.display and screen.prompt_bar.mode.for_one_agent:
            return screen.prompt_view  # a steer or continue message begun
        return None

    def mouse_down(self, event: events.MouseDown) -> None:
        """A click, noted before it moves the focus and before the keys typed after it; not
        yet for a key of the footer: its click sends its key (Textual's FooterKey), which
        must act as a command, and bubbles up to the app's on_mouse_down after that key."""
        if not event.is_forwarded and footer_key_at(self.screen.agent_app, event) is None:
            self.clicked()

    def clicked(self) -> None:
        app = self.screen.agent_app
        if app.screen is self.screen and app.keeper.clicked():
            self.show_whether_keys_act()

    def route_key(self, event: events.Key) -> bool:
        """Send the key where it belongs; False when it was used up here (nothing else sees it)."""
        if self._behind.held(event):
            return False  # behind a key still acting: handed on once it has
        relayed = self._behind.arrived(event)
        try:
            return self._route(event)
        finally:
            if relayed:
                # The next once this one has been handled and drawn (an esc that closes the
                # window it opened, before the letters after it find the box again).
                app = self.screen.agent_app
                self._behind.after_handled(app.focused or app.screen)

    def _route(self, event: events.Key) -> bool:
        screen = self.screen
        app = screen.agent_app
        if app.screen is not screen:
            return True  # a dialog's keys are its own
        route = app.keeper.key_arrived(event, app.focused)
        if route in (KeyRoute.AS_IS, KeyRoute.CHOSE) and self._anywhere_key_now(event):
            if route is KeyRoute.CHOSE:
                self.show_whether_keys_act()
            return False
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
            box = home_box(self.waiting_box(), screen.prompt_view, screen.prompt_bar.display)
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
        if event.is_printable and self._keep_the_promise():
            if is_approval(app.focused) and event.key not in APPROVAL_DIGITS:
                self._words_typed_at_an_approval(event)  # a word, not a choice: the prompt's
            return True
        if event.is_printable:
            box = self.box_for_typed_keys()
            if box is not None:
                app.screen.set_focus(box)
            elif is_approval(app.focused) and event.key not in APPROVAL_DIGITS:
                self._words_typed_at_an_approval(event)
        return True

    def _words_typed_at_an_approval(self, event: events.Key) -> None:
        """A letter typed at an approval that has the cursor: the person is writing, not
        deciding. The cursor goes to the prompt with this key and the ones after it, so a
        digit later in the sentence ("use 2 sources") is a word, not a choice; the approval
        waits (ctrl+n, f4 or a click goes back to it). Without a prompt, kept for later."""
        screen = self.screen
        if not screen.prompt_bar.display:
            self._typed_at_approval += event.character or ""
            return
        query_id = screen.focused_query()
        self.to_words()  # at once: the keys already queued land there too
        if query_id == self._told_approval_waits:
            return  # said once per approval (a promised cursor may take it back once more)
        self._told_approval_waits = query_id
        screen.agent_app.notify(
            "An approval waits: your words go into the prompt. ctrl+n (or f4) goes back to it,"
            " where 1, 2 and 3 decide.",
            title="Approval",
            timeout=6,
        )

    def _anywhere_key_now(self, event: events.Key) -> bool:
        """A key that works anywhere (ctrl+n, f4, f1, ctrl+t, ...), wherever the cursor is on
        the main screen (a pane, the prompt, an answer or reason box, an approval), acts after
        the keys typed before it and before those typed behind it, which go to the box or
        window it opens (KeysBehind). Run as a binding, it came after them: on a pane they were
        the tree's commands (c of an answer cancelled main, t opened the theme picker); in a
        text box the enter behind f4 sent the box (an empty answer declined its question)
        before the inbox was up. True when it is taken here."""
        app = self.screen.agent_app
        if event.is_printable:
            return False  # a character: the box's word, or the pane's letter (never this)
        active = app.active_bindings.get(event.key)
        if active is None or active.binding.priority or not active.enabled:
            return False  # Textual ran a priority binding before the key came here
        named = ANYWHERE_ACTION.fullmatch(active.binding.action)
        if named is None:
            return False  # the focused widget's own key (a text box's, a button's)
        action = named.group(1) or named.group(2)
        # The keys typed into a box before this one may still wait in the box's own queue:
        # the action runs behind them there (a pane's letters acted as they came: behind the
        # keys already in the app's queue), and the keys behind it wait for it.
        box = app.focused
        queue = box if isinstance(box, TextArea) else app
        self._behind.act_behind(queue, partial(app.key_actions.run, action))
        event.stop()
        event.prevent_default()
        return True

    def to_words(self) -> None:
        """The cursor where typed keys are words, when the place that had it is gone (a query
        settled, an overlay closed over it): the prompt, as it was left; the tree only where
        there is no prompt (a replay: no letter commands anything there)."""
        screen = self.screen
        if screen.prompt_bar.display:
            screen.addressing.focus_prompt()
        else:
            screen.tree_view.focus()

    def _keep_the_promise(self) -> bool:
        """The question promised the cursor takes it now, before this key lands in the empty
        prompt. True when the key goes to its box."""
        screen, promised = self.screen, self.cursor_promised_to
        if promised is None or screen.agent_app.focused is not screen.prompt_view:
            return False
        if screen.prompt_view.text:
            return False  # words of the person's own: the prompt keeps the cursor
        screen.focus_question(promised, switch=False)
        return screen.agent_app.focused is not screen.prompt_view

    def _say_letters_are_off(self) -> None:
        if not self._told_letters_are_off:
            self._told_letters_are_off = True
            self.screen.agent_app.notify(
                "After a click, letters are not commands: esc turns them on.", timeout=5
            )

    def show_whether_keys_act(self) -> None:
        """The footer offers the letters only while they act; a pane's border is lit only then
        (dashed while a click left it focused for reading)."""
        app = self.screen.agent_app
        self.screen.set_class(app.keeper.reading, "-reading")
        self._told_letters_are_off = False
        app.refresh_bindings()

    def give_back_words_typed_at_an_approval(self) -> None:
        """Once the approval is decided or left, the letters it took are kept as any words
        typed for a box gone are."""
        words, self._typed_at_approval = self._typed_at_approval.strip(), ""
        self.screen.keep_unsent_words(
            Draft(words, {}),
            "An approval had the cursor while you typed (only 1, 2 and 3 act on it)",
        )

    def box_for_typed_keys(self) -> Composer | None:
        """Where a printable key typed now goes instead of being the focused pane's command
        (None: it is the pane's). The footer does not offer the keys that go elsewhere."""
        screen = self.screen
        focused = screen.agent_app.focused
        if focused is not None and focused not in self._panes():
            return None
        box = self.waiting_box()
        if box is not None or focused is not screen.tree_view or not screen.prompt_bar.display:
            return box
        fold = screen.fold
        empty = fold is None or not fold.agents
        return screen.prompt_view if empty else None  # nothing to command yet: words for a task

    def _panes(self) -> tuple[Widget, ...]:
        screen = self.screen
        return (screen.tree_view, screen.transcript_view, screen.monologue_view)


class KeysBehind:
    """Keys typed behind a key that works anywhere: they wait until it has acted, then go on
    one at a time, in order, each once the one before has been handled (f1, esc and words:
    help opens, closes, and the words find the box again). In a text box, the keys typed
    before it may still wait in the box's own queue (a burst: the app hands keys on faster
    than the box takes them), so it acts in that queue, behind them: from a steer,
    `use less`, ctrl+t and `new` leave the steer its words and the new task its own."""

    def __init__(self, screen: MainScreen) -> None:
        self.screen = screen
        # The box whose queue a key acts in, and what it does: the keys after it wait.
        self._acting: tuple[MessagePump, Callable[[], Awaitable[object]]] | None = None
        self._waiting: list[events.Key] = []  # in the order typed
        self._in_flight: events.Key | None = None  # handed on, not yet back through the app

    def act_behind(self, queue: MessagePump, action: Callable[[], Awaitable[object]]) -> None:
        """Run `action` in `queue` (a box's, the app's), behind the keys it has not taken yet;
        hold the keys that come meanwhile. A box already closing takes no more: the app runs
        it."""
        self._acting = (queue, action)
        if not queue.call_later(self._acted, action):
            self.screen.agent_app.call_later(self._acted, action)

    async def _acted(self, action: Callable[[], Awaitable[object]]) -> None:
        if self._acting is None or self._acting[1] is not action:
            return  # run already, by the app (the box stopped before it could)
        try:
            await action()
        finally:
            self._acting = None
            # Once what it opened or moved to is drawn, the keys behind it go there.
            self.screen.agent_app.call_after_refresh(self.relay_next)

    def held(self, event: events.Key) -> bool:
        """True when `event` must wait (a key still acts, or keys typed before it wait)."""
        if event is self._in_flight or event.is_forwarded:
            return False  # handed on by us, or coming back up from the widget it went to
        if self._acting is not None and not self._acting[0].is_running:
            # The box stopped (removed) before its queue reached the key: never wait on it.
            self.screen.agent_app.call_later(self._acted, self._acting[1])
        if not (self._acting or self._waiting or self._in_flight is not None):
            return False
        self._waiting.append(events.Key(event.key, event.character))
        event.stop()
        event.prevent_default()
        return True

    def arrived(self, event: events.Key) -> bool:
        """True when `event` is a waiting key handed on (route it, then hand on the next)."""
        if event is not self._in_flight:
            return False
        self._in_flight = None
        return True

    def after_handled(self, target: DOMNode) -> None:
        """Hand on the next key once the one just handed to `target` has gone through it and
        every node it bubbles up to (the app's bindings last), and the screen is drawn: a
        step through each node's queue, behind the key."""
        self._through(list(target.ancestors_with_self))

    def _through(self, nodes: list[DOMNode]) -> None:
        if not nodes:
            self.screen.agent_app.call_after_refresh(self.relay_next)
        elif not nodes[0].call_later(self._through, nodes[1:]):
            self._through(nodes[1:])  # a node closing takes nothing: on up

    def relay_next(self) -> None:
        """The next waiting key, through the app as typed, unless a key acts again or one
        handed on has not come back through the app yet."""
        if self._acting is not None or self._in_flight is not None or not self._waiting:
            return
        self._in_flight = self._waiting.pop(0)
        self.screen.agent_app.post_message(self._in_flight)


def _box_waiting_in(block: QueryBlock) -> Composer | None:
    """A question's answer box, or an approval's reason box once asked for."""
    from agentui.tui.app.widgets.query_blocks import ApprovalBlock, QuestionBlock  # loaded: a block

    if isinstance(block, QuestionBlock):
        return block.input
    if isinstance(block, ApprovalBlock):
        return block.reason_waiting()
    return None
