"""An agent profile naming an MCP server's tool (`tools = ["docs__search"]`): pending, not
missing, until the server is ready; an agent started with it meanwhile waits for the server's
outcome, then has the tool, or fails with one message naming the server and why."""

from __future__ import annotations

import pytest

from agentui.core.agent.tree import AgentStatus
from agentui.core.profiles.catalog import ProfileCatalog
from agentui.core.profiles.profile import AgentProfile, ProfileOrigin
from agentui.core.protocol.events import ExecutionFailed
from agentui.core.tools.mcp.config import McpConfig, McpServerConfig

from .servers import SILENT, Events, calls, mcp_runtime, outcomes, stdio_server, unstartable_server

pytestmark = pytest.mark.anyio

ORIGIN = ProfileOrigin(source="user", where="agents/searcher.toml")


def searcher(*tools: str) -> ProfileCatalog:
    profile = AgentProfile(
        name="searcher", instructions="Search.", tools=list(tools), origin=ORIGIN
    )
    return ProfileCatalog([profile])


async def test_an_agent_started_before_its_server_is_ready_waits_and_has_the_tool() -> None:
    script = calls(("echo__echo", {"text": "found it"}))
    runtime, provider, _ = mcp_runtime(
        {"echo": stdio_server(approval="always")},
        *script,
        profiles=searcher("ask_user", "echo__echo"),
    )
    async with runtime:
        events = Events(runtime)
        agent = runtime.start("search", profile="searcher")  # the server is starting
        await events.ended(agent)
        status = runtime.node(agent).status
    assert status is AgentStatus.COMPLETED, runtime.node(agent).error
    assert outcomes(events, agent) == [("echo__echo", "found it", False)]
    assert [t.name for t in provider.requests[0].tools] == ["ask_user", "echo__echo"]
    types = [e.type for e in events.events]
    ready = next(
        n for n, e in enumerate(events.events) if e.type == "mcp:server" and e.state == "ready"
    )  # type: ignore[attr-defined]
    assert ready < types.index("llm:request"), "its first model call came after the server"


async def test_an_agent_whose_server_fails_fails_naming_the_server_and_why() -> None:
    runtime, provider, _ = mcp_runtime(
        {"broken": unstartable_server()}, profiles=searcher("broken__echo")
    )
    async with runtime:
        events = Events(runtime)
        agent = runtime.start("search", profile="searcher")
        await events.ended(agent)
        node = runtime.node(agent)
    assert node.status is AgentStatus.ERROR
    assert node.error is not None and node.error.startswith(
        "profile 'searcher' (user agents/searcher.toml) needs broken__echo: MCP server "
        "'broken' is unavailable: cannot start no-such-program-agentui: No such file or "
        "directory; agentui tries again in "
    ), node.error
    (failed,) = events.of("execution:error", agent_id=agent)
    assert isinstance(failed, ExecutionFailed) and failed.kind == "tool"
    assert provider.requests == [], "no model call without its tools"


async def test_a_tool_the_ready_server_does_not_offer_fails_listing_what_it_offers() -> None:
    runtime, _, _ = mcp_runtime(
        {"echo": stdio_server(tools={"crash": {"approval": "never"}})},
        profiles=searcher("echo__crash"),
    )
    async with runtime:
        events = Events(runtime)
        await events.server("echo", "ready")
        agent = runtime.start("search", profile="searcher")
        await events.ended(agent)
        error = runtime.node(agent).error
    assert error is not None
    assert error.startswith(
        "profile 'searcher' (user agents/searcher.toml) needs echo__crash: MCP server 'echo' "
        "offers no tool echo__crash (its tools: echo__echo, echo__add, "
    ), error


async def test_a_server_that_stays_silent_bounds_the_wait_by_its_startup_timeout() -> None:
    silent = stdio_server(startup_timeout_s=0.5, args=["-c", SILENT])
    runtime, _, _ = mcp_runtime({"silent": silent}, profiles=searcher("silent__echo"))
    async with runtime:
        events = Events(runtime)
        agent = runtime.start("search", profile="searcher")
        await events.ended(agent)
        error = runtime.node(agent).error
    assert error is not None and "MCP server 'silent'" in error, error
    assert "did not answer within 0.5 s" in error or "was not ready within 0.5 s" in error


async def test_a_tool_of_no_configured_server_is_still_refused_at_start() -> None:
    runtime, _, _ = mcp_runtime({"echo": stdio_server()}, profiles=searcher("web__search"))
    async with runtime:
        with pytest.raises(Exception, match="names tools this runtime does not have: web__search"):
            runtime.start("search", profile="searcher")


def test_the_up_front_report_calls_a_configured_servers_tools_pending_not_missing() -> None:
    config = McpConfig(
        servers={"docs": McpServerConfig(url="http://127.0.0.1:1/mcp"), "docs__x": stdio_server()}
    )
    catalog = searcher("ask_user", "docs__search", "web__search")
    (message,) = catalog.naming_missing_tools(["ask_user"], config.may_offer)
    assert "names tools agentui does not have: web__search (" in message
    assert catalog.naming_missing_tools(["ask_user"]) != [], "without servers both are missing"
    assert config.server_of("docs__x__y") == "docs__x", "the longest server name that fits"
    assert config.server_of("docs__search") == "docs"
    assert config.server_of("docs") is None and config.server_of("web__search") is None
