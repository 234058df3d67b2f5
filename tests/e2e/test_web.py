"""`agentui web`: the app served to a browser by textual-serve, and only to pages it served."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import anyio
import pytest

from ..processes import command_line, descendants, gone, until, wait_until
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


# How long agentui web and its apps may take to end: generous, and well short of the minute
# the server once waited for browsers to hang up.
ENDING_S = 20.0


@dataclass(frozen=True)
class Served:
    address: str  # host:port
    server: subprocess.Popen[str]

    def apps(self) -> list[int]:
        """The pids of the apps it runs, one per open tab."""
        return [
            pid
            for pid in descendants(self.server.pid)
            if "agentui.tui.cli.launch" in command_line(pid)
        ]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    port = _free_port()
    child = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "agentui.tui.cli.main",
            "web",
            "--port",
            str(port),
            "--",
            "--no-session",
        ],
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
        yield Served(f"127.0.0.1:{port}", child)
    finally:
        left = Served("", child).apps()
        child.terminate()
        child.wait(TIMEOUT_S)
        for pid in left:  # a failed test's app must not outlive it
            if not gone(pid):
                os.kill(pid, signal.SIGKILL)


@pytest.fixture
def web_server(served: Served) -> str:
    return served.address


async def _open_tab(http: aiohttp.ClientSession, address: str) -> aiohttp.ClientWebSocketResponse:
    return await http.ws_connect(
        f"ws://{address}/ws?width=100&height=30",
        headers={"Origin": f"http://{address}"},
        timeout=aiohttp.ClientWSTimeout(ws_close=TIMEOUT_S),
    )


async def _first_frame(tab: aiohttp.ClientWebSocketResponse) -> None:
    await tab.send_json(["resize", {"width": 100, "height": 30}])
    received = b""
    while b"Quit" not in received:  # the key footer of agentui's first frame
        message = await tab.receive(timeout=TIMEOUT_S)
        assert message.type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT), message
        data = message.data
        received += data if isinstance(data, bytes) else data.encode()


async def _reading_until(
    tab: aiohttp.ClientWebSocketResponse, condition: Callable[[], bool], timeout_s: float
) -> bool:
    """Poll `condition` while reading the tab, as a browser does (it answers a close)."""
    with anyio.move_on_after(timeout_s):
        while not condition():
            if not tab.closed:
                with anyio.move_on_after(0.05):
                    await tab.receive()
            else:
                await anyio.sleep(0.05)
        return True
    return condition()


async def test_the_page_and_its_websocket_serve_the_app(web_server: str) -> None:
    async with aiohttp.ClientSession() as http:
        async with http.get(f"http://{web_server}/") as page:
            assert page.status == 200
            assert "/ws" in await page.text()
        async with await _open_tab(http, web_server) as socket_to_app:
            # As the browser's page does: the terminal's size first, then the app draws.
            await _first_frame(socket_to_app)


async def test_a_tab_closed_before_its_first_frame_ends_its_app(served: Served) -> None:
    async with aiohttp.ClientSession() as http:
        tab = await _open_tab(http, served.address)
        assert await until(lambda: bool(served.apps()), TIMEOUT_S), "no app started"
        apps = served.apps()
        await tab.close()  # nothing read: the app has drawn nothing yet
        assert await until(lambda: all(gone(pid) for pid in apps), ENDING_S), (
            "the app outlived its tab"
        )


@pytest.mark.parametrize(
    "stop", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL], ids=lambda stop: stop.name
)
async def test_stopping_agentui_web_ends_it_and_every_app(
    served: Served, stop: signal.Signals
) -> None:
    async with aiohttp.ClientSession() as http, await _open_tab(http, served.address) as tab:
        await _first_frame(tab)
        apps = served.apps()
        assert apps, "no app runs for the open tab"
        served.server.send_signal(stop)  # SIGKILL: the server cannot tell its apps
        ended = await _reading_until(
            tab,
            lambda: served.server.poll() is not None and all(gone(pid) for pid in apps),
            ENDING_S,
        )
    assert ended, f"still running: server {served.server.poll() is None}, apps {served.apps()}"


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
        [sys.executable, "-m", "agentui.tui.cli.main", "web", *options],
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
