"""agentui's child sessions as a third-party client reads them: sdk_client.mjs, a client on
@agentclientprotocol/sdk (npm), whose unstable schema validates every message it receives and
drops what does not fit. It declares subagents, prompts once (a root that forks a subagent
whose python call asks for approval, and waits for it) and prints what it accepted."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .acp_client import TIMEOUT_S, child_env
from .npm_packages import npm_install
from .test_acp_approvals import python
from .test_acp_child_sessions import CHILD, FORK_AND_WAIT

SDK = ("@agentclientprotocol/sdk@2.4.0", "zod@4")  # zod: the SDK's peer, its validator
CLIENT = Path(__file__).with_name("sdk_client.mjs")


@pytest.fixture(scope="module")
def sdk_client(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The client script beside the installed SDK (node resolves imports from the script's
    folder up)."""
    prefix = tmp_path_factory.mktemp("sdk")
    npm_install(prefix, *SDK)
    script = prefix / CLIENT.name
    shutil.copyfile(CLIENT, script)
    return script


def test_the_sdk_client_accepts_every_child_session_update(
    sdk_client: Path, tmp_path: Path
) -> None:
    plays = tmp_path / "script.json"
    agents = {
        "main": [{"tool_calls": FORK_AND_WAIT}, {"text": "All done."}],
        "main.1": [python("print(3)"), {"text": "Sized."}],
    }
    plays.write_text(json.dumps({"agents": agents}), "utf-8")
    agentui = [sys.executable, "-m", "agentui.tui.cli.main", "acp", "--workflow", "plain"]
    done = subprocess.run(
        ["node", str(sdk_client), *agentui, "--script", str(plays)],
        cwd=tmp_path,
        env=child_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    *seen, last = [json.loads(line) for line in done.stdout.splitlines()]
    assert last["answer"]["stopReason"] == "end_turn"
    updates: list[tuple[str, dict[str, Any]]] = [
        (item["sessionId"], item["update"]) for item in seen if "update" in item
    ]
    (root,) = {sid for sid, u in updates if u["sessionUpdate"] == "session_info_update"}
    child = f"{root}~{CHILD}"
    kinds = [(sid, u["sessionUpdate"]) for sid, u in updates]
    # Accepted (a message the schema refuses never reaches the client's handler):
    assert (root, "subagent_update") in kinds and (child, "session_message") in kinds
    states = [
        u["state"]["state"]
        for sid, u in updates
        if u["sessionUpdate"] == "subagent_update" and "state" in u
    ]
    assert states == ["running", "requires_action", "running", "idle"]
    (result,) = [u for sid, u in updates if sid == root and u["sessionUpdate"] == "session_message"]
    assert result["senderSessionId"] == child and result["content"][0]["text"] == "Sized."
    (permission,) = [item["permission"] for item in seen if "permission" in item]
    assert permission["sessionId"] == child
    assert permission["toolCall"]["title"] == "main.1 › python"
