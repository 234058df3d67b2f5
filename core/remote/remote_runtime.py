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

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import anyio
from anyio.abc import TaskGroup
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

from agentui.core.clock import SystemClock
from agentui.core.errors import CommandRefusedError
from agentui.core.events import EventBus, Subscription

from .client import RemoteClient, RemoteError, RemoteUnavailable

FIRST_RETRY_S = 0.5
LONGEST_RETRY_S = 10.0


@dataclass(frozen=True)
class RemoteProvider:
    """What the status bar says of the server's provider."""

    name: str
    model: str


@dataclass
class RemoteProfiles:
    """The profile files are the server's: none of them are this machine's problem."""

    problems: list[str] = field(default_factory=list)


def _ignore(*_: object) -> None:
    return None


@dataclass
class _Listeners:
    warned: Callable[[str], None] = _ignore  # a command the server refused, or a lost event
    started: Callable[[str], None] = _ignore  # the id of a root agent a `start` created
    connection: Callable[[], None] = _ignore  # connected or not changed (read `connection_text`)


Command = tuple[str, Callable[[], Awaitable[Any]]]


class RemoteRuntime:
    """The commands and events of a runtime that `agentui serve` runs."""

    is_remote = True
    session = None  # sessions are written where the runtime runs

    def __init__(
        self,
        client: RemoteClient,
        provider: RemoteProvider,
        *,
        first_retry_s: float = FIRST_RETRY_S,
        longest_retry_s: float = LONGEST_RETRY_S,
    ) -> None:
        self._client = client
        self.provider = provider
        self.profiles = RemoteProfiles()
        self.address = client.base_url
        self._first_retry_s = first_retry_s
        self._longest_retry_s = longest_retry_s
        self._bus = EventBus(SystemClock())
        self._listeners = _Listeners()
        self._group: TaskGroup | None = None
        self._commands: MemoryObjectSendStream[Command] | None = None
        self.connected = False
        self.connection_text = f"connecting to {self.address}"
        self.last_seq = 0  # every event up to here has been relayed
        self.lost_because = ""  # why the stream dropped last

    def listen(
        self,
        *,
        warned: Callable[[str], None] = _ignore,
        started: Callable[[str], None] = _ignore,
        connection: Callable[[], None] = _ignore,
    ) -> None:
        self._listeners = _Listeners(warned, started, connection)

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
        assert self._group is not None
        self._group.cancel_scope.cancel()
        try:
            return await self._group.__aexit__(*exc_info)
        finally:
            self._bus.close()
            with anyio.CancelScope(shield=True):
                await self._client.aclose()

    def subscribe(self, maxsize: int | None = 4096) -> Subscription:
        return self._bus.subscribe(maxsize)

    # -- events --------------------------------------------------------------------------------

    async def _follow_events(self) -> None:
        delay = self._first_retry_s
        while True:
            try:
                info = await self._client.info()
                self.provider = RemoteProvider(info.provider, info.model)
                since = self._client.last_event_id
                if info.last_seq < since:
                    since = self._restarted_without(since - info.last_seq, info.last_seq)
                self._set_connection(True, f"attached to {self.address}")
                delay = self._first_retry_s
                # The server sends only what came after `since`: nothing twice, nothing missed.
                async for event in self._client.events(since=since):
                    self._bus.relay(event)
                    self.last_seq = max(self.last_seq, self._client.last_event_id)
                reason = "the server ended the stream"
            except RemoteError as exc:
                # A wrong token or a refused origin: trying again would be refused again.
                self._set_connection(False, f"refused by {self.address}: {exc.message}")
                return
            except RemoteUnavailable as exc:
                reason = str(exc)
            self.lost_because = reason
            self._set_connection(False, f"disconnected from {self.address}, retry in {delay:g}s")
            await anyio.sleep(delay)
            delay = min(delay * 2, self._longest_retry_s)

    def _restarted_without(self, lost: int, saved: int) -> int:
        """The server was stopped before its last events were saved, and resumed: what the
        screen showed of them is gone from the runtime. Follow it from what it kept."""
        self._listeners.warned(
            f"{self.address} restarted without the last {lost} events this screen showed "
            "(they were never saved); run `agentui attach` again for its exact state"
        )
        return saved

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
            self._listeners.started(await self._client.start(task, profile=profile))

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

    def set_provider(self, provider: object) -> None:
        raise CommandRefusedError(
            "the provider is the server's: start `agentui serve` with --provider to change it"
        )
