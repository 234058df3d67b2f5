"""`agentui acp`'s server: the ACP agent on stdin and stdout until the client goes.

Stdout carries the protocol and nothing else: the server writes JSON-RPC to a private copy of
it and points file descriptor 1 at stderr, so a stray print (ours, a library's, a child
process's) lands in the log instead of corrupting the stream the client parses.
"""

from __future__ import annotations

import asyncio
import os
import sys
from typing import Any, cast

import anyio
from acp import run_agent, stdio_streams
from acp.core import DEFAULT_STDIO_BUFFER_LIMIT_BYTES

from agentui.core.acp.agent import AgentuiAgent, RuntimeOpener
from agentui.core.acp.modes import ModeId


async def serve_stdio(open_runtime: RuntimeOpener, *, mode: ModeId) -> None:
    """Serve until stdin ends; then every session's agents stop and their files are closed."""
    reader, writer = await protocol_stdio()
    async with anyio.create_task_group() as sessions:
        agent = AgentuiAgent(open_runtime, sessions, mode=mode)
        try:
            # The SDK answers "method not found" for the optional methods of its Agent protocol
            # we leave out (authenticate, fork_session, ...). session/close and session/resume
            # are stable in ACP's schema, yet the SDK (0.12) routes them only with its
            # unstable methods on: nothing else of those is implemented here.
            # The observer reads what the SDK's models drop (child_sessions.py).
            await run_agent(
                agent,  # type: ignore[arg-type]
                writer,
                reader,
                use_unstable_protocol=True,
                observers=[agent.observe],
            )
        finally:
            with anyio.CancelScope(shield=True):
                await agent.close()


async def protocol_stdio() -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """The SDK's stdio streams, writing to a copy of stdout; fd 1 is stderr from now on."""
    protocol_out = os.fdopen(os.dup(sys.stdout.fileno()), "wb", buffering=0)
    sys.stdout.flush()
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    # The SDK opens its write pipe on whatever sys.stdout is: for that moment, the copy.
    saved, sys.stdout = sys.stdout, cast(Any, protocol_out)
    try:
        return await stdio_streams(limit=DEFAULT_STDIO_BUFFER_LIMIT_BYTES)
    finally:
        sys.stdout = saved
