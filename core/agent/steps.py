"""An agent's steps: the points of its conversation a person can rewind it to or fork it from.

A step is one `conversation:changed` event of the agent that the agent's work added to:

- `task`   step 0: the conversation it started with (its task; a fork's copied conversation);
- `model`  a model call's answer (its text, the tool calls it asks for);
- `tool`   the results of the tool calls of one answer (all of them: a result alone would leave
           the model a call without its answer);
- `answer` those results when one of the calls asked the person (`ask_user`): their answer;
- `steer`  the person's words reaching the model: a steer, a follow-up message, the note that
           comes with a modify (and a note agentui queued, such as a deleted subagent's).

Changes that are not steps leave no number: new instructions alone, a modify's new task text
(its note is the step), text cut short by a cancel, and the change a rewind makes. Steps are
numbered in the order they happened, 0 first, over the agent's whole log: a rewind never
renumbers; the steps it set aside keep theirs, and new steps go on from the highest number.
The conversation at a step is the agent's conversation right after that event.

On the command line a step is `AGENT@STEP`: AGENT is an agent's id (a3) or name (main, main.1,
main~1), STEP the step's number as `agentui steps SESSION AGENT` lists them (`main@4`).

The runtime keeps one StepLog per agent, fed the events it publishes; a saved session's are
folded from its log (`steps_in`), the same class fed the same events, so both agree.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Literal, Protocol, runtime_checkable

from agentui.core.agent.workflow_trail import ENDED, TakeUp, WorkflowTrail
from agentui.core.protocol import events as ev
from agentui.core.protocol.conversation import Message, TextBlock
from agentui.core.support.errors import CommandRefusedError

StepKind = Literal["task", "model", "tool", "answer", "steer"]
ASK_USER_TOOL = "ask_user"  # the tool whose result is the person's answer (core/tools/ask_user)
WAIT_TOOL = "wait"  # the tool that hands a subagent's result to its parent (core/tools/fork)
SUMMARY_CHARS = 70
_WORD = re.compile(r"\S+")  # what str.split() splits on is what \s matches


@dataclass(frozen=True, slots=True)
class Step:
    number: int
    kind: StepKind
    seq: int  # of the conversation:changed event that made it
    change: int  # its index among the agent's conversation changes
    messages: int  # the conversation's length at this step
    summary: str  # one line: the answer's text, the tools called, the person's words
    set_aside: bool = False  # a later rewind went back before it (it stays in the log)


@dataclass(frozen=True, slots=True)
class StepRef:
    """`AGENT@STEP` as typed: an agent's id or name, and a step number."""

    agent: str
    step: int

    @classmethod
    def parse(cls, text: str) -> StepRef:
        agent, at, number = text.strip().rpartition("@")
        if not at or not agent or not number.isdigit():
            raise ValueError(
                f"a step is AGENT@STEP, an agent's name or id and a step's number, "
                f"e.g. main@3 (got {text!r})"
            )
        return cls(agent, int(number))

    def __str__(self) -> str:
        return f"{self.agent}@{self.step}"


@dataclass(frozen=True, slots=True)
class ForkOrigin:
    """The step a fork starts from: an agent (its id and name) and a step number, in this run
    or in a saved session (`session`)."""

    agent_id: str
    name: str
    step: int
    session: str | None = None


@runtime_checkable
class KeepsResults(Protocol):
    """A driver that keeps a subagent's result as its own once it has recorded it (a scene's
    round keeps a character's line): a rewind of that subagent is refused then, in words (the
    subagent would run on outside it); a fork from its step is not."""

    def rewind_refused(self, agent_id: str) -> str | None:
        """Why the subagent cannot be rewound now; None when it can."""
        ...


def rewound_reason(parent_name: str, step: int) -> str:
    """Why a subagent ended, or was set aside, when its parent went back to a step before it
    started: the word "rewound" leads, as the tree and the status reason show it."""
    return f"rewound: {parent_name} went back to step {step}, before this subagent started"


@dataclass(slots=True)
class StepLog:
    """One agent's conversation changes, its steps among them, and the subagents it started
    (with how many changes came before each), in the order they happened."""

    agent_name: str = ""
    steps: list[Step] = field(default_factory=list)
    _changes: list[ev.ConversationChanged] = field(default_factory=list)
    _messages: list[Message] = field(default_factory=list)  # the conversation now
    _children: list[tuple[str, int]] = field(default_factory=list)  # (id, changes before it)
    _set_aside: set[str] = field(default_factory=set)  # subagents a rewind set aside
    # Subagents whose results were handed to the agent (join), with how many changes came
    # before: the runtime that ran them knows each; a saved session's log says it of the
    # `wait` tool's (not of a wait in python code, nor of the six-step workflow's own).
    _handed: list[tuple[str, int]] = field(default_factory=list)
    _waits: dict[str, str] = field(default_factory=dict)  # a saved wait call's id: its handle
    _restoring: bool = False  # the next change is a rewind's: no step
    # Where its six-step workflow was (empty for an agent that runs the plain loop).
    workflow: WorkflowTrail = field(default_factory=WorkflowTrail)

    # -- folding -------------------------------------------------------------------------

    def apply(self, event: ev.Event) -> None:
        """Fold one of the agent's events (others are passed over)."""
        if isinstance(event, ev.ConversationChanged):
            self._changed(event)
        elif isinstance(event, ev.AgentRewound):
            self._rewound(event)
        elif isinstance(event, ev.ToolStarted) and event.call.name == WAIT_TOOL:
            self._waits[event.call.id] = str(event.call.arguments.get("handle", "")).strip()
        elif isinstance(event, ev.ToolCompleted | ev.ToolFailed) and event.call_id in self._waits:
            self.child_handed(self._waits.pop(event.call_id))  # the wait tool handed it
        elif isinstance(event, ev.WorkflowStepStarted):
            self.workflow.phase_begun(event.step, len(self._changes))
        elif isinstance(event, ev.WorkflowCompleted):
            self.workflow.phase_begun(ENDED, len(self._changes))
        elif isinstance(event, ev.QueryRaised):
            self.workflow.raised(event.query_id, event.kind, event.prompt)
        elif isinstance(event, ev.QueryAnswered):
            self.workflow.settled(event.query_id, event.answer, len(self._changes))
        elif isinstance(event, ev.QueryDeclined) and event.reason == ev.AGENT_STOPPED_REASON:
            # Its run ended while it waited (a cancel, a quit): never its workflow's to record,
            # as the live runtime never records it; a resume gives the question back.
            self.workflow.withdrawn(event.query_id)
        elif isinstance(event, ev.QueryDeclined):
            self.workflow.settled(event.query_id, None, len(self._changes))

    def child_started(self, child_id: str) -> None:
        self._children.append((child_id, len(self._changes)))
        self.workflow.child_started(child_id, len(self._changes))

    def changes(self) -> int:
        """How many conversation changes it has had (the workflow's trail places by it)."""
        return len(self._changes)

    def child_handed(self, child_id: str) -> None:
        """A subagent's result was handed to the agent (its conversation has it next)."""
        self._handed.append((child_id, len(self._changes)))

    def _changed(self, event: ev.ConversationChanged) -> None:
        before = self._messages
        if not self._restoring and not event.append and event.keep < len(before):
            # Taken back (a resume undoing what a quit's cancel closed): the steps of the
            # dropped messages are set aside, as a rewind's are.
            self.steps = [
                s if s.messages <= event.keep or s.set_aside else _aside(s) for s in self.steps
            ]
        kind = None if self._restoring else _kind(before, event.keep, event.append)
        self._restoring = False
        if not self._changes:
            kind = "task"
        if kind is not None:
            number = self.steps[-1].number + 1 if self.steps else 0
            messages = event.keep + len(event.append)
            summary = _summary(kind, before, event.append)
            self.steps.append(Step(number, kind, event.seq, len(self._changes), messages, summary))
        self._changes.append(event)
        del before[event.keep :]  # in place: a copy per change made a long log quadratic
        before.extend(event.append)

    def _rewound(self, event: ev.AgentRewound) -> None:
        target = self.step(event.step)
        self.steps = [
            step if step.change <= target.change or step.set_aside else _aside(step)
            for step in self.steps
        ]
        self._set_aside.update(event.set_aside)
        self.workflow.rewound(target.change)
        self._restoring = True

    # -- reading -------------------------------------------------------------------------

    def step(self, number: int) -> Step:
        """The step of that number; refused in words when there is none."""
        for step in self.steps:
            if step.number == number:
                return step
        last = self.steps[-1].number if self.steps else None
        have = f"its steps are 0 to {last}" if last is not None else "it has no step yet"
        raise CommandRefusedError(f"{self.agent_name or 'the agent'} has no step {number}; {have}")

    def rewind_target(self, number: int) -> Step:
        """The step to go back to, refused when an earlier rewind set it aside: the subagents
        of its branch were stopped and set aside with it, so it cannot be taken up again as
        it was; a fork from it starts a new root from its conversation instead."""
        step = self.step(number)
        if step.set_aside:
            raise CommandRefusedError(
                f"step {number} of {self.agent_name or 'the agent'} was set aside by an "
                "earlier rewind: fork from it instead"
            )
        return step

    def workflow_take_up(self, number: int) -> TakeUp | None:
        """Where a rewind to the step takes the agent's six-step workflow up (None: it runs
        the plain loop); its `step` may be earlier, as its notice says (workflow_trail.py)."""
        return self.workflow.take_up(
            self.step(number), self.steps, lambda n: self.conversation_at(n)[1]
        )

    def conversation_at(self, number: int) -> tuple[str, list[Message]]:
        """(instructions, messages) as they were right after the step."""
        target = self.step(number)
        instructions = ""
        messages: list[Message] = []
        for change in self._changes[: target.change + 1]:
            if change.instructions is not None:
                instructions = change.instructions
            del messages[change.keep :]
            messages.extend(change.append)
        return instructions, messages

    def started_after(self, number: int) -> list[str]:
        """The subagents started after the step and not set aside yet, in the order started."""
        change = self.step(number).change
        return [
            child
            for child, before in self._children
            if before > change and child not in self._set_aside
        ]

    def owed_after(self, number: int, live: Callable[[str], bool]) -> list[str]:
        """The subagents a rewind to the step keeps (started before it) whose results the
        conversation at the step had not had: handed after it (set aside with what came
        later), or still to come (`live`). In the order started."""
        change = self.step(number).change
        had = {child for child, before in self._handed if before <= change}
        later = {child for child, before in self._handed if before > change}
        return [
            child
            for child, before in self._children
            if before <= change
            and child not in self._set_aside
            and child not in had
            and (child in later or live(child))
        ]


def steps_in(events: Iterable[ev.Event], agent_id: str, agent_name: str = "") -> StepLog:
    """The steps of one agent of a saved session, folded from its events."""
    log = StepLog(agent_name)
    for event in events:
        if event.agent_id == agent_id:
            log.apply(event)
        elif isinstance(event, ev.AgentSpawned) and event.parent_id == agent_id:
            log.child_started(event.agent_id)
    return log


def restoring_change(now: list[Message], then: list[Message]) -> tuple[int, list[Message]]:
    """The (keep, append) that turns the conversation `now` into `then`: its messages are
    never changed in place, so the two share their first messages up to where they part."""
    keep = 0
    for current, earlier in zip(now, then, strict=False):
        if current is not earlier and current != earlier:
            break
        keep += 1
    return keep, list(then[keep:])


def _aside(step: Step) -> Step:
    return Step(step.number, step.kind, step.seq, step.change, step.messages, step.summary, True)


def _kind(before: list[Message], keep: int, append: list[Message]) -> StepKind | None:
    if not append:
        return None  # new instructions alone
    last = append[-1]
    if len(append) == 1 and before and keep == len(before) - 1 and _extends(before[-1], last):
        return "steer"  # a note joined the trailing user message
    if keep < len(before):
        return None  # a modify's new task text (its note is the step)
    if last.role == "assistant":
        return None if last.interrupted else "model"
    if last.tool_results:
        return "answer" if _answers_the_person(before, last) else "tool"
    return "steer"


def _extends(earlier: Message, later: Message) -> bool:
    return (
        earlier.role == later.role == "user"
        and len(later.content) > len(earlier.content)
        and later.content[: len(earlier.content)] == earlier.content
    )


def _answers_the_person(before: list[Message], results: Message) -> bool:
    asked = {
        use.id for message in before[-1:] for use in message.tool_uses if use.name == ASK_USER_TOOL
    }
    return any(result.tool_use_id in asked for result in results.tool_results)


def collapsed(text: str) -> str:
    """`" ".join(text.split())` as far as a summary reads it: past SUMMARY_CHARS it is cut
    anyway, and an answer of 10 M characters split whole made ~2 M strings (~120 MiB for a
    moment) for 70 characters."""
    words: list[str] = []
    length = -1
    for word in _WORD.finditer(text):
        words.append(word.group())
        length += 1 + len(words[-1])
        if length > SUMMARY_CHARS:
            break
    return " ".join(words)


def _summary(kind: StepKind, before: list[Message], append: list[Message]) -> str:
    last = append[-1] if append else None
    if last is None:
        return ""
    if kind == "model":
        said = collapsed(last.text)
        calls = ", ".join(use.name for use in last.tool_uses)
        text = (
            f"{said} [calls {calls}]" if calls and said else (f"calls {calls}" if calls else said)
        )
    elif kind in ("tool", "answer"):
        names = {use.id: use.name for message in before[-1:] for use in message.tool_uses}
        text = "; ".join(
            f"{names.get(result.tool_use_id, 'tool')} → {collapsed(result.content)}"
            for result in last.tool_results
        )
    elif kind == "steer":
        added = (
            last.content[len(before[-1].content) :]
            if before and _extends(before[-1], last)
            else last.content
        )
        text = " ".join(collapsed(b.text) for b in added if isinstance(b, TextBlock))
    else:  # its task: the first words it was given (a fork's first message may hold more
        # blocks after it, the answers its origin had by then, which `text` runs together)
        first = next((b for b in append[0].content if isinstance(b, TextBlock)), None)
        text = collapsed(first.text) if first is not None else ""
    return text if len(text) <= SUMMARY_CHARS else text[: SUMMARY_CHARS - 1] + "…"
