"""`agentui web`: the app served to a browser by textual-serve, and only to pages it served."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from ..processes import wait_until
from .cli_runs import TIMEOUT_S, child_env

pytestmark = pytest.mark.anyio


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _accepts(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:
        return False
    return True


@pytest.fixture
def web_server(tmp_path: Path) -> Iterator[str]:
    port = _free_port()
    child = subprocess.Popen(
        [sys.executable, "-m", "agentui.tui.cli", "web", "--port", str(port), "--", "--no-session"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=child_env(tmp_path),
        text=True,
    )
    try:
        assert child.stdout is not None
        seen = []
        for line in child.stdout:  # blocks until the server says it listens
            seen.append(line)
            if "Press Ctrl+C" in line:
                break
        else:
            pytest.fail("agentui web ended before it served: " + "".join(seen))
        # It says so a moment before its socket listens (no event announces that).
        assert wait_until(lambda: _accepts(port), TIMEOUT_S), "agentui web never listened"
        yield f"127.0.0.1:{port}"
    finally:
        child.terminate()
        child.wait(TIMEOUT_S)


async def test_the_page_and_its_websocket_serve_the_app(web_server: str) -> None:
    async with aiohttp.ClientSession() as http:
        async with http.get(f"http://{web_server}/") as page:
            assert page.status == 200
            assert "/ws" in await page.text()
        async with http.ws_connect(
            f"ws://{web_server}/ws?width=100&height=30",
            headers={"Origin": f"http://{web_server}"},
            timeout=aiohttp.ClientWSTimeout(ws_close=TIMEOUT_S),
        ) as socket_to_app:
            # As the browser's page does: the terminal's size first, then the app draws.
            await socket_to_app.send_json(["resize", {"width": 100, "height": 30}])
            received = b""
            while b"Quit" not in received:  # the key footer of agentui's first frame
                message = await socket_to_app.receive(timeout=TIMEOUT_S)
                assert message.type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT), message
                data = message.data
                received += data if isinstance(data, bytes) else data.encode()


async def test_pages_of_other_sites_cannot_open_the_app(web_server: str) -> None:
    port = web_server.rsplit(":", 1)[1]
    async with aiohttp.ClientSession() as http:
        # A page elsewhere opening a websocket to loopback: the browser sends its Origin.
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(
                f"ws://{web_server}/ws", headers={"Origin": "https://evil.example"}
            )
        assert refused.value.status == 403
        # DNS rebinding: the other site's name resolves to 127.0.0.1; the Host header tells.
        async with http.get(
            f"http://{web_server}/", headers={"Host": f"evil.example:{port}"}
        ) as page:
            assert page.status == 403


def refusal(tmp_path: Path, *options: str) -> str:
    """`agentui web OPTIONS` must stop before serving, with exit 2: what it said."""
    done = subprocess.run(
        [sys.executable, "-m", "agentui.tui.cli", "web", *options],
        capture_output=True,
        text=True,
        env=child_env(tmp_path),
        timeout=TIMEOUT_S,
    )
    assert done.returncode == 2, done.stderr
    return done.stderr


def test_binding_beyond_loopback_needs_a_flag(tmp_path: Path) -> None:
    assert "--allow-remote" in refusal(tmp_path, "--host", "0.0.0.0")


def test_a_bad_option_for_the_app_is_refused_before_serving(tmp_path: Path) -> None:
    said = refusal(tmp_path, "--", "--bogus-flag")
    assert "unrecognized arguments: --bogus-flag" in said
