"""What each live agent was doing when its session ended, read from the saved log, for a
resume to give it back (resume.py).

A log can end two ways. A crash (a kill) leaves the agents live in it: what they waited on is
what the fold says stands (open questions, a budget's stop, a stall, the text streaming). A quit
(the runtime's shutdown) cancelled them in it, which withdrew their questions, ended their
stops, and closed their conversations ("not run" results, the streamed text kept as
interrupted): what that cancel undid is read back from the events before it.

For an agent in its six-step workflow's questions phase, the round of questions it was in is
read too (QuestionRound): a question of it given back waits with the rest of its round after it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from agentui.core.protocol import events as ev
from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.protocol.conversation import Message
from agentui.core.protocol.events import AGENT_STOPPED_REASON, SHUTDOWN_REASON
from agentui.core.state import AgentState, RunState
from agentui.core.state.run_state import NOT_THE_AGENTS_WORD, OpenQuery

# A query withdrawn because its agent stopped (queries.py): a quit's cancel does it.
WITHDRAWN = AGENT_STOPPED_REASON
_QUESTIONS_PHASE = 2  # the six-step workflow's blocking questions (workflow_trail.QUESTIONS)


@dataclass(frozen=True, slots=True)
class QuestionRound:
    """The six-step workflow's round of blocking questions an agent was in: its number, the
    questions its decision gave, and how many of them it had asked (raised). `withdrawn`: the
    last one asked was withdrawn when its agent stopped (a quit): raised again by a resume,
    it is the same question, not the next."""

    number: int
    questions: tuple[str, ...]
    asked: int = 0
    withdrawn: bool = False

    def raised(self, prompt: str) -> QuestionRound:
        again = self.withdrawn and self.asked > 0 and self.questions[self.asked - 1] == prompt
        return replace(self, asked=self.asked if again else self.asked + 1, withdrawn=False)


@dataclass(slots=True)
class SessionEnd:
    """What a live agent was doing when its session ended. A crash (a kill) left it live in the
    log; a quit cancelled it (SHUTDOWN_REASON), and what that cancel undid is read back from
    the events before it (`quit`)."""

    agent: AgentState
    status: AgentStatus  # its (live) status then
    queries: list[OpenQuery]  # open then
    stop: ev.BudgetReached | None  # its own budget's stop, standing then
    stall: ev.AgentStalled | None  # standing then
    partial_text: str  # what it was streaming
    started: set[str]  # its last answer's tool calls that had started
    quit: bool = False
    # A quit: how many messages its conversation had before the quit's cancel added its own
    # (results "not run" for its tool calls, the streamed text): None when it added none.
    kept: int | None = None
    round: QuestionRound | None = None  # in its workflow's questions phase
    task: str | None = None  # its last run's (execution:start), which a resume goes on with

    def messages(self) -> list[Message]:
        """Its conversation as it waited (before a quit's cancel closed it)."""
        messages = self.agent.conversation.messages
        return messages if self.kept is None else messages[: self.kept]


def _is_quit(event: ev.Event) -> bool:
    return isinstance(event, ev.StatusChanged | ev.ExecutionCancelled) and (
        event.reason == SHUTDOWN_REASON
    )


def _quits_own(event: ev.Event) -> bool:
    """One of the events a quit's cancel of an agent emits (queries.withdraw, the loop's
    results for its calls and the streamed text kept, the usage of a cut response, execute's
    end): after its last event of any other kind, they are the cancel's."""
    if isinstance(event, ev.QueryDeclined):
        return event.reason == WITHDRAWN
    return _is_quit(event) or isinstance(
        event, ev.ConversationChanged | ev.UsageUpdated | ev.InterventionsUnused
    )


def session_ends(state: RunState, events: list[ev.Event]) -> list[SessionEnd]:
    """Every agent that was live when the session ended, in spawn order: live in the log (a
    crash), or cancelled by the runtime's shutdown (a quit)."""
    live = {a.id for a in state.agents.values() if a.status.is_live}
    quit = {
        a.id
        for a in state.agents.values()
        if a.status is AgentStatus.CANCELLED and a.status_reason == SHUTDOWN_REASON
    }
    watched = live | quit
    if not watched:
        return []  # every agent ended on its own: no need to read the log again
    raised: dict[str, OpenQuery] = {}
    withdrawn: dict[str, list[OpenQuery]] = {}
    stops: dict[str, ev.BudgetReached | None] = {}
    stalls: dict[str, ev.AgentStalled | None] = {}
    kept: dict[str, int | None] = {}
    started: dict[str, set[str]] = {}
    partial: dict[str, str] = {}
    quits: dict[str, SessionEnd] = {}
    rounds: dict[str, QuestionRound | None] = {}
    tasks: dict[str, str] = {}
    for event in events:
        agent_id = event.agent_id
        if agent_id not in watched or event.type in NOT_THE_AGENTS_WORD:
            continue
        match event:
            case ev.AgentStalled():
                stalls[agent_id] = event
                continue  # not the agent's own word
            case ev.ToolStarted(call=call):
                started.setdefault(agent_id, set()).add(call.id)
            case ev.LLMResponded():
                started[agent_id] = set()
            case ev.QueryRaised(query_id=query_id):
                raised[query_id] = OpenQuery(
                    query_id, agent_id, event.prompt, event.kind, event.ts, event.tool,
                    event.arguments,
                )  # fmt: skip
                current = rounds.get(agent_id)
                if current is not None and event.kind == "blocking":
                    rounds[agent_id] = current.raised(event.prompt)
            case ev.ExecutionStarted(task=task):
                tasks[agent_id] = task
            case ev.WorkflowStepStarted(step=step):
                rounds[agent_id] = QuestionRound(0, ()) if step == _QUESTIONS_PHASE else None
            case ev.DecisionMade(decision="questions", ok=True, value=value):
                current = rounds.get(agent_id)
                if current is not None:
                    given = tuple(str(q) for q in (value or {}).get("questions", []))
                    rounds[agent_id] = QuestionRound(current.number + 1, given)
            case ev.QueryDeclined(query_id=query_id, reason=reason) if reason == WITHDRAWN:
                if query_id in raised:
                    withdrawn.setdefault(agent_id, []).append(raised[query_id])
                current = rounds.get(agent_id)
                if current is not None and query_id in raised:
                    rounds[agent_id] = replace(current, withdrawn=True)
            case ev.BudgetReached():
                stops[agent_id] = event
            case ev.BudgetContinued() | ev.BudgetSet(source="person"):
                stops[agent_id] = None
            case ev.ExecutionCancelled(partial_text=text) if _is_quit(event):
                partial[agent_id] = text
            case ev.ConversationChanged(keep=keep) if kept.get(agent_id) is None:
                kept[agent_id] = keep
            case ev.StatusChanged(old=old) if _is_quit(event):
                quits[agent_id] = SessionEnd(
                    state.agents[agent_id], AgentStatus(old), withdrawn.get(agent_id, []),
                    stops.get(agent_id), stalls.get(agent_id), partial.get(agent_id, ""),
                    set(started.get(agent_id, ())), quit=True, kept=kept.get(agent_id),
                    round=rounds.get(agent_id), task=tasks.get(agent_id),
                )  # fmt: skip
            case ev.StatusChanged():
                withdrawn[agent_id] = []
        if not _quits_own(event):
            kept[agent_id] = None
            stalls[agent_id] = None
            partial[agent_id] = ""
    streaming = state.streaming
    ends: list[SessionEnd] = []
    for agent in state.agents.values():
        if agent.id in quit and agent.id in quits:
            ends.append(quits[agent.id])
        elif agent.id in live:
            asked = [q for q in state.open_queries.values() if q.agent_id == agent.id]
            stall = stalls.get(agent.id) if agent.stalled_since is not None else None
            end = SessionEnd(
                agent, agent.status, asked, agent.budget_stop, stall,
                streaming.get(agent.id, ""), set(started.get(agent.id, ())),
                round=rounds.get(agent.id), task=tasks.get(agent.id),
            )  # fmt: skip
            ends.append(end)
    return ends
