"""`agentui web`'s gate, request by request: the page key the printed address leads to, the
one-use tickets of the page's websocket, the hosts and origins answered on loopback and beyond,
and an access log that never writes the token nor a control character (the whole command runs
in tests/e2e/test_web.py)."""

from __future__ import annotations

import functools
import logging
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from aiohttp import web

    from agentui.tui.cli.web_gate import WebGate

# The SDKs (and the agentui modules that import them) are imported where used: collecting
# this module imports no SDK (tests/core/test_collection_imports.py).

pytestmark = pytest.mark.anyio

TOKEN = "A-token+with/odd=chars_0123456789"
Headers = Mapping[str, str]
NO_HEADERS: Headers = MappingProxyType({})
UPGRADE = {"Upgrade": "websocket", "Connection": "Upgrade", "Origin": "http://127.0.0.1:8123"}


@functools.cache
def the_gate() -> WebGate:
    """The gate most tests ask through, made once when first used (web_gate imports aiohttp:
    collecting this module imports no SDK, tests/core/test_collection_imports.py)."""
    from agentui.tui.cli.web_gate import WebGate

    return WebGate(TOKEN, "127.0.0.1", 8123)


async def _page(request: web.Request) -> web.StreamResponse:
    from aiohttp import web

    return web.Response(text="the app's page")


async def _through(
    path: str,
    gate: WebGate | None = None,
    host: str = "127.0.0.1:8123",
    headers: Headers = NO_HEADERS,
) -> web.StreamResponse:
    from aiohttp import web
    from aiohttp.test_utils import make_mocked_request

    request = make_mocked_request("GET", path, headers={"Host": host, **headers})
    try:
        return await (gate or the_gate()).middleware(request, _page)
    except web.HTTPException as answer:
        return answer


def _ticket(gate: WebGate | None = None, host: str = "127.0.0.1:8123") -> str:
    """A ticket as a page served to `host` names it."""
    from aiohttp.test_utils import make_mocked_request

    url = (gate or the_gate()).socket_url(make_mocked_request("GET", "/", headers={"Host": host}))
    assert url.startswith(f"ws://{host}/ws/")
    return url.removeprefix(f"ws://{host}/ws/")


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_printed_address_carries_the_token_as_a_url_can() -> None:
    assert the_gate().login_url() == (
        "http://127.0.0.1:8123/?token=A-token%2Bwith%2Fodd%3Dchars_0123456789"
    )


async def test_the_printed_address_leads_to_the_page_key_and_sets_no_cookie() -> None:
    answer = await _through("/?token=A-token%2Bwith%2Fodd%3Dchars_0123456789&fontsize=18")

    assert answer.status == 303
    assert answer.headers["Location"] == f"/?fontsize=18&key={the_gate().page_key}"
    assert not answer.cookies, "a browser sends 127.0.0.1's cookies to every port of it"
    assert TOKEN not in answer.headers["Location"]

    page = await _through(f"/?fontsize=18&key={the_gate().page_key}")
    assert page.status == 200
    assert page.headers["Cache-Control"] == "no-store", "its ticket is for one load"
    assert page.headers["Referrer-Policy"] == "no-referrer", "its address holds the key"


async def test_each_start_has_its_own_page_key() -> None:
    from agentui.tui.cli.web_gate import WebGate

    again = WebGate(TOKEN, "127.0.0.1", 8123)
    assert again.page_key != the_gate().page_key and TOKEN not in again.page_key
    answer = await _through(f"/?key={the_gate().page_key}", gate=again)
    assert answer.status == 401, "the key of an ended server opens nothing"


async def test_without_token_or_key_the_page_says_what_to_open() -> None:
    for path in ("/", "/?key=", "/?key=x", f"/?token=x{TOKEN}", "/ws"):
        answer = await _through(path)
        assert answer.status == 401, path
        assert answer.content_type == "text/html", path


async def test_the_page_s_websocket_opens_once_with_its_ticket() -> None:
    ticket = _ticket()

    assert (await _through(f"/ws/{ticket}?width=80&height=24", headers=UPGRADE)).status == 200
    again = await _through(f"/ws/{ticket}?width=80&height=24", headers=UPGRADE)
    assert again.status == 401, "a ticket is spent by its first use"


async def test_a_websocket_without_a_fresh_ticket_is_refused() -> None:
    from agentui.tui.cli.web_gate import TICKET_LIFETIME_S, Tickets, WebGate

    clock = Clock()
    gate = WebGate(TOKEN, "127.0.0.1", 8123, tickets=Tickets(clock))
    late = _ticket(gate)
    clock.now += TICKET_LIFETIME_S
    refused = {
        "no ticket": "/ws",
        "an unknown ticket": "/ws/not-a-ticket",
        "a late ticket": f"/ws/{late}",
        "the page key": f"/ws/{gate.page_key}",
        "the token": f"/ws?token={TOKEN}",
        "the key as a query": f"/ws?key={gate.page_key}",
    }
    for case, path in refused.items():
        assert (await _through(path, gate=gate, headers=UPGRADE)).status == 401, case


async def test_a_websocket_needs_the_page_s_own_origin() -> None:
    for origin in (None, "http://localhost:8123", "https://evil.example"):
        headers = {k: v for k, v in UPGRADE.items() if k != "Origin"}
        if origin is not None:
            headers["Origin"] = origin
        answer = await _through(f"/ws/{_ticket()}", headers=headers)
        assert answer.status == 403, origin


def test_unused_tickets_are_forgotten_when_late_or_too_many() -> None:
    from agentui.tui.cli.web_gate import MOST_TICKETS, TICKET_LIFETIME_S, Tickets

    clock = Clock()
    tickets = Tickets(clock)
    first = tickets.issue()
    clock.now += TICKET_LIFETIME_S
    fresh = [tickets.issue() for _ in range(MOST_TICKETS + 1)]
    assert not tickets.redeem(first)
    assert not tickets.redeem(fresh[0]), "the oldest made room"
    assert all(tickets.redeem(ticket) for ticket in fresh[1:])


async def test_on_loopback_only_its_own_names_are_answered() -> None:
    page = f"/?key={the_gate().page_key}"
    assert (await _through(page, host="evil.example:8123")).status == 403, "DNS rebinding"
    moved = await _through(page, host="localhost:8123")
    assert moved.status == 307
    assert moved.headers["Location"] == f"http://127.0.0.1:8123{page}"


async def test_beyond_loopback_any_host_is_answered_and_its_own_origin_needed() -> None:
    from agentui.tui.cli.web_gate import WebGate

    gate = WebGate(TOKEN, "0.0.0.0", 8123)
    for host in ("192.0.2.7:8123", "box.example:8123", "[2001:db8::7]:8123"):
        page = await _through(f"/?key={gate.page_key}", gate=gate, host=host)
        assert page.status == 200, host
        origin = f"http://{host}"
        socket = await _through(
            f"/ws/{_ticket(gate, host)}", gate, host, UPGRADE | {"Origin": origin}
        )
        assert socket.status == 200, host
        other = f"/ws/{_ticket(gate, host)}"
        for wrong in ("http://0.0.0.0:8123", "https://evil.example"):
            refused = await _through(other, gate, host, UPGRADE | {"Origin": wrong})
            assert refused.status == 403, (host, wrong)


async def test_beyond_loopback_a_host_that_is_no_address_is_refused() -> None:
    from agentui.tui.cli.web_gate import WebGate

    gate = WebGate(TOKEN, "0.0.0.0", 8123)
    answer = await _through(f"/?key={gate.page_key}", gate=gate, host='x"><script>:8123')
    assert answer.status == 403, "the Host goes into the page"


async def test_textual_serve_s_files_and_a_download_s_own_key_need_no_credential() -> None:
    for path in ("/static/js/textual.js", "/download/0123abcd"):
        assert (await _through(path)).status == 200, path


def test_the_access_log_leaves_out_the_query_and_ticket_and_keeps_controls_encoded(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from aiohttp import web
    from aiohttp.test_utils import make_mocked_request

    from agentui.tui.cli.web import _AccessLog

    access_log = _AccessLog(logging.getLogger("agentui.test.web"), "")
    requests = [
        make_mocked_request("GET", f"/%1B]0;t%07/x\x1b[2J?token={TOKEN}&key={the_gate().page_key}"),
        make_mocked_request("GET", "/ws/the-ticket?width=80"),
    ]

    with caplog.at_level(logging.INFO, "agentui.test.web"):
        for request in requests:
            access_log.log(request, web.Response(status=303), 0.0)

    first, second = caplog.messages
    assert TOKEN not in first and "token" not in first and the_gate().page_key not in first
    assert '"GET /%1B%5D0;t%07/x%1B%5B2J" 303' in first, "as sent: %-encoded"
    assert "the-ticket" not in second
    assert '"GET /ws/…" 303' in second


def test_new_token_says_it_replaces_serve_s_token_too(capsys: pytest.CaptureFixture[str]) -> None:
    from agentui.tui.cli.web import main

    with pytest.raises(SystemExit):
        main(["--help"])

    said = " ".join(capsys.readouterr().out.split())
    assert "`agentui serve` and `agentui web` share the default file" in said
    assert "replaces the other's token too" in said
