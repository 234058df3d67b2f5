"""`agentui acp` with an MCP server configured: the first prompt's task starts once the server
has had its first outcome, so the model's first call already has the server's tools; a
session/cancel meanwhile ends the prompt before any agent starts."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from agentui.core.providers.scripted.script import Turn

from ..mcp.servers import ECHO_SERVER, GUARD_S, SILENT, mcp_runtime, stdio_server
from .acp_client import RecordingClient, agentui_acp
from .test_acp_agent import script

# The SDKs (and the agentui modules that import them) are imported where used: collecting
# this module imports no SDK (tests/core/test_collection_imports.py).

pytestmark = pytest.mark.anyio

ECHO_FIRST = """
[[agents.main]]
tool_calls = [{ name = "echo__echo", arguments = { text = "from the server" } }]

[[agents.main]]
text = "The server said it."
"""


async def test_the_first_prompt_waits_for_the_server_and_its_call_runs(tmp_path: Path) -> None:
    from acp import text_block

    config = tmp_path / "config"
    config.mkdir(parents=True)
    (config / "config.toml").write_text(
        f"""
[mcp.servers.echo]
command = {json.dumps(sys.executable)}
args = [{json.dumps(str(ECHO_SERVER))}]
approval = "always"
""",
        "utf-8",
    )
    client = RecordingClient()
    plays = script(tmp_path, ECHO_FIRST)
    async with agentui_acp(client, tmp_path, "--workflow", "plain", "--script", plays) as conn:
        session = await conn.new_session(cwd=str(tmp_path), mcp_servers=[])
        response = await conn.prompt(session_id=session.session_id, prompt=[text_block("go")])
    assert response.stop_reason == "end_turn"
    (call,) = [u for u in client.of_kind("tool_call") if u["title"] == "echo__echo"]
    assert client.statuses(call["toolCallId"])[-1] == "completed", client.call(call["toolCallId"])
    assert client.call(call["toolCallId"])[-1]["rawOutput"] == "from the server"
    assert client.text().endswith("The server said it.")


class QuietClient:
    """A client that takes every update and is asked nothing."""

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        return None


async def test_a_cancel_while_the_prompt_waits_for_a_server_ends_it_before_any_agent() -> None:
    from acp import text_block
    from acp.schema import PromptResponse

    from agentui.core.acp.modes import ASK
    from agentui.core.acp.session import AcpSession

    silent = stdio_server(startup_timeout_s=120, args=["-c", SILENT])
    runtime, provider, _ = mcp_runtime({"silent": silent}, Turn(text="never asked"))
    session = AcpSession("s1", runtime, QuietClient(), mode=ASK, forms=False)  # type: ignore[arg-type]
    answers: list[PromptResponse] = []

    async def prompt() -> None:
        answers.append(await session.prompt([text_block("go")]))

    with anyio.fail_after(GUARD_S):  # a failure guard only
        async with anyio.create_task_group() as group:
            await group.start(session.host)
            group.start_soon(prompt)
            await anyio.wait_all_tasks_blocked()  # the prompt waits for the server
            session.cancel()
            await anyio.wait_all_tasks_blocked()
            await session.close()
    assert [answer.stop_reason for answer in answers] == ["cancelled"]
    assert runtime.snapshot()["agents"] == {} and provider.requests == []
