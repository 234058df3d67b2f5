"""The HTTP + SSE API of one runtime: a FastAPI app (routes from the pydantic models in
api_models.py, so `/openapi.json` documents it), guarded by auth.py.

Every command endpoint calls the runtime's command of the same name on the event loop the
runtime runs on. What the runtime refuses comes back as 4xx with `{"error": "..."}`
(error_responses.py). Events go out from the shared EventLog (event_log.py) as each client's
own SSE stream (sse_batches.py).

    app = create_app(runtime, log, ServerOptions(token=token, origins=own_origins(host, port)))
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Annotated, Any, Literal

import anyio.to_thread
from fastapi import Body, FastAPI, Header, Query
from fastapi.responses import Response
from sse_starlette import EventSourceResponse
from sse_starlette.sse import SendTimeoutError
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Receive, Scope, Send

from agentui.core.remote.api_document import complete_document
from agentui.core.remote.api_models import (
    Answer,
    ApprovalDecision,
    BudgetLimits,
    CancelOptions,
    InboxEntry,
    Intervention,
    Modification,
    SeedAgent,
    SeedAgentWithHistory,
    ServerInfo,
    StartedTask,
    StartTask,
    SubtreeOption,
    Success,
    Text,
    session_row,
)
from agentui.core.remote.auth import Guard
from agentui.core.remote.connection_abort import abort_connection
from agentui.core.remote.error_responses import BadRequest, JSONText, install_error_handlers
from agentui.core.remote.event_log import KEEP_RECENT, MEMORY_BYTES, EventLog
from agentui.core.remote.inbox_fold import InboxFold
from agentui.core.remote.intervention import apply_intervention
from agentui.core.remote.request_starts import RequestStarts
from agentui.core.remote.seed_stream import seed_messages
from agentui.core.remote.sse_batches import BEHIND_AFTER, Outgoing, ResumePoint, encoded, feed
from agentui.core.remote.subtree_selection import SubtreeSelection, parse_stream_id, selection_after
from agentui.core.remote.time_travel_routes import add_time_travel_routes
from agentui.core.runtime import Runtime
from agentui.core.session.store import list_sessions
from agentui.core.support.errors import UnknownAgentError

log = logging.getLogger("agentui.remote")

HEARTBEAT_S = 15.0
# A client that has not taken a write for this long is gone (or stuck): its stream is dropped
# rather than held open with its unsent events.
SEND_TIMEOUT_S = 60.0
# Every body of the API is a small JSON object: a larger one is refused (413) unread, so no
# client can make the server hold gigabytes. A long task pasted whole still fits many times.
MAX_BODY_BYTES = 1 << 20


@dataclass(frozen=True, slots=True)
class ServerOptions:
    token: str
    # The Origin values of this server's own pages (auth.own_origins; `served` fills them in).
    origins: frozenset[str] = frozenset()
    # The Host names it answers to (auth.own_host_names; None: any, as beyond loopback).
    hosts: frozenset[str] | None = None
    narrator: bool = False  # the monologue is written server-side
    heartbeat_s: float = HEARTBEAT_S  # an SSE comment this often keeps idle streams open
    behind_after: int = BEHIND_AFTER  # a batch this long means a client fell behind
    send_timeout_s: float = SEND_TIMEOUT_S
    max_body_bytes: int = MAX_BODY_BYTES
    # The event log (event_log.py): entries kept as logged, and what older ones may take in
    # memory before the oldest go to disk.
    log_keep_recent: int = KEEP_RECENT
    log_memory_bytes: int | None = MEMORY_BYTES


def create_app(
    runtime: Runtime, events: EventLog, options: ServerOptions, inbox: InboxFold | None = None
) -> ASGIApp:
    """The API, behind its Guard (outside FastAPI's own middleware: a refusal comes before
    anything of the request is read). `inbox`: the fold `GET /inbox` reads (with a resumed
    session's history; `served` makes and attaches it), else one of the events from now on."""
    inbox = inbox if inbox is not None else InboxFold(runtime)
    app = FastAPI(
        title="agentui",
        summary="Run and steer a tree of LLM agents: commands over HTTP, events over SSE.",
        version=_version(),
        default_response_class=JSONText,
        docs_url=None,  # no pages that load scripts from elsewhere; /openapi.json stays
        redoc_url=None,
        max_body_size=options.max_body_bytes,
        # Each operation's id is its function's name ("start", "pause"): what a client
        # generated from /openapi.json names its calls.
        generate_unique_id_function=lambda route: route.name,
    )
    install_error_handlers(app)

    def stream(
        batches: AsyncIterator[list[Outgoing]], id_prefix: str = "", *, seed: bool = False
    ) -> EventSourceResponse:
        async def sse_text() -> AsyncIterator[bytes]:
            async for batch in batches:
                for chunk in encoded(seed_messages(batch) if seed else batch, prefix=id_prefix):
                    yield chunk

        return _DroppingStream(
            sse_text(), ping=options.heartbeat_s, sep="\n", send_timeout=options.send_timeout_s
        )

    # -- the seed's four -----------------------------------------------------------------

    # A request naming a request_id again (an EventSource reconnecting before it saw any id)
    # streams the agent it started, starting nothing.
    request_starts = RequestStarts()

    @app.get(
        "/agent/stream",
        summary="Start a task and stream its agents' events (SSE)",
        description="Each message id is `AGENT@ID`; the first message is the agent's "
        "`agent:spawned`. A request with a `Last-Event-ID` header (an EventSource reconnecting) "
        "starts nothing: it resumes that agent's stream after the id, or gets 204 No Content "
        "when the agent's run had ended there. A `request_id` of the client's choosing (a UUID) "
        "covers a drop before the first message arrived: a request naming it again streams the "
        "agent it started from the beginning instead of starting the task again. "
        "`format=seed` sends the seed's chunks instead of agentui's events: "
        '`{"type": "text-delta", "agentId", "textDelta"}`, `{"type": "agent-state", "agentId", '
        '"state"}`, `{"type": "tool-call", "agentId", "toolCallId", "toolName", "args"}`, '
        '`{"type": "tool-result", ...}`, `{"type": "error", ...}` (core/remote/seed_stream.py); '
        "ids, reconnects and the end are the same.",
        responses={
            204: {"description": "The stream named by Last-Event-ID has ended"},
            409: {"description": "The request_id started another task (another prompt)"},
        },
    )
    async def agent_stream(
        prompt: Annotated[str, Query(min_length=1)],
        request_id: Annotated[str | None, Query(min_length=1, max_length=200)] = None,
        last_event_id: Annotated[str | None, Header()] = None,
        shape: Annotated[Literal["agentui", "seed"], Query(alias="format")] = "agentui",
    ) -> Response:
        events.catch_up()
        earlier = request_starts.started(request_id, prompt) if request_id is not None else None
        if last_event_id is not None:
            try:
                agent_id, start = parse_stream_id(last_event_id)
            except ValueError as exc:
                raise HTTPException(400, f"bad Last-Event-ID header: {exc}") from None
            selection = selection_after(events, agent_id, start.watermark)
            if selection is None:
                return Response(status_code=204)  # EventSource stops reconnecting
        elif earlier is not None:
            agent_id, same_prompt = earlier
            if not same_prompt:
                raise HTTPException(409, f"request_id {request_id!r} started another task")
            start = ResumePoint(_seq_before_spawn(events, agent_id))
            selection = SubtreeSelection(agent_id)
        else:
            start = ResumePoint(events.last_seq)
            selection = SubtreeSelection(runtime.start(prompt))
            if request_id is not None:
                request_starts.remember(request_id, selection.root_id, prompt)
            events.catch_up()  # its agent:spawned goes out at once, with the first id
        batches = feed(events, start, behind_after=options.behind_after, selection=selection)
        return stream(batches, selection.id_prefix, seed=shape == "seed")

    @app.get("/agent/tree", summary="Every agent, without message histories (the seed's shape)")
    async def agent_tree() -> dict[str, SeedAgent]:
        agents = runtime.snapshot()["agents"]
        return {agent_id: SeedAgent.of(agent) for agent_id, agent in agents.items()}

    @app.get(
        "/agent/{agent_id}",
        summary="One agent with its full message history (the seed's shape)",
        responses={404: {"description": 'Unknown agent: {"error": "Not found"}'}},
    )
    async def agent(agent_id: str) -> SeedAgentWithHistory:
        try:
            return SeedAgentWithHistory.of(runtime.agent(agent_id))
        except UnknownAgentError:
            raise HTTPException(404, "Not found") from None  # the seed's body

    @app.post("/agent/{agent_id}/intervene", summary="The seed's userIntervention")
    async def intervene(agent_id: str, body: Intervention) -> Success:
        apply_intervention(runtime, agent_id, body)
        return Success()

    # -- agentui's own -------------------------------------------------------------------

    version = _version()  # package metadata: read once, not at every viewer's connect

    @app.get(
        "/info",
        summary="The server: version, provider, model, workflow, session, last seq, narrator",
    )
    async def info() -> ServerInfo:
        events.catch_up()
        session = getattr(runtime, "session", None)
        return ServerInfo(
            version=version,
            provider=runtime.provider.name,
            model=runtime.provider.model,
            workflow=runtime.workflow,
            session_id=getattr(session, "session_id", None),
            last_seq=events.last_seq,
            narrator=options.narrator,
            heartbeat_s=options.heartbeat_s,
        )

    @app.get("/snapshot", summary="Every agent as Runtime.snapshot() gives it")
    async def snapshot() -> dict[str, Any]:
        return runtime.snapshot()

    @app.get(
        "/inbox",
        summary="Everything across the tree that waits on the person, what unblocks most first",
        description="Questions (one row for siblings asking the same words: answer each of "
        "its `query_ids`), approvals with their tool call, budget stops, agents stalled past "
        "[attention] stalled_after_s, steers to agents not running. The event stream carries "
        "the events each row comes from: a client folding them (core/state/inbox.py) lists "
        "the same rows; `waited_s` is by the server's clock.",
    )
    async def inbox_rows() -> list[InboxEntry]:
        now = runtime.clock.now()
        return [InboxEntry.of(row, now) for row in inbox.rows()]

    @app.get("/sessions", summary="The saved sessions, as `agentui sessions --json` lists them")
    async def sessions() -> list[dict[str, Any]]:
        infos = await anyio.to_thread.run_sync(list_sessions)  # reads files
        return [session_row(info) for info in infos]

    @app.get("/events", summary="The runtime's events after `since` (SSE; resumable)")
    async def event_stream(
        since: Annotated[int, Query(ge=0)] = 0,
        last_event_id: Annotated[str | None, Header()] = None,
    ) -> EventSourceResponse:
        start = ResumePoint(since)
        if last_event_id is not None:
            try:
                start = ResumePoint.parse(last_event_id)
            except ValueError as exc:
                raise HTTPException(400, f"bad Last-Event-ID header: {exc}") from None
        return stream(feed(events, start, behind_after=options.behind_after))

    @app.post("/tasks", summary="Start a root agent on a task")
    async def start(body: StartTask) -> StartedTask:
        return StartedTask(agent_id=runtime.start(body.task, profile=body.profile))

    @app.post(
        "/agent/{agent_id}/pause",
        summary="Pause an agent (with `subtree`: everything under it too)",
    )
    async def pause(agent_id: str, body: Annotated[SubtreeOption | None, Body()] = None) -> Success:
        runtime.pause(agent_id, subtree=body is not None and body.subtree)
        return Success()

    @app.post(
        "/agent/{agent_id}/resume",
        summary="Resume a paused agent (with `subtree`: everything under it too)",
    )
    async def resume(
        agent_id: str, body: Annotated[SubtreeOption | None, Body()] = None
    ) -> Success:
        runtime.resume(agent_id, subtree=body is not None and body.subtree)
        return Success()

    @app.post("/agent/{agent_id}/cancel", summary="Cancel an agent and its subagents")
    async def cancel(
        agent_id: str, body: Annotated[CancelOptions | None, Body()] = None
    ) -> Success:
        if body is not None and body.reason:
            runtime.cancel(agent_id, body.reason)
        else:
            runtime.cancel(agent_id)
        return Success()

    @app.post("/agent/{agent_id}/delete", summary="Delete an agent and its subagents")
    async def delete(agent_id: str) -> Success:
        runtime.delete(agent_id)
        return Success()

    @app.post(
        "/agent/{agent_id}/modify",
        summary="Change an agent's instructions or task (new content withdraws its question)",
    )
    async def modify(agent_id: str, body: Modification) -> Success:
        if body.instructions is None and body.content is None:
            raise BadRequest("modify needs new instructions, new content, or both")
        runtime.modify(agent_id, instructions=body.instructions, content=body.content)
        return Success()

    @app.post("/agent/{agent_id}/steer", summary="A message for the agent's next model call")
    async def steer(agent_id: str, body: Text) -> Success:
        runtime.steer(agent_id, body.text)
        return Success()

    @app.post("/agent/{agent_id}/send", summary="Continue an ended agent's conversation")
    async def send(agent_id: str, body: Text) -> Success:
        runtime.send(agent_id, body.text)
        return Success()

    @app.post("/agent/{agent_id}/budget", summary="Set or raise the budget of an agent's subtree")
    async def budget(agent_id: str, body: BudgetLimits) -> Success:
        runtime.set_budget(agent_id, body.limits)
        return Success()

    @app.post(
        "/agent/{agent_id}/past_budget",
        summary="Let a subtree its budget stopped take one more step past it",
    )
    async def past_budget(agent_id: str) -> Success:
        runtime.continue_past_budget(agent_id)
        return Success()

    @app.post("/queries/{query_id}/answer", summary="Answer a question, or decline it (null)")
    async def answer(query_id: str, body: Answer) -> Success:
        runtime.answer(query_id, body.text)
        return Success()

    @app.post("/queries/{query_id}/approval", summary="Decide an approval")
    async def approval(query_id: str, body: ApprovalDecision) -> Success:
        runtime.approve(query_id, body.choice, body.reason)
        return Success()

    add_time_travel_routes(app, runtime)  # rewind and fork from a step (time_travel_routes.py)
    complete_document(app)  # /openapi.json: the token, the streams, every refusal

    return Guard(
        app,
        token=options.token,
        origins=options.origins,
        hosts=options.hosts,
        max_body_bytes=options.max_body_bytes,
    )


class _DroppingStream(EventSourceResponse):
    """An SSE response that drops a client which takes no data for `send_timeout` seconds
    (gone without closing, or stuck), rather than holding its unsent events forever.

    Dropping it resets its connection (connection_abort.py): closing it would wait for the
    client to read what is queued, which it never does. The events' send and the heartbeat's
    can both time out in one turn of a busy loop, so the timeouts come as a group of one or
    more: any such group is the one drop, said once."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        except* SendTimeoutError:
            log.warning(
                "dropped an event stream to %s: it took no data for %g s",
                _client(scope),
                self.send_timeout,
            )
            await abort_connection(scope)


def _seq_before_spawn(events: EventLog, agent_id: str) -> int:
    """The watermark from which a stream of `agent_id` starts at its `agent:spawned`."""
    position = events.spawn_position(agent_id)
    assert position is not None  # the request that started it logged its spawn
    return events.entries(position, position + 1)[0].seq - 1


def _client(scope: Scope) -> str:
    client = scope.get("client")
    return f"{client[0]}:{client[1]}" if client else "a client"


def _version() -> str:
    from agentui import core

    return core.__version__
