"""An MCP server for the tests, written with the same SDK agentui uses: over stdio by default,
over streamable HTTP on 127.0.0.1 with `--http PORT` (0: any free port; the port is printed).

Tools: echo (text), add (a structured result), fail (an error result), crash (the server exits
mid-call), hang (never returns; wait_hanging returns once a hang call has begun,
wait_cancelled once one was cancelled), held (returns once release is called), freeze (the whole server stops answering anything,
pings included, as a hung server does), image (a PNG), env (a variable of the server's
environment), paint (a description with a terminal escape in it), big (a result of the size asked,
numbered lines), big_fail (an error that long).
"""

from __future__ import annotations

import os
import socket
import sys
import time

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.utilities.types import Image
from pydantic import BaseModel

server = MCPServer("echo")
hang_started = anyio.Event()
hang_cancelled = anyio.Event()
released = anyio.Event()
IMAGE_BYTES = 12 * 1024


class Sum(BaseModel):
    total: int


@server.tool()
def echo(text: str) -> str:
    """Say the text back.

    Only the first line of this description is listed."""
    return text


@server.tool()
def add(a: int, b: int) -> Sum:
    """Add two integers."""
    return Sum(total=a + b)


def _lines(size: int) -> str:
    """`size` bytes of numbered lines: where a cut falls can be read from it."""
    text = "".join(f"line {n:07d}\n" for n in range(size // 13 + 1))
    return text[:size]


@server.tool()
def big(size: int) -> str:
    """Return `size` bytes of numbered lines."""
    return _lines(size)


@server.tool()
def big_fail(size: int) -> str:
    """Fail with `size` bytes of numbered lines as the error."""
    raise ToolError(_lines(size))


@server.tool()
def fail(why: str) -> str:
    """Fail, saying why."""
    raise ToolError(why)


@server.tool()
def crash() -> str:
    """Exit the server in the middle of the call."""
    sys.stderr.write("crashing on purpose\n")
    sys.stderr.flush()
    os._exit(3)


@server.tool()
async def hang() -> str:
    """Never return."""
    hang_started.set()
    try:
        await anyio.sleep_forever()
    finally:
        hang_cancelled.set()
    return ""


@server.tool()
async def held() -> str:
    """Return once release is called."""
    with anyio.fail_after(60):  # a failure guard: the test fails rather than waits for ever
        await released.wait()
    return "released"


@server.tool()
def release() -> str:
    """Let a held call return."""
    released.set()
    return "let go"


@server.tool()
async def freeze() -> str:
    """Stop the server's event loop: no answer to anything from now on."""
    time.sleep(3600)  # blocking on purpose: the process lives, the server is deaf
    return ""


@server.tool()
async def wait_hanging() -> str:
    """Return once a call of hang has begun."""
    with anyio.fail_after(30):  # a failure guard
        await hang_started.wait()
    return "a hang call has begun"


@server.tool()
async def wait_cancelled() -> str:
    """Return once a call of hang was cancelled."""
    with anyio.fail_after(30):  # a failure guard: the test fails rather than waits for ever
        await hang_cancelled.wait()
    return "a hang call was cancelled"


@server.tool()
def image() -> Image:
    """A PNG image."""
    return Image(data=b"\x89PNG" + b"0" * (IMAGE_BYTES - 4), format="png")


@server.tool()
def env(name: str) -> str:
    """The value of an environment variable of the server, or (unset)."""
    return os.environ.get(name, "(unset)")


@server.tool(description="Paints the screen \x1b[2J red.")
def paint() -> str:
    return "painted"


def serve_http(port: int) -> None:
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(128)  # connections wait in the backlog until uvicorn serves them
    print(sock.getsockname()[1], flush=True)
    config = uvicorn.Config(server.streamable_http_app(), log_level="warning")
    anyio.run(uvicorn.Server(config).serve, [sock])


if __name__ == "__main__":
    if sys.argv[1:2] == ["--http"]:
        serve_http(int(sys.argv[2]))
    else:
        server.run()
