"""`agentui run` in text mode: stdout holds the root's final answer and nothing else."""

from __future__ import annotations

import io

import pytest

from agentui.core.clock import FrozenClock
from agentui.core.headless import run_headless
from agentui.core.providers.script import Script, ScriptedError, ScriptedToolCall, Turn
from agentui.core.providers.scripted import ScriptedProvider
from agentui.core.runtime import Runtime
from agentui.core.tools.registry import ToolRegistry
from agentui.core.tools.tool import Tool

pytestmark = pytest.mark.anyio


async def run_text(script: Script, tools: list[Tool] | None = None) -> tuple[int, str, str]:
    def runtime() -> Runtime:
        registry = ToolRegistry(tools or [])
        return Runtime(ScriptedProvider(script), tools=registry, clock=FrozenClock())

    stdout, stderr = io.StringIO(), io.StringIO()
    status = await run_headless(
        runtime,
        "Answer",
        json_output=False,
        answers=[],
        stdin=io.StringIO(""),
        stdout=stdout,
        stderr=stderr,
    )
    return status, stdout.getvalue(), stderr.getvalue()


async def test_a_failed_attempt_s_text_is_marked_cut_short_on_stderr() -> None:
    script = Script.for_all(
        Turn(
            text="Half of a first try",
            error=ScriptedError(message="overloaded", retryable=True, after_chunks=2),
        ),
        Turn(text="The whole answer."),
    )

    status, stdout, stderr = await run_text(script)

    assert status == 0, stderr
    assert stdout == "The whole answer.\n"
    cut = stderr.split("[a1] ", 1)[1].split(" [cut short]\n", 1)[0]
    assert cut and "Half of a first try".startswith(cut)
    assert "[a1] model: overloaded" in stderr
    assert stderr.index("[cut short]") < stderr.index("model: overloaded")


async def test_text_before_a_tool_call_is_progress_not_answer() -> None:
    script = Script.for_all(
        Turn(text="Let me look that up.", tool_calls=[ScriptedToolCall(name="lookup")]),
        Turn(text="The port is 8080."),
    )

    status, stdout, stderr = await run_text(script)

    assert status == 0, stderr
    assert stdout == "The port is 8080.\n"
    assert "[a1] Let me look that up.\n" in stderr
    assert stderr.index("Let me look that up.") < stderr.index("[a1] tool lookup")
    assert "8080" not in stderr


async def test_a_root_that_fails_prints_nothing_on_stdout() -> None:
    script = Script.for_all(
        Turn(
            text="Working on it",
            error=ScriptedError(message="the model is down", retryable=False, after_chunks=1),
        )
    )

    status, stdout, stderr = await run_text(script)

    assert status == 1
    assert stdout == ""
    assert "[cut short]" in stderr
    assert "did not complete" in stderr
