"""An agent's transcript as a person sees it: blocks of text, thinking, tools and questions.

Built from events alone. The app's transcript pane and the session export both use this one
fold, so an export reads exactly like the screen did. (The conversation sent to the model is a
different thing: `conversation:changed` events carry it, and RunState folds it apart.)
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from agentui.core.agent.budget import STOP_CHOICES, Budget, stop_words
from agentui.core.protocol.events_on_use import events_on_first_use
from agentui.core.state.scene_items import scene_line, scene_line_events
from agentui.core.support.growing_text import GrowingText

if TYPE_CHECKING:
    from agentui.core.protocol import events as ev
else:
    ev = events_on_first_use(globals())  # the fold's functions load it

# What stands for thinking the API sent encrypted (the block itself goes back to the model).
REDACTED_THINKING = "encrypted by the API; it goes back to the model unread"

# "scene": a directed scene's bookkeeping (a round, a director's pass, a state change);
# "line": a character's turn, as the round shows it (scene_items.py).
ItemKind = Literal[
    "task", "text", "thinking", "tool", "question", "steer", "notice", "error", "scene", "line"
]

# How a steer's line reads as it goes: queued, then read by the model, or never read.
STEER_QUEUED = "queued for its next model call"
STEER_DELIVERED = "delivered with its next model call"
STEER_UNUSED = (
    "not delivered: it ended before another model call (r continues it; it reads this first)"
)

# Items that can land while a response streams without being part of it: the response's
# text grows past them (see `TranscriptBuilder._stream`).
_ASIDES: frozenset[ItemKind] = frozenset({"notice", "steer"})

# A model call's error the loop will not retry; and, after it, that the agent failed with it.
GIVING_UP = "giving up"
AGENT_FAILED = "the agent failed"

_uids = itertools.count(1)


def next_uid_bound() -> int:
    """A number past every entry's uid made so far in this process."""
    return next(_uids)


def number_after(bound: int) -> None:
    """Entries made from now on are numbered from `bound` on (or later): a fold made by
    another process (a resume checkpoint, core/session/checkpoint.py) brings entries numbered
    below it, and a uid names one entry in this process."""
    global _uids
    _uids = itertools.count(max(next(_uids), bound))


class TranscriptItem:
    """One block. Mutable while folding: text grows, a tool gets its result.

    Streamed text arrives in thousands of small pieces: its text is a `GrowingText`.
    """

    __slots__ = (
        "_text",
        "agent_id",
        "detail",
        "failed",
        "interrupted",
        "iteration",
        "key",
        "kind",
        "open",
        "progress",
        "settled_ts",
        "title",
        "tool",
        "ts",
        "uid",
    )

    def __init__(
        self,
        agent_id: str,
        kind: ItemKind,
        text: str,
        title: str = "",  # tool name, question kind, "error", ...
        key: str = "",  # tool call id or query id, to find the item again
        iteration: int = 0,
        detail: str = "",  # a tool's result, a question's answer, an approval's decision
        failed: bool = False,
        open: bool = False,  # a question still waiting for its answer
        interrupted: bool = False,  # text cut short (cancel, a failed attempt, a crash)
        tool: str = "",  # the tool an approval question is about
        ts: float = 0.0,  # when it began
        settled_ts: float = 0.0,  # when a steer was delivered (or found unused)
        uid: int | None = None,  # identity, for redrawing
    ) -> None:
        self.agent_id = agent_id
        self.kind: ItemKind = kind
        self._text = GrowingText(text)
        self.title = title
        self.key = key
        self.iteration = iteration
        self.detail = detail
        self.failed = failed
        self.open = open
        self.interrupted = interrupted
        self.tool = tool
        self.ts = ts
        self.settled_ts = settled_ts
        # A running tool's latest progress ("2/3 step two"), until its result comes.
        self.progress = ""
        self.uid = uid if uid is not None else next(_uids)

    @property
    def text(self) -> str:
        return self._text.value

    @text.setter
    def text(self, value: str) -> None:
        self._text = GrowingText(value)

    @property
    def text_length(self) -> int:
        return len(self._text)

    def text_slice(self, start: int, end: int | None = None) -> str:
        """`text[start:end]`, without joining the rest of a long text (see GrowingText)."""
        return self._text.slice(start, end)

    def append_text(self, piece: str) -> None:
        self._text.append(piece)

    def __reduce__(self) -> tuple[Callable[[tuple[Any, ...]], TranscriptItem], tuple[Any, ...]]:
        # A resume checkpoint holds thousands of items: pickled as one tuple of their fields,
        # set back in one unpacking, they load in a third of the time the slots' default takes
        # (a dict of them per item, set one by one): ~7 ms less before a 1,000-agent resume's
        # first frame (issue 36).
        return self._from_fields, (
            (self.agent_id, self.kind, self.text, self.title, self.key, self.iteration,
             self.detail, self.failed, self.open, self.interrupted, self.tool, self.ts,
             self.settled_ts, self.progress, self.uid),
        )  # fmt: skip

    @staticmethod
    def _from_fields(fields: tuple[Any, ...]) -> TranscriptItem:
        """An item as `__reduce__` pickled it (its uid kept)."""
        item = TranscriptItem.__new__(TranscriptItem)
        (item.agent_id, item.kind, text, item.title, item.key, item.iteration, item.detail,
         item.failed, item.open, item.interrupted, item.tool, item.ts, item.settled_ts,
         item.progress, item.uid) = fields  # fmt: skip
        item._text = GrowingText(text)
        return item

    def __repr__(self) -> str:
        return (
            f"TranscriptItem({self.agent_id!r}, {self.kind!r}, {self.text!r}, "
            f"title={self.title!r}, key={self.key!r}, iteration={self.iteration})"
        )


ItemListener = Callable[[TranscriptItem], None]

# Event types that make no block, or make one only in the guarded cases of `apply`. A type in
# neither lands in `TranscriptBuilder.unfolded`, which a test over every type keeps empty.
NOT_SHOWN = frozenset({
    "agent:status", "answer:validated", "approval:decided", "conversation:changed",
    "execution:complete", "execution:paused", "execution:resumed", "execution:start",
    "hook:error", "intervention:applied", "iteration:complete", "iteration:start", "monologue",
    "monologue:error", "tool:detected", "tool:timeout",
    "usage:updated", "workflow:deciding", "workflow:decision", "workflow:result", "workflow:step",
    "director:start", "character:start",
    "mcp:server",  # the runtime's, not an agent's: the status bar shows it
    "run:resumed",  # the runtime's: the resume notice says it
    "session:error",  # the runtime's: the status bar shows it
    "agent:stalled",  # the inbox lists it; the transcript has nothing new to show
})  # fmt: skip


def _ignore(item: TranscriptItem) -> None:
    return None


class TranscriptBuilder:
    """Folds one agent's events into its transcript items, in order."""

    def __init__(
        self,
        agent_id: str = "",
        *,
        on_added: ItemListener = _ignore,
        on_changed: ItemListener = _ignore,
    ) -> None:
        self.agent_id = agent_id
        self.items: list[TranscriptItem] = []
        self._by_key: dict[str, TranscriptItem] = {}
        # The app redraws only what changed: it hears of every item added or changed.
        self._on_added = on_added
        self._on_changed = on_changed
        self.unfolded: set[str] = set()  # event types met that no case folds (see NOT_SHOWN)
        # The newest run started: a resume goes on with the run it was in, announcing it again.
        self._run = 1
        # The item the response being streamed is growing (its thinking, then its text): what
        # a cut cuts. None between responses, so a cut then marks nothing.
        self._streaming: TranscriptItem | None = None
        # The block of the model error the loop gave up on, with that error: the agent's
        # failure with the same error right after it is said there, not in a second block.
        self._given_up: tuple[TranscriptItem, str] | None = None

    def item(self, key: str) -> TranscriptItem | None:
        """The tool call's or query's item."""
        return self._by_key.get(key)

    def _new(self, kind: ItemKind, text: str, event: ev.Event, **fields: Any) -> None:
        item = TranscriptItem(self.agent_id, kind, text, ts=event.ts, **fields)
        self.items.append(item)
        if item.key:
            self._by_key[item.key] = item
        self._on_added(item)

    def stream(self, event: ev.TextDelta | ev.ThinkingDelta) -> None:
        """Fold a delta (RunState calls it directly: a delta is most of a stream's events)."""
        kind: ItemKind = "text" if isinstance(event, ev.TextDelta) else "thinking"
        # A notice or a steer that arrives mid-stream (modified, a note, the person's steer)
        # does not split the response, which would cut a word in two on screen: its text keeps
        # growing in the same item, above them.
        for item in reversed(self.items):
            if item.kind in _ASIDES:
                continue
            if (
                item.kind == kind
                and item.iteration == event.iteration
                and not item.interrupted
                and not item.title  # a placeholder (redacted thinking) is never extended
            ):
                item.append_text(event.delta)
                self._on_changed(item)
                self._streaming = item
                return
            break
        self._new(kind, event.delta, event, iteration=event.iteration)
        self._streaming = self.items[-1]

    def interrupt_stream(self, iteration: int | None = None) -> None:
        """Mark what the response being streamed was growing when it was cut as cut short:
        that one item only (its thinking, or its text: thinking that ended before the text
        began was whole). What comes next starts items of its own, never merged into the cut
        one. With `iteration`, only a response of that iteration (an earlier, finished
        response is left alone)."""
        item, self._streaming = self._streaming, None
        if item is None or (iteration is not None and item.iteration != iteration):
            return
        item.interrupted = True
        self._on_changed(item)

    def apply(self, event: ev.Event) -> None:
        match event:
            case ev.AgentSpawned(task=task):
                self._new("task", task, event, title="task")
            case ev.ExecutionStarted(run=run, task=task) if run > self._run:
                # A continued run: the person's message starts a new part of the transcript.
                self._run = run
                self._new("task", task, event, title="follow-up")
            case ev.TextDelta() | ev.ThinkingDelta():
                self.stream(event)
            case ev.ThinkingRedacted(iteration=iteration):
                self._new(
                    "thinking", REDACTED_THINKING, event, title="redacted", iteration=iteration
                )
                self._streaming = None  # it came whole: what follows grows a new item
            case ev.LLMRequested() | ev.LLMResponded():
                self._streaming = None  # a response begins or has ended whole: nothing is cut
            case ev.ToolStarted(call=call):
                self._new(
                    "tool", format_arguments(call.arguments), event, title=call.name, key=call.id
                )
            case ev.ToolProgressed(call_id=call_id):
                item = self._by_key.get(call_id)
                if item is not None and not item.detail:  # not after its result
                    item.progress = event.line()
                    self._on_changed(item)
            case ev.ToolCompleted(call_id=call_id, result=result):
                self._finish(call_id, result, failed=False)
            case ev.ToolFailed(call_id=call_id, error=error, name=name):
                if not self._finish(call_id, error, failed=True):
                    # rejected before it started: there is no tool block yet
                    self._new(
                        "tool", "not run", event, title=name, key=call_id, detail=error, failed=True
                    )
            case ev.QueryRaised(query_id=query_id, prompt=prompt, kind=kind, tool=tool):
                self._new(
                    "question", prompt, event, title=kind, key=query_id, open=True, tool=tool or ""
                )
            case ev.QueryAnswered(query_id=query_id, answer=answer):
                self._close(query_id, answer, declined=False)
            case ev.QueryDeclined(query_id=query_id, reason=reason):
                self._close(query_id, reason, declined=True)
            case ev.StatusChanged(new=new, reason=reason) if new in ("cancelled", "deleted"):
                # "cancelled by the person" says it already; "too slow" needs the word.
                said = reason if reason.startswith(new) else f"{new}: {reason}"
                self._new("notice", said, event)
            case ev.InterventionApplied(kind="modify", instructions=instructions, content=content):
                self._new("notice", _modification(instructions, content), event, title="modified")
            case ev.BudgetSet(budget=limits, source=source):
                self._new("notice", _budget_set(limits, source), event, title="budget")
            case ev.BudgetReached(measure=measure, limit=limit, spent=spent, over=over):
                said = f"{stop_words(measure, limit, spent, over)}. Paused: {STOP_CHOICES}."
                self._new("notice", said, event, title="budget reached", failed=True)
            case ev.AgentRewound(step=step, set_aside=set_aside):
                aside = f"; {len(set_aside)} subagent(s) set aside" if set_aside else ""
                said = (
                    f"back to step {step}: what came after is set aside (kept in the log)"
                    f"{aside}. Paused: resume, steer or modify it"
                )
                self._new("notice", said, event, title="rewound")
            case ev.AgentForked(session=session):
                where = f" of session {session}" if session else ""
                said = f"from {event.origin}{where}: its conversation up to that step"
                self._new("notice", said, event, title="forked")
            case ev.BudgetContinued():
                self._new("notice", "let go on for one more step past its budget", event,
                          title="budget")  # fmt: skip
            case ev.ExecutionFailed(error=error):
                if not self._ends_given_up_model_error(error):
                    self._new("error", error, event, title="error", failed=True)
            case ev.AnswerValidated(ok=False):
                self._new(
                    "error", validation_text(event), event, title="invalid answer", failed=True
                )
            case ev.AnswerValidated(payload=payload) if payload is not None:
                self._new("notice", validation_text(event), event, title="payload")
            case ev.LLMFailed(error=error, retryable=retryable, streamed=streamed):
                if streamed:
                    self.interrupt_stream(event.iteration)
                note = "retrying" if retryable else GIVING_UP
                self._new("error", f"{error} ({note})", event, title="model error", failed=True)
                self._given_up = None if retryable else (self.items[-1], error)
            case ev.LLMAbandoned(reason=reason, iteration=iteration):
                self.interrupt_stream(iteration)
                self._new("notice", f"{reason}; asking the model again", event, title="cut")
            case ev.ExecutionCancelled():
                # Not by its partial_text: that holds the text alone, and thinking is cut too.
                self.interrupt_stream()
            case ev.NoteQueued(text=text, from_person=True, note_id=note_id):
                self._new("steer", text, event, title="you", key=note_id, detail=STEER_QUEUED)
            case ev.NoteQueued(text=text):
                self._new("notice", text, event, title="note")
            case ev.NotesDelivered(note_ids=note_ids):
                self._mark_notes(note_ids, STEER_DELIVERED, event.ts)
            case ev.InterventionsUnused(note_ids=note_ids, modified=modified):
                self._mark_notes(note_ids, STEER_UNUSED, event.ts, failed=True)
                if modified:
                    wordings: dict[tuple[str, ...], str] = {
                        ("instructions",): "the new instructions",
                        ("task",): "the new task",
                    }
                    what = wordings.get(tuple(modified), "the new instructions and task")
                    self._new(
                        "notice",
                        f"it ended before reading {what}; r continues it with {what}",
                        event,
                        title="not used",
                    )
            case _ if isinstance(event, scene_line_events()):
                line = scene_line(event)
                if line is not None:
                    failed = line.kind == "error"
                    self._new(line.kind, line.text, event, title=line.title, failed=failed)
            case _ if event.type in NOT_SHOWN:
                pass  # not a block of its own, or a guarded case above did not apply
            case _:
                self.unfolded.add(event.type)  # a type this fold has not been taught

    def _ends_given_up_model_error(self, error: str) -> bool:
        """When the agent fails with the error its model call just gave up on, that error's
        block says both (a second block repeated it word for word): it is marked as what ended
        the agent, and True is returned."""
        if self._given_up is None or not self.items:
            return False
        last, given_up_on = self._given_up
        if last is not self.items[-1] or given_up_on != error:
            return False
        last.text = f"{error} ({GIVING_UP}; {AGENT_FAILED})"
        self._on_changed(last)
        return True

    def _mark_notes(
        self, note_ids: list[str], detail: str, ts: float, *, failed: bool = False
    ) -> None:
        for note_id in note_ids:
            item = self._by_key.get(note_id)
            if item is not None and item.kind == "steer":
                item.detail, item.failed, item.settled_ts = detail, failed, ts
                self._on_changed(item)

    def _finish(self, call_id: str, result: str, *, failed: bool) -> bool:
        item = self._by_key.get(call_id)
        if item is None:
            return False
        item.detail, item.failed, item.progress = result, failed, ""
        self._on_changed(item)
        return True

    def _close(self, query_id: str, answer: str, *, declined: bool) -> None:
        item = self._by_key.get(query_id)
        if item is None:
            return
        if item.title == "approval":
            # The decision speaks for itself: "allowed once", "rejected: too risky".
            item.detail, item.failed = answer, declined
        else:
            if declined:
                # "declined by the person" says it already; another reason needs the word.
                item.detail = (
                    f"({answer})" if answer.startswith("declined") else f"(declined: {answer})"
                )
            else:
                item.detail = answer
        item.open = False
        self._on_changed(item)


def validation_text(event: ev.AnswerValidated) -> str:
    """A check of a JSON answer in words: what was wrong and what happens next, or (with
    `profiles.log_payloads`) the validated payload."""
    if event.ok:
        return f"valid for profile {event.profile}: {json.dumps(event.payload, ensure_ascii=False)}"
    left = event.attempts - event.attempt
    then = "asking again" if left else "no attempts left"
    return (
        f"not valid for profile {event.profile} (attempt {event.attempt} of {event.attempts}; "
        f"{then}): {'; '.join(event.errors)}"
    )


def _budget_set(limits: dict[str, float], source: str) -> str:
    """What a budget:set says after its block's title ("budget")."""
    if not limits:
        return "none now"
    said = Budget.from_limits(limits).describe()
    if source == "inherited":
        return f"{said} (its share of what its parent had left)"
    if source == "person":
        return f"{said}, set by the person"
    return said


def _modification(instructions: str | None, content: str | None) -> str:
    """What a modify changed, by name: 'new task: ...', never the status it left behind."""
    if content is None:
        return "new instructions, from its next model call"
    changed = "new instructions and task" if instructions is not None else "new task"
    return f"{changed}, from its next model call: {content}"


def format_arguments(arguments: dict[str, object]) -> str:
    return ", ".join(f"{key}={value!r}" for key, value in arguments.items())
