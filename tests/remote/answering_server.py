"""An HTTP server on 127.0.0.1 that answers each path as a test says: what the client meets
when something other than `agentui serve` answers (a gateway's error page, another program on
the port, an older or newer agentui).

    async with answering({"/info": HTMLResponse("<h1>hi</h1>")}) as url:
        ...
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager

import anyio
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from agentui.core.remote.serving import listen


class _Server(uvicorn.Server):
    @contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield  # the test runner's signal handlers stay as they are


def _endpoint(response: Response) -> Callable[[Request], Awaitable[Response]]:
    async def answer(request: Request) -> Response:
        return response

    return answer


@asynccontextmanager
async def answering(answers: dict[str, Response]) -> AsyncIterator[str]:
    """Serve `answers` (path -> response; any method) until the block ends; its URL."""
    routes = [
        Route(path, _endpoint(response), methods=["GET", "POST"])
        for path, response in answers.items()
    ]
    listener = listen("127.0.0.1", 0)
    config = uvicorn.Config(Starlette(routes=routes), lifespan="off", log_config=None)
    server = _Server(config)
    async with anyio.create_task_group() as group:
        group.start_soon(server.serve, [listener.sock])
        try:
            yield listener.url
        finally:
            server.should_exit = True
