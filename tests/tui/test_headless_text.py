"""`agentui run` in text mode: stdout holds the root's final answer and nothing else."""

from __future__ import annotations

import io

import pytest

from agentui.core.monologue.entry import NarrativeEntry, NarrativeMetadata
from agentui.core.protocol.events import (
    ExecutionCompleted,
    LLMAbandoned,
    LLMFailed,
    LLMResponded,
    MonologueGenerated,
    QueryRaised,
    TextDelta,
    ToolCallInfo,
    ToolCompleted,
    ToolStarted,
    parse_event,
)
from agentui.core.protocol.usage import Usage
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedError, ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.state import RunState
from agentui.core.support.clock import FrozenClock
from agentui.core.tools.ask_user import ASK_USER
from agentui.core.tools.python import PythonToolConfig, python_tool
from agentui.core.tools.registry import ToolRegistry
from agentui.core.tools.tool import Tool
from agentui.tui.headless.run import RESULT_PREVIEW_CHARS, HeadlessPrinter, run_headless


async def run_text(
    script: Script, tools: list[Tool] | None = None, answers: list[str] | None = None
) -> tuple[int, str, str]:
    def runtime() -> Runtime:
        registry = ToolRegistry(tools or [])
        return Runtime(ScriptedProvider(script), tools=registry, clock=FrozenClock())

    stdout, stderr = io.StringIO(), io.StringIO()
    status = await run_headless(
        runtime,
        "Answer",
        json_output=False,
        answers=list(answers or []),
        stdin=io.StringIO(""),
        stdout=stdout,
        stderr=stderr,
    )
    return status, stdout.getvalue(), stderr.getvalue()


@pytest.mark.anyio
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
    cut = stderr.split("[main] ", 1)[1].split(" [cut short]\n", 1)[0]
    assert cut and "Half of a first try".startswith(cut)
    assert "[main] model: overloaded" in stderr
    assert stderr.index("[cut short]") < stderr.index("model: overloaded")


@pytest.mark.anyio
async def test_a_given_answer_is_shown_after_its_prompt() -> None:
    """No terminal echoes an --answer: without it, the next line ran on after "> "."""
    ask = ScriptedToolCall(name="ask_user", arguments={"question": "Which city?"})
    script = Script.for_all(Turn(tool_calls=[ask]), Turn(text="Lisbon it is."))

    status, stdout, stderr = await run_text(script, [ASK_USER], answers=["Lisbon"])

    assert status == 0, stderr
    assert "question: Which city?\n> Lisbon\n" in stderr
    assert stdout == "Lisbon it is.\n"


@pytest.mark.anyio
async def test_text_before_a_tool_call_is_progress_not_answer() -> None:
    script = Script.for_all(
        Turn(text="Let me look that up.", tool_calls=[ScriptedToolCall(name="lookup")]),
        Turn(text="The port is 8080."),
    )

    status, stdout, stderr = await run_text(script)

    assert status == 0, stderr
    assert stdout == "The port is 8080.\n"
    assert "[main] Let me look that up.\n" in stderr
    assert stderr.index("Let me look that up.") < stderr.index("[main] tool lookup")
    assert "8080" not in stderr
    # No tool of that name here: its failure is said, not only that it was called.
    assert "[main] tool lookup failed: unknown tool" in stderr


@pytest.mark.anyio
async def test_the_python_tool_s_result_is_shown_on_stderr() -> None:
    """As the app's tool block shows it; stdout keeps the answer alone."""
    code = "print('sum is', 6 * 7)"
    script = Script.for_all(
        Turn(tool_calls=[ScriptedToolCall(name="python", arguments={"code": code})]),
        Turn(text="It is 42."),
    )
    quick = PythonToolConfig(needs_approval=False, timeout_s=30, sandbox="limited")

    status, stdout, stderr = await run_text(script, [python_tool(quick)])

    assert status == 0, stderr
    assert stdout == "It is 42.\n"
    assert "[main] tool python\n" in stderr
    assert "[main] tool python → sum is 42\n" in stderr


def test_a_long_tool_result_is_shown_on_one_line_cut_as_the_app_cuts_it() -> None:
    stdout, stderr = io.StringIO(), io.StringIO()
    printer = HeadlessPrinter(stdout, stderr, json_output=False, root_id="a1", state=RunState())
    result = "\n".join(f"row {n}" for n in range(100))

    printer.show(
        ToolCompleted(
            seq=1, ts=0.0, agent_id="a1", iteration=1, call_id="c1", name="python", result=result
        )
    )

    (line,) = stderr.getvalue().strip("\n").splitlines()
    preview = line.removeprefix("[a1] tool python → ")
    assert preview.startswith("row 0 row 1 row 2")
    assert len(preview) == RESULT_PREVIEW_CHARS and preview.endswith("…")
    assert stdout.getvalue() == ""


@pytest.mark.anyio
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


HOSTILE = "t\x1b]0;T\x07 c\x1b]52;c;aGk=\x07 b\x08 n\x00 r\rR \x9b \u202e"
SHOWN = "t␛]0;T␇ c␛]52;c;aGk=␇ b␈ n␀ r␍R \\x9b <U+202E>"


def test_every_string_the_printer_writes_shows_controls_visibly() -> None:
    stdout, stderr = io.StringIO(), io.StringIO()
    printer = HeadlessPrinter(stdout, stderr, json_output=False, root_id="a1", state=RunState())
    common = {"ts": 0.0, "agent_id": "a1"}
    metadata = NarrativeMetadata(
        event_count=1, history_length=0, is_final=False, model="m", latency_ms=0.0
    )
    entry = NarrativeEntry(
        timestamp=0.0, agent_name=f"n{HOSTILE}", task_id="a1", text=HOSTILE, metadata=metadata
    )
    call = ToolCallInfo(id="c1", name=f"tool{HOSTILE}", arguments={})
    for event in [
        TextDelta(seq=1, iteration=1, delta=f"cut {HOSTILE}", **common),
        LLMAbandoned(seq=2, iteration=1, reason=f"gone {HOSTILE}", **common),
        LLMResponded(
            seq=3,
            iteration=1,
            text=f"first {HOSTILE}",
            stop_reason="tool_use",
            tool_calls=[call],
            usage=Usage(),
            duration_s=0.0,
            **common,
        ),
        ToolStarted(seq=4, iteration=1, call=call, **common),
        ToolCompleted(
            seq=4, iteration=1, call_id="c1", name=call.name, result=f"done {HOSTILE}", **common
        ),
        QueryRaised(
            seq=5,
            query_id="q1",
            prompt=f"ok? {HOSTILE}",
            kind="approval",
            choices=["yes"],
            **common,
        ),
        QueryRaised(seq=6, query_id="q2", prompt=f"why? {HOSTILE}", kind="question", **common),
        MonologueGenerated(seq=7, entry=entry, usage=Usage(), **common),
        LLMFailed(seq=8, iteration=2, error=f"down {HOSTILE}", retryable=True, **common),
        ExecutionCompleted(
            seq=9,
            execution_id="e1",
            result=f"final {HOSTILE}",
            iterations=2,
            duration_s=0.0,
            **common,
        ),
    ]:
        printer.show(event)

    assert stdout.getvalue() == f"final {SHOWN}\n"
    err = stderr.getvalue()
    for shown in (
        f"[a1] cut {SHOWN} [cut short]\n",
        f"[a1] model: gone {SHOWN}\n",
        f"[a1] first {SHOWN}\n",
        f"[a1] tool tool{SHOWN}\n",
        f"[a1] tool tool{SHOWN} → done t␛]0;T␇ c␛]52;c;aGk=␇",
        f"[a1] approval: ok? {SHOWN}\n",
        f"[a1] question: why? {SHOWN}\n",
        f"[n{SHOWN}] {SHOWN}\n",
        f"[a1] model: down {SHOWN}\n",
    ):
        assert shown in err
    assert not {c for c in err if (ord(c) < 0x20 and c != "\n") or 0x7F <= ord(c) <= 0x9F}


def test_json_lines_keep_the_exact_strings() -> None:
    stdout, stderr = io.StringIO(), io.StringIO()
    printer = HeadlessPrinter(stdout, stderr, json_output=True, root_id="a1", state=RunState())
    printer.show(TextDelta(seq=1, ts=0.0, agent_id="a1", iteration=1, delta=HOSTILE))

    assert parse_event(stdout.getvalue()).delta == HOSTILE  # type: ignore[attr-defined]
    assert "\x1b" not in stdout.getvalue(), "JSON escapes control characters itself"
    assert stderr.getvalue() == ""
