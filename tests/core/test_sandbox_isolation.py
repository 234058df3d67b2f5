"""What model code can reach from the python tool, attacked for real in both sandboxes.

Under bubblewrap: no environment of agentui's, no writes outside its directory, no network,
no sessions; in limited mode only what the process guard gives (agentui not dumpable, a
subreaper), which the tests check as far as a same-user process can be stopped. In both, no
process the code starts outlives the run, however it tries.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import socket
import sys
from pathlib import Path

import anyio
import pytest

from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.support import process_guard
from agentui.core.support.clock import FrozenClock
from agentui.core.tools import bubblewrap
from agentui.core.tools.python import PythonToolConfig, python_tool
from agentui.core.tools.registry import ToolRegistry
from agentui.core.tools.sandbox_mode import choose_sandbox

from ..processes import BWRAP_ONLY, SANDBOXES, marked, new_marker, until

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux: /proc, prctl"),
]

BUBBLEWRAP = pytest.param("auto", id="bubblewrap", marks=BWRAP_ONLY)
PR_GET_DUMPABLE = 3


async def run(code: str, sandbox: str) -> tuple[str, bool]:
    """Run `code` through the python tool of a scripted agent; its result and whether failed."""
    config = PythonToolConfig(
        needs_approval=False, timeout_s=20, cpu_s=20, memory_mb=256, sandbox=sandbox
    )
    call = Turn(tool_calls=[ScriptedToolCall(name="python", arguments={"code": code})])
    provider = ScriptedProvider(Script(agents={"main": [call, Turn(text="done")]}))
    runtime = Runtime(provider, tools=ToolRegistry([python_tool(config)]), clock=FrozenClock())
    async with runtime:
        root = runtime.start("Attack")
        with anyio.fail_after(30):  # safety net only
            await runtime.wait(root)
    (result,) = provider.requests[1].messages[-1].tool_results
    return result.content, result.is_error


def attempt(action: str) -> str:
    """Code that prints `ok` if `action` works, else the exception's name."""
    return f"try:\n    {action}\n    print('ok')\nexcept Exception as exc:\n    print(type(exc).__name__)\n"


# -- agentui's environment ---------------------------------------------------------------------


def test_agentui_is_not_dumpable_once_the_tool_exists() -> None:
    python_tool()
    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    assert libc.prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) == 0, "its /proc/PID/environ is closed"
    assert process_guard.is_subreaper()


@pytest.mark.parametrize("sandbox", SANDBOXES)
async def test_the_code_cannot_read_agentuis_environment(sandbox: str) -> None:
    # agentui's own pid (the test process runs the runtime) and the code's parent's.
    code = attempt(f"open('/proc/{os.getpid()}/environ', 'rb').read()") + attempt(
        "open(f'/proc/{os.getppid()}/environ', 'rb').read()"
    )
    content, is_error = await run(code, sandbox)
    assert not is_error, content
    own, parents = content.splitlines()
    if sandbox == "limited" and os.geteuid() == 0:
        pytest.skip("as root nothing stops a same-user process reading /proc (limited mode)")
    assert own != "ok" and parents != "ok", content


# -- files, network, sessions ---------------------------------------------------------------


@pytest.mark.parametrize("sandbox", SANDBOXES)
async def test_writing_outside_the_directory(sandbox: str, tmp_path: Path) -> None:
    target = tmp_path / "escaped.txt"
    code = attempt(f"open({str(target)!r}, 'w').write('out')") + attempt(
        "open('inside.txt', 'w').write('in')"
    )
    content, _ = await run(code, sandbox)
    outside, inside = content.splitlines()
    assert inside == "ok", "its own directory is writable"
    if sandbox == "limited":
        assert outside == "ok" and target.exists(), "limited mode: the code writes as you"
    else:
        assert outside != "ok" and not target.exists(), content


@pytest.mark.parametrize("sandbox", SANDBOXES)
async def test_connecting_to_localhost(sandbox: str) -> None:
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        code = attempt(f"__import__('socket').create_connection(('127.0.0.1', {port}), 5)")
        content, _ = await run(code, sandbox)
        server.setblocking(False)
        try:
            server.accept()[0].close()
            accepted = True
        except BlockingIOError:
            accepted = False
    if sandbox == "limited":
        assert (content, accepted) == ("ok\n", True), "limited mode: the network is open"
    else:
        assert content != "ok\n" and not accepted, content


@BWRAP_ONLY
async def test_sessions_and_config_are_hidden_under_bubblewrap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Only agentui's own directories hidden (not /tmp, where tmp_path is): each is hidden by
    # its own rule; a neighbour is there, but Landlock (where the kernel has it) refuses it.
    monkeypatch.setattr(bubblewrap, "SHARED_PLACES", ())
    for name in ("data", "config", "neighbour"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "secret.jsonl").write_text("session text")
    monkeypatch.setenv("AGENTUI_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("AGENTUI_CONFIG_DIR", str(tmp_path / "config"))
    code = "".join(
        attempt(f"open({str(tmp_path / name / 'secret.jsonl')!r}).read()")
        for name in ("data", "config", "neighbour")
    )
    content, _ = await run(code, "auto")
    neighbour = "PermissionError" if choose_sandbox().landlock else "ok"
    assert content.splitlines() == ["FileNotFoundError", "FileNotFoundError", neighbour]


def test_the_bubblewrap_command_hides_home_and_agentuis_directories(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("home", "data", "config", "state", "work"):
        (tmp_path / name).mkdir()
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("AGENTUI_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("AGENTUI_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("AGENTUI_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setattr(bubblewrap, "SHARED_PLACES", ())
    line = bubblewrap.command("bwrap", str(tmp_path / "work"), ["python"], executable="/x/python")
    tmpfs = {line[i + 1] for i, arg in enumerate(line) if arg == "--tmpfs"}
    assert tmpfs == {str(tmp_path / n) for n in ("home", "data", "config", "state")}
    for flag in ("--unshare-user", "--unshare-pid", "--unshare-net", "--die-with-parent"):
        assert flag in line
    work = str((tmp_path / "work").resolve())
    assert line[-7:] == ["--bind", work, work, "--chdir", work, "--", "python"]


def test_a_python_in_the_hidden_home_is_shown_again_read_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    venv = tmp_path / "home" / "venv"
    (venv / "bin").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    line = bubblewrap.command("bwrap", str(tmp_path), ["x"], executable=str(venv / "bin/python"))
    hidden_from = line.index("--tmpfs")
    # Shown again after the home is hidden (other Pythons, e.g. this run's own venv under a
    # hidden /tmp, may be shown again too).
    binds = [line[i : i + 3] for i in range(hidden_from, len(line)) if line[i] == "--ro-bind"]
    assert ["--ro-bind", str(venv), str(venv)] in binds


# -- what the code starts ------------------------------------------------------------------------

SLEEPER = (
    "import subprocess, sys\n"
    "p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)', {marker!r}],\n"
    "                     start_new_session=True)\n"
    "print('started', p.pid)\n"
)


@pytest.mark.parametrize("sandbox", SANDBOXES)
@pytest.mark.parametrize(
    "ending",
    [
        pytest.param("", id="returns"),
        pytest.param("sys.stdout.flush()\nimport os\nos._exit(0)\n", id="exits-at-once"),
    ],
)
async def test_a_sleeper_in_a_new_session_is_gone_after_the_tool(sandbox: str, ending: str) -> None:
    marker = new_marker()
    content, is_error = await run(SLEEPER.format(marker=marker) + ending, sandbox)
    assert not is_error and content.startswith("started "), content
    # SIGKILL was sent before the tool returned; the kernel finishes it a moment later.
    assert await until(lambda: not marked(marker)), "the sleeper outlived its tool"


def test_limited_mode_says_why() -> None:
    assert (
        choose_sandbox("limited")
        .describe()
        .startswith("sandbox: limited (limited by the python tool's settings): the code runs as ")
    )
    forced = choose_sandbox(environ={"AGENTUI_SANDBOX": "limited"})
    assert "(AGENTUI_SANDBOX=limited)" in forced.describe()
    wrong = choose_sandbox(environ={"AGENTUI_SANDBOX": "off"})
    assert wrong.problem and "must be auto, landlock or limited (got 'off')" in wrong.describe()


async def test_a_wrong_sandbox_setting_runs_nothing_and_says_so(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("AGENTUI_SANDBOX", "off")
    config = PythonToolConfig(needs_approval=False)
    call = Turn(tool_calls=[ScriptedToolCall(name="python", arguments={"code": "print(1)"})])
    provider = ScriptedProvider(Script(agents={"main": [call, Turn(text="done")]}))
    runtime = Runtime(provider, tools=ToolRegistry([python_tool(config)]), clock=FrozenClock())
    async with runtime:
        with anyio.fail_after(30):
            await runtime.wait(runtime.start("x"))
    (result,) = provider.requests[1].messages[-1].tool_results
    assert result.is_error
    assert result.content == (
        "sandbox: AGENTUI_SANDBOX must be auto, landlock or limited (got 'off'): python code will not run"
    )
