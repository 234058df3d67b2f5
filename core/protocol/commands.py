"""The person's commands, the one table of when each applies, and the port front ends drive.

`allowed(agent, mode)` is THE table: the runtime refuses what it leaves out, the HTTP API and
the ACP agent decide by it, and a screen offers what it holds. It reads only what the runtime's
node and every front end's fold both know (status, driver, open questions), so the screen and
the runtime compute the same answer. `refusal` says in words why a command is not in the table.

`RuntimePort` is every command and `subscribe`, as front ends call them: a local `Runtime` and
an attached `RemoteRuntime` both satisfy it, structurally (tests/core/test_runtime_port.py).

    view = AgentView.of(node, asks=kinds_of_its_open_queries)
    if Command.STEER in allowed(view, Mode.LOCAL): ...
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Literal, Protocol, Self

from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.support.errors import AgentEndedError, CommandRefusedError

if TYPE_CHECKING:
    from agentui.core.protocol.events import Event

__all__ = [
    "ApprovalDecision",
    "AttachedPort",
    "Command",
    "EventStream",
    "Mode",
    "RuntimePort",
    "allowed",
    "refusal",
]


class Command(StrEnum):
    """Every command a person gives (the runtime's method in brackets where it differs)."""

    START = "start"  # a new root task
    CONTINUE = "continue"  # an ended agent's conversation, with a new message (`send`)
    PAUSE = "pause"
    RESUME = "resume"
    CANCEL = "cancel"
    INTERRUPT = "interrupt"  # a cancel that says it was an interruption (`cancel(id, reason)`)
    DELETE = "delete"
    MODIFY = "modify"
    STEER = "steer"
    ANSWER = "answer"
    APPROVE = "approve"
    BUDGET = "budget"  # set or raise the budget of the agent's subtree (`set_budget`)
    # One more step past the budget that stopped the subtree (`continue_past_budget`).
    PAST_BUDGET = "past_budget"
    # Back to one of its steps (core/agent/steps.py), later ones set aside (`rewind`).
    REWIND = "rewind"
    # A new root from a copy of its conversation at one of its steps (`fork_from`).
    FORK = "fork"


class Mode(StrEnum):
    """Where the agents run, as the front end sees them."""

    LOCAL = "local"  # in this process
    # On a server (`agentui attach`): the same table, applied again by the server (a screen
    # that lost its connection refuses at once: that is the connection's state, not the table).
    ATTACHED = "attached"
    REPLAY = "replay"  # a recording: nothing changes the run


# Commands a model reads (words, new instructions, a new message): an agent that agentui's
# own code runs (a scene, a round) takes none of them; the agents under it can.
MODEL_COMMANDS = frozenset({Command.CONTINUE, Command.MODIFY, Command.STEER})
# An agent that ended on its own or was stopped, and may go on with a new message.
ENDED = frozenset({AgentStatus.COMPLETED, AgentStatus.ERROR, AgentStatus.CANCELLED})

ApprovalDecision = Literal["once", "always", "reject"]  # core/agent/approval's ApprovalChoice


class AgentFacts(Protocol):
    """What both the runtime's `AgentNode` and a fold's `AgentState` hold."""

    @property
    def status(self) -> AgentStatus: ...
    @property
    def driver(self) -> str | None: ...


@dataclass(frozen=True, slots=True)
class AgentView:
    """The facts about one agent that decide which commands apply to it."""

    status: AgentStatus
    driver: str | None = None  # what runs it when not a model ("scene", "round")
    # The kinds of its queries still open ("question", "approval", ...): the runtime's query
    # book and a fold's `open_queries` both know them.
    asks: frozenset[str] = frozenset()
    # A budget stopped its subtree (budget:stop: its own, or an ancestor's whose subtree it is
    # in) and was not raised or let go on since.
    budget_stopped: bool = False
    # The name of the ancestor whose budget it is, when not the agent's own: that agent's
    # budget is the one to raise or continue past.
    budget_owner: str | None = None

    @classmethod
    def of(
        cls,
        agent: AgentFacts,
        *,
        asks: Iterable[str] = (),
        budget_stopped: bool = False,
        budget_owner: str | None = None,
    ) -> AgentView:
        stopped = budget_stopped or budget_owner is not None
        return cls(agent.status, agent.driver, frozenset(asks), stopped, budget_owner)


def allowed(agent: AgentView | None, mode: Mode) -> frozenset[Command]:
    """The commands a person may give now: about `agent`, or with None, those that need no
    agent (a new task)."""
    if mode is Mode.REPLAY:
        return frozenset()
    if agent is None:
        return frozenset({Command.START})
    status = agent.status
    commands = {Command.START}
    if status.is_live:
        # Pausing a paused agent or resuming a running one is accepted and changes nothing
        # (with `subtree`, it reaches the agents under it).
        commands |= {Command.PAUSE, Command.RESUME, Command.CANCEL, Command.INTERRUPT}
        commands |= {Command.MODIFY, Command.STEER}
    if status in ENDED:
        commands.add(Command.CONTINUE)
    if status is not AgentStatus.DELETED:
        commands.add(Command.DELETE)
        # A budget holds for a continued run too, so an ended agent's can be set.
        commands.add(Command.BUDGET)
    if status is not AgentStatus.DELETED and agent.driver is None:
        # Live, paused or ended: a rewind stops a run first; agentui's own code has no steps.
        # A fork leaves the agent as it is and copies its conversation up to the step.
        commands |= {Command.REWIND, Command.FORK}
    if agent.budget_stopped and status.is_live:
        # A plain resume would stop at the budget again at the next step: what goes on is a
        # raised budget (BUDGET), one step past it (PAST_BUDGET), or a cancel; both of them
        # are the budget's owner's (an agent under it is paused by its stop).
        if agent.budget_owner is None:
            commands.add(Command.PAST_BUDGET)
        commands.discard(Command.RESUME)
    if agent.asks:
        commands.add(Command.ANSWER)  # an approval too takes words ("yes", "reject: why")
    if "approval" in agent.asks:
        commands.add(Command.APPROVE)
    if agent.driver is not None:
        commands -= MODEL_COMMANDS
    return frozenset(commands)


_PAST = {Command.CONTINUE: "continued", Command.MODIFY: "modified", Command.STEER: "steered"}


def refusal(
    name: str, agent: AgentView, command: Command, mode: Mode
) -> CommandRefusedError | None:
    """Why `command` does not apply to the agent called `name`, as the person reads it; None
    exactly when `allowed` holds it. A steer of an agent that ended is an AgentEndedError: a
    front end offers to continue it with the words instead."""
    if command in allowed(agent, mode):
        return None
    status = agent.status
    if mode is Mode.REPLAY:
        return CommandRefusedError("this is a replay: nothing in it can be changed")
    if agent.driver is not None and command in MODEL_COMMANDS:
        return CommandRefusedError(
            f"{name} is a {agent.driver} that agentui runs, not a model, so it cannot be "
            f"{_PAST[command]}; the agents under it can"
        )
    if command is Command.CONTINUE:
        return CommandRefusedError(f"{name} is {status}; only an ended agent can be continued")
    if command is Command.STEER:
        return AgentEndedError(
            f"{name} is {status} and will make no further model call; "
            "continue it with the message instead"
        )
    if command is Command.DELETE:
        return CommandRefusedError(f"{name} is already deleted")
    if command in (Command.ANSWER, Command.APPROVE):
        return CommandRefusedError(f"{name} asks the person nothing now")
    owner = agent.budget_owner
    if command is Command.PAST_BUDGET and owner is not None and status.is_live:
        return CommandRefusedError(
            f"{name} is paused by the budget of {owner}, not its own: raise {owner}'s budget "
            f"or continue {owner} once past it"
        )
    if command is Command.PAST_BUDGET:
        return CommandRefusedError(f"{name} is not stopped by its budget")
    if command is Command.RESUME and owner is not None:
        return CommandRefusedError(
            f"{name} is paused by the budget of {owner}: a resume would stop at it again; "
            f"raise {owner}'s budget, continue {owner} once past it, or cancel"
        )
    if command is Command.RESUME and agent.budget_stopped:
        return CommandRefusedError(
            f"{name} is stopped by its budget: a resume would stop at it again; raise the "
            "budget, continue once past it, or cancel"
        )
    if command is Command.BUDGET:
        return CommandRefusedError(f"{name} is deleted: its budget cannot change")
    if command is Command.REWIND and agent.driver is not None:
        return CommandRefusedError(
            f"{name} is a {agent.driver} that agentui runs, not a model: it has no steps to "
            "go back to; the agents under it can be rewound"
        )
    if command is Command.FORK and agent.driver is not None:
        return CommandRefusedError(
            f"{name} is a {agent.driver} that agentui runs: it has no steps to fork from; "
            "the agents under it can be forked from"
        )
    return CommandRefusedError(f"cannot {command} {name}: it is {status}")


# -- the port ------------------------------------------------------------------------------


class EventStream(Protocol):
    """One subscriber's events (core/bus.Subscription): drained by a screen's timer, or
    awaited a batch at a time."""

    def drain(self) -> list[Event]:
        """Take the events that arrived since the last drain, without waiting.

        Returns:
            Those events in order; an empty list when none came.
        """

    async def next_batch(self) -> list[Event]:
        """Wait until at least one event has arrived, then take every one that has.

        Returns:
            The events in order; an empty list once the stream is closed and read to its
            end.
        """

    def close(self) -> None:
        """Stop receiving: nothing more is put on this stream; what it holds can still be
        read."""


class ProviderLabel(Protocol):
    """What a front end says of the provider new tasks run on."""

    @property
    def name(self) -> str:
        """The provider's name, as `--provider` takes it ("anthropic", "scripted")."""

    @property
    def model(self) -> str:
        """The model new root tasks run on ("" while a recording's is not read yet)."""


class ProfileProblems(Protocol):
    """The profile files that were left out, each with why (said once at start)."""

    @property
    def problems(self) -> Sequence[str]:
        """One sentence per file left out: which file, and why."""


class RuntimePort(Protocol):
    """What every front end drives: the commands, and `subscribe` for what happens.

    A command refused by `allowed` raises CommandRefusedError with `refusal`'s words (an
    attached runtime's come later, from the server, through `AttachedPort.listen(warned=...)`,
    as does an unknown id). `start` returns the new root's id, or "" where the id comes later
    (attached: its `listen(started=...)`). A command's effect is reported as events on every
    subscriber's stream, never as a return value."""

    @property
    def provider(self) -> ProviderLabel:
        """The provider new root tasks run on, as the status bar names it."""

    @property
    def profiles(self) -> ProfileProblems:
        """The agent profiles known by name, with the files that were left out."""

    async def __aenter__(self) -> Self:
        """Start running (local) or connecting (attached): commands are taken from now on.

        Returns:
            The port itself, ready for commands.
        """

    async def __aexit__(self, *exc_info: Any) -> bool | None:
        """Stop: a local runtime cancels every agent and waits for them, an attached one sends
        the commands still queued and closes its connection.

        Args:
            *exc_info: The exception leaving the `async with` block, if any.

        Returns:
            Whether the exception leaving the `async with` block is suppressed.
        """

    def subscribe(self, maxsize: int | None = 4096) -> EventStream:
        """A new stream of every event from now on.

        Args:
            maxsize: How many events may wait undrained before the stream is full (events.py
                says what a full stream does); None for no bound.

        Returns:
            The subscriber's stream; `close` it when done.
        """

    def start(self, task: str, *, profile: str | None = None) -> str:
        """Start a new root agent on `task`.

        Args:
            task: The person's words: the root's task and its first message.
            profile: An agent profile's name in the runtime's catalog; None runs the
                runtime's own instructions and workflow.

        Returns:
            The new root's id, or "" where the id comes later (attached).

        Raises:
            UnknownProfileError: No profile has that name.
            AgentUIError: The runtime takes no commands now (not running; attached: not
                connected, a CommandRefusedError).
        """

    def send(self, agent_id: str, text: str) -> None:
        """Continue an ended agent's conversation with a new message (Command.CONTINUE).

        Args:
            agent_id: The agent to continue.
            text: The person's message; the agent runs again on it.

        Raises:
            UnknownAgentError: No agent has that id.
            CommandRefusedError: The agent has not ended, or agentui's own code runs it.
        """

    def pause(self, agent_id: str, *, subtree: bool = False) -> None:
        """Hold the agent at its next pause gate; it emits nothing until resumed.

        Args:
            agent_id: The agent to pause.
            subtree: Pause its live descendants too.

        Raises:
            UnknownAgentError: No agent has that id.
            CommandRefusedError: The agent is not live.
        """

    def resume(self, agent_id: str, *, subtree: bool = False) -> None:
        """Let a paused agent go on.

        Args:
            agent_id: The agent to resume.
            subtree: Resume its live descendants too.

        Raises:
            UnknownAgentError: No agent has that id.
            CommandRefusedError: The agent is not live, or a budget stopped it (raise the
                budget or continue past it instead).
        """

    def cancel(self, agent_id: str, reason: str = ...) -> None:
        """Stop the agent and its live descendants; its siblings go on.

        Args:
            agent_id: The agent to cancel.
            reason: Why, as its events and its parent read it (Command.INTERRUPT passes
                its own); the default says the person cancelled it.

        Raises:
            UnknownAgentError: No agent has that id.
            CommandRefusedError: The agent is not live.
        """

    def delete(self, agent_id: str) -> None:
        """Stop the agent and its subtree, mark them deleted, and tell its parent.

        Args:
            agent_id: The agent to delete.

        Raises:
            UnknownAgentError: No agent has that id.
            CommandRefusedError: The agent is already deleted.
        """

    def modify(
        self, agent_id: str, *, instructions: str | None = None, content: str | None = None
    ) -> None:
        """Replace the agent's instructions, its task's content, or both, from its next model
        call on.

        Args:
            agent_id: The agent to modify.
            instructions: Its new instructions; None keeps them.
            content: Its task's new content; None keeps it. New content withdraws the
                questions the agent waits on.

        Raises:
            UnknownAgentError: No agent has that id.
            CommandRefusedError: Neither is given, the agent is not live, or agentui's own
                code runs it.
        """

    def steer(self, agent_id: str, text: str) -> None:
        """Put the person's message into the agent's next model call, without stopping it.

        Args:
            agent_id: The agent to steer.
            text: The message; it may not be empty.

        Raises:
            UnknownAgentError: No agent has that id.
            AgentEndedError: The agent has ended: continue it with the words (`send`).
            CommandRefusedError: The text is empty, or agentui's own code runs the agent.
        """

    def answer(self, query_id: str, text: str | None) -> None:
        """Answer an open question or approval, or decline it.

        Args:
            query_id: The open query (`query:raised`'s `query_id`).
            text: The answer; None declines it. An approval takes "once", "always",
                "reject" and their plain forms ("yes", "no", "reject: why").

        Raises:
            UnknownQueryError: No open query has that id.
        """

    def approve(self, query_id: str, decision: ApprovalDecision, reason: str | None = None) -> None:
        """Decide an open approval.

        Args:
            query_id: The open approval (`query:raised`'s `query_id`).
            decision: "once" allows this call, "always" the tool for the runtime's life,
                "reject" refuses the call.
            reason: Why a rejection, as the model reads it.

        Raises:
            UnknownQueryError: No open query has that id.
            CommandRefusedError: The query is not an approval, or the decision is unknown.
        """

    def set_budget(self, agent_id: str, limits: Mapping[str, float]) -> None:
        """Give the agent's subtree a budget, or raise or remove the one it has.

        Args:
            agent_id: The agent whose subtree the budget holds.
            limits: Measure -> limit, as core/agent/budget.Budget names them
                (`{"tokens": 50000, "usd": 2}`); `{}` removes the budget.

        Raises:
            UnknownAgentError: No agent has that id.
            CommandRefusedError: A limit is not valid, or the agent is deleted.
        """

    def continue_past_budget(self, agent_id: str) -> None:
        """Let the subtree the agent's budget stopped take one more step; it stops again at
        the next.

        Args:
            agent_id: The agent whose own budget stopped its subtree.

        Raises:
            UnknownAgentError: No agent has that id.
            CommandRefusedError: The agent is not live, or its own budget did not stop it
                (an ancestor's may have: continue that one).
        """

    def rewind(self, agent_id: str, step: int) -> None:
        """Take the agent back to one of its steps (core/agent/steps.py), later ones set aside;
        it then waits for the person, paused.

        Args:
            agent_id: The agent to rewind.
            step: The number of the step to go back to.

        Raises:
            UnknownAgentError: No agent has that id.
            CommandRefusedError: No such step, a step an earlier rewind set aside, an agent
                being rewound already, or one agentui's own code runs.
        """

    def fork_from(self, agent_id: str, step: int, *, instructions: str | None = None) -> str:
        """Start a new root from a copy of the agent's conversation at one of its steps,
        beside it.

        Args:
            agent_id: The agent to fork from.
            step: The number of the step whose conversation is copied.
            instructions: The new root's instructions; None keeps the agent's.

        Returns:
            The new root's id, or "" where the id comes later (attached, as for `start`).

        Raises:
            UnknownAgentError: No agent has that id.
            CommandRefusedError: No such step, or agentui's own code runs the agent.
        """


class AttachedPort(RuntimePort, Protocol):
    """A runtime on another machine (`agentui attach`): its connection, and the answers an
    HTTP round trip gives later than a key press."""

    @property
    def connected(self) -> bool:
        """The event stream is open: commands are sent (else refused at once)."""

    @property
    def connection_text(self) -> str:
        """The connection's state in words, for the status bar ("connecting to HOST")."""

    def listen(
        self,
        *,
        warned: Callable[[str], None] = ...,
        started: Callable[[str], None] = ...,
        connection: Callable[[], None] = ...,
        not_started: Callable[[str], None] = ...,
    ) -> None:
        """Say whom to tell what the server answers later (each replaces the one before).

        Args:
            warned: Told each command the server refused and each event lost, in words.
            started: Told the id of each root agent a `start` made.
            connection: Called when `connected` changes (read `connection_text` then).
            not_started: Told the task of a `start` the server did not make, so its words
                are not lost (`warned` says why).
        """
