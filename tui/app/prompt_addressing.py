"""Whose words the prompt takes: a follow-up for the task that runs (the default), a new task,
a steer or a continue for one agent; and what sending them does.

By default the prompt follows the runs: a follow-up for the task just started (until its root
shows), else for the root of the selected agent while it runs, else for the newest root that
runs; a new task once every root has ended. Words being typed stay addressed to the task they
were typed for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.dom import NoScreen

from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.protocol.commands import Command, refusal
from agentui.core.support.errors import AgentEndedError, AgentUIError
from agentui.tui.app.widgets.prompt import CONTINUE_DEFAULT, PromptMode

if TYPE_CHECKING:
    from agentui.core.state import AgentState
    from agentui.tui.app.screens.main import MainScreen


class PromptAddressing:
    def __init__(self, screen: MainScreen, initial_task: str | None) -> None:
        self.screen = screen
        # The root of a task just started, until its node shows ("": not known yet, the
        # runtime or the server has not started it): the prompt's words are for it.
        self.starting_root: str | None = "" if initial_task else None
        self.starting_name = ""  # its name, once the runtime has made it
        self._root_ids: list[str] = []  # every root agent, oldest first
        # The question or approval the cursor was at when a new task was asked for: esc from
        # that new task goes back to it (its half-typed answer waits there).
        self._new_task_from: str | None = None

    def agents_shown(self, added: list[str], roots: list[str]) -> None:
        """Agents have their nodes now (`roots` the root agents among them)."""
        self._root_ids += roots
        if self.starting_root in added:
            self.starting_root = None  # shown: the prompt follows it as any root

    # -- sending -------------------------------------------------------------------------

    def submitted(self, typed: str) -> None:
        """The prompt's words sent (enter): a task, a follow-up, a steer or a continue."""
        screen = self.screen
        app = screen.agent_app
        prompt_view = screen.prompt_view
        text = typed.strip()
        mode = screen.prompt_bar.mode
        if mode.kind == "task":
            taken = bool(text) and app.host.start_task(text)
            prompt_view.settle_sent(taken)  # kept when refused: nothing typed is lost
            if taken:  # the words typed next are for this task
                self._new_task_from = None
                screen.prompt_bar.retarget(self.default_mode())
            return
        if mode.kind == "follow_up":
            prompt_view.settle_sent(bool(text) and self._follow_up(mode, typed))
            self.follow_the_runs()  # it may have kept a target for the words just sent
            return
        prompt_view.settle_sent(taken=False)  # the steer or continue below resets the box
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
        agent = screen.model.agents.get(agent_id)
        if agent is not None and not agent.status.is_live:
            # It ended while the words were typed: offer to continue it with them (a runtime
            # elsewhere would refuse the steer only a round trip later).
            self.offer_continue(agent_id, typed)
            return
        try:
            runtime.steer(agent_id, typed)
        except AgentEndedError:
            self.offer_continue(agent_id, typed)  # it ended while the words were typed
        except AgentUIError as exc:
            app.notify(f"steer {mode.agent_name}: {exc}", severity="warning")
        else:
            self.go_home()
            if agent is not None and agent.status is AgentStatus.PAUSED:
                # The cursor is back in the prompt, where an r would be a word.
                app.waiting_toasts.show_while(
                    f"{agent.name} is paused: it reads your message when it resumes "
                    "(esc to the tree, then r).",
                    lambda: (
                        (now := screen.model.agents.get(agent_id)) is not None
                        and now.status is AgentStatus.PAUSED
                    ),
                )

    def _follow_up(self, mode: PromptMode, text: str) -> bool:
        """Words for the task that runs, as a steer for its root (its next model call reads
        them; a paused one reads them with the call it makes on resume). True when sent."""
        app = self.screen.agent_app
        if mode.agent_id is None:  # its root is not known yet
            return app.host.follow_up_before_start(text)
        agent = self.screen.model.agents.get(mode.agent_id)
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
        self.screen.prompt_view.clear()
        self.offer_continue(agent_id, text)

    def _give_to_a_driven_root(self, agent: AgentState, text: str) -> bool:
        """A scene's root reads no model call: the words answer the question it asks (the
        next round's input); with none open they stay, with what to do instead."""
        app = self.screen.agent_app
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

    def offer_continue(self, agent_id: str, text: str) -> None:
        """A steer for an agent that makes no further model call: keep the words, and offer
        to continue the agent with them instead (when core's table allows a continue: an agent
        agentui runs itself, a scene, takes none)."""
        screen = self.screen
        app = screen.agent_app
        agent = screen.model.agents[agent_id]
        if Command.CONTINUE not in app.commands.allowed_for(agent_id):
            why = refusal(agent.name, screen.model.view(agent), Command.CONTINUE, app.host.mode)
            screen.prompt_bar.set_mode(screen.prompt_bar.mode, text)  # the words stay
            app.notify(str(why or ""), title="Not sent", severity="warning", timeout=8)
            return
        self.screen.prompt_bar.set_mode(PromptMode("continue", agent_id, agent.name), text)
        self.focus_prompt()
        self.screen.agent_app.notify(
            f"{agent.name} has ended and will read no more messages. "
            "Enter continues it with your message; esc keeps it as it is.",
            title="Not steered",
            severity="warning",
            timeout=8,
        )

    # -- choosing the addressee ----------------------------------------------------------

    def address_prompt(self, mode: PromptMode) -> None:
        """The prompt's words go to one agent (a steer, a continue): the cursor goes there."""
        self.screen.prompt_bar.set_mode(mode, "")
        self.focus_prompt()

    def leave_prompt(self) -> None:
        """esc in the prompt: a steer or continue goes back to a new-task prompt (the cursor
        stays; its words wait for the next message to that agent); a new-task prompt gives
        the keys to the tree, where the commands are."""
        screen = self.screen
        from_query, self._new_task_from = self._new_task_from, None
        mode = screen.prompt_bar.mode
        new_task_asked = mode.kind == "task" and not mode.is_default
        if self._back_keeping_the_message():
            if new_task_asked and from_query in screen.model.open_queries:
                screen.focus_question(from_query, switch=False)
                if screen.focused_query() == from_query:
                    return
            self.focus_prompt()
        else:
            screen.agent_app.keeper.chose()  # esc to the tree: its letters are wanted
            screen.keys.show_whether_keys_act()
            screen.tree_view.focus()

    def new_task(self) -> None:
        """A new task, on purpose: while a root runs the prompt says "new task" until the task
        is sent or esc goes back; words already typed for a task stay in the box, and a steer's
        or a continue's wait for the next message to that agent, as after esc. Asked for at a
        question or an approval, esc goes back there."""
        self._new_task_from = self.screen.focused_query()
        self._back_keeping_the_message()
        if self.screen.prompt_bar.mode.kind == "follow_up":
            self.screen.prompt_bar.retarget(PromptMode("task", chosen=True))
        self.focus_prompt()

    def _back_keeping_the_message(self) -> bool:
        """Back to the default prompt, the words of a message to one agent kept for it (and
        said); True when the prompt was asked for something else."""
        screen = self.screen
        mode = screen.prompt_bar.mode
        name = mode.agent_name
        kept = screen.prompt_bar.keep_agent_message()
        went_back = self._back_to_default()
        if went_back and kept:
            # r continues an ended agent; on a paused one it resumes, bringing nothing back.
            key = "r (or s)" if mode.kind == "continue" else "s"
            screen.agent_app.notify(
                f"Your message to {name} is kept: {key} on {name} brings it back."
            )
        return went_back

    def _back_to_default(self) -> bool:
        """The prompt follows the runs again (a follow-up for the task that runs, else a new
        task); True when it was asked for something else (a steer, a continue, a new task)."""
        prompt_bar = self.screen.prompt_bar
        mode = prompt_bar.mode
        if mode.is_default:
            return False
        default = self.default_mode()
        if mode.for_one_agent:
            prompt_bar.set_mode(default, "")  # the words written before come back
        else:
            prompt_bar.retarget(default)  # a new task asked for: its words stay
        return True

    def default_mode(self) -> PromptMode:
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
        fold = self.screen.fold
        if fold is None or self.screen.read_only:
            return None
        agent = fold.agents.get(self.screen.selected_id or "")
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
        prompt_bar = self.screen.prompt_bar
        mode = prompt_bar.mode
        if not mode.is_default:
            return
        default = self.default_mode()
        if default == mode:
            return
        if self.screen.prompt_view.text.strip():
            same_task = mode.kind == default.kind == "follow_up" and (
                mode.agent_id in (None, default.agent_id)
            )
            if not same_task:
                return
        prompt_bar.retarget(default)

    # -- where the cursor goes -----------------------------------------------------------

    def go_home(self) -> None:
        """After a message is sent or a question settled, the cursor goes back to the prompt
        (as in other agent terminals): words typed next stay words."""
        self._back_to_default()
        if self.screen.prompt_bar.display:
            self.focus_prompt()
        else:
            self.screen.tree_view.focus()

    def focus_prompt(self) -> None:
        """The prompt takes the keys now, not after the keys already queued (`focus()` waits
        for them): `n` and the words typed right after it must all be words."""
        prompt_view = self.screen.prompt_view
        try:
            prompt_view.screen.set_focus(prompt_view)
        except NoScreen:
            prompt_view.focus()
