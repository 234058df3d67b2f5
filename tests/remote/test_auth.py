"""Who may use the API: the bearer token (401 without it), the Origin check (403 for another
site's page), the Host check of a loopback server (403 for another name: DNS rebinding), no
WebSocket; and what counts as loopback."""

from __future__ import annotations

from typing import Any

import httpx2
import pytest
from starlette.types import Message, Receive, Scope, Send

from agentui.core.remote.auth import Guard, is_loopback, own_host_names
from agentui.core.remote.client import RemoteClient, RemoteError, RemoteUnavailable

from .server_fixture import TOKEN, served_runtime

pytestmark = pytest.mark.anyio

PATHS = ["/info", "/agent/tree", "/events", "/openapi.json", "/nowhere"]


@pytest.mark.parametrize(
    "authorization",
    [None, "Bearer wrong-token", f"Basic {TOKEN}", f"Bearer {TOKEN}x", "Bearer"],
    ids=["none", "wrong", "not-bearer", "longer", "empty"],
)
async def test_a_request_without_the_token_is_refused(authorization: str | None) -> None:
    headers = {} if authorization is None else {"Authorization": authorization}
    async with served_runtime() as server, httpx2.AsyncClient(base_url=server.base_url) as http:
        for path in PATHS:
            response = await http.get(path, headers=headers)
            assert response.status_code == 401, path
            assert response.headers["WWW-Authenticate"] == "Bearer"
            assert "token" in response.json()["error"]
        start = await http.post("/tasks", json={"task": "x"}, headers=headers)
        assert start.status_code == 401
    assert server.runtime.snapshot()["agents"] == {}


async def test_another_sites_origin_is_refused_and_the_servers_own_is_not() -> None:
    headers = {"Authorization": f"Bearer {TOKEN}"}
    async with served_runtime() as server, httpx2.AsyncClient(base_url=server.base_url) as http:
        port = server.base_url.rsplit(":", 1)[1]
        for foreign in ("https://example.com", "http://127.0.0.1:1", "null"):
            response = await http.post(
                "/tasks", json={"task": "x"}, headers=headers | {"Origin": foreign}
            )
            assert response.status_code == 403, foreign
            assert "another site" in response.json()["error"]
        for own in (f"http://127.0.0.1:{port}", f"http://localhost:{port}"):
            response = await http.get("/info", headers=headers | {"Origin": own})
            assert response.status_code == 200, own
    assert server.runtime.snapshot()["agents"] == {}


async def test_the_client_reports_a_refused_token_and_an_absent_server() -> None:
    async with (
        served_runtime() as server,
        RemoteClient(server.base_url, "not-the-token") as client,
    ):
        with pytest.raises(RemoteError) as refused:
            await client.info()
        assert refused.value.status == 401
        with pytest.raises(RemoteError):
            async for _ in client.events():
                pass
    async with RemoteClient(server.base_url, TOKEN, timeout=5) as client:  # stopped now
        with pytest.raises(RemoteUnavailable, match="no connection to agentui serve"):
            await client.info()
        with pytest.raises(RemoteUnavailable):
            async for _ in client.events():
                pass


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.255.3.4", True),
        ("::1", True),
        ("[::1]", True),
        ("localhost", True),
        ("LocalHost", True),
        ("127.anything.example", False),
        ("127.0.0.1.nip.io", False),
        ("localhost.example", False),
        ("0.0.0.0", False),
        ("::", False),
        ("::ffff:127.0.0.1", False),
        ("192.168.1.10", False),
        ("", False),
    ],
)
def test_only_loopback_literals_and_localhost_are_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


async def test_a_loopback_server_answers_only_loopback_host_names() -> None:
    headers = {"Authorization": f"Bearer {TOKEN}"}
    async with served_runtime() as server, httpx2.AsyncClient(base_url=server.base_url) as http:
        port = server.base_url.rsplit(":", 1)[1]
        # A page at attacker.example whose name now points at 127.0.0.1 sends its own name.
        for foreign in (f"attacker.example:{port}", "127.0.0.1.nip.io", f"localhost.evil:{port}"):
            response = await http.get("/info", headers=headers | {"Host": foreign})
            assert response.status_code == 403, foreign
            assert "are refused" in response.json()["error"]
        # Any port: an SSH tunnel from another local port names that port.
        for own in (f"localhost:{port}", "127.0.0.1:9999", f"[::1]:{port}", "LOCALHOST"):
            response = await http.get("/info", headers=headers | {"Host": own})
            assert response.status_code == 200, own


def test_a_server_beyond_loopback_answers_any_host_name() -> None:
    assert own_host_names("0.0.0.0") is None and own_host_names("192.0.2.1") is None
    assert own_host_names("127.0.0.2") == {"127.0.0.2", "127.0.0.1", "localhost", "::1"}


async def test_websocket_connections_are_closed_before_they_open() -> None:
    reached: list[Scope] = []

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        reached.append(scope)

    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    async def receive() -> Message:
        return {"type": "websocket.connect"}

    guard = Guard(app, token=TOKEN, origins=frozenset(), hosts=None)
    auth: Any = [(b"authorization", f"Bearer {TOKEN}".encode())]
    await guard({"type": "websocket", "path": "/events", "headers": auth}, receive, send)
    assert sent == [{"type": "websocket.close", "code": 1008}] and not reached
