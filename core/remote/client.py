"""RemoteClient: the commands of a Runtime and its event stream, over HTTP from `agentui serve`.

    client = RemoteClient("http://127.0.0.1:8765", read_token(None))
    agent_id = await client.start("plan a party")
    async for event in client.events(since=0):      # typed events, as a local subscription
        ...
    await client.pause(agent_id)
    await client.aclose()

Whatever answers, the caller gets one of two errors with one sentence, never a parser's
traceback:

- RemoteError: an HTTP answer that is not what was asked. `status` is its HTTP status: 401 or
  403 (the token, the origin: asking again gets the same answer), 404/409/422 (the server's
  reason why a command does not apply), 5xx, a redirect, or an answer that is not agentui's
  at all ("http://X is not an agentui server (HTTP 200, text/html)": a gateway's error page,
  another program on the port). UnreadableEvent, a RemoteError, is an event of a type this
  agentui knows that it cannot read.
- RemoteUnavailable: no answer: the server cannot be reached, or the connection dropped or
  timed out.

`events()` keeps the watermark of what it delivered in `last_event_id`;
`client.events(since=client.last_event_id)` after a drop continues with nothing lost or
doubled (even inside a batch the server merged). An event of a type this agentui does not know
(a newer server's) is left out and counted (`skipped_events`, `unknown_types`).

The token: the caller reads it from the environment variable AGENTUI_TOKEN when set, else from
the file `agentui serve` wrote (`read_token`); `set_token` replaces it (after a 401, the file
may hold a new one).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar, get_args
from urllib.parse import quote

import httpx2
from pydantic import BaseModel, TypeAdapter, ValidationError

from agentui.core.protocol.events import AnyEvent, Event, parse_event
from agentui.core.remote.api_models import InboxEntry, ServerInfo, StartedTask, Success
from agentui.core.remote.sse_batches import ResumePoint
from agentui.core.remote.token_file import default_token_path, read_token_file
from agentui.core.support.errors import AgentUIError

TOKEN_VARIABLE = "AGENTUI_TOKEN"
DEFAULT_PORT = 8765  # where `agentui serve` listens, and `agentui attach HOST` looks
FINAL_STATUSES = (401, 403)  # the token or the origin: asking again gets the same answer
# The largest event the stream may carry: a merged delta or a long tool result can pass
# httpx2's 1 MiB default, and a refused event would be asked for again and again.
MAX_EVENT_BYTES = 64 << 20
Answer = TypeVar("Answer", bound=BaseModel)
Shape = TypeVar("Shape", dict[str, Any], list[Any])  # a JSON answer's outermost value


class RemoteError(AgentUIError):
    """An HTTP answer that is not what was asked; `status` is its HTTP status, `message`
    one sentence (the server's own reason when agentui answered)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class UnreadableEvent(RemoteError):
    """The stream carried an event of a known type that this agentui cannot read."""


class RemoteUnavailable(AgentUIError):
    """The server could not be reached, or the connection dropped or timed out."""


def read_token(path: Path | None) -> str:
    """The token in `path` (None: the file `agentui serve` writes by default); AgentUIError
    naming the file when it is missing or empty."""
    return read_token_file(path if path is not None else default_token_path())


class RemoteClient:
    def __init__(
        self, base_url: str, token: str, *, timeout: float = 10.0, idle_timeout: float = 60.0
    ) -> None:
        """`timeout`: longest wait for a command's answer; `idle_timeout`: longest silence on
        the event stream (the server sends a heartbeat every 15 s by default) before it
        counts as dropped."""
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.idle_timeout = idle_timeout
        # Redirects are not followed: the token would go wherever they point.
        self._http = httpx2.AsyncClient(base_url=self.base_url, timeout=timeout)
        self.set_token(token)
        self.last_event_id = 0  # every event with seq <= this has been delivered by events()
        self._resume_at = "0"  # the server's last SSE id: may point inside a merged batch
        self.skipped_events = 0  # events of types this agentui does not know, left out
        self.unknown_types: set[str] = set()

    def set_token(self, token: str) -> None:
        """Send `token` from the next request on."""
        if not token or any(character.isspace() for character in token):
            raise AgentUIError("a token is one word with no spaces")
        self._http.headers["Authorization"] = f"Bearer {token}"

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> RemoteClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    # -- reading -------------------------------------------------------------------------

    async def info(self) -> ServerInfo:
        return await self._call("GET", "/info", answer=ServerInfo)

    async def tree(self) -> dict[str, Any]:
        """Every agent without its messages, by id, in the seed's shape (`agentId`,
        `parentId`, `userContent`, `status`, `subagents`, ...)."""
        return await self._call_json("GET", "/agent/tree", shape=dict)

    async def snapshot(self) -> dict[str, Any]:
        """The same as `Runtime.snapshot()` on the server: `{"roots": [...], "agents": {...}}`."""
        return await self._call_json("GET", "/snapshot", shape=dict)

    async def agent(self, agent_id: str) -> dict[str, Any]:
        """One agent with its full message history (`messages`), in the seed's shape."""
        return await self._call_json("GET", f"/agent/{_segment(agent_id, 'agent')}", shape=dict)

    async def inbox(self) -> list[InboxEntry]:
        """Everything that waits on the person across the tree, what unblocks most first
        (the rows a fold of `events()` lists, with `waited_s` by the server's clock)."""
        response = await self._request("GET", "/inbox", None)
        try:
            return _INBOX.validate_json(response.content)
        except ValidationError:
            raise self._not_agentui(response) from None

    async def answer_all(self, query_ids: Sequence[str], text: str | None) -> None:
        """Answer each query of a grouped inbox row (`InboxEntry.query_ids`) the same. One
        the server refuses (answered meanwhile) does not stop the others: the first refusal
        is raised once all were sent."""
        refused: RemoteError | None = None
        for query_id in query_ids:
            try:
                await self.answer(query_id, text)
            except RemoteError as exc:
                refused = refused or exc
        if refused is not None:
            raise refused

    async def sessions(self) -> list[dict[str, Any]]:
        return await self._call_json("GET", "/sessions", shape=list)

    async def events(self, since: int = 0) -> AsyncIterator[Event]:
        """The runtime's events with seq above `since` (the saved history first), then live
        ones, until the server ends the stream (its runtime shut down).

        Raises RemoteUnavailable when the connection cannot be made or drops, RemoteError
        when the answer is not an agentui event stream (see the module docstring). With
        `since == self.last_event_id`, it resumes exactly where the previous stream stopped.
        """
        resume_at = self._resume_at if since == self.last_event_id else str(since)
        timeout = httpx2.Timeout(self.timeout, read=self.idle_timeout)
        try:
            async with self._http.sse(
                "/events",
                headers={"Last-Event-ID": resume_at},
                timeout=timeout,
                max_event_size=MAX_EVENT_BYTES,
            ) as source:
                response = source.response
                content_type = _content_type(response)
                if response.status_code != 200 or content_type != "text/event-stream":
                    await response.aread()
                    raise self._refusal(response)
                async for message in source:
                    event = self._event_of(message.data, message.id)
                    if event is not None:
                        yield event
        except httpx2.TransportError as exc:
            raise RemoteUnavailable(self._lost(exc)) from None

    def _event_of(self, data: str, message_id: str) -> Event | None:
        """The event a message carries; None for a type this agentui does not know."""
        try:
            fields = json.loads(data)
            kind = fields.get("type") if isinstance(fields, dict) else None
            event = parse_event(fields) if kind in _KNOWN_TYPES else None
        except (ValueError, ValidationError) as exc:  # JSONDecodeError is a ValueError
            reason = str(exc).splitlines()[0]
            raise UnreadableEvent(
                200, f"{self.base_url} sent an event this agentui cannot read: {reason}"
            ) from None
        if message_id:
            try:
                resumes = ResumePoint.parse(message_id)
            except ValueError as exc:
                raise UnreadableEvent(200, f"{self.base_url} sent {exc}") from None
            self._resume_at = message_id
            self.last_event_id = resumes.watermark
        if event is None:
            if not isinstance(kind, str):
                raise UnreadableEvent(
                    200, f"{self.base_url} sent an event without a type: {data[:80]}"
                )
            self.skipped_events += 1
            self.unknown_types.add(kind)
        return event

    # -- commands ------------------------------------------------------------------------

    async def start(self, task: str, *, profile: str | None = None) -> str:
        """Start a root agent on `task`; its id."""
        body = {"task": task, "profile": profile}
        started = await self._call("POST", "/tasks", body, answer=StartedTask)
        return started.agent_id

    async def send(self, agent_id: str, text: str) -> None:
        await self._command(agent_id, "send", {"text": text})

    async def pause(self, agent_id: str, *, subtree: bool = False) -> None:
        await self._command(agent_id, "pause", {"subtree": subtree})

    async def resume(self, agent_id: str, *, subtree: bool = False) -> None:
        await self._command(agent_id, "resume", {"subtree": subtree})

    async def cancel(self, agent_id: str, reason: str | None = None) -> None:
        await self._command(agent_id, "cancel", {"reason": reason})

    async def delete(self, agent_id: str) -> None:
        await self._command(agent_id, "delete", None)

    async def modify(
        self, agent_id: str, *, instructions: str | None = None, content: str | None = None
    ) -> None:
        await self._command(agent_id, "modify", {"instructions": instructions, "content": content})

    async def steer(self, agent_id: str, text: str) -> None:
        await self._command(agent_id, "steer", {"text": text})

    async def set_budget(self, agent_id: str, limits: Mapping[str, float]) -> None:
        await self._command(agent_id, "budget", {"limits": dict(limits)})

    async def continue_past_budget(self, agent_id: str) -> None:
        await self._command(agent_id, "past_budget", None)

    async def rewind(self, agent_id: str, step: int) -> None:
        """Take the agent back to one of its steps (GET /agent/ID/steps lists them)."""
        await self._command(agent_id, "rewind", {"step": step})

    async def fork_from(self, agent_id: str, step: int, instructions: str | None = None) -> str:
        """A new root from the agent's conversation at `step`: its id."""
        path = f"/agent/{_segment(agent_id, 'agent')}/fork"
        body = {"step": step, "instructions": instructions}
        return (await self._call("POST", path, body, answer=StartedTask)).agent_id

    async def intervene(
        self,
        agent_id: str,
        *,
        user_comment: str | None = None,
        user_content: str | None = None,
        status: str | None = None,
    ) -> None:
        """The seed's `userIntervention(agentId, {userComment, userContent, status})`."""
        body = {"userComment": user_comment, "userContent": user_content, "status": status}
        await self._command(agent_id, "intervene", body)

    async def answer(self, query_id: str, text: str | None) -> None:
        """Answer an open query, or decline it with None."""
        path = f"/queries/{_segment(query_id, 'query')}/answer"
        await self._call("POST", path, {"text": text}, answer=Success)

    async def approve(self, query_id: str, choice: str, reason: str | None = None) -> None:
        """Decide an approval: "once", "always" or "reject" (with a reason for the model)."""
        body = {"choice": choice, "reason": reason}
        path = f"/queries/{_segment(query_id, 'query')}/approval"
        await self._call("POST", path, body, answer=Success)

    # -- internals -----------------------------------------------------------------------

    async def _command(self, agent_id: str, command: str, body: dict[str, Any] | None) -> None:
        path = f"/agent/{_segment(agent_id, 'agent')}/{command}"
        await self._call("POST", path, body, answer=Success)

    async def _call(
        self, method: str, path: str, body: dict[str, Any] | None = None, *, answer: type[Answer]
    ) -> Answer:
        response = await self._request(method, path, body)
        try:
            return answer.model_validate_json(response.content)
        except ValidationError:
            raise self._not_agentui(response) from None

    async def _call_json(self, method: str, path: str, *, shape: type[Shape]) -> Shape:
        response = await self._request(method, path, None)
        try:
            result = response.json()
        except ValueError:
            raise self._not_agentui(response) from None
        if not isinstance(result, shape):
            raise self._not_agentui(response)
        return result

    async def _request(
        self, method: str, path: str, body: dict[str, Any] | None
    ) -> httpx2.Response:
        """The answer to a request: a 200 of JSON; anything else raises (see the docstring)."""
        try:
            response = await self._http.request(method, path, json=body)
        except httpx2.TransportError as exc:
            raise RemoteUnavailable(self._lost(exc)) from None
        if response.status_code != 200 or _content_type(response) != "application/json":
            raise self._refusal(response)
        return response

    def _refusal(self, response: httpx2.Response) -> RemoteError:
        """agentui's own refusal (`{"error": "..."}`) with its reason, else a RemoteError
        saying what answered."""
        if response.status_code >= 400 and _content_type(response) == "application/json":
            try:
                reason = response.json().get("error")
            except (ValueError, AttributeError):
                reason = None
            if isinstance(reason, str) and reason:
                return RemoteError(response.status_code, reason)
        return self._not_agentui(response)

    def _not_agentui(self, response: httpx2.Response) -> RemoteError:
        what = _content_type(response) or "no content type"
        if response.is_redirect:
            what = f"a redirect to {response.headers.get('location', 'nowhere')}"
        return RemoteError(
            response.status_code,
            f"{self.base_url} is not an agentui server (HTTP {response.status_code}, {what})",
        )

    def _lost(self, exc: Exception) -> str:
        reason = str(exc) or type(exc).__name__
        return f"no connection to agentui serve at {self.base_url}: {reason}"


_INBOX = TypeAdapter(list[InboxEntry])
_KNOWN_TYPES = frozenset(
    kind.model_fields["type"].default for kind in get_args(get_args(AnyEvent)[0])
)


def _content_type(response: httpx2.Response) -> str:
    return response.headers.get("content-type", "").partition(";")[0].strip().lower()


def _segment(identifier: str, kind: str) -> str:
    """An id as one path segment. The server's ids never hold a `/` (nor are `.` or `..`),
    which no router could tell from the path's own: such an id names nothing there."""
    if not identifier or "/" in identifier or identifier in (".", ".."):
        raise RemoteError(404, f"no {kind} with id {identifier!r}")
    return quote(identifier, safe="")
