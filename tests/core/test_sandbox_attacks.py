"""The attacks of issue 30, run for real against the python tool in each sandbox mode, as the
user the tests run as (root in CI) and as a normal user (through runuser, where there is one).

Each mode's attacks run in a driver process that plays agentui (a Runtime with the python tool
and a scripted model), so an attack that escaped hurts the driver, not the test run: the
driver reports what the code printed and what it saw on its side (a file written, a
connection accepted, its own signal received, processes left behind).

Nothing that would harm the machine runs where nothing stops it: in limited mode as root the
mount attacks are not run at all (they unmount the host's /proc: seen), and as root they run
only when the measured sandbox has no capability left. Signals that would reach more than the
driver if they escaped (kill(-1), SIGSTOP) are sent for real only where a pid namespace or
Landlock's scoping holds them, else as signal 0 (the permission check alone). The fork bomb
is bounded by the sandbox's cap; in limited mode, where there is none, 200 children are tried.
"""

from __future__ import annotations

import json
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agentui.core.tools.sandbox_mode import NO_CAPABILITIES, choose_sandbox

from .sandbox_attempts import attempt

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux sandboxes")

MAX_PROCESSES = 12
MEMORY_MB = 128
DRIVER_TIMEOUT_S = 120.0  # safety net only

DRIVER = r"""
import json, os, signal, socket, sys, time
from pathlib import Path
setup = json.loads(sys.argv[1])
for site in setup["sites"]:
    import site as _site
    _site.addsitedir(site)
import anyio
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock
from agentui.core.support.process_tree import descendants
from agentui.core.tools.python import PythonToolConfig, python_tool
from agentui.core.tools.registry import ToolRegistry
from agentui.core.tools.sandbox_mode import NO_CAPABILITIES, choose_sandbox

heard = []
for signum in (signal.SIGURG, signal.SIGUSR1):
    signal.signal(signum, lambda n, _: heard.append(signal.Signals(n).name))
server = socket.create_server(("127.0.0.1", 0))
server.setblocking(False)
local = socket.socket(socket.AF_UNIX)  # like tmux's or docker's: root's, in /tmp or /run
local.bind(setup["values"]["unix"])
local.listen()
local.setblocking(False)
values = dict(setup["values"], agentui=os.getpid(), port=server.getsockname()[1])
config = PythonToolConfig(
    needs_approval=False, timeout_s=20, cpu_s=10, memory_mb=setup["memory_mb"],
    max_processes=setup["max_processes"], sandbox=setup["sandbox"], executable=sys.executable,
)

async def call(code):
    turn = Turn(tool_calls=[ScriptedToolCall(name="python", arguments={"code": code})])
    provider = ScriptedProvider(Script(agents={"main": [turn, Turn(text="done")]}))
    runtime = Runtime(provider, tools=ToolRegistry([python_tool(config)]), clock=FrozenClock())
    async with runtime:
        with anyio.fail_after(60):
            await runtime.wait(runtime.start("attack"))
    (result,) = provider.requests[1].messages[-1].tool_results
    return result.content, result.is_error

async def main():
    choice = choose_sandbox(setup["sandbox"])
    found = choice.protections
    results = {"mode": choice.mode, "describe": choice.describe(), "attacks": {}}
    results["process_cap"] = found.process_cap if found is not None else ""
    for name, code in setup["attacks"].items():
        if name in setup["capped_only"] and not results["process_cap"]:
            continue  # unbounded here: a real fork bomb
        heard.clear()
        began = time.monotonic()
        content, is_error = await call(code.format(**values))
        took = time.monotonic() - began
        print(name, round(took, 2), file=sys.stderr, flush=True)  # where a hang is
        # The tool waits for what it killed to end; a safety net, should one linger.
        with anyio.move_on_after(60):
            while descendants(os.getpid()):
                await anyio.sleep(0.02)
        accepted = False
        for listening in (server, local):
            try:
                listening.accept()[0].close()
                accepted = True
            except BlockingIOError:
                pass
        results["attacks"][name] = {
            "output": content, "error": is_error, "heard": list(heard), "accepted": accepted,
            "left": len(descendants(os.getpid())), "took": round(took, 2),
        }
    print(json.dumps(results))

anyio.run(main)
"""

LIBC = "import ctypes, os, signal\nl = ctypes.CDLL(None, use_errno=True)\n"


def _call(label: str, call: str) -> str:
    """Code that prints `label: ok` if the libc call returns 0, else `label: <errno name>`."""
    return (
        f"r = {call}\n"
        f"print('{label}:', 'ok' if r == 0 else __import__('errno').errorcode[ctypes.get_errno()])\n"
    )


PTRACE_MEMORY = attempt(
    "open /proc/agentui/mem", "os.close(os.open('/proc/{agentui}/mem', os.O_RDONLY))"
)
ATTACKS = {
    # The repro: unmount /tmp, remount / read-write, write a file in the home.
    "repro": LIBC
    + _call("umount2 /tmp", 'l.umount2(b"/tmp", 2)')
    + _call("remount /", 'l.mount(b"none", b"/", None, 32 | 4096, None)')
    + attempt("write PWNED", "open({pwned!r}, 'w').write('x')"),
    "umount2 /proc": LIBC + _call("umount2 /proc", 'l.umount2(b"/proc", 2)'),
    # PTRACE_SEIZE where a sandbox should hold (a seized agentui stops at its next signal, so
    # not where nothing holds it); opening its memory asks the same permission, harmlessly.
    "ptrace agentui": LIBC + PTRACE_MEMORY,
    "signal agentui": LIBC
    + attempt("kill(agentui, 0)", "os.kill({agentui}, 0)")
    + attempt("SIGUSR1 to agentui", "os.kill({agentui}, signal.SIGUSR1)")
    + attempt("kill(getppid(), SIGUSR1)", "os.kill(os.getppid() or {agentui}, signal.SIGUSR1)"),
    "kill(-1)": LIBC + attempt("kill(-1)", "os.kill(-1, {kill_all})"),
    "SIGSTOP agentui": LIBC + attempt("SIGSTOP", "os.kill({agentui}, {stop})"),
    "tcp 127.0.0.1": attempt(
        "connect", "__import__('socket').create_connection(('127.0.0.1', {port}), 5)"
    ),
    "unix socket": attempt(
        "connect", "__import__('socket').socket(__import__('socket').AF_UNIX).connect({unix!r})"
    ),
    "read a session": attempt("read", "print(open({secret!r}).read())"),
    "read /proc of agentui": attempt("read", "open('/proc/{agentui}/cmdline', 'rb').read()"),
    "write outside": attempt("write", "open({outside!r}, 'w').write('out')")
    + attempt("write inside", "open('inside.txt', 'w').write('in')"),
    "fork bomb": (
        "import os, time\n"
        "made = 0\n"
        "try:\n"
        "    for i in range({forks}):\n"
        "        if os.fork() == 0:\n"
        "            time.sleep(60)\n"
        "            os._exit(0)\n"
        "        made += 1\n"
        "finally:\n"
        "    print('children:', made, flush=True)\n"
    ),
    "memory of children": (
        "import os\n"
        "grown = 0\n"
        "for i in range(5):\n"
        "    pid = os.fork()\n"
        "    if pid == 0:\n"
        "        try:\n"
        "            block = bytearray(300 << 20)\n"
        "            os._exit(0)\n"
        "        except MemoryError:\n"
        "            os._exit(1)\n"
        "    grown += os.waitpid(pid, 0)[1] == 0\n"
        "print('children with 300 MB:', grown)\n"
    ),
}
# The exponential fork bomb, only where a cap bounds it.
BOMB = "import os\nfor i in range(2000):\n    os.fork()\n"
SEIZE = _call("ptrace", "l.ptrace(0x4206, {agentui}, None, None)")
# Attacks on the machine's mounts: run only where the sandbox measured no capability left.
MOUNTS = ("repro", "umount2 /proc")
NOT_RUN = "print('not run: nothing here would stop it')\n"


def _runnable_by(user: pwd.struct_passwd, path: Path) -> bool:
    probe = subprocess.run(
        ["runuser", "-u", user.pw_name, "--", "test", "-r", str(path)], check=False
    )
    return probe.returncode == 0


def _normal_user() -> tuple[pwd.struct_passwd | None, str, str]:
    """A user to run as (tester, else nobody), an interpreter it can run with agentui's site
    packages, and why not when there is none."""
    if os.geteuid() != 0:
        return None, "", "not root: cannot switch to another user"
    if shutil.which("runuser") is None:
        return None, "", "no runuser"
    for name in ("tester", "nobody"):
        try:
            user = pwd.getpwnam(name)
        except KeyError:
            continue
        for python in (sys.executable, os.path.realpath(sys.executable), "/usr/bin/python3"):
            version = subprocess.run(
                [
                    "runuser",
                    "-u",
                    name,
                    "--",
                    python,
                    "-c",
                    "import sys; print(sys.version_info[:2])",
                ],
                capture_output=True,
                text=True,
                check=False,
            )
            if version.stdout.strip() == str(sys.version_info[:2]) and all(
                _runnable_by(user, Path(site)) for site in _sites()
            ):
                return user, python, ""
        return None, "", f"user {name} cannot run a Python {sys.version_info[:2]} with agentui"
    return None, "", "no normal user (tester or nobody)"


def _sites() -> list[str]:
    """Where agentui's dependencies are installed (agentui itself, editable, is found through
    a .pth file there)."""
    import landlockpy
    import pydantic

    return sorted({str(Path(m.__file__ or "").parent.parent) for m in (pydantic, landlockpy)})


@pytest.fixture(scope="module")
def scratch() -> Iterator[Path]:
    """A directory both users can use (the session, the outside target, the homes)."""
    path = Path(tempfile.mkdtemp(prefix="agentui-attacks-"))
    path.chmod(0o777)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def drive(
    sandbox: str, scratch: Path, user: pwd.struct_passwd | None, python: str
) -> dict[str, Any]:
    name = user.pw_name if user else "self"
    place = scratch / f"{sandbox}-{name}"
    for sub in ("home", "data/sessions", "outside"):
        (place / sub).mkdir(parents=True, exist_ok=True)
    secret = place / "data/sessions/secret.jsonl"
    secret.write_text("session text")
    if user is not None:
        for path in [place, *place.rglob("*")]:
            os.chown(path, user.pw_uid, user.pw_gid)
    choice = choose_sandbox(sandbox)
    found = choice.protections
    held = found is not None and (found.namespaces or "signal" in found.scoped)
    pwned = (Path(user.pw_dir) if user else Path.home()) / "PWNED"
    values = {
        "pwned": str(pwned),
        "secret": str(secret),
        "outside": str(place / "outside/escaped.txt"),
        "unix": str(place / "outside/server.sock"),
        # Signals for real only where a pid namespace or Landlock's scoping holds them.
        "kill_all": "signal.SIGKILL" if held else "0",
        "stop": "signal.SIGSTOP" if held else "0",
        "forks": 200,
    }
    attacks = dict(ATTACKS)
    if held:
        attacks["ptrace agentui"] = LIBC + SEIZE + PTRACE_MEMORY
    if choice.mode != "limited":
        attacks["fork bomb (exponential)"] = BOMB
    powerless = found is not None and found.capabilities == NO_CAPABILITIES
    if user is None and os.geteuid() == 0 and not powerless:
        attacks.update(dict.fromkeys(MOUNTS, NOT_RUN))
    setup = {
        "sites": _sites() if user else [],
        "values": values,
        "attacks": attacks,
        "capped_only": ["fork bomb (exponential)"],
        "sandbox": sandbox,
        "memory_mb": MEMORY_MB,
        "max_processes": MAX_PROCESSES,
    }
    env = {
        "PATH": os.environ.get("PATH", os.defpath),
        "HOME": str(place / "home"),
        "AGENTUI_DATA_DIR": str(place / "data"),
        "AGENTUI_CONFIG_DIR": str(place / "home"),
        "AGENTUI_STATE_DIR": str(place / "home"),
    }
    argv = [python, "-c", DRIVER, json.dumps(setup)]
    if user is not None:
        argv = ["runuser", "-u", user.pw_name, "--", *argv]
    existed = pwned.exists()
    done = subprocess.run(
        argv, capture_output=True, text=True, env=env, timeout=DRIVER_TIMEOUT_S, check=False
    )
    assert done.returncode == 0, f"the driver (agentui) died: {done.returncode}\n{done.stderr}"
    results: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    results["pwned"] = pwned.exists() and not existed
    if results["pwned"]:
        pwned.unlink()
    results["written outside"] = (place / "outside/escaped.txt").exists()
    return results


def lines(result: dict[str, Any]) -> dict[str, str]:
    """`label: outcome` lines of the code's output, as a dict."""
    found = {}
    for line in result["output"].splitlines():
        label, sep, outcome = line.partition(": ")
        if sep:
            found[label] = outcome
    return found


def check_contained(results: dict[str, Any]) -> None:
    attacks = results["attacks"]
    repro = lines(attacks["repro"])
    assert repro["umount2 /tmp"] != "ok" and repro["remount /"] != "ok", repro
    assert not results["pwned"], "the issue's repro wrote PWNED on the host"
    assert lines(attacks["umount2 /proc"])["umount2 /proc"] != "ok"
    assert set(lines(attacks["ptrace agentui"]).values()) & {"ok"} == set(), attacks[
        "ptrace agentui"
    ]
    signals = attacks["signal agentui"]
    said = lines(signals)  # its parent is the sandbox's own, except in the landlock mode
    assert said["kill(agentui, 0)"] != "ok" and said["SIGUSR1 to agentui"] != "ok", signals
    assert not signals["heard"], "a signal reached agentui"
    assert not attacks["kill(-1)"]["heard"], "kill(-1) reached agentui"
    assert lines(attacks["SIGSTOP agentui"])["SIGSTOP"] != "ok"
    tcp = attacks["tcp 127.0.0.1"]
    assert lines(tcp)["connect"] != "ok" and not tcp["accepted"], tcp
    unix = attacks["unix socket"]
    assert lines(unix)["connect"] != "ok" and not unix["accepted"], unix
    assert lines(attacks["read a session"])["read"] != "ok"
    assert lines(attacks["read /proc of agentui"])["read"] != "ok"
    written = lines(attacks["write outside"])
    assert written["write inside"] == "ok", "its own directory is writable"
    assert written["write"] != "ok" and not results["written outside"], written
    assert lines(attacks["memory of children"])["children with 300 MB"] == "0"
    for name, attack in attacks.items():
        assert attack["left"] == 0, f"{name}: {attack['left']} processes left"
    if not results["process_cap"]:  # none here (root without a cgroup): said, and not tried
        assert (
            "missing here: " in results["describe"] and "a cap on processes" in results["describe"]
        )
        return
    bomb = attacks["fork bomb"]
    children = int(lines(bomb)["children"])
    assert children < MAX_PROCESSES, bomb
    assert bomb["error"] and f"limit of {MAX_PROCESSES} processes" in bomb["output"], bomb
    exponential = attacks["fork bomb (exponential)"]
    assert exponential["error"] and f"limit of {MAX_PROCESSES} processes" in exponential["output"]
    assert not exponential["output"].count("\n") > 200, "a traceback or two, not one a process"


def check_limited(results: dict[str, Any]) -> None:
    """Limited mode is the person's own rights: what docs/guide/sandbox.md says it does not block."""
    attacks = results["attacks"]
    assert lines(attacks["tcp 127.0.0.1"])["connect"] == "ok"
    assert lines(attacks["unix socket"])["connect"] == "ok"
    assert lines(attacks["read a session"])["read"] == "ok"
    assert results["written outside"]
    assert int(lines(attacks["fork bomb"])["children"]) == 200, "no cap on processes"
    assert lines(attacks["memory of children"])["children with 300 MB"] == "0", "per process"
    for name, attack in attacks.items():
        assert attack["left"] == 0, f"{name}: {attack['left']} processes left"


SANDBOXED = ["auto", "landlock"]


def _skip_unless_sandboxed(sandbox: str) -> None:
    choice = choose_sandbox(sandbox)
    if sandbox == "auto" and choice.bwrap is None:
        pytest.skip(f"no bubblewrap sandbox here: {choice.reason}")
    if choice.protections is None or not choice.landlock:
        pytest.skip(f"no Landlock sandbox here: {choice.reason}")


@pytest.mark.parametrize("sandbox", SANDBOXED, ids=["bubblewrap+landlock", "landlock"])
def test_the_attacks_fail_as_this_user(sandbox: str, scratch: Path) -> None:
    _skip_unless_sandboxed(sandbox)
    check_contained(drive(sandbox, scratch, None, sys.executable))


@pytest.mark.parametrize("sandbox", SANDBOXED, ids=["bubblewrap+landlock", "landlock"])
def test_the_attacks_fail_as_a_normal_user(sandbox: str, scratch: Path) -> None:
    _skip_unless_sandboxed(sandbox)
    user, python, why_not = _normal_user()
    if user is None:
        pytest.skip(why_not)
    check_contained(drive(sandbox, scratch, user, python))


def test_limited_mode_is_what_it_says(scratch: Path) -> None:
    check_limited(drive("limited", scratch, None, sys.executable))
