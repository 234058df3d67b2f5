"""`agentui acp` with an MCP server configured: the first prompt's task starts once the server
has had its first outcome, so the model's first call already has the server's tools."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from acp import text_block

from ..mcp.servers import ECHO_SERVER
from .acp_client import RecordingClient, agentui_acp
from .test_acp_agent import script

pytestmark = pytest.mark.anyio

ECHO_FIRST = """
[[agents.main]]
tool_calls = [{ name = "echo__echo", arguments = { text = "from the server" } }]

[[agents.main]]
text = "The server said it."
"""


async def test_the_first_prompt_waits_for_the_server_and_its_call_runs(tmp_path: Path) -> None:
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
