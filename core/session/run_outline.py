"""One run read for comparing with another (core/session/run_diff.py): each agent's steps
(core/agent/steps.py) with what they hold, its tokens, cost, time and end; and, for a
directed scene, its rounds.

    outline = run_outline(log.events, log.id)
    outline.agents["main"].steps[3].calls   # (tool name, arguments as JSON), in order

A step's content is what its conversation change added: the model's text and tool calls with
their arguments, the tools' results, the person's words. Ids (of tool calls, of agents) are
left out: two runs never share them. Steps a rewind set aside are left out too: an agent's
steps are the path its conversation took in the end.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field

from agentui.core.agent.steps import StepKind, StepLog
from agentui.core.protocol import events as ev
from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.protocol.conversation import Message
from agentui.core.session.reader import collector_paused


@dataclass(frozen=True, slots=True)
class ToolCallMade:
    name: str
    arguments: str  # JSON, keys sorted: equal arguments read the same

    def __str__(self) -> str:
        return f"{self.name} {self.arguments}"


@dataclass(frozen=True, slots=True)
class StepContent:
    number: int
    kind: StepKind
    summary: str  # one line (core/agent/steps.py's)
    text: str  # the model's, the person's or the task's words
    calls: tuple[ToolCallMade, ...] = ()
    results: tuple[tuple[str, bool], ...] = ()  # (content, is_error)
    tokens: int | None = None  # a model step's call
    seconds: float | None = None  # a model step's call

    @property
    def work(self) -> tuple[object, ...]:
        """What it did: kind, words, calls with their arguments, results. Numbers, tokens and
        time may differ between runs that did the same."""
        return (self.kind, self.text, self.calls, self.results)

    def same_as(self, other: StepContent) -> bool:
        return self.work == other.work


@dataclass(slots=True)
class AgentOutline:
    id: str
    name: str
    parent: str | None  # its parent's name
    task: str
    forked: ev.AgentForked | None = None
    status: str = AgentStatus.PENDING.value
    steps: list[StepContent] = field(default_factory=list)
    answers: list[str | None] = field(default_factory=list)  # the person's, in order
    tokens: int = 0
    cost_usd: float | None = None
    started_ts: float | None = None
    ended_ts: float | None = None

    @property
    def seconds(self) -> float | None:
        if self.started_ts is None or self.ended_ts is None:
            return None
        return max(0.0, self.ended_ts - self.started_ts)


@dataclass(frozen=True, slots=True)
class RoundOutline:
    """One round of a directed scene: the person's input, who acted and what they did."""

    number: int
    text: str = ""
    acted: tuple[tuple[str, str, str], ...] = ()  # (character, how its turn ended, its text)
    ended: str = ""
    summary: str = ""

    def same_as(self, other: RoundOutline) -> bool:
        return (self.text, self.acted, self.ended) == (other.text, other.acted, other.ended)


@dataclass(slots=True)
class RunOutline:
    session: str
    agents: dict[str, AgentOutline] = field(default_factory=dict)  # by name, in spawn order
    rounds: list[RoundOutline] = field(default_factory=list)

    def agent(self, name_or_id: str) -> AgentOutline | None:
        found = self.agents.get(name_or_id)
        if found is None:
            found = next((a for a in self.agents.values() if a.id == name_or_id), None)
        return found


def run_outline(events: Iterable[ev.Event], session: str = "") -> RunOutline:
    """The outline of a run's events, in one pass (the collector held off: what it makes is
    kept, as reading a log's is)."""
    with collector_paused():
        return _outline(events, session)


def _outline(events: Iterable[ev.Event], session: str) -> RunOutline:
    outline = RunOutline(session)
    by_id: dict[str, AgentOutline] = {}
    logs: dict[str, StepLog] = {}
    contents: dict[str, list[StepContent]] = {}
    responded: dict[str, ev.LLMResponded] = {}  # each agent's latest model answer
    queries: dict[str, str] = {}  # query id -> kind
    rounds: dict[int, dict[str, object]] = {}
    for event in events:
        agent_id = event.agent_id
        if isinstance(event, ev.AgentSpawned):
            parent = by_id.get(event.parent_id) if event.parent_id is not None else None
            spawned = AgentOutline(agent_id, _unique(outline, event.name),
                                   parent.name if parent is not None else None, event.task,
                                   started_ts=event.ts)  # fmt: skip
            by_id[agent_id] = outline.agents[spawned.name] = spawned
            logs[agent_id] = StepLog(event.name)
            contents[agent_id] = []
            if event.parent_id in logs:
                logs[event.parent_id].child_started(agent_id)
            continue
        agent = by_id.get(agent_id)
        if isinstance(event, ev.ConversationChanged | ev.AgentRewound) and agent is not None:
            log = logs[agent_id]
            before = len(log.steps)
            log.apply(event)
            if isinstance(event, ev.ConversationChanged) and len(log.steps) > before:
                step = log.steps[-1]
                response = responded.pop(agent_id, None) if step.kind == "model" else None
                contents[agent_id].append(
                    _content(step.number, step.kind, step.summary, event.append, response)
                )
        elif isinstance(event, ev.LLMResponded):
            responded[agent_id] = event
        elif isinstance(event, ev.UsageUpdated) and agent is not None:
            agent.tokens = event.total.total_tokens
            agent.cost_usd = event.total_cost_usd
        elif isinstance(event, ev.StatusChanged) and agent is not None:
            agent.status = event.new
            if AgentStatus(event.new).is_final:
                agent.ended_ts = event.ts
        elif isinstance(event, ev.AgentForked) and agent is not None:
            agent.forked = event
        elif isinstance(event, ev.QueryRaised):
            queries[event.query_id] = event.kind
        elif isinstance(event, ev.QueryAnswered | ev.QueryDeclined) and agent is not None:
            if queries.get(event.query_id) != "approval":
                agent.answers.append(event.answer if isinstance(event, ev.QueryAnswered) else None)
        elif isinstance(event, ev.RoundStarted):
            rounds.setdefault(event.round, {"text": event.text, "acted": []})
        elif isinstance(event, ev.CharacterCompleted):
            played = rounds.setdefault(event.round, {"text": "", "acted": []})
            played["acted"].append((event.name, event.ended, event.text))  # type: ignore[attr-defined]
        elif isinstance(event, ev.RoundCompleted):
            played = rounds.setdefault(event.round, {"text": "", "acted": []})
            played["ended"], played["summary"] = event.ended, event.running_summary
    for agent_id, agent in by_id.items():
        log = logs[agent_id]
        agent.steps = [c for c, s in zip(contents[agent_id], log.steps, strict=True)
                       if not s.set_aside]  # fmt: skip
    outline.rounds = [
        RoundOutline(number, str(r["text"]), tuple(r["acted"]),  # type: ignore[arg-type]
                     str(r.get("ended", "")), str(r.get("summary", "")))
        for number, r in sorted(rounds.items())
    ]  # fmt: skip
    return outline


def _unique(outline: RunOutline, name: str) -> str:
    """Names are unique in a tree; a session with two runtimes' trees may repeat one."""
    if name not in outline.agents:
        return name
    n = 2
    while f"{name}#{n}" in outline.agents:
        n += 1
    return f"{name}#{n}"


def _content(
    number: int,
    kind: StepKind,
    summary: str,
    append: list[Message],
    response: ev.LLMResponded | None,
) -> StepContent:
    calls = tuple(
        ToolCallMade(use.name, json.dumps(use.input, sort_keys=True, ensure_ascii=False))
        for message in append
        for use in message.tool_uses
    )
    results = tuple(
        (result.content, result.is_error) for message in append for result in message.tool_results
    )
    text = "\n".join(message.text for message in append if message.text)
    model = kind == "model" and response is not None
    return StepContent(
        number, kind, summary, text, calls, results,
        tokens=response.usage.total_tokens if model else None,  # type: ignore[union-attr]
        seconds=response.duration_s if model else None,  # type: ignore[union-attr]
    )  # fmt: skip
