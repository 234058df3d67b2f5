"""`agentui web`: the app served to a browser by textual-serve, only to whoever holds its token,
and only to pages it served."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import anyio
import pytest

from ..processes import command_line, descendants, gone, until
from .cli_runs import TIMEOUT_S, child_env

pytestmark = pytest.mark.anyio

# What it prints once it listens: the address to open, with its token.
OPEN_LINE = re.compile(
    r"agentui web: open (http://(\S+)/\?token=(\S+)) in a browser \(token in (.+)\)"
)

# How long agentui web and its apps may take to end: generous, and well short of the minute
# the server once waited for browsers to hang up.
ENDING_S = 20.0


@dataclass(frozen=True)
class Served:
    address: str  # host:port
    token: str  # as the printed address carries it
    login_url: str  # the printed address
    token_file: Path  # where it said the token is
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
    child = subprocess.Popen(
        [sys.executable, "-m", "agentui.tui.cli.main", "web", "--port", "0", "--", "--no-session"],
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
            if (found := OPEN_LINE.search(line)) is not None:
                break
        else:
            pytest.fail("agentui web ended before it served: " + "".join(seen))
        login_url, address, token, token_file = found.groups()
        # Its socket listens before it prints: no wait for it to accept.
        yield Served(address, token, login_url, Path(token_file), child)
    finally:
        left = [
            pid for pid in descendants(child.pid) if "agentui.tui.cli.launch" in command_line(pid)
        ]
        child.terminate()
        child.wait(TIMEOUT_S)
        for pid in left:  # a failed test's app must not outlive it
            if not gone(pid):
                os.kill(pid, signal.SIGKILL)


def browser() -> aiohttp.ClientSession:
    """A client keeping cookies as a browser does (aiohttp's own jar refuses an IP's)."""
    return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))


async def _log_in(http: aiohttp.ClientSession, served: Served) -> None:
    """Open the printed address, as the person does: the cookie, then the page."""
    async with http.get(served.login_url) as page:
        assert page.status == 200
        assert str(page.url) == f"http://{served.address}/", "the token left the address bar"
        assert "/ws" in await page.text()


async def _open_tab(http: aiohttp.ClientSession, served: Served) -> aiohttp.ClientWebSocketResponse:
    """The page's websocket, as the browser opens it: its Origin, and the cookie."""
    await _log_in(http, served)
    return await http.ws_connect(
        f"ws://{served.address}/ws?width=100&height=30",
        headers={"Origin": f"http://{served.address}"},
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


async def test_the_printed_address_opens_the_page_and_its_websocket_the_app(
    served: Served,
) -> None:
    assert served.token == served.token_file.read_text().strip(), "the token file's token"
    async with browser() as http, await _open_tab(http, served) as socket_to_app:
        # As the browser's page does: the terminal's size first, then the app draws.
        await _first_frame(socket_to_app)


async def test_without_the_token_a_page_says_what_to_open(served: Served) -> None:
    async with aiohttp.ClientSession() as http:
        for path in ("/", "/?token=not-the-token", "/static/js/textual.js", "/download/x"):
            async with http.get(f"http://{served.address}{path}") as page:
                assert page.status == 401, path
                said = await page.text()
                assert "agentui web needs its token" in said, path
                assert f"http://{served.address}/?token=" in said, path
                assert served.token not in said, path


async def test_a_websocket_needs_the_page_s_origin_and_the_token(served: Served) -> None:
    page = f"http://{served.address}"
    with_token = f"ws://{served.address}/ws?token={served.token}"
    refused = {
        # The attack: another user of this machine, no Origin, no token.
        "no origin, no token": (f"ws://{served.address}/ws", {}, 403),
        "no origin": (with_token, {}, 403),
        "no token": (f"ws://{served.address}/ws", {"Origin": page}, 401),
        "another token": (f"ws://{served.address}/ws?token=x{served.token}", {"Origin": page}, 401),
        "another site": (with_token, {"Origin": "https://evil.example"}, 403),
    }
    async with aiohttp.ClientSession() as http:
        for case, (url, headers, status) in refused.items():
            with pytest.raises(aiohttp.WSServerHandshakeError) as refusal:
                await http.ws_connect(url, headers=headers)
            assert refusal.value.status == status, case
        assert served.apps() == [], "a refused websocket started no agentui"
        async with http.ws_connect(with_token, headers={"Origin": page}) as tab:
            await _first_frame(tab)  # the token in the address serves a script, too


async def test_another_loopback_name_is_sent_to_the_printed_address(served: Served) -> None:
    port = served.address.rsplit(":", 1)[1]
    login_at_localhost = f"http://localhost:{port}/?token={served.token}"
    async with browser() as http, http.get(login_at_localhost) as page:
        assert page.status == 200
        assert str(page.url) == f"http://{served.address}/"
        cookies = http.cookie_jar.filter_cookies(page.url)
        assert list(cookies) == [f"agentui-web-{port}"], "the cookie lives there"
        assert served.token not in cookies[f"agentui-web-{port}"].value


async def test_a_tab_closed_before_its_first_frame_ends_its_app(served: Served) -> None:
    async with browser() as http:
        tab = await _open_tab(http, served)
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
    async with browser() as http, await _open_tab(http, served) as tab:
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


async def test_pages_of_other_sites_cannot_open_the_app(served: Served) -> None:
    port = served.address.rsplit(":", 1)[1]
    async with browser() as http:
        await _log_in(http, served)  # the cookie is there: another site's page still fails
        # A page elsewhere opening a websocket to loopback: the browser sends its Origin.
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(
                f"ws://{served.address}/ws", headers={"Origin": "https://evil.example"}
            )
        assert refused.value.status == 403
        # DNS rebinding: the other site's name resolves to 127.0.0.1; the Host header tells.
        async with http.get(
            f"http://{served.address}/", headers={"Host": f"evil.example:{port}"}
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
