"""Who may use the API: the bearer token (401 without it), the Origin check (403 for another
site's page), and the token file (0600, read back by `agentui attach`)."""

from __future__ import annotations

import stat
from pathlib import Path

import httpx2
import pytest

from agentui.core.errors import AgentUIError
from agentui.core.remote.auth import default_token_path, server_token
from agentui.core.remote.client import RemoteClient, RemoteError, RemoteUnavailable, read_token

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


def test_a_new_token_is_written_for_its_owner_alone(tmp_path: Path) -> None:
    token, path = server_token(None)
    assert path == default_token_path()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert read_token(None) == token
    again, _ = server_token(None)
    assert again != token  # each start makes a new one
    chosen = tmp_path / "my-token"
    chosen.write_text("kept\n")
    chosen.chmod(0o644)
    assert server_token(chosen) == ("kept", chosen)  # an existing file is read, not changed
    fresh = tmp_path / "sub" / "fresh-token"
    token, path = server_token(fresh)
    assert path == fresh and read_token(fresh) == token
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o600


def test_a_missing_token_file_is_named(tmp_path: Path) -> None:
    missing = tmp_path / "absent"
    with pytest.raises(AgentUIError, match=str(missing)):
        read_token(missing)
    empty = tmp_path / "empty"
    empty.write_text("\n")
    with pytest.raises(AgentUIError, match="is empty"):
        read_token(empty)
