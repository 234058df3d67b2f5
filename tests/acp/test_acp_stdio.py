"""`agentui acp` on its stdin and stdout: stdout carries the protocol alone (whatever else in
the process writes to file descriptor 1), everything sent is text a terminal cannot obey and a
strict JSON parser takes, and the end of stdin ends the server with every agent and every
process a tool started."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from ..processes import marked, new_marker, until
from .acp_client import TIMEOUT_S, RecordingClient, agentui_acp, agentui_acp_process
from .test_acp_approvals import json_script

# The SDKs (and the agentui modules that import them) are imported where used: collecting
# this module imports no SDK (tests/core/test_collection_imports.py).

pytestmark = pytest.mark.anyio

# Writes to fd 1 every way there is, then one protocol line through the server's writer.
STRAYS = """
import asyncio, os, subprocess, sys
from agentui.core.acp.server import protocol_stdio

async def main():
    _reader, writer = await protocol_stdio()
    print("a stray print", flush=True)
    os.write(1, b"a stray write\\n")
    subprocess.run([sys.executable, "-c", "print('a child process')"], check=True)
    writer.write(b'{"jsonrpc": "2.0", "method": "ping"}\\n')
    await writer.drain()

asyncio.run(main())
"""


async def test_stdout_carries_the_protocol_alone() -> None:
    done = await anyio.run_process(
        [sys.executable, "-c", STRAYS], stdin=subprocess.DEVNULL, check=False
    )
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout == b'{"jsonrpc": "2.0", "method": "ping"}\n'
    for stray in (b"a stray print", b"a stray write", b"a child process"):
        assert stray in done.stderr


# Every control a terminal obeys: clear the screen, set the title, CSI in C1, a NUL, a
# backspace, a bidi override, a carriage return; and a fence to break out of.
CONTROLS = "A\x1b[2J\x1b]0;pwned\x07B\rC\x00D\x9b31mE\u202eF\x08G ``` H"
HOSTILE = CONTROLS + " \ud800"  # and a lone surrogate (tools' arguments refuse those)
NOISY_CODE = """
import os, sys
print("printed \\x1b[31mred")
os.write(1, b"written to fd 1\\n")
print("\\x1b]0;title\\x07 \\x00 nul")
"""


async def test_what_a_client_is_sent_holds_no_control_and_no_lone_surrogate(
    tmp_path: Path,
) -> None:
    from acp import text_block

    plays = json_script(
        tmp_path,
        {
            "main": [
                {
                    "thinking": "think " + HOSTILE,
                    "text": "text " + HOSTILE,
                    "tool_calls": [
                        {"name": "python", "arguments": {"code": NOISY_CODE}},
                        {"name": "fork", "arguments": {"prompt": "sub " + CONTROLS}},
                        {"name": "wait", "arguments": {"handle": "a2"}},
                    ],
                },
                {"text": "done " + HOSTILE},
            ],
            "main.1": [{"text": "subagent " + HOSTILE}],
        },
    )
    client = RecordingClient(choices=["once"])
    # The client's check fails the test on any control or lone surrogate in what it got.
    async with agentui_acp(client, tmp_path, "--workflow", "plain", "--script", plays) as conn:
        session = await conn.new_session(cwd=str(tmp_path), mcp_servers=[])
        response = await conn.prompt(
            session_id=session.session_id, prompt=[text_block("task " + HOSTILE)]
        )
    assert response.stop_reason == "end_turn"
    # Made visible, never dropped: what was there can still be read.
    assert "␛[2J␛]0;pwned␇B␍C␀D\\x9b31mE<U+202E>F␈G ``` H <U+D800>" in client.text()
    assert "␛[2J" in client.text("agent_thought_chunk")
    assert "␛[2J" in client.of_kind("session_info_update")[0]["title"]
    (code_call,) = [u for u in client.of_kind("tool_call") if u["title"] == "python"]
    output = client.call(code_call["toolCallId"])[-1]["rawOutput"]
    # The tool's own fd 1 is its output, never the protocol's.
    assert "printed ␛[31mred" in output and "written to fd 1" in output
    subagent = client.call("agent:a2")
    assert (
        "␛[2J" in subagent[0]["title"] and "␛[2J" in subagent[-1]["content"][0]["content"]["text"]
    )


# A sleeper that outlives its python tool unless agentui ends it.
SLEEPER = (
    "import subprocess, sys, time\n"
    "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)', {marker!r}],\n"
    "                 start_new_session=True)\n"
    "time.sleep(600)\n"
)


async def test_the_end_of_stdin_ends_the_server_its_agents_and_their_processes(
    tmp_path: Path,
) -> None:
    from acp import text_block

    marker = new_marker()
    plays = json_script(
        tmp_path,
        {
            "main": [
                {
                    "tool_calls": [
                        {"name": "fork", "arguments": {"prompt": "hang around"}},
                        {"name": "python", "arguments": {"code": SLEEPER.format(marker=marker)}},
                    ]
                }
            ],
            "main.1": [{"text": "working", "hang_after_chunks": 1}],
        },
    )
    client = RecordingClient()
    outcome: list[Any] = []
    args = ("--workflow", "plain", "--yes", "--script", plays)
    try:
        async with agentui_acp_process(client, tmp_path, *args) as (conn, process):
            session = await conn.new_session(cwd=str(tmp_path), mcp_servers=[])

            async def prompt() -> None:
                try:
                    outcome.append(
                        await conn.prompt(session_id=session.session_id, prompt=[text_block("go")])
                    )
                except ConnectionError as exc:  # the server went: no answer
                    outcome.append(exc)

            async with anyio.create_task_group() as group:
                group.start_soon(prompt)
                await client.wait_for(lambda c: "in_progress" in c.statuses("agent:a2"))
                assert await until(lambda: bool(marked(marker)), TIMEOUT_S), "no sleeper"
                assert process.stdin is not None
                process.stdin.close()
                with anyio.fail_after(TIMEOUT_S):
                    assert await process.wait() == 0
        assert await until(lambda: not marked(marker), TIMEOUT_S), "the sleeper outlived it"
    finally:
        for pid in marked(marker):  # only if the test failed: leave nothing behind
            os.kill(pid, signal.SIGKILL)
    # The session's file says how the agents ended.
    (saved,) = (tmp_path / "data" / "sessions").glob("*.jsonl")
    statuses = [
        (record["agent_id"], record["new"])
        for record in map(json.loads, saved.read_text(encoding="utf-8").splitlines())
        if record.get("type") == "agent:status"
    ]
    assert ("a1", "cancelled") in statuses and ("a2", "cancelled") in statuses
