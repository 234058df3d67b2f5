"""One ACP session: one agentui runtime, recorded as one agentui session, with the same id.

The session hosts its runtime (`host`, a task of the server's task group, for the session's
life) and drives it through its commands only: a prompt starts the root agent (the first) or
continues it (`send`, the later ones), `session/cancel` cancels the root and so its whole tree,
and the person's answers go back as `answer` and `approve`. What it shows comes from the
runtime's events alone, translated by `UpdateTranslator`; a loaded session first replays its
saved events through the same translator.

With MCP servers configured, a prompt's task starts once each server has had its first outcome
(ready or failed; at most its startup_timeout_s), so the first turn already has their tools.

Questions wait for the client in tasks of their own, so updates keep flowing meanwhile: an
approval as a permission request (or at once in the "yes" mode), a question as a form or a
permission request (questions.py). A question withdrawn meanwhile (its agent was cancelled)
stops waiting for the client.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import anyio
from acp import RequestError
from acp.helpers import text_block, tool_content
from acp.interfaces import Client
from acp.schema import PromptResponse, ToolCallUpdate
from anyio.abc import TaskGroup, TaskStatus

from .. import events as ev
from ..errors import AgentUIError
from ..runtime import Runtime
from ..terminal_text import visible_controls
from ..tools.mcp.first_outcomes import FirstOutcomes
from ..tree import AgentStatus
from .chunks import merged_chunks
from .markdown import fenced
from .modes import YES, ModeId
from .prompt_text import PromptBlock, task_text
from .questions import (
    APPROVAL_OPTIONS,
    QUESTION_OPTIONS,
    answer_form,
    approval_choice,
    form_answer,
    question_choice,
)
from .turn import Turn
from .updates import SessionUpdate, UpdateTranslator

log = logging.getLogger("agentui.acp")

CANCEL_REASON = "cancelled from the client"


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
    ) -> None:
        """`forms`: the client takes form elicitations (free-text answers); `history`: a
        loaded session's saved events, replayed to the client before anything else."""
        self.id = session_id
        self.runtime = runtime
        self.mode: ModeId = mode
        self._client = client
        self._forms = forms
        self._history = history
        self._events = runtime.subscribe()  # before anything runs, so nothing is missed
        self._servers = FirstOutcomes({})  # the MCP servers still starting, once it runs
        self._waiting: anyio.CancelScope | None = None  # a prompt's wait for them
        self._cancelled_waiting = False
        self._translator = UpdateTranslator()
        self._turn: Turn | None = None
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

    async def close(self) -> None:
        """Stop every agent (the session file keeps them) and end the runtime."""
        self._closing.set()
        await self.closed.wait()

    # -- commands from the client ----------------------------------------------------------

    async def prompt(self, blocks: Sequence[PromptBlock]) -> PromptResponse:
        text = task_text(blocks)
        if not text.strip():
            raise RequestError.invalid_params({"prompt": "the prompt holds no text to work on"})
        if not self._servers.done:
            log.info("waiting for MCP servers to start: %s", ", ".join(self._servers.waiting))
            with anyio.CancelScope() as self._waiting:  # session/cancel ends the wait
                await self._servers.settled()  # then one of two prompts is refused below
            self._waiting = None
            if self._cancelled_waiting:
                self._cancelled_waiting = False
                return PromptResponse(stop_reason="cancelled")
        if self._turn is not None:
            raise RequestError.invalid_request(
                {"details": "a prompt is already running in this session; cancel it first"}
            )
        root_id = self._root_to_continue()
        try:
            if root_id is None:
                root_id = self.runtime.start(text)
            else:
                self.runtime.send(root_id, text)
        except AgentUIError as exc:
            raise RequestError.invalid_request({"details": str(exc)}) from None
        # Set before anything awaits: the pump has not seen the root's first event yet.
        turn = self._turn = Turn(root_id)
        try:
            await turn.ended.wait()
        finally:
            self._turn = None
        return turn.response()

    def cancel(self) -> None:
        """Cancel the running prompt's root agent, and with it every agent under it."""
        turn = self._turn
        if turn is None:
            if self._waiting is not None:  # no agent yet: the prompt ends before starting one
                self._cancelled_waiting = True
                self._waiting.cancel()
            return
        try:
            self.runtime.cancel(turn.root_id, CANCEL_REASON)
        except AgentUIError as exc:  # it ended meanwhile
            log.info("cancel: %s", exc)

    # -- what the client is shown ----------------------------------------------------------

    async def _replay(self) -> None:
        self._translator.echo_prompts = True  # the person's prompts are history too
        for event in self._history:
            for update in self._translator.apply(event):
                await self._send(update)
        self._translator.echo_prompts = False
        self._history = ()

    async def _pump(self, tasks: TaskGroup) -> None:
        while batch := await self._events.next_batch():
            updates = [update for event in batch for update in self._translator.apply(event)]
            for update in merged_chunks(updates):
                await self._send(update)
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
        turn = self._turn
        if turn is not None and event.agent_id == turn.root_id:
            turn.observe(event)

    async def _send(self, update: SessionUpdate) -> None:
        if self._client_gone:
            return
        try:
            await self._client.session_update(session_id=self.id, update=update)
        except ConnectionError:
            self._client_gone = True  # the runtime goes on until the server closes it

    def _root_to_continue(self) -> str | None:
        """The root the next prompt continues: the latest root a model runs (a loaded
        session's too); None to start one."""
        roots = [
            agent
            for agent in self._translator.state.roots()
            if agent.driver is None and agent.status is not AgentStatus.DELETED
        ]
        return roots[-1].id if roots else None

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
            except (ConnectionError, RequestError) as exc:
                log.warning("query %s: the client did not answer: %s", query.query_id, exc)
                self._answer(query.query_id, None)
            finally:
                del self._asking[query.query_id]

    async def _put_to_client(self, query: ev.QueryRaised) -> None:
        call_id = self._translator.call_for_query(query.query_id)
        if query.kind == "approval":
            if self.mode == YES:
                self.runtime.approve(query.query_id, "once")
                return
            response = await self._client.request_permission(
                session_id=self.id,
                tool_call=ToolCallUpdate(
                    tool_call_id=call_id,
                    status="pending",
                    content=[tool_content(text_block(fenced(query.prompt)))],
                ),
                options=APPROVAL_OPTIONS,
            )
            self.runtime.approve(query.query_id, approval_choice(response))
            return
        if self._forms:
            try:
                form = await self._client.create_elicitation(
                    message=query.prompt, mode=answer_form(self.id, call_id, query.prompt)
                )
            except RequestError as exc:  # it declared forms but takes none: ask as below
                log.warning("the client refused a form (%s); asking with choices", exc)
                self._forms = False
            else:
                self.runtime.answer(query.query_id, form_answer(form))
                return
        response = await self._client.request_permission(
            session_id=self.id,
            tool_call=ToolCallUpdate(tool_call_id=call_id, status="pending"),
            options=QUESTION_OPTIONS,
        )
        if question_choice(response) == "stop":
            self.cancel()
        else:
            self.runtime.answer(query.query_id, None)  # declined: the agent goes on by itself

    def _answer(self, query_id: str, text: str | None) -> None:
        try:
            self.runtime.answer(query_id, text)
        except AgentUIError as exc:
            log.info("query %s: %s", query_id, visible_controls(str(exc)))
