"""The steering eval: recorded tasks in which a person intervenes mid-run, scored from the events.

    .venv/bin/python tests/bench/steering_eval.py [--provider anthropic] [--model M]
                                                  [--case NAME ...] [--json]

Each case (steering_cases/*.toml) is a task, the offline model's turns (each may depend on what
its request carries: `if_sent`), the facts its `lookup` tool returns, and interventions placed
by step, never by wall time: at an agent's Nth call of a tool (the call is held until they are
made), at the Nth chunk of its Kth model call (offline, the stream is held there), or at its
Nth question. An agent is named (`agent`), or is the subagent whose task mentions a word
(`subagent_with`: a real model words its subagents' tasks, and forks them in any order).

Checks, per case (tests/core/test_steering_eval.py asserts every offline score):
- delivered: each steer, modify, answer and delete reached the model call right after it: a
  note:delivered came before that call's llm:request and the request's own messages hold the
  words (the new task, the answer, the note telling a parent of a deleted subagent); a deleted
  subtree ended as deleted.
- reflected: the root completed and its answer holds (or lacks) what the case expects.
- clean: nothing of a deleted subtree ran after the delete or reached another agent's request;
  nothing ran while the agent was paused ("-" when the case has neither).
- tokens after: tokens the target spent (a deleted subtree: all of it) from each intervention
  until it took effect (the request that carried it; the subtree's end).

Offline the scores are exact: the scripted model reports fixed usage (TURN_INPUT_TOKENS and a
quarter of its characters), so a figure moves only when steering does. With `--provider`
(a key in the environment, never in a test) the same cases run against a real model, which
decides for itself; without the key it runs offline and says so.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tomllib
from collections import defaultdict, deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Literal

import anyio
from pydantic import BaseModel, ConfigDict, Field, model_validator

from agentui.core.agent.tree import AgentNode
from agentui.core.bus import Subscription
from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.protocol.conversation import TextBlock
from agentui.core.protocol.events import (
    E,
    Event,
    LLMResponded,
    NoteQueued,
    NotesDelivered,
    QueryRaised,
    StatusChanged,
    ToolCompleted,
    ToolStarted,
    UsageUpdated,
)
from agentui.core.protocol.usage import Usage
from agentui.core.providers.base import (
    Provider,
    ProviderRequest,
    StreamEvent,
    TextChunk,
    holds_connection,
)
from agentui.core.providers.factory import label_of, make_provider
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock
from agentui.core.support.errors import AgentUIError
from agentui.core.tools.ask_user import ASK_USER
from agentui.core.tools.fork import FORK, WAIT
from agentui.core.tools.registry import ToolRegistry
from agentui.core.tools.tool import Tool, ToolContext, tool

CASES_DIR = Path(__file__).with_name("steering_cases")
TURN_INPUT_TOKENS = 200  # the offline model's input tokens per call, whatever it was sent
OFFLINE_GUARD_S = 20.0  # a safety net: an offline case takes milliseconds
ONLINE_GUARD_S = 300.0
# Events that are an agent doing something (not being told something).
ACTIVITY = frozenset(
    {"llm:request", "llm:response", "text:delta", "thinking:delta", "tool:start",
     "tool:complete", "tool:error", "query:raised"}
)  # fmt: skip


# -- a case, as its file declares it -------------------------------------------------------


class Reaction(BaseModel):
    """The turn played instead when the request carries every string of `all`."""

    model_config = ConfigDict(extra="forbid")

    all: list[str]
    text: str = ""
    tool_calls: list[ScriptedToolCall] = Field(default_factory=list)


class CaseTurn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: str = ""
    tool_calls: list[ScriptedToolCall] = Field(default_factory=list)
    if_sent: list[Reaction] = Field(default_factory=list)  # the first that matches wins

    def played(self, sent: str) -> Turn:
        chosen: CaseTurn | Reaction = self
        for reaction in self.if_sent:
            if all(words in sent for words in reaction.all):
                chosen = reaction
                break
        out_chars = len(chosen.text) + sum(len(json.dumps(c.arguments)) for c in chosen.tool_calls)
        usage = Usage(input_tokens=TURN_INPUT_TOKENS, output_tokens=math.ceil(out_chars / 4))
        return Turn(text=chosen.text, tool_calls=chosen.tool_calls, usage=usage)


class At(BaseModel):
    """A step of one agent: its Nth call of `tool`, the Nth chunk of its `model_call`th model
    call, or its Nth `question`."""

    model_config = ConfigDict(extra="forbid")

    agent: str | None = None
    subagent_with: str | None = None
    tool: str | None = None
    call: int = Field(1, ge=1)
    model_call: int | None = Field(None, ge=1)
    chunk: int = Field(1, ge=1)
    question: int | None = Field(None, ge=1)

    @model_validator(mode="after")
    def _one_place(self) -> At:
        if (self.agent is None) == (self.subagent_with is None):
            raise ValueError("name the agent (agent) or a word of its task (subagent_with)")
        if sum(x is not None for x in (self.tool, self.model_call, self.question)) != 1:
            raise ValueError("a step is a tool call, a model call's chunk or a question")
        return self

    def names(self, node: AgentNode) -> bool:
        if self.agent is not None:
            return node.name == self.agent
        words = (self.subagent_with or "").lower()
        return node.parent_id is not None and bool(words) and words in node.task.lower()

    def describe(self) -> str:
        who = self.agent or f"the subagent whose task mentions {self.subagent_with!r}"
        if self.tool is not None:
            return f"call {self.call} of {self.tool} by {who}"
        if self.model_call is not None:
            return f"chunk {self.chunk} of model call {self.model_call} by {who}"
        return f"question {self.question} by {who}"


class Modify(BaseModel):
    model_config = ConfigDict(extra="forbid")

    instructions: str | None = None
    content: str | None = None


class Action(BaseModel):
    """One thing the person does at a step (exactly one field set)."""

    model_config = ConfigDict(extra="forbid")

    steer: str | None = None
    modify: Modify | None = None
    answer: str | None = None
    delete: bool = False
    pause: bool = False
    resume: bool = False
    settle: bool = False  # let the held step go and everything run until it waits

    @model_validator(mode="after")
    def _one_act(self) -> Action:
        given = [name for name, value in self if value not in (None, False)]
        if len(given) != 1:
            raise ValueError(f"an action does exactly one thing, not {given or 'nothing'}")
        return self


class Intervention(BaseModel):
    model_config = ConfigDict(extra="forbid")

    at: At
    do: list[Action]


class Expect(BaseModel):
    model_config = ConfigDict(extra="forbid")

    answer_contains: list[str] = Field(default_factory=list)
    answer_lacks: list[str] = Field(default_factory=list)


class Case(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = ""
    about: str
    task: str
    facts: dict[str, str] = Field(default_factory=dict)
    interventions: list[Intervention]
    expect: Expect
    model: dict[str, list[CaseTurn]]

    @classmethod
    def load(cls, path: Path) -> Case:
        case = cls.model_validate(tomllib.loads(path.read_text("utf-8")))
        return case.model_copy(update={"name": path.stem})


def load_cases(names: Iterable[str] = ()) -> list[Case]:
    wanted = set(names)
    cases = [Case.load(path) for path in sorted(CASES_DIR.glob("*.toml"))]
    unknown = wanted - {case.name for case in cases}
    if unknown:
        raise SystemExit(f"no such case: {', '.join(sorted(unknown))}")
    return [case for case in cases if not wanted or case.name in wanted]


# -- the offline model, and the log of what every model was sent ----------------------------


def sent_text(request: ProviderRequest) -> str:
    """Everything a request carries in words: instructions, texts and tool results."""
    parts = [request.instructions]
    for message in request.messages:
        for block in message.content:
            if isinstance(block, TextBlock):
                parts.append(block.text)
            elif block.type == "tool_result":
                parts.append(block.content)
    return "\n".join(parts)


HoldAt = Callable[[ProviderRequest, int, int], Awaitable[None]]


class CaseModel(ScriptedProvider):
    """The scripted provider playing a case's turns, each chosen by what its request carries
    (a model that reads a steer reacts to it); `hold` may stop a stream after a chunk, so a
    step inside a response is exact. Cursors and sending again are the scripted provider's."""

    def __init__(self, case: Case, hold: HoldAt) -> None:
        turns = {agent: [Turn(text=t.text) for t in listed] for agent, listed in case.model.items()}
        super().__init__(Script(agents=turns), record_requests=False)
        self._case_turns = {
            id(turn): case_turn
            for agent, listed in case.model.items()
            for turn, case_turn in zip(turns[agent], listed, strict=True)
        }
        self._hold = hold
        self._calls: defaultdict[str, int] = defaultdict(int)

    def _next_turn(self, request: ProviderRequest) -> Turn:
        turn = super()._next_turn(request)
        case_turn = self._case_turns.get(id(turn))
        return case_turn.played(sent_text(request)) if case_turn is not None else turn

    def stream(self, request: ProviderRequest) -> AsyncIterator[StreamEvent]:
        self._calls[request.agent_id] += 1
        return self._held(request, self._calls[request.agent_id], super().stream(request))

    async def _held(
        self, request: ProviderRequest, call: int, inner: AsyncIterator[StreamEvent]
    ) -> AsyncIterator[StreamEvent]:
        chunks = 0
        try:
            async for piece in inner:
                yield piece
                if isinstance(piece, TextChunk):
                    chunks += 1
                    await self._hold(request, call, chunks)
        finally:
            await inner.aclose()  # type: ignore[attr-defined]


class RequestLog:
    """Wraps the provider and keeps a copy of every request, as sent."""

    def __init__(self, inner: Provider) -> None:
        self.inner = inner
        self.requests: list[ProviderRequest] = []

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def model(self) -> str:
        return self.inner.model

    @property
    def holds_connection(self) -> bool:
        return holds_connection(self.inner)

    async def aclose(self) -> None:
        await self.inner.aclose()

    def stream(self, request: ProviderRequest) -> AsyncIterator[StreamEvent]:
        messages = [message.model_copy(deep=True) for message in request.messages]
        self.requests.append(replace(request, messages=messages))
        return self.inner.stream(request)

    def agent_calls(self, agent_id: str) -> list[ProviderRequest]:
        """The agent's own model calls, in the order of its llm:request events."""
        return [r for r in self.requests if r.agent_id == agent_id and r.purpose == "agent"]


# -- the person, acting at each step as the events reach it ----------------------------------


DoneKind = Literal["steer", "modify", "answer", "delete", "pause", "resume"]


@dataclass(frozen=True)
class Done:
    """An action the person took, with the first event it emitted."""

    kind: DoneKind
    agent_id: str
    seq: int
    words: str = ""  # a steer's or an answer's
    modify: Modify | None = None
    subtree: tuple[str, ...] = ()  # a delete's: the agent and its descendants


@dataclass
class Person:
    """Reads every event in order and, at each case step, does what the case says there. A
    held tool call (and, offline, a held stream) goes on once its step has been dealt with."""

    case: Case
    runtime: Runtime | None = None
    events: list[Event] = field(default_factory=list)  # every event read so far, in order
    done: list[Done] = field(default_factory=list)
    reached: set[int] = field(default_factory=set)  # indexes of interventions made
    faults: list[str] = field(default_factory=list)  # commands refused, a time-out: why
    _subscription: Subscription | None = None
    _pending: deque[Event] = field(default_factory=deque)  # taken off the bus, not yet read
    _gates: defaultdict[str, anyio.Event] = field(default_factory=lambda: defaultdict(anyio.Event))
    _tool_calls: defaultdict[tuple[str, str], int] = field(default_factory=lambda: defaultdict(int))
    _model_calls: defaultdict[str, int] = field(default_factory=lambda: defaultdict(int))
    _chunks: defaultdict[str, int] = field(default_factory=lambda: defaultdict(int))
    _questions: defaultdict[str, int] = field(default_factory=lambda: defaultdict(int))

    def watch(self, runtime: Runtime) -> None:
        """Follow `runtime` from now on (before its task starts: every event is seen)."""
        self.runtime = runtime
        self._subscription = runtime.subscribe(maxsize=None)

    # What the tool and the offline model wait on.
    async def tool_released(self, call_id: str) -> None:
        await self._gates[f"tool:{call_id}"].wait()

    async def stream_released(self, request: ProviderRequest, call: int, chunk: int) -> None:
        if self._held_step(request.agent_id, call, chunk):
            await self._gates[f"chunk:{request.agent_id}:{call}:{chunk}"].wait()

    def _held_step(self, agent_id: str, call: int, chunk: int) -> bool:
        assert self.runtime is not None
        node = self.runtime.node(agent_id)
        return any(
            (i.at.model_call, i.at.chunk) == (call, chunk) and i.at.names(node)
            for i in self.case.interventions
        )

    async def follow(self) -> None:
        assert self._subscription is not None
        while True:
            if not self._pending:
                batch = await self._subscription.next_batch()
                if not batch:
                    return
                self._pending.extend(batch)
            event = self._pending.popleft()
            self.events.append(event)
            await self._on(event)

    def take_rest(self) -> None:
        """Read what is left once the runtime has shut down."""
        assert self._subscription is not None
        self.events.extend(self._pending)
        self.events.extend(self._subscription.drain())
        self._pending.clear()

    async def _on(self, event: Event) -> None:
        agent_id = event.agent_id
        if isinstance(event, ToolStarted):
            call = event.call
            self._tool_calls[agent_id, call.name] += 1
            count = self._tool_calls[agent_id, call.name]
            index = self._matching(agent_id, lambda at: (at.tool, at.call) == (call.name, count))
            await self._act(index, event, f"tool:{call.id}")
        elif event.type == "llm:request":
            self._model_calls[agent_id] += 1
            self._chunks[agent_id] = 0
        elif event.type == "text:delta":
            self._chunks[agent_id] += 1
            step = self._model_calls[agent_id], self._chunks[agent_id]
            index = self._matching(agent_id, lambda at: (at.model_call, at.chunk) == step)
            await self._act(index, event, f"chunk:{agent_id}:{step[0]}:{step[1]}")
        elif isinstance(event, QueryRaised):
            self._questions[agent_id] += 1
            count = self._questions[agent_id]
            index = self._matching(agent_id, lambda at: at.question == count)
            await self._act(index, event, "")
            if index is None:  # a question no step is about (a real model's): declined
                self._decline(event)

    def _decline(self, question: QueryRaised) -> None:
        assert self.runtime is not None
        self.runtime.answer(question.query_id, None)

    def _matching(self, agent_id: str, where: Callable[[At], bool]) -> int | None:
        assert self.runtime is not None
        node = self.runtime.node(agent_id)
        for index, intervention in enumerate(self.case.interventions):
            if index not in self.reached and intervention.at.names(node) and where(intervention.at):
                return index
        return None

    async def _act(self, index: int | None, event: Event, gate: str) -> None:
        if index is not None:
            self.reached.add(index)
            for action in self.case.interventions[index].do:
                await self._do(action, event, gate)
        if gate:
            self._gates[gate].set()

    async def _do(self, action: Action, event: Event, gate: str) -> None:
        assert self.runtime is not None and self._subscription is not None
        runtime, agent_id = self.runtime, event.agent_id
        if action.settle:
            if gate:
                self._gates[gate].set()
            await anyio.wait_all_tasks_blocked()
            return
        # A command emits its events at once: what is on the bus before it is not its own.
        self._pending.extend(self._subscription.drain())
        subtree = tuple(node.id for node in runtime.subtree(agent_id)) if action.delete else ()
        try:
            kind = self._command(action, agent_id, event)
        except AgentUIError as exc:  # a refused command is a failed step, said in the table
            self.faults.append(f"refused at {event.type} of {agent_id}: {exc}")
            return
        own = self._subscription.drain()
        self._pending.extend(own)
        seen = [*self.events, *self._pending]
        seq = own[0].seq if own else seen[-1].seq
        words = action.steer or action.answer or ""
        self.done.append(Done(kind, agent_id, seq, words, action.modify, subtree))

    def _command(self, action: Action, agent_id: str, event: Event) -> DoneKind:
        runtime = self.runtime
        assert runtime is not None
        if action.steer is not None:
            runtime.steer(agent_id, action.steer)
            return "steer"
        if action.modify is not None:
            runtime.modify(agent_id, **action.modify.model_dump())
            return "modify"
        if action.answer is not None:
            assert isinstance(event, QueryRaised)  # an answer's step is a question
            runtime.answer(event.query_id, action.answer)
            return "answer"
        if action.delete:
            runtime.delete(agent_id)
            return "delete"
        if action.pause:
            runtime.pause(agent_id)
            return "pause"
        runtime.resume(agent_id)
        return "resume"


# -- scoring ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Score:
    delivered: bool | None  # None: the case gives nothing to deliver
    reflected: bool
    clean: bool | None  # None: nothing was deleted or paused
    tokens_after: int
    problems: tuple[str, ...] = ()  # why a check failed, in words

    @property
    def passed(self) -> bool:
        return self.delivered is not False and self.reflected and self.clean is not False


@dataclass
class Outcome:
    case: Case
    root: AgentNode
    nodes: dict[str, AgentNode]
    events: list[Event]
    done: list[Done]
    missed: list[str]  # steps never reached, commands refused: in words
    log: RequestLog


def _of(events: list[Event], agent_id: str, *types: str, after: int = 0) -> list[Event]:
    return [e for e in events if e.agent_id == agent_id and e.type in types and e.seq > after]


def _typed(events: list[Event], agent_id: str, kind: type[E], after: int = 0) -> list[E]:
    return [e for e in events if e.agent_id == agent_id and isinstance(e, kind) and e.seq > after]


def _tokens(events: list[Event], agents: Iterable[str], after: int, until: int | None) -> int:
    wanted = set(agents)
    return sum(
        e.delta.total_tokens
        for e in events
        if isinstance(e, UsageUpdated)
        and e.agent_id in wanted
        and e.seq > after
        and (until is None or e.seq < until)
    )


class Scorer:
    def __init__(self, outcome: Outcome) -> None:
        self.o = outcome
        self.problems: list[str] = list(outcome.missed)
        self.tokens = 0

    def score(self) -> Score:
        delivered = self._delivered()
        reflected = self._reflected()
        clean = self._clean()
        return Score(delivered, reflected, clean, self.tokens, tuple(self.problems))

    def _fail(self, problem: str) -> bool:
        self.problems.append(problem)
        return False

    def _next_call(self, agent_id: str, after: int) -> tuple[Event, ProviderRequest] | None:
        """The agent's first model call after seq `after`: its llm:request and the request."""
        requests = _of(self.o.events, agent_id, "llm:request")
        calls = self.o.log.agent_calls(agent_id)
        for index, event in enumerate(requests):
            if event.seq > after and index < len(calls):
                return event, calls[index]
        return None

    def _delivered(self) -> bool | None:
        checked = [d for d in self.o.done if d.kind in ("steer", "modify", "answer", "delete")]
        if not checked and not self.o.missed:
            return None
        results = [self._one_delivered(done) for done in checked]
        return all(results) and not self.o.missed

    def _one_delivered(self, done: Done) -> bool:
        if done.kind == "delete":
            return self._delete_delivered(done)
        name = self.o.nodes[done.agent_id].name
        call = self._next_call(done.agent_id, done.seq)
        if call is None:
            return self._fail(f"{done.kind} of {name}: no model call came after it")
        request_event, request = call
        self.tokens += _tokens(self.o.events, [done.agent_id], done.seq, request_event.seq)
        if done.kind == "answer":
            results = [
                block.content
                for message in request.messages
                for block in message.content
                if block.type == "tool_result"
            ]
            if not any(done.words in result for result in results):
                return self._fail(f"answer {done.words!r}: not a tool result of {name}'s next call")
            return True
        notes = _typed(self.o.events, done.agent_id, NotesDelivered, after=done.seq)
        carried = [n for n in notes if n.seq < request_event.seq]
        if done.kind == "steer":
            queued = [
                e
                for e in _typed(self.o.events, done.agent_id, NoteQueued, after=done.seq - 1)
                if e.text == done.words
            ]
            note_id = queued[0].note_id if queued else ""
            if not any(note_id in n.note_ids for n in carried):
                return self._fail(f"steer {done.words!r}: no note:delivered before the next call")
            if done.words not in sent_text(request):
                return self._fail(f"steer {done.words!r}: not in {name}'s next request")
            return True
        assert done.modify is not None
        if not any(n.modified for n in carried):
            return self._fail("modify: no note:delivered before the next call")
        if done.modify.content is not None and request.messages[0].text != done.modify.content:
            return self._fail(f"modify: {name}'s next request has the old task")
        if (
            done.modify.instructions is not None
            and request.instructions != done.modify.instructions
        ):
            return self._fail(f"modify: {name}'s next request has the old instructions")
        return True

    def _delete_delivered(self, done: Done) -> bool:
        ok = True
        for member in done.subtree:
            if self.o.nodes[member].status is not AgentStatus.DELETED:
                node = self.o.nodes[member]
                ok = self._fail(f"delete: {node.name} ended {node.status}, not deleted")
        ends = [
            e.seq
            for member in done.subtree
            for e in _typed(self.o.events, member, StatusChanged, after=done.seq)
            if e.new == AgentStatus.DELETED
        ]
        self.tokens += _tokens(self.o.events, done.subtree, done.seq, max(ends, default=None))
        parent_id = self.o.nodes[done.agent_id].parent_id
        if parent_id is not None:
            told = _typed(self.o.events, parent_id, NoteQueued, after=done.seq)
            call = self._next_call(parent_id, done.seq)
            if not told or call is None or told[0].text not in sent_text(call[1]):
                ok = self._fail("delete: the parent's next request does not say so")
        return ok

    def _reflected(self) -> bool:
        root, expect = self.o.root, self.o.case.expect
        if root.status is not AgentStatus.COMPLETED:
            why = f": {root.error}" if root.error else ""
            return self._fail(f"the root ended {root.status}{why}")
        answer = (root.result or "").lower()
        ok = True
        for words in expect.answer_contains:
            if words.lower() not in answer:
                ok = self._fail(f"the answer lacks {words!r}")
        for words in expect.answer_lacks:
            if words.lower() in answer:
                ok = self._fail(f"the answer has {words!r}")
        return ok

    def _clean(self) -> bool | None:
        deletes = [d for d in self.o.done if d.kind == "delete"]
        pauses = [d for d in self.o.done if d.kind == "pause"]
        if not deletes and not pauses:
            return None
        ok = True
        for done in deletes:
            ok = self._nothing_after_delete(done) and ok
        for pause in pauses:
            resumes = [
                d.seq
                for d in self.o.done
                if d.kind == "resume" and d.agent_id == pause.agent_id and d.seq > pause.seq
            ]
            until = min(resumes, default=None)
            ran = [
                e
                for e in _of(self.o.events, pause.agent_id, *ACTIVITY, after=pause.seq)
                if until is None or e.seq < until
            ]
            if ran:
                name = self.o.nodes[pause.agent_id].name
                ok = self._fail(f"while paused, {name} went on: {ran[0].type}")
        return ok

    def _nothing_after_delete(self, done: Done) -> bool:
        ok = True
        produced: list[str] = []
        for member in done.subtree:
            name = self.o.nodes[member].name
            ran = _of(self.o.events, member, *ACTIVITY, after=done.seq)
            if ran:
                ok = self._fail(f"deleted {name} went on: {ran[0].type}")
            produced += [e.text for e in _typed(self.o.events, member, LLMResponded)]
            produced += [e.result for e in _typed(self.o.events, member, ToolCompleted)]
        produced = [text for text in produced if len(text) >= 12]  # long enough to be its own
        others = [node_id for node_id in self.o.nodes if node_id not in done.subtree]
        for other in others:
            for event in _of(self.o.events, other, "llm:request", after=done.seq):
                index = _of(self.o.events, other, "llm:request").index(event)
                request = self.o.log.agent_calls(other)[index]
                sent = sent_text(request)
                if any(text in sent for text in produced):
                    name = self.o.nodes[other].name
                    ok = self._fail(f"{name} was sent the deleted subtree's work")
                    break
        return ok


# -- running a case ----------------------------------------------------------------------------


def lookup_tool(case: Case, person: Person) -> Tool:
    @tool(name="lookup", no_timeout=True)
    async def lookup(topic: str, context: ToolContext) -> str:
        """Look up facts about a place (a topic such as a town's name)."""
        await person.tool_released(context.call_id)  # held until its step is dealt with
        return case.facts.get(topic.strip().lower(), f"No facts about {topic}.")

    return lookup


async def run_case(case: Case, provider: Provider | None = None) -> Outcome:
    """Run one case: offline on its own model (provider None), else on `provider`."""
    person = Person(case)
    offline = provider is None
    log = RequestLog(CaseModel(case, person.stream_released) if provider is None else provider)
    tools = ToolRegistry([ASK_USER, FORK, WAIT, lookup_tool(case, person)])
    runtime = Runtime(log, tools=tools, clock=FrozenClock() if offline else None)
    guard_s = OFFLINE_GUARD_S if offline else ONLINE_GUARD_S
    with anyio.move_on_after(guard_s) as guard:
        async with runtime, anyio.create_task_group() as group:
            person.watch(runtime)
            group.start_soon(person.follow)
            root_id = runtime.start(case.task)
            await runtime.wait(root_id)
            group.cancel_scope.cancel()
    person.take_rest()
    if guard.cancelled_caught:  # the root was stopped: its score says so
        person.faults.append(f"the case did not end within {guard_s:g} s")
    nodes = {node.id: node.model_copy() for node in runtime.subtree(root_id)}
    missed = [
        f"never reached: {intervention.at.describe()}"
        for index, intervention in enumerate(case.interventions)
        if index not in person.reached
    ] + person.faults
    return Outcome(case, nodes[root_id], nodes, person.events, person.done, missed, log)


async def evaluate(
    cases: list[Case], provider: str = "scripted", model: str | None = None
) -> dict[str, Score]:
    """Every case's score, in order: offline on each case's own model, or on a real provider
    made afresh per case (a runtime closes its provider when it shuts down)."""
    scores: dict[str, Score] = {}
    for case in cases:
        real = None if provider == "scripted" else make_provider(provider, model=model)
        if real is not None:
            print(f"running {case.name} on {provider}...", file=sys.stderr)
        scores[case.name] = Scorer(await run_case(case, real)).score()
    return scores


def score_offline(names: Iterable[str] = ()) -> dict[str, Score]:
    """Every case (or those named) on the offline model: exact and deterministic."""
    return anyio.run(evaluate, load_cases(names))


# -- the table -----------------------------------------------------------------------------------


def _mark(value: bool | None) -> str:
    return "-" if value is None else ("yes" if value else "NO")


def table(scores: dict[str, Score]) -> str:
    header = ("case", "delivered", "reflected", "clean", "tokens after")
    rows = [
        (name, _mark(s.delivered), _mark(s.reflected), _mark(s.clean), str(s.tokens_after))
        for name, s in scores.items()
    ]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True))
        for row in [header, *rows]
    ]
    passed = sum(s.passed for s in scores.values())
    lines.append(f"{passed}/{len(scores)} cases pass every check")
    for name, s in scores.items():
        lines.extend(f"{name}: {problem}" for problem in s.problems)
    return "\n".join(line.rstrip() for line in lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--provider", default="scripted", help="scripted (default), anthropic, openai, google"
    )
    parser.add_argument("--model", default=None, help="the real provider's model")
    parser.add_argument(
        "--case", action="append", default=[], help="run only this case (repeatable)"
    )
    parser.add_argument("--json", action="store_true", help="print the scores as JSON, not a table")
    args = parser.parse_args(argv)
    cases = load_cases(args.case)
    provider = args.provider
    if provider != "scripted":
        try:
            label_of(provider, model=args.model)  # no key: said, and the eval runs offline
        except AgentUIError as exc:
            print(f"{exc}; running offline instead", file=sys.stderr)
            provider = "scripted"
    scores = anyio.run(evaluate, cases, provider, args.model)
    if args.json:
        print(json.dumps({case: asdict(score) for case, score in scores.items()}, indent=2))
    else:
        print(f"steering eval on {provider}{f' ({args.model})' if args.model else ''}")
        print(table(scores))
    return 0 if all(score.passed for score in scores.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
