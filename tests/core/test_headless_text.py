"""`agentui run` in text mode: what a failed attempt looks like on stdout and stderr."""

from __future__ import annotations

import io

import pytest

from agentui.core.clock import FrozenClock
from agentui.core.headless import run_headless
from agentui.core.providers.script import Script, ScriptedError, Turn
from agentui.core.providers.scripted import ScriptedProvider
from agentui.core.runtime import Runtime

pytestmark = pytest.mark.anyio


async def test_a_failed_attempt_s_text_is_marked_cut_short_before_the_retry() -> None:
    script = Script.for_all(
        Turn(
            text="Half of a first try",
            error=ScriptedError(message="overloaded", retryable=True, after_chunks=2),
        ),
        Turn(text="The whole answer."),
    )

    def runtime() -> Runtime:
        return Runtime(ScriptedProvider(script), clock=FrozenClock())

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
    assert status == 0, stderr.getvalue()
    cut, answer = stdout.getvalue().split("\n[cut short]\n\n")
    assert cut and "Half of a first try".startswith(cut)
    assert answer.strip() == "The whole answer."
    assert "[a1] model: overloaded" in stderr.getvalue()
