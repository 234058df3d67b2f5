"""RemoteClient: the commands of a Runtime and its event stream, over HTTP from `agentui serve`.

    client = RemoteClient("http://127.0.0.1:8765", read_token(None))
    agent_id = await client.start("plan a party")
    async for event in client.events(since=0):      # typed events, as a local subscription
        ...
    await client.pause(agent_id)
    await client.aclose()

A refusal of the server (4xx: unknown agent, command that does not apply now, bad token) raises
RemoteError with the server's one-sentence reason; a server that cannot be reached, or a
connection that drops or times out, raises RemoteUnavailable. `events()` keeps the watermark of
what it delivered in `last_event_id`; `client.events(since=client.last_event_id)` after a drop
continues with nothing lost or doubled (even inside a batch the server merged).

The token: the caller reads it from the environment variable AGENTUI_TOKEN when set, else from
the file `agentui serve` wrote (`read_token`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx2
from pydantic import ValidationError

from ..errors import AgentUIError
from ..events import Event, parse_event
from .api_models import ServerInfo
from .auth import default_token_path, read_token_file
from .sse_batches import ResumePoint

TOKEN_VARIABLE = "AGENTUI_TOKEN"


class RemoteError(AgentUIError):
    """The server refused the request (4xx); `message` is its reason."""

    def __init__(self, status: int | None, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


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
        self._http = httpx2.AsyncClient(
            base_url=self.base_url,
            headers={"Authorization": f"Bearer {token}"},
            timeout=timeout,
        )
        self.last_event_id = 0  # every event with seq <= this has been delivered by events()
        self._resume_at = "0"  # the server's last SSE id: may point inside a merged batch

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> RemoteClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    # -- reading -------------------------------------------------------------------------

    async def info(self) -> ServerInfo:
        return ServerInfo.model_validate(await self._call("GET", "/info"))

    async def tree(self) -> dict[str, Any]:
        """Every agent without its messages, by id, in the seed's shape (`agentId`,
        `parentId`, `userContent`, `status`, `subagents`, ...)."""
        result: dict[str, Any] = await self._call("GET", "/agent/tree")
        return result

    async def snapshot(self) -> dict[str, Any]:
        """The same as `Runtime.snapshot()` on the server: `{"roots": [...], "agents": {...}}`."""
        result: dict[str, Any] = await self._call("GET", "/snapshot")
        return result

    async def agent(self, agent_id: str) -> dict[str, Any]:
        """One agent with its full message history (`messages`), in the seed's shape."""
        result: dict[str, Any] = await self._call("GET", f"/agent/{_segment(agent_id)}")
        return result

    async def sessions(self) -> list[dict[str, Any]]:
        result: list[dict[str, Any]] = await self._call("GET", "/sessions")
        return result

    async def events(self, since: int = 0) -> AsyncIterator[Event]:
        """The runtime's events with seq above `since` (the saved history first), then live
        ones, until the server ends the stream (its runtime shut down).

        Raises RemoteUnavailable when the connection cannot be made or drops, RemoteError when
        the server refuses it (401, 403). With `since == self.last_event_id`, it resumes
        exactly where the previous stream stopped.
        """
        resume_at = self._resume_at if since == self.last_event_id else str(since)
        timeout = httpx2.Timeout(self.timeout, read=self.idle_timeout)
        try:
            async with self._http.sse(
                "/events", headers={"Last-Event-ID": resume_at}, timeout=timeout
            ) as source:
                response = source.response
                if response.status_code >= 400:
                    await response.aread()
                    raise _refusal(response)
                async for message in source:
                    try:
                        event = parse_event(message.data)
                    except ValidationError as exc:
                        raise RemoteError(
                            None, f"the server sent an event this agentui cannot read: {exc}"
                        ) from None
                    if message.id:
                        self._resume_at = message.id
                        self.last_event_id = ResumePoint.parse(message.id).watermark
                    yield event
        except httpx2.TransportError as exc:
            raise RemoteUnavailable(self._lost(exc)) from None

    # -- commands ------------------------------------------------------------------------

    async def start(self, task: str, *, profile: str | None = None) -> str:
        """Start a root agent on `task`; its id."""
        result = await self._call("POST", "/tasks", {"task": task, "profile": profile})
        return str(result["agent_id"])

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
        await self._call("POST", f"/queries/{_segment(query_id)}/answer", {"text": text})

    async def approve(self, query_id: str, choice: str, reason: str | None = None) -> None:
        """Decide an approval: "once", "always" or "reject" (with a reason for the model)."""
        body = {"choice": choice, "reason": reason}
        await self._call("POST", f"/queries/{_segment(query_id)}/approval", body)

    # -- internals -----------------------------------------------------------------------

    async def _command(self, agent_id: str, command: str, body: dict[str, Any] | None) -> None:
        await self._call("POST", f"/agent/{_segment(agent_id)}/{command}", body)

    async def _call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        try:
            response = await self._http.request(method, path, json=body)
        except httpx2.TransportError as exc:
            raise RemoteUnavailable(self._lost(exc)) from None
        if response.status_code >= 400:
            raise _refusal(response)
        return response.json()

    def _lost(self, exc: Exception) -> str:
        reason = str(exc) or type(exc).__name__
        return f"no connection to agentui serve at {self.base_url}: {reason}"


def _refusal(response: httpx2.Response) -> RemoteError:
    try:
        message = str(response.json()["error"])
    except (ValueError, KeyError, TypeError):
        message = response.text.strip() or response.reason_phrase
    return RemoteError(response.status_code, message)


def _segment(identifier: str) -> str:
    """An id as one path segment (ids are plain, but a typed one may hold anything)."""
    from urllib.parse import quote

    return quote(identifier, safe="")
