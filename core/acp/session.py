"""One ACP session: one agentui runtime, recorded as one agentui session, with the same id.

The session hosts its runtime (`host`, a task of the server's task group, for the session's
life) and drives it through its commands only: a prompt starts the root agent (the first) or
continues it (`send`, the later ones), `session/cancel` cancels every live agent of the turn
(the root and so its whole tree; subagents a finished root left running), and the person's
answers go back as `answer` and `approve`. A turn ends when the root and every agent under it
have ended (turn.py). What it shows comes from the runtime's events alone, translated by
`UpdateTranslator`; a loaded session first replays its saved events through the same
translator.

A cancel can come before the turn's root is live: a continued root stays `completed` until its
new run starts, and the runtime refuses to cancel an ended agent. So the turn is marked
cancelled at once, and each of its agents that turns live again afterwards is cancelled as the
pump sees it.

With MCP servers configured, a prompt's task starts once each server has had its first outcome
(ready or failed; at most its startup_timeout_s), so the first turn already has their tools.

Questions wait for the client in tasks of their own, so updates keep flowing meanwhile: an
approval as a permission request (or at once in the "yes" mode), a question as a form or a
permission request (questions.py). A question withdrawn meanwhile (its agent was cancelled)
stops waiting for the client; an answer the client botched (an error, or one that does not fit
the protocol) declines the question or rejects the approval. A client that left gives no answer:
the question stays open (the runtime's end keeps it for a resume).

A client without forms cannot send a question's answer with its choice, so one choice is to
answer in the next prompt: the question shows in the conversation and the turn ends (`end_turn`,
"parked") with its agents still live, so the client takes a prompt again; that prompt answers
the question (the oldest, when several wait) and opens a turn that lasts until the asker's root
and everything under it have ended (its outcome the asker's run's when the root had already
ended: turn.py). A question shown so that is withdrawn meanwhile (its agent cancelled, or
answered elsewhere) gives way to the next one waiting, or, none left, to a line saying where the
next prompt goes. `session/cancel` with no turn running cancels a parked turn's agents and
declines the questions of other roots waiting for a prompt (they would stay open, never asked
again). A prompt while a parked turn's root still works, and no question waits, steers the root
(its next model call reads it).

A client may leave while a question waits for its answer (acpx ends the server after every
turn): the resume keeps the question open, and a loaded session takes up every question still
open as one the next prompts answer (shown at once, and the prompt that answers it says so); an
approval still open is put to the client when the next prompt starts.

If the session's host ends while a prompt runs (an error it did not expect), that prompt is
answered with a JSON-RPC error and the server forgets the session: its file keeps everything
for `session/load`. A prompt `session/close` ended is answered `cancelled`, as ACP asks.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from itertools import groupby
from typing import Any

import anyio
from acp import RequestError
from acp.helpers import update_agent_message_text
from acp.interfaces import Client
from acp.schema import PromptResponse
from anyio.abc import TaskGroup, TaskStatus
from pydantic import ValidationError

from agentui.core.acp.child_sessions import (
    SESSION_UPDATE,
    RawSend,
    announcement,
    child_id,
    session_message,
    state_update,
)
from agentui.core.acp.chunks import merged_chunks
from agentui.core.acp.inbox import METHOD as INBOX_METHOD
from agentui.core.acp.inbox import InboxNews, row_json
from agentui.core.acp.modes import YES, ModeId
from agentui.core.acp.prompt_text import PromptBlock, task_text
from agentui.core.acp.questions import (
    APPROVAL_OPTIONS,
    QUESTION_OPTIONS,
    answer_form,
    approval_call,
    approval_choice,
    deferred_question,
    form_answer,
    question_call,
    question_choice,
    reopened_answered,
    reopened_question,
    withdrawn_question,
)
from agentui.core.acp.turn import INTERNAL_ERROR, Turn
from agentui.core.acp.updates import SessionUpdate, UpdateTranslator
from agentui.core.acp.visible import visible
from agentui.core.protocol import events as ev
from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.protocol.commands import Command, Mode, allowed
from agentui.core.runtime import Runtime
from agentui.core.state import RunState
from agentui.core.state.agent_state import AgentState
from agentui.core.state.inbox import inbox, inbox_key
from agentui.core.support.errors import AgentUIError
from agentui.core.tools.mcp.first_outcomes import FirstOutcomes

log = logging.getLogger("agentui.acp")

CANCEL_REASON = "cancelled from the client"
# An update and the session it goes to; a dict is one the SDK has no model for (child_sessions).
Routed = tuple[str, SessionUpdate | dict[str, Any]]
# What a client may answer that is no answer: it failed or sent what the protocol has no
# reading of (the SDK's models refuse it). A client that went answers nothing: the question
# stays open, for a session/load to take up.
_NO_ANSWER = (ConnectionError, RequestError, ValidationError)


class AcpSession:
    def __init__(
        self,
        session_id: str,
        runtime: Runtime,
        client: Client,
        *,
        mode: ModeId,
        forms: bool,
        history: Sequence[ev.Event] = (),
        replay: bool = True,
        children: RawSend | None = None,
    ) -> None:
        """`forms`: the client takes form elicitations (free-text answers); `history`: a
        loaded session's saved events, replayed to the client before anything else (folded
        without a word to it when not `replay`: session/resume); `children`: the client takes
        subagents as child sessions, sent through this (child_sessions.py)."""
        self.id = session_id
        self.runtime = runtime
        self.mode: ModeId = mode
        self._client = client
        self._forms = forms
        self._history = history
        self._replay_history = replay
        self._events = runtime.subscribe()  # before anything runs, so nothing is missed
        self._servers = FirstOutcomes({})  # the MCP servers still starting, once it runs
        self._waiting: anyio.CancelScope | None = None  # a prompt's wait for them
        self._children = children
        self._translator = UpdateTranslator(child_sessions=children is not None)
        self._child_errors: dict[str, str] = {}  # a child session's agent's failure
        self._inbox = InboxNews()  # the rows last sent as `_agentui/inbox` (inbox.py)
        self._inbox_key: int | None = None  # state/inbox.inbox_key when they were last listed
        self._turn: Turn | None = None
        self._parked: str | None = None  # the root of the turn parked for an answer
        self._deferred: list[ev.QueryRaised] = []  # questions the next prompts answer, oldest first
        # Questions still open when the client last left (a loaded session's), and approvals
        # it left open, put to it when its next prompt starts.
        self._reopened: set[str] = set()
        self._approvals_left: list[ev.QueryRaised] = []
        self._tasks: TaskGroup | None = None
        self._asking: dict[str, anyio.CancelScope] = {}  # query id -> its wait for the client
        self._closing = anyio.Event()
        self.closed = anyio.Event()
        self._client_gone = False

    @property
    def busy(self) -> bool:
        return self._turn is not None

    # -- life ----------------------------------------------------------------------------

    async def host(self, *, task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED) -> None:
        """Run the runtime until `close`; started (and a loaded session replayed) once ready."""
        started = False
        try:
            async with self.runtime, anyio.create_task_group() as tasks:
                self._servers = FirstOutcomes.of(self.runtime)  # before anything awaits
                self._tasks = tasks
                await self._replay()
                tasks.start_soon(self._pump, tasks)
                task_status.started()
                started = True
                await self._closing.wait()
                tasks.cancel_scope.cancel()
        except Exception:
            if not started:
                raise  # the request that opened it answers with the error
            log.exception("session %s ended with an error", self.id)
        finally:
            self.closed.set()
            if self._turn is not None and self._turn.cancel_requested:
                self._turn.end()  # session/close: cancelled, as session/cancel would
            elif self._turn is not None:  # nothing will end it now
                self._turn.fail(
                    RequestError(
                        INTERNAL_ERROR,
                        "the session ended while the prompt ran; session/load reopens it",
                        {"sessionId": self.id},
                    )
                )

    async def close(self) -> None:
        """Stop every agent (the session file keeps them) and end the runtime."""
        self._closing.set()
        await self.closed.wait()

    # -- commands from the client ----------------------------------------------------------

    async def prompt(self, blocks: Sequence[PromptBlock]) -> PromptResponse:
        text = task_text(blocks)
        if not text.strip():
            raise RequestError.invalid_params(
                {"prompt": "the prompt holds no text to work on (this agent reads text only)"}
            )
        if self.closed.is_set():
            raise RequestError.invalid_request({"details": f"session {self.id} has ended"})
        if not self._servers.done:
            log.info("waiting for MCP servers to start: %s", ", ".join(self._servers.waiting))
            with anyio.CancelScope() as waiting:  # session/cancel ends the wait
                self._waiting = waiting
                await self._servers.settled()  # then one of two prompts is refused below
            self._waiting = None
            if waiting.cancel_called:
                return PromptResponse(stop_reason="cancelled")
        if self._turn is not None:
            raise RequestError.invalid_request(
                {"details": "a prompt is already running in this session; cancel it first"}
            )
        answered = self._answer_deferred(text)
        if answered is not None:
            root_id = self._root_of(answered.agent_id)
            if answered.query_id in self._reopened:
                await self._send(
                    update_agent_message_text(reopened_answered(self._name_of(answered.agent_id)))
                )
        else:
            known = self._root_to_continue()
            try:
                if known is None:
                    root_id = self.runtime.start(text)
                else:
                    self._continue(known, text)
                    root_id = known
            except AgentUIError as exc:
                raise RequestError.invalid_request({"details": visible(str(exc))}) from None
        # Set before anything awaits: the pump has not seen the root's first event yet.
        self._parked = None
        root = self._translator.state.agents.get(root_id)
        left_by_root = root is not None and root.status.is_final
        # An agent the root left: its run is this prompt's outcome, not the root's old end.
        runs = answered.agent_id if answered is not None and left_by_root else None
        turn = self._turn = Turn(root_id, runs=runs)
        self._ask_approvals_left()
        try:
            if self._deferred:  # another question waits for the next prompt
                await self._park(turn)
            await turn.ended.wait()
        finally:
            self._turn = None
        return turn.response()

    def cancel(self) -> None:
        """Cancel the running prompt: its root and every live agent under it, and any that
        turns live later in the turn."""
        turn = self._turn
        if turn is None:
            if self._waiting is not None:  # no agent yet: the prompt ends before starting one
                self._waiting.cancel()
            elif self._parked is not None:  # its agents are still the parked turn's
                root_id, self._parked = self._parked, None
                # The cancel withdraws the questions of the root's tree; others (another
                # root's, as a loaded session can hold) would stay open, never asked again.
                others = [q for q in self._deferred if not self._in_tree(q.agent_id, root_id)]
                self._deferred.clear()
                self._cancel_live(root_id)
                for query in others:
                    self._answer(query.query_id, None)  # declined: its agent goes on
            return
        turn.cancel_requested = True
        self._cancel_live(turn.root_id)

    def _cancel_live(self, agent_id: str) -> None:
        """Cancel the agent and its live descendants, or, the agent ended, the topmost live
        agents under it (the runtime cancels each one's subtree)."""
        nodes = self.runtime.subtree(agent_id)
        live = {node.id for node in nodes if Command.CANCEL in self.runtime.allowed(node.id)}
        for node in nodes:
            if node.id in live and node.parent_id not in live:
                try:
                    self.runtime.cancel(node.id, CANCEL_REASON)
                except AgentUIError as exc:  # it ended meanwhile
                    log.info("cancel: %s", exc)

    # -- what the client is shown ----------------------------------------------------------

    async def _replay(self) -> None:
        self._translator.echo_prompts = True  # the person's prompts are history too
        raised: list[ev.QueryRaised] = []
        for event in self._history:
            if isinstance(event, ev.QueryRaised):
                raised.append(event)
            routed = self._routed(event)
            if self._replay_history:
                await self._send_routed(routed)
        self._translator.echo_prompts = False
        self._history = ()
        await self._take_up_open_queries(raised)
        await self._send_inbox()

    async def _take_up_open_queries(self, raised: list[ev.QueryRaised]) -> None:
        """A loaded session's questions still open (the client left while they waited, and
        the resume kept them open): the next prompts answer them, oldest first, as if the
        person had chosen to answer in their next prompt; the first is shown now. Its open
        approvals are put to the client when the next prompt starts (a client takes requests
        within a turn)."""
        still_open = self._translator.state.open_queries
        for query in raised:
            if query.query_id not in still_open:
                continue
            if query.kind == "approval":
                self._approvals_left.append(query)
            else:
                self._deferred.append(query)
                self._reopened.add(query.query_id)
        if self._deferred:
            first = self._deferred[0]
            await self._send(
                update_agent_message_text(reopened_question(self._name_of(first.agent_id), first))
            )

    def _ask_approvals_left(self) -> None:
        left, self._approvals_left = self._approvals_left, []
        if self._tasks is None:
            return
        for query in left:
            self._tasks.start_soon(self._ask, query)

    async def _pump(self, tasks: TaskGroup) -> None:
        while batch := await self._events.next_batch():
            await self._send_routed([routed for event in batch for routed in self._routed(event)])
            await self._send_inbox()
            # Only once the batch is shown: a permission request comes after its tool call,
            # and a turn's answer after its last update.
            for event in batch:
                self._servers.observe(event)
                self._follow(event, tasks)

    def _follow(self, event: ev.Event, tasks: TaskGroup) -> None:
        """What an event asks of the session beyond showing it: a question to put to the
        client, one to stop waiting for, the end of the turn."""
        match event:
            case ev.QueryRaised():
                tasks.start_soon(self._ask, event)
            case ev.QueryAnswered(query_id=query_id) | ev.QueryDeclined(query_id=query_id):
                waiting = self._asking.get(query_id)
                if waiting is not None:
                    waiting.cancel()  # answered or withdrawn elsewhere: stop waiting
                self._withdraw_deferred(query_id, tasks)
        turn = self._turn
        if turn is None:
            return
        if event.agent_id == turn.agent_id:
            turn.observe(event)
        if not isinstance(event, ev.StatusChanged):
            return
        revived = AgentStatus(event.old).is_final and AgentStatus(event.new).is_live
        if turn.cancel_requested and revived and self._in_tree(event.agent_id, turn.root_id):
            self._cancel_live(event.agent_id)  # its new run started after the client cancelled
        if turn.run_ended and not self._live_under(turn.root_id):
            turn.end()

    def _in_tree(self, agent_id: str, root_id: str) -> bool:
        agents = self._translator.state.agents
        agent = agents.get(agent_id)
        while agent is not None and agent.id != root_id:
            agent = agents.get(agent.parent_id) if agent.parent_id is not None else None
        return agent is not None

    def _live_under(self, root_id: str) -> bool:
        """Some agent of the root's tree is live, as the client was last shown."""
        return any(agent.status.is_live for agent in self._translator.state.subtree(root_id))

    def _routed(self, event: ev.Event) -> list[Routed]:
        """What the event shows, each update with the session it goes to: the client's own,
        or, for a client that takes child sessions, the subagent's (and its parent's learns of
        it: child_sessions.py)."""
        updates = self._translator.apply(event)
        agent = self._translator.state.agents.get(event.agent_id)
        if self._children is None or agent is None or agent.parent_id is None:
            return [(self.id, update) for update in updates]
        own, parent = self._session_for(agent.id), self._session_for(agent.parent_id)
        routed: list[Routed] = []
        match event:
            case ev.AgentSpawned(task=task):
                routed.append((parent, announcement(own, agent)))
                routed.append((own, session_message(f"task-{agent.id}", parent, own, task)))
            case ev.ExecutionFailed(error=error):
                self._child_errors[agent.id] = error
        routed += [(own, update) for update in updates]
        if isinstance(event, ev.StatusChanged):
            state = state_update(own, agent, self._child_errors.get(agent.id))
            if state is not None:
                routed.append((parent, state))
            if agent.status is AgentStatus.COMPLETED and agent.result:
                message_id = f"result-{agent.id}-{event.seq}"
                routed.append((parent, session_message(message_id, own, parent, agent.result)))
        return routed

    def _session_for(self, agent_id: str) -> str:
        """The session an agent speaks in: a subagent's own when the client takes them."""
        agent = self._translator.state.agents.get(agent_id)
        if self._children is None or agent is None or agent.parent_id is None:
            return self.id
        return child_id(self.id, agent_id)

    async def _send_routed(self, routed: list[Routed]) -> None:
        """Each run of updates to one session in order, neighbouring chunks merged."""
        for (session_id, raw), run in groupby(routed, key=lambda r: (r[0], isinstance(r[1], dict))):
            updates = [update for _, update in run]
            if raw:
                for update in updates:
                    await self._send_raw(session_id, update)  # type: ignore[arg-type]
            else:
                for update in merged_chunks(updates):  # type: ignore[arg-type]
                    await self._send(update, session_id)

    async def _send(self, update: SessionUpdate, session_id: str | None = None) -> None:
        if self._client_gone:
            return
        try:
            await self._client.session_update(
                session_id=session_id or self.id, update=visible(update)
            )
        except ConnectionError:
            self._client_gone = True  # the runtime goes on until the server closes it

    async def _send_raw(self, session_id: str, update: dict[str, Any]) -> None:
        if self._client_gone or self._children is None:
            return
        try:
            await self._children(
                SESSION_UPDATE, {"sessionId": session_id, "update": visible(update)}
            )
        except ConnectionError:
            self._client_gone = True

    def cancel_child(self, agent_id: str) -> bool:
        """A child session's `session/cancel`: its agent and everything under it; False when
        the session has no such child."""
        if self._children is None or agent_id not in self._translator.state.agents:
            return False
        if self._root_of(agent_id) == agent_id:
            return False  # a root speaks in the session itself
        self._cancel_live(agent_id)
        return True

    def inbox_rows(self) -> list[dict[str, Any]]:
        """What waits on the person in this session now, as `_agentui/inbox` says it."""
        now = self.runtime.clock.now()
        return [row_json(row, now) for row in inbox(self._translator.state)]

    async def _send_inbox(self) -> None:
        """`_agentui/inbox` to the client when the rows changed (inbox.py). Listed again
        only when the fold says they may have: most batches change nothing in them."""
        state = self._translator.state
        key = inbox_key(state)
        if key == self._inbox_key:
            return
        self._inbox_key = key
        rows = self._inbox.changed(state)
        if rows is None or self._client_gone:
            return
        now = self.runtime.clock.now()
        try:
            await self._client.ext_notification(
                INBOX_METHOD, {"sessionId": self.id, "rows": [row_json(r, now) for r in rows]}
            )
        except ConnectionError:
            self._client_gone = True

    def _root_to_continue(self) -> str | None:
        """The root the next prompt continues: the latest root a model runs (a loaded
        session's too); None to start one."""
        state = self._translator.state
        roots = [agent for agent in state.roots() if takes_a_prompt(state, agent)]
        return roots[-1].id if roots else None

    def _root_of(self, agent_id: str) -> str:
        agents = self._translator.state.agents
        agent = agents.get(agent_id)
        while agent is not None and agent.parent_id is not None:
            agent = agents.get(agent.parent_id)
        return agent.id if agent is not None else agent_id

    def _continue(self, root_id: str, text: str) -> None:
        """The prompt goes to the root: a new message when it has ended, else (a parked turn's
        root still works) a steer its next model call reads."""
        if Command.STEER in self.runtime.allowed(root_id):
            self.runtime.steer(root_id, text)
        else:
            self.runtime.send(root_id, text)

    # -- questions -----------------------------------------------------------------------

    async def _ask(self, query: ev.QueryRaised) -> None:
        if query.query_id not in self._translator.state.open_queries:
            return  # answered or withdrawn in the same batch it was raised in
        with anyio.CancelScope() as waiting:
            self._asking[query.query_id] = waiting
            try:
                await self._put_to_client(query)
            except AgentUIError as exc:  # it was answered or withdrawn meanwhile
                log.info("query %s: %s", query.query_id, exc)
            except ConnectionError:  # the client left: the question stays open for its return
                self._client_gone = True
                log.info("query %s: the client left; it stays open", query.query_id)
            except _NO_ANSWER as exc:  # declined (an approval: rejected), the agent goes on
                log.warning("query %s: the client gave no answer: %s", query.query_id, exc)
                self._answer(query.query_id, None)
            finally:
                del self._asking[query.query_id]

    async def _put_to_client(self, query: ev.QueryRaised) -> None:
        call_id = self._translator.call_for_query(query.query_id)
        session_id = self._session_for(query.agent_id)
        if query.kind == "approval":
            if self.mode == YES:
                self.runtime.approve(query.query_id, "once")
                return
            response = await self._client.request_permission(
                session_id=session_id,
                tool_call=visible(approval_call(call_id, self._approval_title(query), query)),
                options=APPROVAL_OPTIONS,
            )
            self.runtime.approve(query.query_id, approval_choice(response))
            return
        if self._forms:
            try:
                form = await self._client.create_elicitation(
                    message=visible(query.prompt),
                    mode=visible(answer_form(session_id, call_id, query.prompt)),
                )
            except RequestError as exc:  # it declared forms but takes none: ask as below
                log.warning("the client refused a form (%s); asking with choices", exc)
                self._forms = False
            else:
                self.runtime.answer(query.query_id, form_answer(form))
                return
        response = await self._client.request_permission(
            session_id=session_id,
            tool_call=visible(question_call(call_id, self._name_of(query.agent_id), query)),
            options=QUESTION_OPTIONS,
        )
        choice = question_choice(response)
        if choice == "stop":
            self._stop_for(query)
        elif choice == "answer":
            await self._defer(query)
        else:
            self.runtime.answer(query.query_id, None)  # declined: the agent goes on by itself

    async def _defer(self, query: ev.QueryRaised) -> None:
        """The person answers in their next prompt: the question shows in the conversation
        (unless an earlier one is answered first) and the turn ends so the client takes one."""
        self._deferred.append(query)
        if len(self._deferred) == 1:
            await self._announce(query)
        if self._turn is not None:
            self._parked = self._turn.root_id
            self._turn.park()

    def _withdraw_deferred(self, query_id: str, tasks: TaskGroup) -> None:
        """A question waiting for a prompt was answered or withdrawn elsewhere: the next prompt
        answers the next one, which is shown now if the withdrawn one was; with none left, the
        client is told where the next prompt goes instead."""
        head = self._deferred[0] if self._deferred else None
        self._deferred = [q for q in self._deferred if q.query_id != query_id]
        if head is None or head.query_id != query_id:
            return
        if self._deferred:
            tasks.start_soon(self._announce, self._deferred[0])
        else:
            tasks.start_soon(self._announce_withdrawn, head)

    async def _park(self, turn: Turn) -> None:
        """End `turn` at once: the next question waiting for a prompt is shown."""
        await self._announce(self._deferred[0])
        self._parked = turn.root_id
        turn.park()

    def _answer_deferred(self, text: str) -> ev.QueryRaised | None:
        """Answer the oldest question waiting for a prompt with `text`; None when none waits
        (one withdrawn meanwhile is skipped)."""
        while self._deferred:
            query = self._deferred.pop(0)
            try:
                self.runtime.answer(query.query_id, text)
            except AgentUIError as exc:
                log.info("query %s: %s", query.query_id, exc)
                continue
            return query
        return None

    async def _announce(self, query: ev.QueryRaised) -> None:
        text = deferred_question(self._name_of(query.agent_id), query)
        await self._send(update_agent_message_text(text))

    async def _announce_withdrawn(self, query: ev.QueryRaised) -> None:
        root_id = self._root_to_continue()
        goes_to = self._name_of(root_id) if root_id is not None else "a new task"
        text = withdrawn_question(self._name_of(query.agent_id), goes_to)
        await self._send(update_agent_message_text(text))

    def _approval_title(self, query: ev.QueryRaised) -> str:
        return self._translator.call_title(query.agent_id, query.tool or "a tool")

    def _name_of(self, agent_id: str) -> str:
        agent = self._translator.state.agents.get(agent_id)
        return agent.name if agent is not None else "agentui"

    def _stop_for(self, query: ev.QueryRaised) -> None:
        """The person chose to stop the task: the turn (running or parked) is cancelled (which
        withdraws the question). An asker outside the turn (none should be) is cancelled
        itself, and its question declined should the cancel not have withdrawn it."""
        turn = self._turn
        root_id = turn.root_id if turn is not None else self._parked
        if root_id is not None:
            self.cancel()
        if root_id is None or not self._in_tree(query.agent_id, root_id):
            self._cancel_live(query.agent_id)
            if any(still.id == query.query_id for still in self.runtime.open_queries()):
                self._answer(query.query_id, None)

    def _answer(self, query_id: str, text: str | None) -> None:
        try:
            self.runtime.answer(query_id, text)
        except AgentUIError as exc:
            log.info("query %s: %s", query_id, exc)


def takes_a_prompt(state: RunState, agent: AgentState) -> bool:
    """A prompt can go to the agent: a steer while it works, a new message once it ended."""
    return bool(allowed(state.view(agent), Mode.LOCAL) & {Command.STEER, Command.CONTINUE})
