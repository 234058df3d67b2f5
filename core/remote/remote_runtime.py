"""A runtime on another machine, driven as if it were here (`agentui attach`).

The app talks to this as it talks to a local `Runtime`: the same command methods, and
`subscribe()` for events. Commands travel over HTTP in the order they were given, one at a time;
the server's refusals come back later through `listen(refused=...)`, since an HTTP round trip
cannot answer inside a key press. Events come from the server's SSE stream and are relayed,
seqs and all, onto a local bus, so the screen folds exactly what the remote runtime emitted.

When the stream drops, the screen keeps what it has, commands are refused at once with a notice,
and the stream is opened again with backoff from the last seq seen: the server sends what came
after it, so nothing is lost or doubled.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import anyio
from anyio.abc import TaskGroup
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

from agentui.core.bus import EventBus, Subscription
from agentui.core.remote.client import (
    FINAL_STATUSES,
    RemoteClient,
    RemoteError,
    RemoteUnavailable,
    UnreadableEvent,
)
from agentui.core.support.clock import SystemClock
from agentui.core.support.errors import AgentUIError, CommandRefusedError

FIRST_RETRY_S = 0.5
LONGEST_RETRY_S = 10.0
# On quit, how long commands already given may take to reach the server (a cancel, then ctrl+q).
LAST_COMMANDS_S = 2.0


@dataclass(frozen=True)
class RemoteProvider:
    """What the status bar says of the server's provider."""

    name: str
    model: str


@dataclass
class RemoteProfiles:
    """The profile files are the server's: none of them are this machine's problem."""

    problems: list[str] = field(default_factory=list)


class _OtherRun(Exception):
    """The address now serves another session: its agents are not the ones on screen."""


def _ignore(*_: object) -> None:
    return None


@dataclass
class _Listeners:
    warned: Callable[[str], None] = _ignore  # a command the server refused, or a lost event
    started: Callable[[str], None] = _ignore  # the id of a root agent a `start` created
    connection: Callable[[], None] = _ignore  # connected or not changed (read `connection_text`)
    # The task of a `start` the server did not make (`warned` says why): the words are not lost.
    not_started: Callable[[str], None] = _ignore


Command = tuple[str, Callable[[], Awaitable[Any]]]


class RemoteRuntime:
    """The commands and events of a runtime that `agentui serve` runs."""

    session = None  # sessions are written where the runtime runs

    def __init__(
        self,
        client: RemoteClient,
        provider: RemoteProvider,
        *,
        first_retry_s: float = FIRST_RETRY_S,
        longest_retry_s: float = LONGEST_RETRY_S,
        read_token: Callable[[], str] | None = None,
    ) -> None:
        self._client = client
        # Where the token came from, read again after a 401 (the server made a new one).
        self._read_token = read_token
        self._token_in_use: str | None = None  # as read again; None: the one given at start
        self.provider = provider
        self.profiles = RemoteProfiles()
        self.address = client.base_url
        # As the status bar says it: narrow terminals have no room for the scheme.
        self.host = self.address.split("://", 1)[-1]
        self._first_retry_s = first_retry_s
        self._longest_retry_s = longest_retry_s
        self._bus = EventBus(SystemClock())
        self._listeners = _Listeners()
        self._group: TaskGroup | None = None
        self._commands: MemoryObjectSendStream[Command] | None = None
        self.connected = False
        self.connection_text = f"connecting to {self.host}"
        self._session_id: str | None = None  # the server's session: another one is another run
        self._unknown_types: set[str] = set()
        self._commands_done = anyio.Event()

    def listen(
        self,
        *,
        warned: Callable[[str], None] = _ignore,
        started: Callable[[str], None] = _ignore,
        connection: Callable[[], None] = _ignore,
        not_started: Callable[[str], None] = _ignore,
    ) -> None:
        self._listeners = _Listeners(warned, started, connection, not_started)

    # -- life --------------------------------------------------------------------------------

    async def __aenter__(self) -> RemoteRuntime:
        send, receive = anyio.create_memory_object_stream[Command](max_buffer_size=1000)
        self._commands = send
        self._group = anyio.create_task_group()
        await self._group.__aenter__()
        self._group.start_soon(self._follow_events)
        self._group.start_soon(self._send_commands, receive)
        return self

    async def __aexit__(self, *exc_info: Any) -> bool | None:
        assert self._group is not None and self._commands is not None
        # A command given just before quitting (c, then ctrl+q) still goes, if it can.
        self._commands.close()
        with anyio.move_on_after(LAST_COMMANDS_S):
            await self._commands_done.wait()
        self._group.cancel_scope.cancel()
        try:
            return await self._group.__aexit__(*exc_info)
        finally:
            self._bus.close()
            with anyio.CancelScope(shield=True):
                await self._client.aclose()

    @property
    def last_seq(self) -> int:
        """Every event up to here has been relayed (the stream's watermark)."""
        return self._client.last_event_id

    def subscribe(self, maxsize: int | None = 4096) -> Subscription:
        return self._bus.subscribe(maxsize)

    # -- events --------------------------------------------------------------------------------

    async def _follow_events(self) -> None:
        delay = self._first_retry_s
        while True:
            try:
                await self._follow_once()  # returns when the server ended the stream
            except UnreadableEvent as exc:
                # The same event would come again at every try: only a newer agentui reads it.
                self._set_connection(False, f"cannot follow {self.host}: {exc.message}")
                return
            except RemoteError as exc:
                # Tried again: a gateway's 502 while the server restarts, a new token.
                final = exc.status in FINAL_STATUSES
                if final and not (exc.status == 401 and self._token_changed()):
                    self._set_connection(False, f"refused by {self.address}: {exc.message}")
                    return
            except _OtherRun as exc:
                self._set_connection(False, str(exc))
                return
            except Exception:  # unreachable, dropped, or whatever else: the screen stays
                pass
            if self.connected:
                delay = self._first_retry_s  # it was working: the first retry comes soon
            self._set_connection(False, f"lost {self.host}, retrying in {delay:g}s")
            await anyio.sleep(delay)
            delay = min(delay * 2, self._longest_retry_s)

    async def _follow_once(self) -> None:
        """Connect, then relay events until the stream ends (raises when it breaks)."""
        info = await self._client.info()
        since = self._client.last_event_id
        other_session = self._session_id is not None and info.session_id not in (
            None,
            self._session_id,
        )
        # Numbering started again with no session to resume: a new run, whose a1 is not the
        # a1 on screen.
        renumbered = info.last_seq < since and info.session_id is None
        if other_session or renumbered:
            named = f" ({info.session_id})" if info.session_id else ""
            raise _OtherRun(
                f"{self.host} now runs another session{named}; this screen shows the one "
                "before: run `agentui attach` again"
            )
        self._session_id = info.session_id or self._session_id
        self.provider = RemoteProvider(info.provider, info.model)
        if info.last_seq < since:
            self._warn_restarted_without(since - info.last_seq)
            since = info.last_seq  # follow it from what it kept
        self._set_connection(True, f"attached to {self.host}")
        # The server sends only what came after `since`: nothing twice, nothing missed.
        async for event in self._client.events(since=since):
            self._bus.relay(event)
            if len(self._client.unknown_types) != len(self._unknown_types):
                self._warn_of_unknown_events()
        self._warn_of_unknown_events()

    def _token_changed(self) -> bool:
        """After a 401: read the token again; True when it changed (then try with it)."""
        if self._read_token is None:
            return False
        try:
            token = self._read_token()
        except AgentUIError:
            return False
        if token == self._token_in_use:
            return False
        self._token_in_use = token
        self._client.set_token(token)
        return True

    def _warn_of_unknown_events(self) -> None:
        new = set(self._client.unknown_types) - self._unknown_types
        if new:
            self._unknown_types |= new
            self._listeners.warned(
                f"{self.address} sent events this agentui does not know ({', '.join(sorted(new))}):"
                " they are left out; upgrade agentui to see them"
            )

    def _warn_restarted_without(self, lost: int) -> None:
        """The server was stopped before its last events were saved, and resumed: what the
        screen showed of them is gone from the runtime."""
        self._listeners.warned(
            f"{self.address} restarted without the last {lost} events this screen showed "
            "(they were never saved); run `agentui attach` again for its exact state"
        )

    def _set_connection(self, connected: bool, text: str) -> None:
        self.connected = connected
        self.connection_text = text
        self._listeners.connection()

    # -- commands --------------------------------------------------------------------------

    async def _send_commands(self, receive: MemoryObjectReceiveStream[Command]) -> None:
        async with receive:
            async for what, call in receive:
                try:
                    await call()
                except RemoteError as exc:
                    self._listeners.warned(f"{what}: {exc.message}")
                except RemoteUnavailable:
                    self._listeners.warned(
                        f"{what}: not sent, {self.address} did not answer; "
                        "try again once it is back"
                    )
                except Exception as exc:  # a bad answer is a notice, not a crash
                    self._listeners.warned(f"{what}: {type(exc).__name__}: {exc}")
        self._commands_done.set()

    def _queue(self, what: str, call: Callable[[], Awaitable[Any]]) -> None:
        if not self.connected or self._commands is None:
            raise CommandRefusedError(
                f"not connected to {self.address}; the screen shows what it last saw"
            )
        self._commands.send_nowait((what, call))

    def start(self, task: str, *, profile: str | None = None) -> str:
        """Ask the server to start `task`. Returns "" now: the agent's id arrives through
        `listen(started=...)` once the server has made it."""

        async def start() -> None:
            try:
                agent_id = await self._client.start(task, profile=profile)
            except BaseException:
                self._listeners.not_started(task)
                raise  # said as any command's failure is
            self._listeners.started(agent_id)

        self._queue("start", start)
        return ""

    def send(self, agent_id: str, text: str) -> None:
        self._queue("continue", lambda: self._client.send(agent_id, text))

    def pause(self, agent_id: str, *, subtree: bool = False) -> None:
        self._queue("pause", lambda: self._client.pause(agent_id, subtree=subtree))

    def resume(self, agent_id: str, *, subtree: bool = False) -> None:
        self._queue("resume", lambda: self._client.resume(agent_id, subtree=subtree))

    def cancel(self, agent_id: str, reason: str = "cancelled by the person") -> None:
        self._queue("cancel", lambda: self._client.cancel(agent_id, reason))

    def delete(self, agent_id: str) -> None:
        self._queue("delete", lambda: self._client.delete(agent_id))

    def modify(
        self, agent_id: str, *, instructions: str | None = None, content: str | None = None
    ) -> None:
        if instructions is None and content is None:
            raise CommandRefusedError("modify needs new instructions, new content, or both")
        self._queue(
            "modify",
            lambda: self._client.modify(agent_id, instructions=instructions, content=content),
        )

    def steer(self, agent_id: str, text: str) -> None:
        self._queue("steer", lambda: self._client.steer(agent_id, text))

    def answer(self, query_id: str, text: str | None) -> None:
        self._queue("answer", lambda: self._client.answer(query_id, text))

    def approve(self, query_id: str, decision: str, reason: str | None = None) -> None:
        self._queue("approval", lambda: self._client.approve(query_id, decision, reason))

    def set_budget(self, agent_id: str, limits: Mapping[str, float]) -> None:
        given = dict(limits)
        self._queue("budget", lambda: self._client.set_budget(agent_id, given))

    def continue_past_budget(self, agent_id: str) -> None:
        self._queue("continue past the budget", lambda: self._client.continue_past_budget(agent_id))

    def rewind(self, agent_id: str, step: int) -> None:
        """The server checks the step and the table (allowed's REWIND) and refuses in its
        runtime's words, said through `listen(warned=...)`."""
        self._queue("rewind", lambda: self._client.rewind(agent_id, step))

    def fork_from(self, agent_id: str, step: int, *, instructions: str | None = None) -> str:
        """Ask the server to fork a new root from the agent's step. Returns "" now: the fork's
        id arrives through `listen(started=...)`, as a started task's does (a refusal, such as
        a driver agent's, through `warned`)."""

        async def fork() -> None:
            self._listeners.started(
                await self._client.fork_from(agent_id, step, instructions=instructions)
            )

        self._queue("fork", fork)
        return ""

    def set_provider(self, provider: object) -> None:
        raise CommandRefusedError(
            "the provider is the server's: start `agentui serve` with --provider to change it"
        )


if TYPE_CHECKING:  # checked by mypy: the app drives an attached runtime as a local one
    from agentui.core.protocol.commands import AttachedPort

    def _drives_as_a_port(runtime: RemoteRuntime) -> AttachedPort:
        return runtime
