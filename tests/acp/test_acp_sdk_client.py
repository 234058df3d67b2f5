"""agentui's child sessions as a third-party client reads them: sdk_client.mjs, a client on
@agentclientprotocol/sdk (npm), whose unstable schema validates every message it receives and
drops what does not fit. It declares subagents, prompts once (a root that forks a subagent
whose python call asks for approval, and waits for it) and prints what it accepted."""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ..forks import FORKS
from ..third_party import node_modules
from .acp_client import TIMEOUT_S, child_env
from .test_acp_approvals import python
from .test_acp_child_sessions import CHILD, FORK_AND_WAIT

CLIENT = Path(__file__).with_name("sdk_client.mjs")


@pytest.fixture(scope="module")
def sdk_client() -> Iterator[Path]:
    """The client script in a folder beside the installed SDK (node resolves its imports from
    the script's folder up)."""
    folder = Path(tempfile.mkdtemp(dir=node_modules().parent))
    try:
        script = folder / CLIENT.name
        shutil.copyfile(CLIENT, script)
        yield script
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_the_sdk_client_accepts_every_child_session_update(
    sdk_client: Path, tmp_path: Path
) -> None:
    plays = tmp_path / "script.json"
    agents = {
        "main": [{"tool_calls": FORK_AND_WAIT}, {"text": "All done."}],
        "main.1": [python("print(3)"), {"text": "Sized."}],
    }
    plays.write_text(json.dumps({"agents": agents}), "utf-8")
    agentui = FORKS.command("module", "agentui.tui.cli.main", "acp", "--workflow", "plain")
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
