"""The sandboxed Python tool with real subprocesses: output, limits, the scrubbed environment,
fork/wait/ask_user from the code, pause (SIGSTOP) and cancel (nothing left behind)."""

from __future__ import annotations

import os
import sys
from typing import Any

import anyio
import anyio.to_thread
import pytest

from agentui.core.agent.limits import Limits
from agentui.core.agent.pause_gate import PauseGate
from agentui.core.agent.tree import AgentStatus
from agentui.core.protocol.events import QueryRaised
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedError, ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock
from agentui.core.tools.active_time import ActiveTime
from agentui.core.tools.ask_user import ASK_USER
from agentui.core.tools.fork import FORK, WAIT
from agentui.core.tools.output_cap import OutputCap
from agentui.core.tools.python import PythonToolConfig, python_tool
from agentui.core.tools.registry import ToolRegistry
from agentui.core.tools.sandbox_mode import choose_sandbox

from ..processes import SANDBOXES, gone, marked, new_marker, parent, stopped, until
from .helpers import Recorder

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.skipif(sys.platform == "win32", reason="POSIX process groups and rlimits"),
]

S = AgentStatus
QUICK = PythonToolConfig(needs_approval=False, timeout_s=20, cpu_s=20, memory_mb=256)


def run_python(code: str) -> Turn:
    return Turn(tool_calls=[ScriptedToolCall(name="python", arguments={"code": code})])


def build(
    code: str,
    config: PythonToolConfig = QUICK,
    agents: dict[str, list[Turn]] | None = None,
    **options: Any,
) -> tuple[Runtime, ScriptedProvider]:
    script = Script(agents={"main": [run_python(code), Turn(text="done")], **(agents or {})})
    provider = ScriptedProvider(script)
    tools = ToolRegistry([ASK_USER, FORK, WAIT, python_tool(config)])
    return Runtime(provider, tools=tools, clock=FrozenClock(), **options), provider


def tool_result(provider: ScriptedProvider, agent_id: str = "a1") -> tuple[str, bool]:
    requests = [r for r in provider.requests if r.agent_id == agent_id]
    (result,) = requests[1].messages[-1].tool_results
    return result.content, result.is_error


async def run(code: str, config: PythonToolConfig = QUICK, **kwargs: Any) -> tuple[str, bool]:
    runtime, provider = build(code, config, **kwargs)
    async with runtime:
        root = runtime.start("Compute")
        with anyio.fail_after(30):  # safety net only
            await runtime.wait(root)
    return tool_result(provider)


# -- output ---------------------------------------------------------------------------------


async def test_output_and_the_value_of_a_final_expression() -> None:
    code = "import sys\nprint('to stdout')\nprint('to stderr', file=sys.stderr)\n6 * 7\n"
    assert await run(code) == ("to stdout\nto stderr\n42\n", False)


async def test_nothing_printed_says_so() -> None:
    assert await run("x = 1") == ("(the code ran and printed nothing)", False)


async def test_an_exception_shows_the_codes_own_traceback() -> None:
    content, is_error = await run("x = 1\n1 / x\nprint(1 / 0)\n")
    assert is_error
    assert 'File "main.py", line 3' in content
    assert "ZeroDivisionError: division by zero" in content
    assert content.endswith("[exit code 1]")
    assert "sandbox_child" not in content and "<string>" not in content


async def test_a_syntax_error_is_reported() -> None:
    content, is_error = await run("def broken(:\n")
    assert is_error and "SyntaxError" in content and content.endswith("[exit code 1]")


async def test_long_output_is_cut_and_says_so() -> None:
    config = QUICK.model_copy(update={"max_output_bytes": 1000})
    content, is_error = await run("print('a' * 30000)\nprint('the end')", config)
    assert not is_error
    assert "[output cut: " in content and "bytes in the middle were not shown]" in content
    assert content.startswith("a" * 600) and content.rstrip().endswith("the end")
    assert len(content) < 1200


# -- the sandbox -----------------------------------------------------------------------------


async def test_the_environment_is_scrubbed_and_the_directory_fresh(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-secret")
    monkeypatch.setenv("SOME_TOKEN", "t0ken")
    code = (
        "import os\n"
        "print(os.environ.get('ANTHROPIC_API_KEY'))\n"
        "print(sorted(os.environ))\n"
        "print(os.getcwd())\n"
        "print(os.listdir('.'))\n"
    )
    content, is_error = await run(code)
    assert not is_error
    key, names, cwd, listing = content.splitlines()
    assert key == "None"
    assert "sk-ant-test-secret" not in content and "t0ken" not in content
    allowed = {"PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "HOME", "TMPDIR", "PWD"}  # bwrap: PWD
    allowed |= {"OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"}
    assert set(eval(names)) <= allowed
    assert os.path.basename(cwd).startswith("agentui-python-")
    assert eval(listing) == ["main.py"]
    assert not os.path.exists(cwd), "the working directory is removed afterwards"


async def test_an_infinite_loop_is_killed_at_the_timeout() -> None:
    config = QUICK.model_copy(update={"timeout_s": 1.0})
    content, is_error = await run("print('spinning', flush=True)\nwhile True:\n    pass\n", config)
    assert is_error
    assert content == "spinning\n[stopped: the code ran longer than its time limit of 1 s]"


async def test_the_cpu_limit_stops_a_busy_process() -> None:
    config = QUICK.model_copy(update={"cpu_s": 1})
    content, is_error = await run("while True:\n    pass\n", config)
    assert is_error
    assert content == "[stopped: the code used up its CPU time limit of 1 s]"


async def test_a_memory_hog_is_stopped_by_the_limit() -> None:
    config = QUICK.model_copy(update={"memory_mb": 128})
    code = "hoard = []\nwhile True:\n    hoard.append(bytearray(10_000_000))\n"
    content, is_error = await run(code, config)
    assert is_error
    assert "MemoryError" in content
    assert content.endswith("[the code ran out of memory: its limit is 128 MB]")


# -- fork, wait and ask_user from the code ---------------------------------------------------


async def test_fork_and_wait_from_python() -> None:
    code = (
        "handles = [fork('Count apples'), fork('Count pears')]\n"
        "print(handles)\n"
        "print([wait(h) for h in handles])\n"
    )
    agents = {"main.1": [Turn(text="3 apples")], "main.2": [Turn(text="5 pears")]}
    runtime, provider = build(code, agents=agents)
    async with runtime:
        root = runtime.start("Count fruit")
        with anyio.fail_after(30):
            await runtime.wait(root)
    assert tool_result(provider) == ("['a2', 'a3']\n['3 apples', '5 pears']\n", False)
    children = [runtime.node(c) for c in runtime.node(root).children]
    assert [(c.task, c.status) for c in children] == [
        ("Count apples", S.COMPLETED),
        ("Count pears", S.COMPLETED),
    ]


async def test_wait_raises_agent_error_for_a_failed_subagent() -> None:
    code = (
        "h = fork('Try')\ntry:\n    wait(h)\nexcept AgentError as exc:\n    print('caught:', exc)\n"
    )
    agents = {"main.1": [Turn(error=ScriptedError(message="overloaded"))]}
    content, is_error = await run(code, agents=agents)
    assert (content, is_error) == ("caught: subagent main.1 (a2) failed: overloaded\n", False)


async def test_a_refused_fork_raises_agent_error() -> None:
    code = (
        "from agentui import fork\n"
        "try:\n"
        "    fork('one too many')\n"
        "except AgentError as exc:\n"
        "    print('refused:', exc)\n"
    )
    content, _ = await run(code, limits=Limits(max_live_children=0))
    assert content == (
        "refused: cannot fork: main already has 0 running subagents, the limit; "
        "wait for one to finish first\n"
    )


@pytest.mark.parametrize("answer", ["blue", None])
async def test_ask_user_from_python(answer: str | None) -> None:
    runtime, provider = build("print(repr(ask_user('Favourite colour?')))")
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("x")
        (raised,) = await recorder.wait_for(lambda e: isinstance(e, QueryRaised))
        assert raised.prompt == "Favourite colour?" and raised.kind == "question"  # type: ignore[attr-defined]
        assert runtime.node(root).status is S.AWAITING_USER
        runtime.answer(raised.query_id, answer)  # type: ignore[attr-defined]
        with anyio.fail_after(30):
            await runtime.wait(root)
    assert tool_result(provider) == (f"{answer!r}\n", False)


async def test_the_python_tool_asks_for_approval_by_default() -> None:
    runtime, provider = build("print('approved')", PythonToolConfig())
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("x")
        (raised,) = await recorder.wait_for(
            lambda e: isinstance(e, QueryRaised) and e.kind == "approval"
        )
        said = choose_sandbox().summary()  # what it blocks here, whichever sandbox it is
        assert raised.prompt == f"Allow python to run?\n{said}\nprint('approved')"  # type: ignore[attr-defined]
        runtime.approve(raised.query_id, "once")  # type: ignore[attr-defined]
        with anyio.fail_after(30):
            await runtime.wait(root)
    assert tool_result(provider) == ("approved\n", False)


# -- pause and cancel ------------------------------------------------------------------------

# The code starts a child in a session of its own (out of its process group), marked so the
# test finds it from outside (under bubblewrap the pids the code sees are not ours), then asks.
STARTS_A_CHILD = (
    "import subprocess, sys\n"
    "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)', {marker!r}],\n"
    "                         start_new_session=True)\n"
    "ask_user('started')\n"
    "print('after the question')\n"
)


async def _started(recorder: Recorder, marker: str) -> tuple[str, list[int]]:
    """The question's id, and the pids (ours) of the code's process and of its child."""
    (raised,) = await recorder.wait_for(lambda e: isinstance(e, QueryRaised))
    assert isinstance(raised, QueryRaised) and raised.prompt == "started"
    # Popen returns once exec has begun; the command line shows a moment later.
    assert await until(lambda: bool(marked(marker)))
    (child,) = marked(marker)
    return raised.query_id, [parent(child), child]


@pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="needs pidfd_open (Linux)")
@pytest.mark.parametrize("sandbox", SANDBOXES)
@pytest.mark.parametrize("command", ["cancel", "delete"])
async def test_stopping_the_agent_kills_the_process_and_its_children(
    command: str, sandbox: str
) -> None:
    marker = new_marker()
    config = QUICK.model_copy(update={"sandbox": sandbox})
    runtime, _ = build(STARTS_A_CHILD.format(marker=marker), config)
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("x")
        _, pids = await _started(recorder, marker)
        pidfds = [os.pidfd_open(pid) for pid in pids]
        try:
            getattr(runtime, command)(root)
            with anyio.fail_after(10):  # safety net only: exits are events on the pidfds
                await runtime.wait(root)
                for fd in pidfds:
                    await anyio.wait_readable(fd)
        finally:
            for fd in pidfds:
                os.close(fd)
    assert all(gone(pid) for pid in pids), "no process outlives its agent"
    assert runtime.node(root).status is (S.CANCELLED if command == "cancel" else S.DELETED)


@pytest.mark.parametrize("sandbox", SANDBOXES)
async def test_pausing_the_agent_stops_the_process_and_its_children_until_resume(
    sandbox: str,
) -> None:
    marker = new_marker()
    config = QUICK.model_copy(update={"sandbox": sandbox})
    runtime, provider = build(STARTS_A_CHILD.format(marker=marker), config)
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("x")
        query_id, pids = await _started(recorder, marker)
        runtime.pause(root)
        # The kernel announces a stop only to the parent: look, until a deadline.
        assert await until(lambda: all(stopped(pid) for pid in pids)), "all of it stops"
        runtime.resume(root)
        assert await until(lambda: not any(stopped(pid) for pid in pids)), "and goes on"
        runtime.answer(query_id, "go on")
        with anyio.fail_after(30):
            await runtime.wait(root)
    assert tool_result(provider) == ("after the question\n", False)
    assert runtime.node(root).status is S.COMPLETED
    assert await until(lambda: all(gone(pid) for pid in pids)), "the child went with the run"


# -- the pieces ------------------------------------------------------------------------------


def test_active_time_stands_still_while_suspended() -> None:
    now = [0.0]
    clock = ActiveTime(lambda: now[0])
    now[0] = 2.0
    assert clock.elapsed() == 2.0
    clock.suspend()  # paused
    now[0] = 10.0
    clock.suspend()  # and a request in service
    clock.resume()
    assert clock.elapsed() == 2.0 and not clock.running
    clock.resume()
    now[0] = 11.5
    assert clock.elapsed() == 3.5 and clock.running
    with pytest.raises(RuntimeError):
        clock.resume()


def test_output_cap_keeps_head_and_tail() -> None:
    cap = OutputCap(30)
    cap.feed(b"0123456789" * 3)
    assert cap.text() == "0123456789" * 3 and cap.dropped == 0
    cap.feed(b"abcdefghij")
    assert cap.dropped == 10
    assert cap.text() == (
        "01234567890123456789\n[output cut: 10 bytes in the middle were not shown]\nabcdefghij"
    )


async def test_pause_listeners_hear_pause_and_resume() -> None:
    gate = PauseGate()
    heard: list[bool] = []
    assert gate.close()
    stop = gate.watch(heard.append)
    assert heard == [True], "told at once when already paused"
    assert not gate.close()  # already paused: nothing new
    assert gate.open()
    assert not gate.open()
    gate.close()
    stop()
    gate.open()
    assert heard == [True, False, True]
