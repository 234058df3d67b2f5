"""The sweep after a python call kills only the sandbox's own processes (issue 30, item 5).

agentui's other children in a session of their own, like an MCP stdio server the mcp SDK
(re)starts with start_new_session=True while the code runs, are not the sandbox's: they live
on after the call. What the code leaves behind in a session of its own still goes.
"""

from __future__ import annotations

import subprocess
import sys

import anyio
import pytest

from agentui.core.protocol.events import QueryRaised
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock
from agentui.core.tools.python import PythonToolConfig, python_tool
from agentui.core.tools.registry import ToolRegistry
from agentui.core.tools.sandbox_mode import choose_sandbox

from ..processes import gone, marked, new_marker, until
from .helpers import Recorder

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux: /proc, subreaper"),
]

ASKS_THEN_LEAVES_A_SLEEPER = (
    "import subprocess, sys\n"
    "ask_user('started')\n"
    "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)', {marker!r}],\n"
    "                 start_new_session=True)\n"
    "sys.stdout.flush()\n"
    "import os\n"
    "os._exit(0)\n"
)


def _mode(sandbox: str) -> object:
    choice = choose_sandbox(sandbox)
    skip = sandbox != "limited" and choice.limited
    return pytest.param(
        sandbox,
        id=sandbox,
        marks=pytest.mark.skipif(skip, reason=f"no {sandbox} sandbox here: {choice.reason}"),
    )


@pytest.mark.parametrize("sandbox", [_mode("auto"), _mode("landlock"), _mode("limited")])
async def test_a_server_started_during_the_call_outlives_it(sandbox: str) -> None:
    server_marker, left_marker = new_marker(), new_marker()
    config = PythonToolConfig(needs_approval=False, timeout_s=20, cpu_s=20, sandbox=sandbox)
    code = ASKS_THEN_LEAVES_A_SLEEPER.format(marker=left_marker)
    call = Turn(tool_calls=[ScriptedToolCall(name="python", arguments={"code": code})])
    provider = ScriptedProvider(Script(agents={"main": [call, Turn(text="done")]}))
    runtime = Runtime(provider, tools=ToolRegistry([python_tool(config)]), clock=FrozenClock())
    server = None
    try:
        async with runtime:
            recorder = Recorder(runtime)
            root = runtime.start("x")
            (raised,) = await recorder.wait_for(lambda e: isinstance(e, QueryRaised))
            assert isinstance(raised, QueryRaised)
            # Like the mcp SDK starting a stdio server: agentui's child, in a new session.
            server = subprocess.Popen(
                [sys.executable, "-c", "import time; time.sleep(600)", server_marker],
                start_new_session=True,
            )
            runtime.answer(raised.query_id, "go on")
            with anyio.fail_after(30):  # safety net only
                await runtime.wait(root)
        assert not gone(server.pid), "the sweep killed a process the sandbox did not start"
        # SIGKILL was sent before the tool returned; the kernel finishes it a moment later.
        assert await until(lambda: not marked(left_marker)), "the code's sleeper outlived it"
    finally:
        if server is not None:
            server.kill()
            server.wait()
