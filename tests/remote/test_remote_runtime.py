"""RemoteRuntime's rules for a connection, on a client that answers as a test says.

What is true of a real server over a real network is in test_attach.py and test_reattach.py;
here are the answers a test cannot easily get a server to give: a gateway's 502 while the
server restarts, a new token, another session at the same address, events of a newer agentui.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import anyio
import pytest

from agentui.core.protocol.events import Event, TextDelta
from agentui.core.remote.api_models import ServerInfo
from agentui.core.remote.client import RemoteError, RemoteUnavailable
from agentui.core.remote.remote_runtime import RemoteProvider, RemoteRuntime
from agentui.core.support.errors import CommandRefusedError

pytestmark = pytest.mark.anyio
GUARD_S = 30  # a safety net, never a measurement


def info(session_id: str | None = "s1", last_seq: int = 0) -> ServerInfo:
    return ServerInfo(
        version="0",
        provider="scripted",
        model="m",
        workflow="plain",
        session_id=session_id,
        last_seq=last_seq,
        narrator=False,
        heartbeat_s=15.0,
    )


def delta(seq: int) -> TextDelta:
    return TextDelta(seq=seq, ts=0.0, agent_id="a1", delta=f"<{seq}>", iteration=1)


class ScriptedClient:
    """Answers `info()` and `events()` from lists of outcomes, one per connection."""

    base_url = "http://server.test"

    def __init__(self, connections: list[Callable[[], Any]]) -> None:
        self._connections = connections
        self.connects = 0
        self.tokens: list[str] = []
        self.last_event_id = 0
        self.unknown_types: set[str] = set()
        self.sent: list[str] = []
        self.endless = anyio.Event()

    async def info(self) -> ServerInfo:
        outcome = self._connections[min(self.connects, len(self._connections) - 1)]()
        self.connects += 1
        if isinstance(outcome, Exception):
            raise outcome
        assert isinstance(outcome, tuple)
        return outcome[0]

    async def events(self, since: int = 0) -> AsyncIterator[Event]:
        outcome = self._connections[min(self.connects - 1, len(self._connections) - 1)]()
        for item in outcome[1]:
            if isinstance(item, str):
                self.unknown_types.add(item)  # what the real client does with an unknown type
                continue
            self.last_event_id = item.seq
            yield item
        await self.endless.wait()  # the stream stays open

    def set_token(self, token: str) -> None:
        self.tokens.append(token)

    async def cancel(self, agent_id: str, reason: str | None = None) -> None:
        await anyio.sleep(0)
        self.sent.append(f"cancel {agent_id}")

    async def aclose(self) -> None:
        self.endless.set()


def remote(client: ScriptedClient, **options: Any) -> tuple[RemoteRuntime, list[str]]:
    runtime = RemoteRuntime(client, RemoteProvider("scripted", "m"), first_retry_s=0, **options)  # type: ignore[arg-type]
    warnings: list[str] = []
    runtime.listen(warned=warnings.append)
    return runtime, warnings


async def until(condition: Callable[[], bool]) -> None:
    with anyio.fail_after(GUARD_S):
        while not condition():
            await anyio.sleep(0)


async def test_a_gateway_error_while_the_server_restarts_is_tried_again() -> None:
    gateway = RemoteError(502, "<html>502 Bad Gateway</html>")
    client = ScriptedClient([lambda: gateway, lambda: gateway, lambda: (info(), [delta(1)])])
    runtime, _ = remote(client)
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        await until(lambda: runtime.connected and len(events) == 1)
    assert client.connects == 3


async def test_a_refused_token_is_read_again_once_then_final() -> None:
    refused = RemoteError(401, "a valid token is needed")
    tokens = iter(["new-token", "new-token"])
    client = ScriptedClient([lambda: refused, lambda: (info(), []), lambda: refused])
    runtime, _ = remote(client, read_token=lambda: next(tokens))
    async with runtime:
        await until(lambda: runtime.connected)
        assert client.tokens == ["new-token"]  # the file held a new one: used at once
    client = ScriptedClient([lambda: refused])
    runtime, _ = remote(client, read_token=lambda: "same")
    async with runtime:
        await until(lambda: runtime.connection_text.startswith("refused by"))
    assert client.connects == 2  # read again once; the same token: asking again is useless
    assert client.tokens == ["same"] and not runtime.connected


async def test_another_session_at_the_same_address_is_not_mixed_into_the_screen() -> None:
    client = ScriptedClient([lambda: (info("s1"), [delta(1)]), lambda: (info("s2"), [delta(1)])])
    runtime, _ = remote(client)
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        await until(lambda: len(events) == 1)
        client.endless.set()  # the stream ends; the next connection finds another session
        await until(lambda: "another session (s2)" in runtime.connection_text)
    assert len(events.drain()) == 1 and not runtime.connected


async def test_a_new_run_without_a_session_at_the_same_address_is_not_mixed_in() -> None:
    # `--no-session` servers have no session id: numbering starting again tells it.
    first, second = (info(None, last_seq=0), [delta(1), delta(2)]), (info(None, last_seq=0), [])
    client = ScriptedClient([lambda: first, lambda: second])
    runtime, _ = remote(client)
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        await until(lambda: len(events) == 2)
        client.endless.set()
        await until(lambda: "another session" in runtime.connection_text)
    assert not runtime.connected


async def test_events_of_a_newer_agentui_are_left_out_with_one_warning() -> None:
    client = ScriptedClient([lambda: (info(), [delta(1), "hologram:shown", delta(2)])])
    runtime, warnings = remote(client)
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        await until(lambda: len(events) == 2)
        client.endless.set()
        await until(lambda: bool(warnings))
    assert warnings == [
        "http://server.test sent events this agentui does not know (hologram:shown): they "
        "are left out; upgrade agentui to see them"
    ]


async def test_a_command_given_just_before_quitting_is_still_sent() -> None:
    client = ScriptedClient([lambda: (info(), [])])
    runtime, _ = remote(client)
    async with runtime:
        await until(lambda: runtime.connected)
        runtime.cancel("a1")
    assert client.sent == ["cancel a1"]


async def test_a_command_while_disconnected_is_refused_at_once() -> None:
    client = ScriptedClient([lambda: RemoteUnavailable("connection refused")])
    runtime, _ = remote(client)
    async with runtime:
        await until(lambda: client.connects >= 1 and not runtime.connected)
        with pytest.raises(CommandRefusedError, match=r"not connected to http://server\.test"):
            runtime.pause("a1")
