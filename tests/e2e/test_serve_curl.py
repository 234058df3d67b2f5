"""`agentui serve` driven by curl, a client that shares no code with agentui: start a task,
read the tree, pause the agent, read the event stream up to a known event and resume it; the
token goes in a header file (`-H @FILE`), never on curl's command line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.remote.serve_process import FAIL_AFTER_S, ServeProcess, serve_process

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed"),
]

WORKS = """
[[agents."*"]]
text = "Working on it, slowly."
hang_after_chunks = 1
"""


def header_file(served: ServeProcess) -> Path:
    """The token as a header in a file readable by its owner alone, as docs/guide/serve.md shows: curl
    reads it with `-H @FILE`, so the token is never on a command line `ps` shows."""
    path = served.home / "agentui-auth"
    path.touch(mode=0o600)
    path.write_text(f"Authorization: Bearer {served.token}\n")
    return path


async def curl(served: ServeProcess, *arguments: str) -> tuple[int, str]:
    """curl's exit code and output for a request with the server's token."""
    with anyio.fail_after(FAIL_AFTER_S):
        done = await anyio.run_process(
            ["curl", "--silent", "--show-error", "-H", f"@{header_file(served)}", *arguments],
            check=False,
        )
    return done.returncode, done.stdout.decode()


async def curl_json(served: ServeProcess, *arguments: str) -> Any:
    code, out = await curl(served, *arguments)
    assert code == 0, out
    return json.loads(out)


async def curl_stream(served: ServeProcess, last_seq: int, *arguments: str) -> str:
    """What `curl -N` prints of an event stream up to the message of event `last_seq`; then
    curl is stopped (the stream stays open for live events)."""
    command = ["curl", "--silent", "--show-error", "-N", "--max-time", str(FAIL_AFTER_S)]
    command += ["-H", f"@{header_file(served)}", *arguments]
    marker = f'"seq":{last_seq},'.encode()
    received = b""
    async with await anyio.open_process(command) as process:
        assert process.stdout is not None
        with anyio.fail_after(FAIL_AFTER_S):
            while marker not in received or b"\n\n" not in received.partition(marker)[2]:
                received += await process.stdout.receive()
        process.terminate()
    return received.decode()


def sse_messages(text: str) -> list[tuple[str, dict[str, Any]]]:
    """(id, event) of each complete message of an SSE body."""
    messages = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if "data" in fields:
            messages.append((fields.get("id", ""), json.loads(fields["data"])))
    return messages


async def test_curl_starts_reads_pauses_and_streams(tmp_path: Path) -> None:
    script = tmp_path / "works.toml"
    script.write_text(WORKS)
    async with serve_process(tmp_path, "--script", str(script)) as served:
        url = served.url
        post = ("-X", "POST", "-H", "Content-Type: application/json")
        started = await curl_json(
            served, *post, "-d", '{"task": "count the stars"}', f"{url}/tasks"
        )
        agent_id = started["agent_id"]
        tree = await curl_json(served, f"{url}/agent/tree")
        assert tree[agent_id]["userContent"] == "count the stars"
        assert tree[agent_id]["parentId"] is None
        paused = await curl_json(served, "-X", "POST", f"{url}/agent/{agent_id}/pause")
        assert paused == {"success": True}
        assert (await curl_json(served, f"{url}/agent/tree"))[agent_id]["status"] == "paused"
        last_seq = (await curl_json(served, f"{url}/info"))["last_seq"]
        body = await curl_stream(served, last_seq, f"{url}/events?since=0")
        messages = sse_messages(body)
        kinds = [event["type"] for _, event in messages]
        assert kinds[0] == "agent:spawned" and "execution:paused" in kinds
        assert [int(ident) for ident, _ in messages] == [event["seq"] for _, event in messages]
        assert messages[-1][1]["seq"] == last_seq
        # Resuming from an id gets only what came after it.
        middle = messages[len(messages) // 2][0]
        tail = await curl_stream(
            served, last_seq, "-H", f"Last-Event-ID: {middle}", f"{url}/events"
        )
        assert sse_messages(tail) == messages[len(messages) // 2 + 1 :]
        refused = await curl_json(
            served,
            "-X",
            "POST",
            f"{url}/agent/{agent_id}/send",
            *post[2:],
            "-d",
            '{"text": "more"}',
        )
        assert "error" in refused
        code, _ = await served.stop()
        assert code == 0
