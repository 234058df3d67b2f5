"""Resuming a saved session: its agents back in a new runtime, as they were.

Finished agents come back as they ended. An agent that was still live when the session ended (a
crash, a kill) comes back cancelled and marked interrupted, exactly as if it had been cancelled
at that moment: the events that a cancel would have emitted are added (`closing`: open questions
declined, `execution:cancelled` with the text it was streaming, a `conversation:changed` that
leaves in its conversation what a cancel leaves (a result for every tool call: the real one
when the tool had finished, else "not run"; the streamed text as an interrupted message), and
`agent:status` to cancelled). The writer puts them at the head of the resumed run.
`Runtime.send(id, text)` then continues any ended agent from its saved conversation.

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

from dataclasses import dataclass
from typing import Any

from agentui.core.agent.ids import IdSource
from agentui.core.agent.pending_interventions import Note
from agentui.core.agent.steps import StepLog
from agentui.core.protocol import events as ev
from agentui.core.protocol.conversation import Message, TextBlock, ToolResultBlock
from agentui.core.runtime import Runtime
from agentui.core.session.delta_merge import merge_deltas
from agentui.core.session.errors import SessionError
from agentui.core.session.fold import fold_parts
from agentui.core.session.lock import is_locked
from agentui.core.session.reader import SessionLog, collector_paused, read_session
from agentui.core.session.saved_steps import all_steps
from agentui.core.session.store import find_session
from agentui.core.session.summary import SummaryTracker
from agentui.core.session.writer import ContinuedSession
from agentui.core.state import INTERRUPTED, AgentState, RunState

DECLINED_REASON = "the session ended"
NOT_RUN = "not run: the session ended"


@dataclass(slots=True)
class ResumePlan:
    log: SessionLog
    state: RunState  # after the closing events
    closing: list[ev.Event]  # what a cancel would have emitted for the interrupted agents
    interrupted: list[str]  # ids of the agents that were live when the session ended
    # Every saved event, each block's deltas in one piece, then the closing ones: what the app
    # shows before new work.
    history: list[ev.Event]
    # Each agent's steps, so a resumed agent can be rewound or forked (~0.3 s per 100k
    # events: folded with the rest of the plan, not when the runtime adopts it on the loop).
    steps: dict[str, StepLog]

    @property
    def last_seq(self) -> int:
        """Where the resumed runtime's numbering continues."""
        return self.closing[-1].seq if self.closing else self.log.last_seq

    def id_source(self) -> IdSource:
        """Ids for the resumed runtime that never repeat one of the session's."""
        ids = IdSource()
        for identifier in self.state.ids:
            ids.observe(identifier)
        return ids

    def adopt_into(self, runtime: Runtime) -> None:
        """Put every agent of the session into `runtime` (parents first), without running it.

        The runtime gets its own copy of each agent: the plan's state stays the view's.
        """
        with collector_paused():  # a thousand agents: no collection walks them meanwhile
            for agent in self.state.agents.values():
                notes = [
                    Note.of(n.note_id, n.text, from_person=n.from_person)
                    for n in agent.queued_notes
                ]
                runtime.adopt(agent, notes=notes, modification=agent.pending_modification)
            for agent_id, steps in self.steps.items():
                runtime.recall_steps(agent_id, steps)

    def continued_session(self) -> ContinuedSession:
        """Where and how a writer appends the resumed run to the same file."""
        damaged = bool(self.log.damaged_lines)
        return ContinuedSession(
            path=self.log.path,
            append_at=self.log.valid_bytes,
            preamble=tuple(self.closing),
            format=self.log.header.format,
            # A summary cannot say what damaged lines lost: the listing reads such a file.
            header=None if damaged else self.log.header,
            summary=None if damaged else SummaryTracker.of(self.state),
        )


def plan_resume(log: SessionLog, *, transcripts: bool = True) -> ResumePlan:
    """`transcripts=False` when no screen will show the state (it folds faster)."""
    # A block's text in one event, however many lines (or, in format 1, deltas) it took.
    with collector_paused():  # a heap of saved events: no collection walks it meanwhile
        events = merge_deltas(log.events)
    state = fold_parts(events, log.conversations, transcripts=transcripts)
    interrupted = [node for node in state.agents.values() if node.status.is_live]
    streaming = {node.id: state.streaming.get(node.id, "") for node in interrupted}
    closing = _closing_events(state, interrupted, streaming, max(state.last_seq, log.last_seq))
    # An "always" lasted until that agentui quit: the resumed run asks again, and every view,
    # here or attached over the network, learns it from this event.
    closing.append(
        ev.RunResumed(
            seq=(closing[-1].seq if closing else max(state.last_seq, log.last_seq)) + 1,
            ts=state.last_ts,
            agent_id=ev.RUNTIME_EVENT,
            session_id=log.id,
        )
    )
    state.apply_all(closing)
    interrupted_ids = [n.id for n in interrupted]
    history = [*events, *closing]
    return ResumePlan(log, state, closing, interrupted_ids, history, all_steps(history))


def open_for_resume(reference: str) -> ResumePlan:
    """Find, check and load a session to resume: `last`, an id, a unique id prefix, a path."""
    path = find_session(reference)
    if is_locked(path):
        raise SessionError(
            f"session {path.stem} is still open in another agentui; close that one first"
        )
    return plan_resume(read_session(path))


def _closing_events(
    state: RunState, interrupted: list[AgentState], streaming: dict[str, str], last_seq: int
) -> list[ev.Event]:
    closing: list[ev.Event] = []
    seq = last_seq
    ts = state.last_ts  # the last moment the session is known to have been alive

    def add(cls: type[ev.Event], agent_id: str, **fields: Any) -> None:
        nonlocal seq
        seq += 1
        closing.append(cls(seq=seq, ts=ts, agent_id=agent_id, **fields))

    for node in interrupted:
        for query in [q for q in state.open_queries.values() if q.agent_id == node.id]:
            add(ev.QueryDeclined, node.id, query_id=query.query_id, reason=DECLINED_REASON)
        add(ev.ExecutionCancelled, node.id, reason=INTERRUPTED, partial_text=streaming[node.id])
        messages = node.conversation.messages
        closed = closing_messages(messages, streaming[node.id], state.tool_results.get(node.id, {}))
        if closed:
            add(ev.ConversationChanged, node.id, keep=len(messages), append=closed)
        add(ev.StatusChanged, node.id, old=node.status.value, new="cancelled", reason=INTERRUPTED)
    return closing


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
