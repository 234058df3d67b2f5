"""What the sandbox leaves behind, and what it cleans up: the probe's temporary directory
(also when agentui exits while the probe runs on its daemon thread, or was killed), the
cgroups of an agentui that was killed, and the zombies of what a call's end killed."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import uuid
from pathlib import Path

import anyio
import pytest

from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock
from agentui.core.support.process_tree import all_processes
from agentui.core.tools import sandbox_cgroup, sandbox_probe
from agentui.core.tools.python import PythonToolConfig, python_tool
from agentui.core.tools.registry import ToolRegistry

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux: /proc")

# Past the largest pid_max (2**22): no process has it.
DEAD_PID = (1 << 22) + 1
# Builds the tool (its probe starts on a daemon thread) and exits once the probe's directory
# exists, while the probe runs.
BUILDS_THE_TOOL_AND_EXITS = """
import sys, tempfile, time
from pathlib import Path
from agentui.core.tools.python import python_tool
python_tool()
deadline = time.monotonic() + 30  # safety net only
while not list(Path(tempfile.gettempdir()).glob("agentui-probe-*")):
    assert time.monotonic() < deadline, "no probe started"
    time.sleep(0.001)
print("built")
"""


def test_exiting_while_the_probe_runs_leaves_no_directory(tmp_path: Path) -> None:
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", BUILDS_THE_TOOL_AND_EXITS],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,  # safety net only
        check=False,
    )
    assert done.stdout == "built\n", done.stderr
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("agentui-probe-")] == []


def test_a_killed_agentuis_probe_directory_goes_with_the_next_probe(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    orphaned = tmp_path / f"agentui-probe-{DEAD_PID}-abcd"
    running = tmp_path / f"agentui-probe-{os.getpid()}-efgh"
    other = tmp_path / "agentui-probe-old"  # not named by a pid: not ours to judge
    for made in (orphaned, running, other):
        made.mkdir()
    sandbox_probe._remove_orphaned_workdirs()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([running.name, other.name])


def test_two_threads_asking_at_once_start_one_probe(monkeypatch: pytest.MonkeyPatch) -> None:
    probes: list[str] = []
    probing, go_on = threading.Event(), threading.Event()

    def probe(mode: str, bwrap: str | None, executable: str, workdir: str) -> str:
        probes.append(workdir)
        probing.set()
        go_on.wait(30)  # safety net only
        return "measured"

    monkeypatch.setattr(sandbox_probe, "_measure", probe)
    executable = f"/nowhere/python-{uuid.uuid4().hex}"  # a key of its own in the cache
    said: list[object] = []

    def ask() -> None:
        said.append(sandbox_probe.measure("landlock", None, executable))

    first, second = threading.Thread(target=ask), threading.Thread(target=ask)
    first.start()
    assert probing.wait(30)
    second.start()
    go_on.set()
    first.join(30)
    second.join(30)
    assert said == ["measured", "measured"]
    assert len(probes) == 1


def _fake_cgroup_v1(monkeypatch: pytest.MonkeyPatch, root: Path) -> Path:
    """A cgroup v1 pids hierarchy at `root`, agentui at its top."""
    pids = root / "pids"
    pids.mkdir()
    mountinfo = root / "mountinfo"
    mountinfo.write_text(f"39 31 0:36 / {pids} rw,relatime - cgroup cgroup rw,pids\n")
    own = root / "cgroup"
    own.write_text("8:pids:/\n")
    monkeypatch.setattr(sandbox_cgroup, "MOUNTINFO", mountinfo)
    monkeypatch.setattr(sandbox_cgroup, "OWN_CGROUPS", own)
    return pids


def test_a_killed_agentuis_cgroups_go_when_a_new_one_is_made(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    pids = _fake_cgroup_v1(monkeypatch, tmp_path)
    orphaned = pids / f"agentui-sandbox-{DEAD_PID}-3"  # a cgroup's files do not stop rmdir
    orphaned.mkdir()
    live = pids / f"agentui-sandbox-{os.getppid()}-1"  # its agentui lives
    live.mkdir()
    made = sandbox_cgroup.create(16, 1 << 30)
    assert made is not None and (made.path / "pids.max").read_text() == "16"
    assert not orphaned.exists() and live.exists()


def test_a_process_that_cannot_be_moved_in_is_said(tmp_path: Path) -> None:
    (tmp_path / "cgroup.procs").mkdir()  # writing it fails, as a refused move does
    cgroup = sandbox_cgroup.TreeCgroup(tmp_path, memory=False)
    with pytest.raises(sandbox_cgroup.CgroupError, match=f"process {os.getpid()} cannot be put"):
        cgroup.add([os.getpid()])


# Leaves children in sessions of their own, then has agentui kill the whole tree at once (a
# request past the size limit), keeper and all: their zombies come back to agentui.
LEAVES_CHILDREN_AND_IS_KILLED = (
    "import subprocess, sys\n"
    "for i in range(8):\n"
    "    subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)'],\n"
    "                     start_new_session=True)\n"
    "channel = fork.__closure__[0].cell_contents\n"
    "channel._requests.write('x' * 1_000_001)\n"
    "channel._requests.flush()\n"
    "input()\n"
)


def _zombie_children() -> set[int]:
    me = os.getpid()
    return {p.pid for p in all_processes() if p.ppid == me and p.exited}


@pytest.mark.anyio
@pytest.mark.parametrize("sandbox", ["landlock", "limited"])
async def test_what_the_end_of_a_call_killed_is_reaped_at_once(sandbox: str) -> None:
    before = _zombie_children()
    config = PythonToolConfig(needs_approval=False, timeout_s=20, cpu_s=20, sandbox=sandbox)
    code = LEAVES_CHILDREN_AND_IS_KILLED
    call = Turn(tool_calls=[ScriptedToolCall(name="python", arguments={"code": code})])
    provider = ScriptedProvider(Script(agents={"main": [call, Turn(text="done")]}))
    runtime = Runtime(provider, tools=ToolRegistry([python_tool(config)]), clock=FrozenClock())
    async with runtime:
        with anyio.fail_after(60):  # safety net only
            await runtime.wait(runtime.start("x"))
    (result,) = provider.requests[1].messages[-1].tool_results
    assert "a request to the runtime was over" in result.content
    assert _zombie_children() - before == set()
