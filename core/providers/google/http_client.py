"""The HTTP client the SDK sends through: an httpx2 client of ours.

Ours, so its failures are the ones errors.py maps (the SDK would pick aiohttp when it is
installed) and the provider closes it. The SDK gives each request one timeout for every phase
of it; connecting gets at most CONNECT_TIMEOUT_S of that, as on Claude, so an endpoint that
never answers fails in seconds rather than after the whole timeout.
"""

from __future__ import annotations

import httpx2

from agentui.core.providers.google.defaults import CONNECT_TIMEOUT_S


async def connect_briefly(request: httpx2.Request) -> None:
    """Cap the request's connect timeout (httpx's per-request `timeout` extension)."""
    timeout = request.extensions.get("timeout")
    if isinstance(timeout, dict):
        connect = timeout.get("connect")
        shorter = CONNECT_TIMEOUT_S if connect is None else min(connect, CONNECT_TIMEOUT_S)
        request.extensions["timeout"] = {**timeout, "connect": shorter}


def new_http_client() -> httpx2.AsyncClient:
    return httpx2.AsyncClient(event_hooks={"request": [connect_briefly]})
