"""A ready server that stops answering (its event loop frozen mid-call) is noticed by a ping:
its connection counts as lost, the call fails saying so, the status bar says why, and the
server is started again."""

from __future__ import annotations

import pytest

from agentui.tui.app.widgets.status_bar import mcp_summary

from .servers import Events, by_agent, calls, mcp_runtime, outcomes, stdio_server

pytestmark = pytest.mark.anyio

# Pings come often here; their limit is what a healthy server on a loaded machine meets.
PINGS = {"ping_interval_s": 0.2, "ping_timeout_s": 3}


async def test_a_server_that_stops_answering_pings_is_restarted_and_says_why() -> None:
    script = by_agent(calls(("echo__freeze", {})), calls(("echo__echo", {"text": "back"})))
    server = stdio_server(approval="always", timeout_s=600, **PINGS)
    runtime, _, _ = mcp_runtime({"echo": server}, script=script)
    async with runtime:
        events = Events(runtime)
        await events.server("echo", "ready")
        frozen = runtime.start("freeze it")
        failed = await events.server("echo", "failed")
        await events.server("echo", "restarting")
        await events.server("echo", "ready", count=2)
        await events.ended(frozen)
        again = runtime.start("call it again")
        await events.ended(again)
    assert failed.error.startswith("did not answer a ping within 3 s"), failed.error
    assert mcp_summary({"echo": failed})[0].startswith(
        "mcp: 1 failed (echo: did not answer a ping within 3 s"
    )
    assert outcomes(events, frozen) == [
        (
            "echo__freeze",
            "MCP server 'echo' was lost during the call: did not answer a ping within 3 s; "
            "agentui starts it again",
            True,
        )
    ]
    assert outcomes(events, again) == [("echo__echo", "back", False)]
