"""Resuming a saved session: its agents back in a new runtime, as they were.

Finished agents come back as they ended. What waited on the person when the session ended
comes back waiting, so every inbox row survives a resume: an agent asking a question (its
ask_user) or an approval of a tool call waits on it again, and the answer goes on from its
saved conversation (an approval allowed runs the call); an agent in its six-step workflow
waiting on one of the workflow's questions (clarify, a round's, the summary's final one) waits
on it again, and the answer goes on with the workflow from there (workflow_trail.py), as does
one in the workflow's own work given back waiting or paused; a budget's stop holds its subtree's
live agents paused again (raise it, go on once past it, or cancel); a stalled agent comes back
paused, to resume, steer or cancel. Any other agent that was live (a crash, a kill) comes back
cancelled and marked interrupted, exactly as if it had been cancelled at that moment: the
events that a cancel would have emitted are added (`closing`: open questions declined,
`execution:cancelled` with the text it was streaming, a `conversation:changed` that leaves in
its conversation what a cancel leaves (a result for every tool call: the real one when the
tool had finished, else "not run"; the streamed text as an interrupted message), and
`agent:status` to cancelled). The writer puts them at the head of the resumed run.
`Runtime.send(id, text)` then continues any ended agent from its saved conversation.

"When the session ended" is either end a log can have: a crash leaves the waiting agents live
in it; a quit (the runtime's shutdown) cancels them in it, and what the cancel undid is read
back from the events before it (session_end.py) and put back by closing events (the question
raised again, the stop reached again, the conversation as it waited).

    plan = open_for_resume("last")

    def make_runtime() -> Runtime:  # called inside the event loop: adopting needs it
        runtime = RecordingRuntime(provider, session=SessionWriter(plan.continued_session()),
                                   last_seq=plan.last_seq, ids=plan.id_source())
        plan.adopt_into(runtime)
        return runtime

    app = AgentUIApp(make_runtime, state=plan.state)

Folded once: the plan folds the log (with the closing events) into the one fold's RunState,
which the app takes as its own picture of the run, and the runtime adopts a plain copy of each
agent (its conversation a new list of the same messages, which are never changed in place).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from agentui.core.agent.approval import APPROVAL_CHOICES
from agentui.core.agent.budget_account import BudgetStop
from agentui.core.agent.ids import IdSource
from agentui.core.agent.reopening import Reopening
from agentui.core.agent.steps import StepLog
from agentui.core.agent.workflow_trail import QUESTION_STEPS, TakeUp, WaitingQuestion
from agentui.core.protocol import events as ev
from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.protocol.conversation import Message, TextBlock, ToolResultBlock
from agentui.core.session.delta_merge import merge_deltas
from agentui.core.session.fold import fold_parts
from agentui.core.session.reader import SessionLog, collector_paused, read_session
from agentui.core.session.resume_plan import ResumePlan as ResumePlan  # where it was
from agentui.core.session.resume_target import session_to_resume
from agentui.core.session.saved_steps import all_steps
from agentui.core.session.session_end import SessionEnd, session_ends
from agentui.core.state import INTERRUPTED, AgentState, RunState
from agentui.core.state.run_state import OpenQuery
from agentui.core.tools.ask_user import ASK_USER

DECLINED_REASON = "the session ended"
NOT_RUN = "not run: the session ended"


def plan_resume(log: SessionLog, *, transcripts: bool = True) -> ResumePlan:
    """`transcripts=False` when no screen will show the state (it folds faster)."""
    # A block's text in one event, however many lines (or, in format 1, deltas) it took.
    with collector_paused():  # a heap of saved events: no collection walks it meanwhile
        events = merge_deltas(log.events)
    state = fold_parts(events, log.conversations, transcripts=transcripts)
    ends = session_ends(state, events)
    # Each agent's steps (and six-step workflow's trail), then the closing events' part in them.
    steps = all_steps(events)
    closing = _Closing(state, max(state.last_seq, log.last_seq), steps)
    closing.close(ends)
    # An "always" lasted until that agentui quit: the resumed run asks again, and every view,
    # here or attached over the network, learns it from this event.
    closing.add(ev.RunResumed, ev.RUNTIME_EVENT, session_id=log.id)
    state.apply_all(closing.events)
    for event in closing.events:
        if (agent_steps := steps.get(event.agent_id)) is not None:
            agent_steps.apply(event)
    history = [*events, *closing.events]
    return ResumePlan(
        log,
        state,
        closing.events,
        closing.interrupted,
        history,
        steps,
        closing.reopenings,
        closing.stops,
    )


def open_for_resume(reference: str) -> ResumePlan:
    """Find, check and load a session to resume: `last`, an id, a unique id prefix, a path.
    (The app, which replays nothing, opens it with `resume_open.open_to_show`.)"""
    return plan_resume(read_session(session_to_resume(reference)))


# Why an agent given back live waits (its agent:status's reason).
WAITS_AGAIN = "the session ended while it waited for the person: it waits again"
STALLED_AT_END = "interrupted: the session ended while it said nothing; it waits paused for you"


class _Closing:
    """The events that take a session's agents from where its log left them to how they come
    back (plan_resume), and how the runtime takes each up.

    An agent waiting on the person when the session ended comes back waiting: on its question
    or approval (its run starts from its saved conversation and waits on it), held by its
    budget's stop (its subtree's live agents paused by it), or, stalled, paused for the person
    to resume, steer or cancel. Any other live agent comes back cancelled, interrupted, as if
    cancelled at that moment (a quit cancelled it already: nothing to add)."""

    def __init__(self, state: RunState, last_seq: int, steps: dict[str, StepLog]) -> None:
        self.state = state
        self.steps = steps  # each agent's, with its workflow's trail
        self.seq = last_seq
        self.ts = state.last_ts  # the last moment the session is known to have been alive
        self.events: list[ev.Event] = []
        self.interrupted: list[str] = []
        self.reopenings: dict[str, Reopening] = {}
        self.stops: dict[str, tuple[BudgetStop, list[str]]] = {}
        self._ids = IdSource()
        for identifier in state.ids:
            self._ids.observe(identifier)

    def add(self, cls: type[ev.Event], agent_id: str, **fields: Any) -> None:
        self.seq += 1
        self.events.append(cls(seq=self.seq, ts=self.ts, agent_id=agent_id, **fields))

    def close(self, ends: list[SessionEnd]) -> None:
        by_id = {end.agent.id: end for end in ends}
        asking = {e.agent.id: r for e in ends if (r := self._reopened_query(e)) is not None}
        held = self._held_by_stops(by_id, asking)
        for end in ends:
            agent_id = end.agent.id
            if agent_id in asking:
                self._ask_again(end, asking[agent_id])
            elif agent_id in held:
                owner = self.state.agents[held[agent_id]]
                stop = by_id[owner.id].stop
                assert stop is not None
                self._hold_paused(end, _budget_stop(owner, stop).reason())
            elif end.stall is not None and end.status is AgentStatus.RUNNING and _model_run(end):
                self._hold_paused(end, STALLED_AT_END)
                self.add(
                    ev.AgentStalled, agent_id, since=end.stall.since, after_s=end.stall.after_s
                )
            elif not end.quit:
                self._interrupt(end)
            else:  # the quit cancelled it already: nothing to add, and it was cut short
                self.interrupted.append(agent_id)
            if agent_id in self.reopenings:  # the run it was in goes on, on that run's task
                self.reopenings[agent_id] = replace(self.reopenings[agent_id], task=end.task)
        for owner_id, paused in self._stopped_owners(by_id, held, asking).items():
            end = by_id[owner_id]
            assert end.stop is not None
            if end.quit:  # the quit's cancel ended the stop with its owner: it stands again
                fields = end.stop.model_dump(include=_STOP_FIELDS)
                self.add(ev.BudgetReached, owner_id, **{**fields, "paused": paused})
            self.stops[owner_id] = (_budget_stop(end.agent, end.stop), paused)

    def _held_by_stops(
        self, by_id: dict[str, SessionEnd], asking: dict[str, Reopening]
    ) -> dict[str, str]:
        """The agents a standing budget stop holds paused, with the stop's owner: each live
        agent of its subtree (its nearest stopped budget's) but those asking the person."""
        held: dict[str, str] = {}
        for end in by_id.values():
            if end.agent.id in asking or not _model_run(end):
                continue
            owner = self._stopped_owner(end.agent, by_id)
            if owner is not None:
                held[end.agent.id] = owner
        return held

    def _stopped_owner(self, agent: AgentState, by_id: dict[str, SessionEnd]) -> str | None:
        member: AgentState | None = agent
        while member is not None:
            end = by_id.get(member.id)
            if end is not None and end.stop is not None and _model_run(end):
                return member.id
            parent = member.parent_id
            member = self.state.agents.get(parent) if parent is not None else None
        return None

    def _stopped_owners(
        self, by_id: dict[str, SessionEnd], held: dict[str, str], asking: dict[str, Reopening]
    ) -> dict[str, list[str]]:
        """Each stop that stands, by owner, with the agents it holds paused."""
        owners: dict[str, list[str]] = {}
        for owner_id in [*held.values(), *asking]:
            end = by_id[owner_id]
            if end.stop is not None and _model_run(end):
                owners.setdefault(owner_id, [])
        for agent_id, owner_id in held.items():
            owners[owner_id].append(agent_id)
        return owners

    def _ask_again(self, end: SessionEnd, reopening: Reopening) -> None:
        """Waiting again on its question or approval. After a crash the log holds it open:
        nothing is added, and the runtime takes it up under its own id. A second query:raised
        would show the question twice (transcript, replay, export) for one question. After a
        quit, the quit's cancel declined it and closed the agent's tool calls: they are taken
        back, and the question is raised again, in the same words, under a new id (an id is
        raised once: answers, transcripts and reruns match by it)."""
        agent = end.agent
        if end.quit:
            self._take_back_conversation(end)
            self._status(agent, AgentStatus.AWAITING_USER, WAITS_AGAIN)
            query_id = self._ids.next("q")
            approval = reopening.kind == "approval"
            self.add(
                ev.QueryRaised, agent.id, query_id=query_id, prompt=reopening.prompt,
                kind=reopening.kind, tool=reopening.tool, arguments=reopening.arguments,
                choices=list(APPROVAL_CHOICES) if approval else None,
            )  # fmt: skip
            reopening = replace(reopening, query_id=query_id)
        self.reopenings[agent.id] = reopening

    def _reopened_query(self, end: SessionEnd) -> Reopening | None:
        """How the agent waits again on the question or approval it waited on, when its run
        can take it up, else None (that agent comes back interrupted). An ask_user or an
        approval: its first tool call without a result is the one that asked (an ask_user with
        those words, or the very call put to the person for approval), the calls before it
        finished. A question of its six-step workflow: its workflow goes on in the phase that
        asked it (workflow_trail.py). A question from inside python code cannot be taken up
        halfway."""
        if end.status is not AgentStatus.AWAITING_USER or len(end.queries) != 1:
            return None
        if not _model_run(end):
            return None
        (query,) = end.queries
        if query.kind in QUESTION_STEPS and query.tool is None:
            return self._reopened_workflow_question(end, query)
        finished = self.state.tool_results.get(end.agent.id, {})
        pending = [use for use in _pending_calls(end.messages()) if use.id not in finished]
        if not pending:
            return None
        use = pending[0]
        if query.kind == "approval":
            asks = use.name == query.tool and dict(use.input) == (query.arguments or {})
            started: frozenset[str] = frozenset()
        else:
            asks = use.name == ASK_USER.name and use.input.get("question") == query.prompt
            started = frozenset({use.id})
        if not asks or query.kind not in ("approval", "question"):
            return None
        calls = _pending_calls(end.messages())
        outcomes = {u.id: finished[u.id] for u in calls if u.id in finished}
        return Reopening(
            query_id=query.query_id, prompt=query.prompt, kind=query.kind, tool=query.tool,
            arguments=query.arguments, call_id=use.id, outcomes=outcomes, started=started,
            take_up=self._take_up(end),
        )  # fmt: skip

    def _reopened_workflow_question(self, end: SessionEnd, query: OpenQuery) -> Reopening | None:
        """Its workflow's question (clarify, a round's, the summary's final one) waits again,
        and its workflow goes on from it; a blocking one with the rest of its round."""
        steps = self.steps.get(end.agent.id)
        if steps is None:
            return None
        waiting = WaitingQuestion(query.kind, query.prompt)
        if query.kind == "blocking":
            round_ = end.round
            if round_ is None or not 0 < round_.asked <= len(round_.questions):
                return None
            if round_.questions[round_.asked - 1] != query.prompt:
                return None  # not the question its round's decision gave: cannot tell the rest
            rest = round_.questions[round_.asked :]
            waiting = replace(waiting, round=round_.number, rest=rest)
        take_up = steps.workflow.resumed(end.messages(), steps.steps, waiting)
        if take_up is None:
            return None
        return Reopening(
            query_id=query.query_id, prompt=query.prompt, kind=query.kind, take_up=take_up
        )

    def _take_up(self, end: SessionEnd) -> TakeUp | None:
        """Where an agent given back waiting or held in its six-step workflow goes on in it
        (None: the plain loop, as for any agent)."""
        steps = self.steps.get(end.agent.id)
        if steps is None:
            return None
        next_round = end.round.number + 1 if end.round is not None else 1
        return steps.workflow.resumed(end.messages(), steps.steps, next_round=next_round)

    def _hold_paused(self, end: SessionEnd, reason: str) -> None:
        """Back paused, waiting for the person. One that waited at its pause gate, its stream
        closed and no tool of it running (a budget stopped it), goes on from there: its tool
        calls that finished are not run again. Any other is interrupted first, as a cancel
        would have left it (a quit's cancel did that already)."""
        agent = end.agent
        messages = end.messages()
        finished = self.state.tool_results.get(agent.id, {})
        pending = _pending_calls(messages)
        running = [use.id for use in pending if use.id in end.started and use.id not in finished]
        at_its_gate = end.status is AgentStatus.PAUSED and not end.partial_text and not running
        if at_its_gate:
            if end.quit:
                self._take_back_conversation(end)
            outcomes = {use.id: finished[use.id] for use in pending if use.id in finished}
            self.reopenings[agent.id] = Reopening(outcomes=outcomes, take_up=self._take_up(end))
        else:
            # As a pause that closed its stream: the response is asked for again on resume
            # (the text streamed stays in the transcript, cut short), its tools "not run".
            if end.quit:
                self._take_back_streamed_text(end)
            else:
                self._cancel_execution(end, keep_streamed=False)
            self.reopenings[agent.id] = Reopening(take_up=self._take_up(end))
        if end.status is not AgentStatus.PAUSED or end.quit:
            self._status(agent, AgentStatus.PAUSED, reason)

    def _interrupt(self, end: SessionEnd) -> None:
        """Cancelled, marked interrupted, as if cancelled when the session ended."""
        self._cancel_execution(end)
        self._status(end.agent, AgentStatus.CANCELLED, INTERRUPTED)
        self.interrupted.append(end.agent.id)

    def _cancel_execution(self, end: SessionEnd, *, keep_streamed: bool = True) -> None:
        """What a cancel at the end of the session would have emitted before the agent's new
        status: its questions declined, its execution cancelled with the text it streamed, and
        its conversation closed (closing_messages; the streamed text in it with
        `keep_streamed`)."""
        agent = end.agent
        for query in end.queries:
            self.add(ev.QueryDeclined, agent.id, query_id=query.query_id, reason=DECLINED_REASON)
        self.add(ev.ExecutionCancelled, agent.id, reason=INTERRUPTED, partial_text=end.partial_text)
        messages = agent.conversation.messages
        results = self.state.tool_results.get(agent.id, {})
        closed = closing_messages(messages, end.partial_text if keep_streamed else "", results)
        if closed:
            self.add(ev.ConversationChanged, agent.id, keep=len(messages), append=closed)

    def _take_back_conversation(self, end: SessionEnd) -> None:
        """Undo what a quit's cancel added to the conversation (results "not run")."""
        messages = end.agent.conversation.messages
        if end.kept is not None and end.kept < len(messages):
            self.add(ev.ConversationChanged, end.agent.id, keep=end.kept, append=[])

    def _take_back_streamed_text(self, end: SessionEnd) -> None:
        """Undo the streamed text a quit's cancel kept in the conversation as interrupted."""
        messages = end.agent.conversation.messages
        if end.partial_text and messages and messages[-1].interrupted:
            self.add(ev.ConversationChanged, end.agent.id, keep=len(messages) - 1, append=[])

    def _status(self, agent: AgentState, new: AgentStatus, reason: str) -> None:
        # The fold has applied none of the closing events yet: the status the log left.
        self.add(ev.StatusChanged, agent.id, old=agent.status.value, new=new.value, reason=reason)


_STOP_FIELDS = {"measure", "limit", "spent", "over", "stopped_agent"}


def _model_run(end: SessionEnd) -> bool:
    """A model runs the agent: its loop can go on from its conversation (agentui's own code
    running a scene or a round cannot be taken up in the middle)."""
    return end.agent.driver is None


def _budget_stop(owner: AgentState, stop: ev.BudgetReached) -> BudgetStop:
    return BudgetStop(owner.id, owner.name, stop.measure, stop.limit, stop.spent)


def _pending_calls(messages: list[Message]) -> list[Any]:
    """The tool calls of the conversation's last message when it is a model's answer."""
    last = messages[-1] if messages else None
    if last is None or last.role != "assistant" or last.interrupted:
        return []
    return list(last.tool_uses)


def closing_messages(
    messages: list[Message], partial_text: str, tool_results: dict[str, tuple[str, bool]]
) -> list[Message]:
    """What a cancel at the end of the session would have added to the conversation."""
    added: list[Message] = []
    last = messages[-1] if messages else None
    if last is not None and last.role == "assistant" and last.tool_uses:
        # Its tools were running: every tool_use needs its result, or the model refuses the
        # conversation. A tool that finished has its real result in the log.
        results: list[ToolResultBlock] = []
        for use in last.tool_uses:
            content, is_error = tool_results.get(use.id, (NOT_RUN, True))
            results.append(ToolResultBlock(tool_use_id=use.id, content=content, is_error=is_error))
        added.append(Message(role="user", content=list(results)))
    if partial_text:
        added.append(
            Message(role="assistant", content=[TextBlock(text=partial_text)], interrupted=True)
        )
    return added
