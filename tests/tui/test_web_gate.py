"""`agentui web`'s gate, request by request: the cookie the printed address sets, and an
access log that never writes the token nor a control character (the whole command runs in tests/e2e/test_web.py)."""

from __future__ import annotations

import logging

import pytest
from aiohttp import web
from aiohttp.test_utils import make_mocked_request

from agentui.tui.cli.web import _AccessLog
from agentui.tui.cli.web_gate import WebGate

pytestmark = pytest.mark.anyio

TOKEN = "A-token+with/odd=chars_0123456789"
GATE = WebGate(TOKEN, "127.0.0.1", 8123)


async def _page(request: web.Request) -> web.StreamResponse:
    return web.Response(text="the app's page")


async def _through(path: str, **headers: str) -> web.StreamResponse:
    request = make_mocked_request("GET", path, headers={"Host": "127.0.0.1:8123", **headers})
    try:
        return await GATE.middleware(request, _page)
    except web.HTTPException as answer:
        return answer


def test_the_printed_address_carries_the_token_as_a_url_can() -> None:
    assert GATE.login_url() == (
        "http://127.0.0.1:8123/?token=A-token%2Bwith%2Fodd%3Dchars_0123456789"
    )


async def test_the_printed_address_sets_a_cookie_and_drops_the_token() -> None:
    answer = await _through("/?token=A-token%2Bwith%2Fodd%3Dchars_0123456789&fontsize=18")

    assert answer.status == 303
    assert answer.headers["Location"] == "/?fontsize=18"
    cookie = answer.cookies["agentui-web-8123"]
    assert (cookie["httponly"], cookie["samesite"], cookie["path"]) == (True, "Lax", "/")
    assert not cookie.get("max-age") and not cookie.get("expires"), "gone with the browser"
    assert TOKEN not in cookie.value, "other servers on 127.0.0.1 are sent it too"

    again = await _through("/?fontsize=18", Cookie=f"agentui-web-8123={cookie.value}")
    assert again.status == 200


async def test_a_cookie_of_another_token_or_port_is_refused() -> None:
    other = WebGate("another-token-0123456789", "127.0.0.1", 8123).cookie_value
    for cookie in (f"agentui-web-8123={other}", f"agentui-web-8124={GATE.cookie_value}"):
        answer = await _through("/", Cookie=cookie)
        assert answer.status == 401, cookie
        assert answer.content_type == "text/html"


def test_the_access_log_leaves_out_the_query_and_keeps_controls_encoded(
    caplog: pytest.LogCaptureFixture,
) -> None:
    request = make_mocked_request("GET", f"/%1B]0;t%07/x\x1b[2J?token={TOKEN}")
    access_log = _AccessLog(logging.getLogger("agentui.test.web"), "")

    with caplog.at_level(logging.INFO, "agentui.test.web"):
        access_log.log(request, web.Response(status=303), 0.0)

    (line,) = caplog.messages
    assert TOKEN not in line and "token" not in line
    assert '"GET /%1B%5D0;t%07/x%1B%5B2J" 303' in line, "as sent: %-encoded"
