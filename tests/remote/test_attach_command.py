"""`agentui attach` refuses to open a screen it could not fill: one message, exit 2."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from tests.e2e.cli_runs import agentui, child_env

from .serve_process import serve_process

pytestmark = pytest.mark.anyio


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # nothing listens there once it is closed


async def test_no_server_at_the_address(tmp_path: Path) -> None:
    env = child_env(tmp_path, AGENTUI_TOKEN="anything")
    port = _closed_port()
    code, _, errors = await agentui("attach", f"127.0.0.1:{port}", env=env, cwd=tmp_path)
    assert code == 2
    assert errors.startswith(f"agentui: no connection to agentui serve at http://127.0.0.1:{port}")


async def test_a_wrong_token_names_where_it_came_from(tmp_path: Path) -> None:
    async with serve_process(tmp_path) as served:
        env = child_env(tmp_path, AGENTUI_TOKEN="not-the-token")
        code, _, errors = await agentui("attach", served.url, env=env, cwd=tmp_path)
        assert code == 2
        assert f"{served.url} refused the token from AGENTUI_TOKEN" in errors
        assert "not-the-token" not in errors
        bad_file = tmp_path / "old-token"
        bad_file.write_text("stale\n")
        code, _, errors = await agentui(
            "attach",
            served.url,
            "--token-file",
            str(bad_file),
            env=child_env(tmp_path),
            cwd=tmp_path,
        )
        assert code == 2 and f"refused the token from {bad_file}" in errors


async def test_a_missing_token_file_says_what_to_do(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    code, _, errors = await agentui(
        "attach",
        "http://127.0.0.1:1",
        "--token-file",
        str(missing),
        env=child_env(tmp_path),
        cwd=tmp_path,
    )
    assert code == 2
    assert f"no token file {missing}" in errors


async def test_a_host_alone_means_the_port_serve_listens_on(tmp_path: Path) -> None:
    env = child_env(tmp_path, AGENTUI_TOKEN="anything")
    code, _, errors = await agentui("attach", "127.0.0.1", env=env, cwd=tmp_path)
    assert code == 2 and "http://127.0.0.1:8765" in errors
    code, _, errors = await agentui("attach", "127.0.0.1:abc", env=env, cwd=tmp_path)
    assert code == 2 and "127.0.0.1:abc is not an address to attach to" in errors
    assert "Traceback" not in errors
