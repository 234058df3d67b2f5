"""`agentui web`: the app served to a browser by textual-serve, behind the token `agentui serve`
uses, with the browser's own checks that textual-serve leaves out.

textual-serve runs one agentui per browser tab behind a websocket, with no login: anyone who
could open a websocket to the port (another user of this machine, a page in another tab) ran
agents as its owner. So the page needs the token (web_gate.py: the printed address carries it,
this start's page key follows), and the websocket a one-use ticket that only its page names;
on loopback it answers only requests addressed to its own host and port, and it opens the
websocket only for pages it served itself (the `Origin` header). The page is textual-serve's
own template, given the ticket's websocket address, and its static files' address as the
browser reached the server (beyond loopback the bound 0.0.0.0 is no address to open).

The server listens before it starts (its socket bound here, as `agentui serve` binds its own),
so the token file is written only by a server that could listen, and the address printed
works at once, port 0 included.

Stopping it (Ctrl+C, SIGTERM) closes every tab's websocket first, so that each app is told to
quit and ends in order; textual-serve left them open, and the server waited a minute for
browsers to hang up. An app that outlives the server anyway ends when its pipes close
(terminal_watch.py).
"""

from __future__ import annotations

import argparse
import asyncio
import re
import signal
import socket
import sys
from collections.abc import Sequence
from pathlib import Path
from shlex import join

import aiohttp_jinja2
from aiohttp import WSCloseCode, web
from aiohttp.abc import AbstractAccessLogger
from aiohttp.web_request import BaseRequest
from aiohttp.web_response import StreamResponse
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

from agentui.core.remote.auth import is_loopback
from agentui.core.support.errors import AgentUIError
from agentui.core.support.terminal_text import visible_controls
from agentui.tui.cli.options import fail, port_number, warn
from agentui.tui.cli.serve import add_token_options, tell_of_token
from agentui.tui.cli.web_gate import SOCKET_PREFIX, WebGate

# How long the server waits for a browser to answer its closing of a tab's socket.
CLOSE_WAIT_S = 2.0
# textual-serve's page links a font on fonts.googleapis.com: the link is left out.
WEB_FONT = re.compile(r"<link[^>]*fonts\.googleapis\.com[^>]*>", re.DOTALL)


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="agentui web",
        description="Serve the app to a browser (textual-serve): each browser tab runs its own "
        "agentui with the options after `--`. Open the address it prints: it carries the "
        "token (the one `agentui serve` uses), which opening the page needs.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default loopback)")
    parser.add_argument(
        "--port", type=port_number, default=8000, help="port (default 8000; 0 picks a free one)"
    )
    add_token_options(parser, clients="browser tabs opened")
    parser.add_argument(
        "--allow-remote",
        action="store_true",
        help="bind an address other than loopback: whoever reaches it with the token runs "
        "agents as you (the traffic is not encrypted)",
    )
    parser.add_argument("app_args", nargs=argparse.REMAINDER, help="options for agentui itself")
    args = parser.parse_args(argv)
    if not is_loopback(args.host) and not args.allow_remote:
        return fail(
            f"{args.host} is reachable from other machines: whoever reaches it with the token "
            "runs agents as you, unencrypted; add --allow-remote to bind it anyway"
        )
    app_args = [a for a in args.app_args if a != "--"]
    # Checked once here: a bad option would otherwise give every browser tab a dead terminal.
    from agentui.tui.cli.app_command import app_parser

    app_parser().parse_args(app_args)
    # Each browser tab's app starts as `agentui` does (launch.py: the collector off until then).
    command = join([sys.executable, "-m", "agentui.tui.cli.launch", *app_args])
    from agentui.core.remote.serving import listen
    from agentui.core.remote.token_file import server_token

    try:
        token_file = Path(args.token_file).expanduser() if args.token_file else None
        token = server_token(token_file, new=args.new_token)
        listener = listen(args.host, args.port)
        token.save()  # only now: a server that could not listen leaves the file as it was
    except AgentUIError as exc:
        return fail(str(exc))
    tell_of_token(token, "agentui web")
    if not is_loopback(args.host):
        warn([
            f"serving on {args.host}: whoever reaches port {listener.port} with the token "
            f"in {token.path} runs agents as you (the traffic is not encrypted)"
        ])  # fmt: skip
    gate = WebGate(token.token, listener.host, listener.port)
    print(f"agentui web: open {gate.login_url()} in a browser (token in {token.path})")
    print("agentui web: Ctrl+C stops it and every tab's agentui", flush=True)
    try:
        GuardedServer(command, gate).serve_on(listener.sock)
    except OSError as exc:
        return fail(f"cannot serve on {gate.url}: {exc.strerror or exc}")
    return 0


class GuardedServer(Server):
    """textual-serve's server behind the gate, on a socket already listening, closing its
    tabs first when it stops."""

    def __init__(self, command: str, gate: WebGate) -> None:
        super().__init__(
            command, host=gate.host, port=gate.port, title="agentui", public_url=gate.url
        )
        self._gate = gate
        self._open_sockets: set[web.WebSocketResponse] = set()

    def serve_on(self, sock: socket.socket) -> None:
        """Serve until SIGINT or SIGTERM, as textual-serve's `serve` does, on `sock`: it
        binds its host and port itself, after the token file would have been written."""
        self.initialize_logging()
        loop = asyncio.new_event_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, self.request_exit)
        web.run_app(
            self._make_app(),
            sock=sock,
            handle_signals=False,
            loop=loop,
            print=None,
            access_log_class=_AccessLog,
        )

    async def _make_app(self) -> web.Application:
        # textual-serve's routes (page, websocket, downloads, static files) and the ticketed
        # websocket the page names, every one of them behind the gate (web_gate.py says what
        # each needs).
        app = await super()._make_app()
        app.router.add_get(SOCKET_PREFIX + "{ticket}", self.handle_websocket)
        app.middlewares.append(self._gate.middleware)
        return app

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        """textual-serve's page, its websocket named with a new ticket (textual.js adds the
        terminal's size to it as a query)."""
        context = {
            "font_size": to_int(request.query.get("fontsize", "16"), 16),
            "app_websocket_url": self._gate.socket_url(request),
            "config": {"static": {"url": f"http://{request.host}/static/"}},
            "application": {"name": self.title},
        }
        page = aiohttp_jinja2.render_template("app_index.html", request, context)
        # The template fetches a web font from Google: agentui asks nothing of the network (the
        # terminal falls back to the browser's monospace font).
        page.text = WEB_FONT.sub("", page.text or "")
        return page

    async def on_startup(self, app: web.Application) -> None:
        """Nothing said: textual-serve's banner names the address without its token (main
        printed the one to open)."""

    async def _process_messages(
        self, websocket: web.WebSocketResponse, app_service: AppService
    ) -> None:
        self._open_sockets.add(websocket)
        try:
            await super()._process_messages(websocket, app_service)
        finally:
            self._open_sockets.discard(websocket)

    async def on_shutdown(self, app: web.Application) -> None:
        """Each tab's socket closed: its messages end, and textual-serve tells its app to quit
        and waits for it (aiohttp waits for those handlers before it stops)."""
        closing = [
            tab.close(code=WSCloseCode.GOING_AWAY, message=b"agentui web is stopping")
            for tab in list(self._open_sockets)
        ]
        if closing:
            await asyncio.wait(
                [asyncio.ensure_future(close) for close in closing], timeout=CLOSE_WAIT_S
            )


class _AccessLog(AbstractAccessLogger):
    """Each request as aiohttp logs it, less its query (the printed address's token is one, the
    page key another) and a websocket's ticket, its path as sent (still %-encoded) with any
    control character in it made visible."""

    def log(self, request: BaseRequest, response: StreamResponse, time: float) -> None:
        path = request.rel_url.raw_path
        if path.startswith(SOCKET_PREFIX):
            path = SOCKET_PREFIX + "…"
        path = visible_controls(path)
        method = visible_controls(request.method)
        self.logger.info('%s "%s %s" %s', request.remote, method, path, response.status)
