"""The sandbox's `ready`: said once by the child before the code runs. The code can write on
the same channel, so a second `ready` is refused, and the sandbox's user namespace is read
from /proc, not from the message. A tree that cannot be put in its cgroup (for root, the only
cap on its processes) runs no code, and says why."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.support import process_guard
from agentui.core.support.clock import FrozenClock
from agentui.core.tools import python, sandbox, sandbox_cgroup
from agentui.core.tools.python import PythonToolConfig, python_tool
from agentui.core.tools.registry import ToolRegistry
from agentui.core.tools.sandbox_mode import SandboxChoice, choose_sandbox

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux: /proc, namespaces"),
]

LANDLOCK = choose_sandbox("landlock")
NEEDS_LANDLOCK = pytest.mark.skipif(
    not LANDLOCK.landlock, reason=f"no Landlock sandbox here: {LANDLOCK.reason}"
)
# The channel is the closure of the api's functions; the code says `ready` again through it.
FORGES_READY = (
    "channel = fork.__closure__[0].cell_contents\n"
    "try:\n"
    "    channel.call('ready', user_namespace=12345)\n"
    "    print('forged: ok')\n"
    "except AgentError as exc:\n"
    "    print('forged:', exc)\n"
)


async def run(code: str, sandbox_setting: str) -> tuple[str, bool]:
    config = PythonToolConfig(needs_approval=False, timeout_s=20, cpu_s=20, sandbox=sandbox_setting)
    call = Turn(tool_calls=[ScriptedToolCall(name="python", arguments={"code": code})])
    provider = ScriptedProvider(Script(agents={"main": [call, Turn(text="done")]}))
    runtime = Runtime(provider, tools=ToolRegistry([python_tool(config)]), clock=FrozenClock())
    async with runtime:
        with anyio.fail_after(30):  # safety net only
            await runtime.wait(runtime.start("x"))
    (result,) = provider.requests[1].messages[-1].tool_results
    return result.content, result.is_error


@pytest.mark.parametrize(
    "setting", [pytest.param("landlock", marks=NEEDS_LANDLOCK), pytest.param("limited")]
)
async def test_a_second_ready_from_the_code_is_refused(
    setting: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    noted: list[tuple[int, int]] = []
    note = process_guard.note_namespace

    def spy(root: int, namespace: int) -> None:
        noted.append((root, namespace))
        note(root, namespace)

    monkeypatch.setattr(process_guard, "note_namespace", spy)
    content, is_error = await run(FORGES_READY, setting)
    assert (content, is_error) == ("forged: the sandbox is ready already\n", False)
    ((_, namespace),) = noted  # once, from /proc: never the code's word
    assert namespace != 12345
    if setting == "landlock":  # a user namespace of its own
        assert namespace not in (0, Path("/proc/self/ns/user").stat().st_ino)


def _with_cgroup(monkeypatch: pytest.MonkeyPatch, made: sandbox_cgroup.TreeCgroup | None) -> None:
    """The landlock sandbox as if it had measured a cgroup cap, and `made` as its cgroup."""
    assert LANDLOCK.protections is not None
    capped = dataclasses.replace(LANDLOCK.protections, process_cap="cgroup")
    choice = dataclasses.replace(LANDLOCK, protections=capped)

    def chosen(*_: Any, **__: Any) -> SandboxChoice:
        return choice

    monkeypatch.setattr(python, "choose_sandbox", chosen)
    monkeypatch.setattr(sandbox.sandbox_cgroup, "create", lambda *_: made)


@NEEDS_LANDLOCK
async def test_a_tree_that_cannot_be_put_in_its_cgroup_runs_no_code(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "cgroup.procs").mkdir()  # every move fails, as a refused one does
    _with_cgroup(monkeypatch, sandbox_cgroup.TreeCgroup(tmp_path, memory=False))
    content, is_error = await run("print('the code ran')", "landlock")
    assert is_error and "the code ran" not in content
    assert "[the sandbox could not be set up, so the code did not run: process " in content
    assert "cannot be put in" in content


@NEEDS_LANDLOCK
async def test_a_cgroup_that_cannot_be_made_runs_no_code(monkeypatch: pytest.MonkeyPatch) -> None:
    _with_cgroup(monkeypatch, None)
    content, is_error = await run("print('the code ran')", "landlock")
    assert is_error
    assert content == (
        "the sandbox could not be set up, so the code did not run: "
        "its cgroup (the cap on its processes) could not be made"
    )
