"""A call to a server's tool made while the server is still starting (the app never waits for
servers before a task) waits for it, at most its startup_timeout_s, instead of failing as an
unknown tool; a server that does not come in time fails the call naming it and why."""

from __future__ import annotations

import anyio
import pytest

from .servers import SILENT, Events, calls, mcp_runtime, outcomes, stdio_server

pytestmark = pytest.mark.anyio


async def test_a_call_made_while_the_server_starts_waits_for_it_and_runs() -> None:
    runtime, _, _ = mcp_runtime(
        {"echo": stdio_server(approval="always")},
        *calls(("echo__echo", {"text": "from the server"})),
    )
    async with runtime:
        events = Events(runtime)
        root = runtime.start("use the server")
        await events.ended(root)
    types = [(e.type, getattr(e, "state", None)) for e in events.events]
    assert types.index(("tool:start", None)) < types.index(("mcp:server", "ready")), (
        "the call was made while the server started"
    )
    assert outcomes(events, root) == [("echo__echo", "from the server", False)]


async def test_a_call_to_a_server_that_does_not_come_fails_naming_it() -> None:
    silent = stdio_server(startup_timeout_s=0.3, args=["-c", SILENT])
    runtime, _, _ = mcp_runtime({"silent": silent}, *calls(("silent__anything", {})))
    async with runtime:
        events = Events(runtime)
        root = runtime.start("use the server")
        with anyio.fail_after(60):  # a guard against a hang, never a measurement
            await events.ended(root)
    ((tool, error, failed),) = outcomes(events, root)
    assert (tool, failed) == ("silent__anything", True)
    assert "silent" in error and "unknown tool" not in error, error
