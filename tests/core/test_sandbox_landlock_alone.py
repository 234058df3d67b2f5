"""Landlock where the kernel refuses user namespaces (Ubuntu's AppArmor does, for normal
users): no pid or network namespace of its own, so Landlock alone keeps the code from files,
TCP, agentui's /proc and signals, and the keeper, outside Landlock, ends what the code left."""

from __future__ import annotations

import os
import socket
from pathlib import Path
from typing import Any

import anyio
import pytest

from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock
from agentui.core.tools import sandbox, sandbox_command
from agentui.core.tools.python import PythonToolConfig, python_tool
from agentui.core.tools.registry import ToolRegistry
from agentui.core.tools.sandbox_mode import choose_sandbox

from ..processes import marked, new_marker, until
from .sandbox_attempts import attempt

LANDLOCK = choose_sandbox("landlock")
pytestmark = [
    pytest.mark.anyio,
    pytest.mark.skipif(not LANDLOCK.landlock, reason=f"no Landlock here: {LANDLOCK.reason}"),
]


@pytest.fixture(autouse=True)
def no_namespaces(monkeypatch: pytest.MonkeyPatch) -> None:
    def without(*args: Any, **kwargs: Any) -> dict[str, Any]:
        return {**sandbox_command.child_config(*args, **kwargs), "isolate": False}

    monkeypatch.setattr(sandbox, "child_config", without)


async def run(code: str) -> str:
    config = PythonToolConfig(needs_approval=False, timeout_s=20, cpu_s=20, sandbox="landlock")
    call = Turn(tool_calls=[ScriptedToolCall(name="python", arguments={"code": code})])
    provider = ScriptedProvider(Script(agents={"main": [call, Turn(text="done")]}))
    runtime = Runtime(provider, tools=ToolRegistry([python_tool(config)]), clock=FrozenClock())
    async with runtime:
        with anyio.fail_after(30):  # safety net only
            await runtime.wait(runtime.start("x"))
    (result,) = provider.requests[1].messages[-1].tool_results
    return result.content


async def test_landlock_alone_holds_files_tcp_proc_and_signals(tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as server:
        code = (
            attempt("no namespace", "assert os.getpid() != 1")
            + attempt("write", f"open({str(tmp_path / 'out')!r}, 'w')")
            + attempt("tcp", f"socket.create_connection(('127.0.0.1', {server.getsockname()[1]}))")
            + attempt("proc", f"open('/proc/{os.getpid()}/cmdline').read()")
            + attempt("signal", f"os.kill({os.getpid()}, 0)")
            + attempt("keeper", "os.kill(os.getppid(), 0)")
        )
        content = await run("import os, socket\n" + code)
    assert content.splitlines() == [
        "no namespace: ok",
        "write: PermissionError",
        "tcp: PermissionError",
        "proc: PermissionError",
        "signal: PermissionError",
        "keeper: PermissionError",
    ], content
    assert not (tmp_path / "out").exists()


async def test_the_keeper_ends_what_the_code_left() -> None:
    marker = new_marker()
    code = (
        "import os, subprocess, sys\n"
        f"subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)', {marker!r}],\n"
        "                 start_new_session=True)\n"
        "print('started', flush=True)\n"
        "os._exit(0)\n"
    )
    assert await run(code) == "started\n"
    assert await until(lambda: not marked(marker)), "the sleeper outlived the call"
