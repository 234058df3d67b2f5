"""`agentui web`: the app served to a browser by textual-serve, only to whoever holds its token,
and only to pages it served."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import anyio
import pytest

from ..processes import command_line, descendants, gone, until
from .cli_runs import TIMEOUT_S, child_env

if TYPE_CHECKING:
    import aiohttp

# The SDKs (and the agentui modules that import them) are imported where used: collecting
# this module imports no SDK (tests/core/test_collection_imports.py).

pytestmark = pytest.mark.anyio

# What it prints once it listens: the address to open, with its token.
OPEN_LINE = re.compile(
    r"agentui web: open (http://(\S+)/\?token=(\S+)) in a browser \(token in (.+)\)"
)

# The page's websocket, as textual-serve's page names it for its script.
SOCKET_URL = re.compile(r'data-session-websocket-url="(ws://[^"]+)"')

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
    with serving(tmp_path) as served:
        yield served


@pytest.fixture(scope="module")
def refusing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One server for the tests that only knock and are turned away (no tab is opened, so no
    app runs and nothing of one test is left for the next): a start costs a second each."""
    with serving(tmp_path_factory.mktemp("refusing")) as served:
        yield served


@contextmanager
def serving(tmp_path: Path, *options: str) -> Iterator[Served]:
    """`agentui web --port 0 OPTIONS`, once it listens."""
    child = subprocess.Popen(
        [
            *(sys.executable, "-m", "agentui.tui.cli.main", "web", "--port", "0", *options),
            *("--", "--no-session"),
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
    import aiohttp

    return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))


async def _log_in(http: aiohttp.ClientSession, served: Served) -> str:
    """Open the printed address, as the person does: the page, and the websocket address it
    names (with its ticket)."""
    async with http.get(served.login_url) as page:
        assert page.status == 200
        assert page.url.query.keys() == {"key"}, "the token left the address bar"
        assert served.token not in str(page.url)
        said = await page.text()
        found = SOCKET_URL.search(said)
    assert "googleapis" not in said, "the page asks nothing of the network"
    assert found is not None, "the page names its websocket"
    assert found[1].startswith(f"ws://{served.address}/ws/")
    return found[1]


async def _open_tab(http: aiohttp.ClientSession, served: Served) -> aiohttp.ClientWebSocketResponse:
    """The page's websocket, as the browser's script opens it: its address with the
    terminal's size, and the page's Origin."""
    import aiohttp

    socket_url = await _log_in(http, served)
    return await http.ws_connect(
        f"{socket_url}?width=100&height=30",
        headers={"Origin": f"http://{served.address}"},
        timeout=aiohttp.ClientWSTimeout(ws_close=TIMEOUT_S),
    )


async def _first_frame(tab: aiohttp.ClientWebSocketResponse) -> None:
    import aiohttp

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


async def test_without_the_token_a_page_says_what_to_open(refusing: Served) -> None:
    import aiohttp

    served = refusing
    async with aiohttp.ClientSession() as http:
        for path in ("/", "/?token=not-the-token", "/?key=not-the-key"):
            async with http.get(f"http://{served.address}{path}") as page:
                assert page.status == 401, path
                said = await page.text()
                assert "agentui web needs its token" in said, path
                assert f"http://{served.address}/?token=" in said, path
                assert served.token not in said, path
        # textual-serve's own files are the same in every install; a download needs its key.
        async with http.get(f"http://{served.address}/static/js/textual.js") as script:
            assert script.status == 200
        async with http.get(f"http://{served.address}/download/not-a-key") as download:
            assert download.status == 404


async def test_a_websocket_needs_the_page_s_origin_and_its_ticket(served: Served) -> None:
    import aiohttp

    page = f"http://{served.address}"
    async with browser() as http:
        ticketed = await _log_in(http, served)
        assert not http.cookie_jar, "no cookie: a browser sends it to every port of 127.0.0.1"
        refused = {
            # The attack: another user of this machine, no Origin, no token.
            "no origin, no ticket": (f"ws://{served.address}/ws", {}, 403),
            "no origin": (ticketed, {}, 403),
            "another site": (ticketed, {"Origin": "https://evil.example"}, 403),
            "no ticket": (f"ws://{served.address}/ws", {"Origin": page}, 401),
            "the token": (f"ws://{served.address}/ws?token={served.token}", {"Origin": page}, 401),
            "another ticket": (f"{ticketed}x", {"Origin": page}, 401),
        }
        for case, (url, headers, status) in refused.items():
            with pytest.raises(aiohttp.WSServerHandshakeError) as refusal:
                await http.ws_connect(url, headers=headers)
            assert refusal.value.status == status, case
        assert served.apps() == [], "a refused websocket started no agentui"
        async with http.ws_connect(ticketed, headers={"Origin": page}) as tab:
            await _first_frame(tab)
        with pytest.raises(aiohttp.WSServerHandshakeError) as spent:
            await http.ws_connect(ticketed, headers={"Origin": page})
        assert spent.value.status == 401, "a ticket opens one websocket"


async def test_another_loopback_name_is_sent_to_the_printed_address(refusing: Served) -> None:
    served = refusing
    port = served.address.rsplit(":", 1)[1]
    login_at_localhost = f"http://localhost:{port}/?token={served.token}"
    async with browser() as http, http.get(login_at_localhost) as page:
        assert page.status == 200
        assert f"{page.url.host}:{page.url.port}" == served.address, "where its Origin is own"
        assert page.url.query.keys() == {"key"}


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


async def test_pages_of_other_sites_cannot_open_the_app(refusing: Served) -> None:
    import aiohttp

    served = refusing
    port = served.address.rsplit(":", 1)[1]
    async with browser() as http:
        await _log_in(http, served)  # the page is open: another site's page still fails
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


async def test_beyond_loopback_it_answers_the_name_it_is_reached_by(tmp_path: Path) -> None:
    """Bound to 0.0.0.0 it cannot know its names: any Host, and the page's own Origin."""
    import aiohttp

    with serving(tmp_path, "--host", "0.0.0.0", "--allow-remote") as served:
        port = served.address.rsplit(":", 1)[1]
        assert served.address == f"0.0.0.0:{port}"
        reached = Served(
            f"127.0.0.1:{port}",
            served.token,
            served.login_url.replace("0.0.0.0", "127.0.0.1"),
            served.token_file,
            served.server,
        )
        async with browser() as http:
            ticketed = await _log_in(http, reached)
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await http.ws_connect(ticketed, headers={"Origin": f"http://{served.address}"})
            assert refused.value.status == 403, "the Origin of another address"
            async with await _open_tab(http, reached) as tab:
                await _first_frame(tab)


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
