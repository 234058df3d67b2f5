"""A stdio server's environment is explicit: a small base and what `env` lists, never the
provider API keys unless `env` names them."""

from __future__ import annotations

import os

import pytest

from agentui.core.tools.mcp.environment import BASE_VARIABLES, server_environment

from .servers import Events, calls, mcp_runtime, outcomes, stdio_server

pytestmark = pytest.mark.anyio

KEYS = ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY")


async def test_the_server_gets_no_api_key_unless_env_names_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for number, key in enumerate(KEYS):
        monkeypatch.setenv(key, f"secret-{number}")
    monkeypatch.setenv("AGENTUI_TEST_OTHER", "not passed either")
    asked = [("echo__env", {"name": name}) for name in (*KEYS, "AGENTUI_TEST_OTHER")]
    script = calls(*asked, ("echo__env", {"name": "MY_OPENAI"}), ("echo__env", {"name": "MODE"}))
    server = stdio_server(
        approval="always", env={"MY_OPENAI": "${OPENAI_API_KEY}", "MODE": "quiet"}
    )
    runtime, _, _ = mcp_runtime({"echo": server}, *script)
    async with runtime:
        events = Events(runtime)
        await events.server("echo", "ready")
        agent = runtime.start("read the environment")
        await events.ended(agent)
    values = [result for _, result, _ in outcomes(events, agent)]
    assert values == ["(unset)"] * 5 + ["secret-1", "quiet"]


def test_the_environment_is_the_base_and_env_with_variables_expanded() -> None:
    environ = {
        "PATH": "/bin",
        "HOME": "/home/me",
        "LANG": "C.UTF-8",
        "ANTHROPIC_API_KEY": "sk-ant",
        "GITHUB_TOKEN": "ghp",
        "PYTHONPATH": "/x",
    }
    env = {"TOKEN": "Bearer ${GITHUB_TOKEN}", "ANTHROPIC_API_KEY": "${ANTHROPIC_API_KEY}"}
    assert server_environment(env, environ) == {
        "PATH": "/bin",
        "HOME": "/home/me",
        "LANG": "C.UTF-8",
        "TOKEN": "Bearer ghp",
        "ANTHROPIC_API_KEY": "sk-ant",
    }
    assert server_environment({}, environ) == {
        "PATH": "/bin",
        "HOME": "/home/me",
        "LANG": "C.UTF-8",
    }
    assert not set(BASE_VARIABLES) & set(KEYS)
    assert "ANTHROPIC_API_KEY" not in server_environment({}, os.environ)
