"""Noticing a ready MCP server that hangs: it is pinged every so often, and one that does not
answer in time has hung (otherwise no one notices until a call times out)."""

from __future__ import annotations

from typing import Any, Protocol

import anyio
from mcp.shared.exceptions import MCPError

from agentui.core.tools.mcp.failure import closed_connection


class Pingable(Protocol):
    async def send_ping(self) -> Any: ...


async def unanswered_ping(session: Pingable, interval_s: float, timeout_s: float) -> str:
    """Ping `session` every `interval_s` until a ping gets no answer within `timeout_s`, or
    fails; why. Never returns while the server answers."""
    while True:
        await anyio.sleep(interval_s)
        with anyio.move_on_after(timeout_s) as waiting:
            try:
                await session.send_ping()
            except MCPError as exc:
                if closed_connection(exc):
                    return "the server closed the connection"
                # An error is an answer too: the server is alive (the 2026-07-28 protocol
                # dropped ping, and a current server says "method not found").
            except Exception as exc:
                return f"a ping failed: {type(exc).__name__}: {exc}"
        if waiting.cancelled_caught:
            return f"did not answer a ping within {timeout_s:g} s"
