"""`agentui attach URL`: the app on a runtime that `agentui serve` runs, here or elsewhere; the
agents keep running when this screen closes."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio

from agentui.core.support.errors import AgentUIError
from agentui.tui.cli.app_keys import key_map_from
from agentui.tui.cli.app_run import run_app
from agentui.tui.cli.options import add_theme_option, setting_flags

if TYPE_CHECKING:
    from agentui.tui.app.app import AgentUIApp


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="agentui attach",
        description="Open the app on a runtime that `agentui serve` runs, here or on another "
        "machine: the agents keep running when this screen closes.",
    )
    parser.add_argument(
        "url", metavar="URL", help="the server's address, e.g. http://127.0.0.1:8765"
    )
    parser.add_argument(
        "--token-file",
        type=Path,
        metavar="FILE",
        help="the file holding the server's token (default: AGENTUI_TOKEN, else the file "
        "`agentui serve` writes on this machine)",
    )
    add_theme_option(parser)
    return parser


def main(argv: Sequence[str]) -> int:
    return run_app(_build_attached_app, _parser().parse_args(argv))


def _build_attached_app(args: argparse.Namespace) -> AgentUIApp:
    """The app on the server at `args.url`, once it has answered (raises AgentUIError)."""
    from urllib.parse import urlsplit, urlunsplit

    from agentui.core.remote.client import DEFAULT_PORT, RemoteClient, RemoteError, read_token
    from agentui.core.remote.remote_runtime import RemoteProvider, RemoteRuntime
    from agentui.core.remote.token_file import default_token_path

    url = args.url.rstrip("/")
    if "://" not in url:
        url = f"http://{url}"  # as printed by `agentui serve`, or just host:port
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError as exc:
        raise AgentUIError(f"{args.url} is not an address to attach to: {exc}") from None
    if parts.scheme == "http" and port is None:
        # A host alone: where `agentui serve` listens by default.
        url = urlunsplit(parts._replace(netloc=f"{parts.netloc}:{DEFAULT_PORT}"))
    from_variable = os.environ.get("AGENTUI_TOKEN")
    token = from_variable or read_token(args.token_file)
    token_file = args.token_file

    async def ask() -> Any:
        client = RemoteClient(url, token)
        try:
            return await client.info()
        finally:
            await client.aclose()

    try:
        info = anyio.run(ask)  # unreachable or refusing: one message, before the screen opens
    except RemoteError as exc:
        if exc.status != 401:
            raise
        source = "AGENTUI_TOKEN" if from_variable else str(args.token_file or default_token_path())
        raise AgentUIError(
            f"{url} refused the token from {source}: give the file `agentui serve` printed "
            "(--token-file) or its token in AGENTUI_TOKEN"
        ) from None
    from agentui.core.config.settings import load_config
    from agentui.core.monologue.config import MonologueConfig

    loaded = load_config(setting_flags(args))

    from agentui.tui.app.app import AgentUIApp
    from agentui.tui.cli.theme_setting import add_theme

    options: dict[str, Any] = {
        "attached_to": url,
        "provider_label": (info.provider, info.model),
        # The server narrates (or not); the sidebar shows what it sends.
        "monologue": MonologueConfig(enabled=info.narrator),
    }
    add_theme(options, AgentUIApp, loaded)
    key_map = key_map_from(loaded.config.keys, loaded.origin("keys"))
    provider = RemoteProvider(info.provider, info.model)
    # A silent stream is a dead one after a few missed heartbeats, not after a fixed minute.
    idle_timeout = max(3 * info.heartbeat_s, 10.0)

    def remote() -> RemoteRuntime:
        client = RemoteClient(url, token, idle_timeout=idle_timeout)
        # After a 401 the token is read again from its file: the server may have made anew.
        again = None if from_variable else (lambda: read_token(token_file))
        return RemoteRuntime(client, provider, read_token=again)

    return AgentUIApp(runtime_factory=remote, key_map=key_map, **options)
