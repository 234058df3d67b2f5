"""The HTTP + SSE API of one runtime: a FastAPI app (routes from the pydantic models in
api_models.py, so `/openapi.json` documents it), guarded by auth.py.

Every command endpoint calls the runtime's command of the same name on the event loop the
runtime runs on. What the runtime refuses comes back as 4xx with `{"error": "..."}`: an unknown
agent or query 404, a command that does not apply now 409, a bad body 400 (not JSON) or 422.
Events go out from the shared EventLog (event_log.py) as each client's own SSE stream
(sse_batches.py).

    app = create_app(runtime, log, ServerOptions(token=token, origins=own_origins(host, port)))
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Annotated, Any

import anyio.to_thread
from fastapi import Body, FastAPI, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sse_starlette import EventSourceResponse
from starlette.exceptions import HTTPException

from ..errors import AgentUIError, UnknownAgentError, UnknownProfileError, UnknownQueryError
from ..runtime import Runtime
from ..session.store import list_sessions
from ..utf8 import json_text
from .api_models import (
    Answer,
    ApprovalDecision,
    CancelOptions,
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
from .auth import Guard
from .event_log import EventLog
from .sse_batches import BEHIND_AFTER, Outgoing, ResumePoint, encoded, feed
from .subtree_selection import SubtreeSelection

log = logging.getLogger("agentui.remote")

HEARTBEAT_S = 15.0


@dataclass(frozen=True, slots=True)
class ServerOptions:
    token: str
    # The Origin values of this server's own pages (auth.own_origins; `served` fills them in).
    origins: frozenset[str] = frozenset()
    narrator: bool = False  # the monologue is written server-side
    heartbeat_s: float = HEARTBEAT_S  # an SSE comment this often keeps idle streams open
    behind_after: int = BEHIND_AFTER  # a batch this long means a client fell behind


class BadRequest(AgentUIError):
    """A body that parses but asks for nothing that can be done (422)."""


class JSONText(JSONResponse):
    """JSON that is always UTF-8: a model's lone surrogate becomes U+FFFD, never a 500."""

    def render(self, content: Any) -> bytes:
        return json_text(content, separators=(",", ":")).encode()


def create_app(runtime: Runtime, events: EventLog, options: ServerOptions) -> FastAPI:
    app = FastAPI(
        title="agentui",
        summary="Run and steer a tree of LLM agents: commands over HTTP, events over SSE.",
        version=_version(),
        default_response_class=JSONText,
        docs_url=None,  # no pages that load scripts from elsewhere; /openapi.json stays
        redoc_url=None,
    )
    _install_error_handlers(app)
    app.add_middleware(Guard, token=options.token, origins=options.origins)

    def stream(batches: AsyncIterator[list[Outgoing]]) -> EventSourceResponse:
        async def sse_text() -> AsyncIterator[bytes]:
            async for batch in batches:
                for chunk in encoded(batch):
                    yield chunk

        return EventSourceResponse(sse_text(), ping=options.heartbeat_s, sep="\n")

    # -- the seed's four -----------------------------------------------------------------

    @app.get("/agent/stream", summary="Start a task and stream its agents' events (SSE)")
    async def agent_stream(prompt: Annotated[str, Query(min_length=1)]) -> EventSourceResponse:
        events.catch_up()
        since = events.last_seq
        agent_id = runtime.start(prompt)
        selection = SubtreeSelection(agent_id)
        return stream(
            feed(
                events,
                ResumePoint(since),
                behind_after=options.behind_after,
                selection=selection,
            )
        )

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
        _intervene(runtime, agent_id, body)
        return Success()

    # -- agentui's own -------------------------------------------------------------------

    @app.get("/info")
    async def info() -> ServerInfo:
        events.catch_up()
        session = getattr(runtime, "session", None)
        return ServerInfo(
            version=_version(),
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

    @app.post("/agent/{agent_id}/pause")
    async def pause(agent_id: str, body: Annotated[SubtreeOption | None, Body()] = None) -> Success:
        runtime.pause(agent_id, subtree=body is not None and body.subtree)
        return Success()

    @app.post("/agent/{agent_id}/resume")
    async def resume(
        agent_id: str, body: Annotated[SubtreeOption | None, Body()] = None
    ) -> Success:
        runtime.resume(agent_id, subtree=body is not None and body.subtree)
        return Success()

    @app.post("/agent/{agent_id}/cancel")
    async def cancel(
        agent_id: str, body: Annotated[CancelOptions | None, Body()] = None
    ) -> Success:
        if body is not None and body.reason:
            runtime.cancel(agent_id, body.reason)
        else:
            runtime.cancel(agent_id)
        return Success()

    @app.post("/agent/{agent_id}/delete")
    async def delete(agent_id: str) -> Success:
        runtime.delete(agent_id)
        return Success()

    @app.post("/agent/{agent_id}/modify")
    async def modify(agent_id: str, body: Modification) -> Success:
        if body.instructions is None and body.content is None:
            raise BadRequest("modify needs new instructions, new content, or both")
        runtime.modify(agent_id, instructions=body.instructions, content=body.content)
        return Success()

    @app.post("/agent/{agent_id}/steer")
    async def steer(agent_id: str, body: Text) -> Success:
        runtime.steer(agent_id, body.text)
        return Success()

    @app.post("/agent/{agent_id}/send", summary="Continue an ended agent's conversation")
    async def send(agent_id: str, body: Text) -> Success:
        runtime.send(agent_id, body.text)
        return Success()

    @app.post("/queries/{query_id}/answer", summary="Answer a question, or decline it (null)")
    async def answer(query_id: str, body: Answer) -> Success:
        runtime.answer(query_id, body.text)
        return Success()

    @app.post("/queries/{query_id}/approval", summary="Decide an approval")
    async def approval(query_id: str, body: ApprovalDecision) -> Success:
        runtime.approve(query_id, body.choice, body.reason)
        return Success()

    return app


def _intervene(runtime: Runtime, agent_id: str, body: Intervention) -> None:
    """The seed's userComment, then its status, as the runtime's commands."""
    runtime.node(agent_id)  # an unknown agent is a 404 before anything is done
    comment = body.user_comment
    if comment == "delete":
        runtime.delete(agent_id)
    elif comment == "modify":
        if body.user_content is None:
            raise BadRequest("userComment 'modify' needs userContent, the new task content")
        runtime.modify(agent_id, content=body.user_content)
    elif comment is not None and comment != "unchanged":
        runtime.steer(agent_id, comment)
    elif body.user_content is not None:
        raise BadRequest("userContent goes with userComment 'modify'")
    status = body.status
    if status is None or (status == "modified" and comment == "modify"):
        return
    if status == "paused":
        runtime.pause(agent_id)
    elif status == "running":
        runtime.resume(agent_id)
    elif status == "cancelled":
        runtime.cancel(agent_id)
    else:
        raise BadRequest(
            f"status {status!r} cannot be set; use paused, running or cancelled "
            "(or userComment delete)"
        )


# -- errors ----------------------------------------------------------------------------------


def _install_error_handlers(app: FastAPI) -> None:
    async def refused(request: Request, exc: Exception) -> JSONResponse:
        return JSONText({"error": str(exc)}, status_code=_status_of(exc))

    async def invalid(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        status, message = _validation_message(exc.errors())
        return JSONText({"error": message}, status_code=status)

    async def http_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, HTTPException)
        message = exc.detail
        if exc.status_code == 404 and message == "Not Found":
            message = f"no such endpoint: {request.method} {request.url.path}"
        elif exc.status_code == 405:
            message = f"{request.method} is not allowed on {request.url.path}"
        return JSONText({"error": message}, status_code=exc.status_code, headers=exc.headers)

    async def failed(request: Request, exc: Exception) -> JSONResponse:
        log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
        return JSONText({"error": f"the server failed: {type(exc).__name__}"}, status_code=500)

    app.add_exception_handler(AgentUIError, refused)
    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(Exception, failed)


def _status_of(exc: Exception) -> int:
    if isinstance(exc, UnknownAgentError | UnknownQueryError):
        return 404
    if isinstance(exc, BadRequest | UnknownProfileError):
        return 422
    return 409  # the command does not apply to the agent as it is now


def _validation_message(errors: Any) -> tuple[int, str]:
    """One sentence for FastAPI's validation errors: 400 for a body that is not JSON."""
    problems = []
    for error in errors:
        if error.get("type") == "json_invalid":
            return 400, f"the body is not valid JSON: {error.get('ctx', {}).get('error', '')}"
        where = [str(part) for part in error.get("loc", ())]
        if where and where[0] in ("body", "query", "path", "header"):
            kind, where = where[0], where[1:]
        else:
            kind = "body"
        if not where and kind == "body":
            problems.append("the request needs a JSON body")
            continue
        problems.append(f"{kind} {'.'.join(where)}: {error.get('msg', 'invalid')}")
    return 422, "; ".join(problems) or "the request is not valid"


def _version() -> str:
    from agentui import core

    return core.__version__
