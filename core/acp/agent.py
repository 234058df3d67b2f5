"""agentui as an ACP agent: the methods a client calls (the SDK's `acp.Agent` protocol).

`initialize` says what agentui takes (sessions can be loaded, listed, resumed and closed;
prompts may embed resources; modes), `session/new` opens a session whose id is the agentui
session's and records where it started (session_records.py), `session/load` reopens a saved
agentui session by its id (from `agentui sessions`, or one this server made, even one never
prompted) and replays it, `session/resume` reopens one without the replay, `session/list` lists
those ACP clients started (session_list.py), `session/close` cancels a session's prompt and ends
its runtime, `session/prompt` runs a turn, `session/cancel` cancels it, `session/set_mode`
switches between asking for approvals and not (modes.py). Sessions live in the server's task
group until the client goes or closes them; their files keep everything for a later
`session/load` or `agentui --resume`.

agentui speaks ACP's protocol version 1 only: `initialize` answers 1 whatever the client asks
(ACP: the agent's latest version when it does not support the client's). A session whose host
ended (an error it did not expect) is forgotten: its file keeps it for `session/load`.

Runtimes come from `open_runtime`, which the command line gives (it knows the settings and how
to assemble a runtime); core never imports the front end.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Container, Sequence
from typing import Any, Protocol

import anyio.to_thread
from acp import PROTOCOL_VERSION, RequestError
from acp.connection import StreamDirection, StreamEvent
from acp.interfaces import Client
from acp.schema import (
    AgentCapabilities,
    ClientCapabilities,
    CloseSessionResponse,
    Implementation,
    InitializeResponse,
    ListSessionsResponse,
    LoadSessionResponse,
    NewSessionResponse,
    PromptCapabilities,
    PromptResponse,
    ResumeSessionResponse,
    SessionCapabilities,
    SessionCloseCapabilities,
    SessionListCapabilities,
    SessionResumeCapabilities,
    SetSessionModeResponse,
)
from anyio.abc import TaskGroup

from agentui.core import __version__
from agentui.core.acp.child_sessions import RawSend, parse_child_id, takes_subagents
from agentui.core.acp.inbox import METHOD as INBOX_METHOD
from agentui.core.acp.inbox import WIRE_METHOD as INBOX_WIRE_METHOD
from agentui.core.acp.modes import ModeId, mode_state, parse_mode
from agentui.core.acp.prompt_text import PromptBlock
from agentui.core.acp.questions import takes_forms
from agentui.core.acp.session import AcpSession
from agentui.core.acp.session_list import listed_sessions
from agentui.core.acp.session_records import SessionRecord, read_record, write_record
from agentui.core.acp.tool_calls import META_KEY
from agentui.core.acp.visible import visible
from agentui.core.protocol import events as ev
from agentui.core.runtime import Runtime
from agentui.core.session.naming import new_session_id, session_path
from agentui.core.session.resume import ResumePlan, open_for_resume
from agentui.core.support.errors import AgentUIError

log = logging.getLogger("agentui.acp")

_SESSION_ID = re.compile(r"[0-9A-Za-z][0-9A-Za-z_-]*")  # as naming.py makes them


class RuntimeOpener(Protocol):
    def __call__(self, *, session_id: str | None, resume: ResumePlan | None) -> Runtime:
        """A runtime recording a new session named `session_id`, or continuing `resume`'s."""
        ...


class AgentuiAgent:
    def __init__(self, open_runtime: RuntimeOpener, sessions: TaskGroup, *, mode: ModeId) -> None:
        """`sessions` hosts each session's runtime; `mode` is each new session's first."""
        self._open_runtime = open_runtime
        self._group = sessions
        self._first_mode: ModeId = mode
        self._client: Client | None = None
        self._capabilities: ClientCapabilities | None = None
        self._child_sessions = False  # the client takes subagents as child sessions
        self._sessions: dict[str, AcpSession] = {}

    def on_connect(self, conn: Client) -> None:
        self._client = conn

    def observe(self, event: StreamEvent) -> None:
        """What the SDK's models drop of a client's `initialize`: whether it takes child
        sessions (child_sessions.py). Called with each message as it arrives, before it is
        handled."""
        message = event.message
        if event.direction is StreamDirection.INCOMING and message.get("method") == "initialize":
            self._child_sessions = takes_subagents(message.get("params"))

    async def close(self) -> None:
        """End every session's runtime: their agents stop, their files are complete."""
        for session in list(self._sessions.values()):
            await session.close()
        self._sessions.clear()

    # -- the protocol --------------------------------------------------------------------

    async def initialize(
        self,
        protocol_version: int,
        client_capabilities: ClientCapabilities | None = None,
        client_info: Implementation | None = None,
        **kwargs: Any,
    ) -> InitializeResponse:
        self._capabilities = client_capabilities
        return InitializeResponse(
            protocol_version=PROTOCOL_VERSION,
            agent_capabilities=AgentCapabilities(
                load_session=True,
                prompt_capabilities=PromptCapabilities(embedded_context=True),
                session_capabilities=SessionCapabilities(
                    list=SessionListCapabilities(),
                    resume=SessionResumeCapabilities(),
                    close=SessionCloseCapabilities(),
                ),
                # agentui's extensions (ACP's extensibility): the inbox (inbox.py).
                field_meta={META_KEY: {"inbox": INBOX_WIRE_METHOD}},
            ),
            agent_info=Implementation(name="agentui", title="agentui", version=__version__),
        )

    async def new_session(
        self, cwd: str, mcp_servers: list[Any] | None = None, **kwargs: Any
    ) -> NewSessionResponse:
        self._note_unused(mcp_servers)
        session_id = _fresh_session_id(taken=self._sessions)
        session = await self._open(
            session_id, self._open_runtime(session_id=session_id, resume=None)
        )
        write_record(SessionRecord(session_id, cwd, time.time()))
        return NewSessionResponse(session_id=session_id, modes=mode_state(session.mode))

    async def load_session(
        self, cwd: str, session_id: str, mcp_servers: list[Any] | None = None, **kwargs: Any
    ) -> LoadSessionResponse:
        self._note_unused(mcp_servers)
        session = await self._reopen(session_id, cwd, replay=True)
        return LoadSessionResponse(modes=mode_state(session.mode))

    async def resume_session(
        self, session_id: str, cwd: str, mcp_servers: list[Any] | None = None, **kwargs: Any
    ) -> ResumeSessionResponse:
        """As session/load without replaying the conversation; a session open here goes on
        as it is."""
        self._note_unused(mcp_servers)
        open_here = self._live_session(session_id)
        if open_here is not None:
            return ResumeSessionResponse(modes=mode_state(open_here.mode))
        session = await self._reopen(session_id, cwd, replay=False)
        return ResumeSessionResponse(modes=mode_state(session.mode))

    async def close_session(self, session_id: str, **kwargs: Any) -> CloseSessionResponse:
        """Cancel the session's prompt as session/cancel does, then stop its agents and end
        its runtime (its file keeps them: session/load or resume reopens it)."""
        session = self._session(session_id)
        session.cancel()
        await session.close()
        self._sessions.pop(session_id, None)
        return CloseSessionResponse()

    async def list_sessions(
        self, cwd: str | None = None, cursor: str | None = None, **kwargs: Any
    ) -> ListSessionsResponse:
        """The sessions an ACP client started (their working directory is known), newest
        first, in one page."""
        if cursor is not None:  # none is ever handed out
            raise RequestError.invalid_params({"cursor": "no such cursor: the list is one page"})
        sessions = await anyio.to_thread.run_sync(listed_sessions, cwd)
        return ListSessionsResponse(sessions=visible(sessions))

    async def _reopen(self, session_id: str, cwd: str, *, replay: bool) -> AcpSession:
        """Open a session again here: from its file, or, never prompted (no file yet), from
        its record, as new. `replay`: the client is shown its conversation."""
        open_here = self._live_session(session_id)
        if open_here is not None and open_here.busy:  # first: it may have no file yet
            raise RequestError.invalid_request(
                {"details": f"session {session_id} is running a prompt; cancel it first"}
            )
        # An exact id only: never a path, a prefix or "last".
        if not _SESSION_ID.fullmatch(session_id):
            raise RequestError.resource_not_found(visible(session_id))
        has_file = session_path(session_id).is_file()
        record = read_record(session_id)
        if not has_file and record is None and open_here is None:
            raise RequestError.resource_not_found(visible(session_id))
        if open_here is not None:
            await open_here.close()  # reopened from its file, as any saved session
            del self._sessions[session_id]
        history: Sequence[ev.Event] = ()
        if has_file:
            try:
                # In a worker thread: reading and folding a long session would stall every
                # other session's updates.
                plan = await anyio.to_thread.run_sync(open_for_resume, session_id)
                runtime = self._open_runtime(session_id=None, resume=plan)
            except AgentUIError as exc:  # unreadable, or open in another agentui
                raise RequestError.invalid_request({"details": visible(str(exc))}) from None
            for warning in plan.log.warnings:
                log.warning("session %s: %s", session_id, warning)
            history = plan.history
        else:  # created, never prompted: its first event makes its file, under its id
            runtime = self._open_runtime(session_id=session_id, resume=None)
        session = await self._open(session_id, runtime, history=history, replay=replay)
        if record is None:  # made elsewhere (agentui itself): where it goes on from now
            write_record(SessionRecord(session_id, cwd, time.time()))
        return session

    async def set_session_mode(
        self, session_id: str, mode_id: str, **kwargs: Any
    ) -> SetSessionModeResponse:
        mode = parse_mode(mode_id)
        if mode is None:
            raise RequestError.invalid_params({"modeId": f"unknown mode {mode_id!r}: ask or yes"})
        self._session(session_id).mode = mode
        return SetSessionModeResponse()

    async def prompt(
        self, session_id: str, prompt: list[PromptBlock], **kwargs: Any
    ) -> PromptResponse:
        return await self._session(session_id).prompt(prompt)

    async def cancel(self, session_id: str, **kwargs: Any) -> None:
        session = self._live_session(session_id)
        if session is not None:
            session.cancel()
            return
        child = parse_child_id(session_id)  # a subagent's own session: that agent alone
        parent = self._live_session(child[0]) if child is not None else None
        if child is not None and parent is not None:
            parent.cancel_child(child[1])

    async def ext_method(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """agentui's extension requests: `_agentui/inbox` (inbox.py)."""
        if method != INBOX_METHOD:
            raise RequestError.method_not_found(visible(f"_{method}"))
        session_id = params.get("sessionId")
        if not isinstance(session_id, str):
            raise RequestError.invalid_params({"sessionId": "the session whose inbox to read"})
        return {"rows": self._session(session_id).inbox_rows()}

    async def ext_notification(self, method: str, params: dict[str, Any]) -> None:
        """No notification of a client's is known here: ignored, as JSON-RPC wants."""

    # -- helpers -------------------------------------------------------------------------

    async def _open(
        self,
        session_id: str,
        runtime: Runtime,
        *,
        history: Sequence[ev.Event] = (),
        replay: bool = True,
    ) -> AcpSession:
        if self._client is None:
            raise RequestError.internal_error({"details": "no client is connected"})
        session = AcpSession(
            session_id,
            runtime,
            self._client,
            mode=self._first_mode,
            forms=takes_forms(self._capabilities),
            history=history,
            replay=replay,
            children=self._raw_send() if self._child_sessions else None,
        )
        try:
            await self._group.start(session.host)
        except AgentUIError as exc:
            raise RequestError.invalid_request({"details": visible(str(exc))}) from None
        self._sessions[session_id] = session
        return session

    def _raw_send(self) -> RawSend | None:
        """How to send what the SDK has no model for: its connection's own notification
        (the SDK keeps it as `_conn`); None when the client is no SDK connection."""
        connection = getattr(self._client, "_conn", None)
        send = getattr(connection, "send_notification", None)
        if send is None:
            log.warning("the client takes child sessions, but they cannot be sent here")
        return send

    def _session(self, session_id: str) -> AcpSession:
        session = self._live_session(session_id)
        if session is None:
            raise RequestError.resource_not_found(visible(session_id))
        return session

    def _live_session(self, session_id: str) -> AcpSession | None:
        """The session open here; one whose host ended is forgotten."""
        session = self._sessions.get(session_id)
        if session is not None and session.closed.is_set():
            del self._sessions[session_id]
            return None
        return session

    @staticmethod
    def _note_unused(mcp_servers: list[Any] | None) -> None:
        if mcp_servers:
            log.warning(
                "the client offered %d MCP server(s); agentui uses the servers of its own "
                "config ([mcp.servers]), not the client's",
                len(mcp_servers),
            )


def _fresh_session_id(*, taken: Container[str]) -> str:
    """A new agentui session id no file has yet (the session's file is made at its first
    event, under this name) and no session open here has (one without a prompt has no file)."""
    while True:
        session_id = new_session_id(time.time())
        if session_id not in taken and not session_path(session_id).exists():
            return session_id
