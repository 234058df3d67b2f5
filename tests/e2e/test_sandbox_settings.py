"""The config file's [sandbox] limits reach the python tool `agentui run` builds: a call that
starts more processes than `max_processes` ends with the limit said, the run goes on. (Root
gets its cap from a cgroup; a machine without one would fail here, as it should: the cap is
the promise.)"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from .cli_runs import agentui, child_env, events

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux sandboxes"),
]

STARTS_TWENTY = (
    "import subprocess, sys\n"
    "children = [subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(30)'])\n"
    "            for _ in range(20)]\n"
    "print('all started')\n"
)


async def test_a_config_file_s_process_cap_limits_a_python_call(tmp_path: Path) -> None:
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.toml").write_text("[sandbox]\nmax_processes = 6\n")
    call = {"tool_calls": [{"name": "python", "arguments": {"code": STARTS_TWENTY}}]}
    script = tmp_path / "s.json"
    script.write_text(json.dumps({"agents": {"main": [call, {"text": "done"}]}}))
    code, out, err = await agentui(
        "run", "--json", "--yes", "--script", str(script), "Start twenty",
        env=child_env(tmp_path), cwd=tmp_path,
    )  # fmt: skip
    assert code == 0, err
    (failed,) = [e for e in events(out) if e["type"] == "tool:error"]
    assert failed["error"].endswith("[the code reached its limit of 6 processes]")
    assert "execution:complete" in [e["type"] for e in events(out)], "the agent went on"
