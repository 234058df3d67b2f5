"""`agentui run` answering a tool approval from stdin as a pipe: `reject: REASON` on one line,
or a bare `reject` and the reason on the next line; the prompt says both."""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

import anyio
import pytest

from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock
from agentui.core.tools.ask_user import ASK_USER
from agentui.core.tools.registry import ToolRegistry
from agentui.core.tools.tool import tool
from agentui.tui.headless.answers import APPROVAL_HINT, REASON_PROMPT, Answers, asks_for_reason
from agentui.tui.headless.run import run_headless

DEPLOY = ScriptedToolCall(name="deploy", arguments={"target": "prod"})


@tool(needs_approval=True)
async def deploy(target: str) -> str:
    """Deploy to a target."""
    return f"deployed to {target}"


@contextmanager
def piped(text: str) -> Iterator[TextIO]:
    """A real pipe holding `text`, its writing end closed: what `echo ... | agentui run` gives."""
    read_fd, write_fd = os.pipe()
    with os.fdopen(write_fd, "w", encoding="utf-8") as writer:
        writer.write(text)  # small: fits in the pipe's buffer, so no reader is needed yet
    with os.fdopen(read_fd, encoding="utf-8") as reader:
        yield reader


async def run_piped(stdin_text: str, *calls: ScriptedToolCall) -> tuple[str, str, list[str]]:
    """Run a task whose model calls `calls` one per turn; stdout, stderr and each tool call's
    outcome as the model read it."""
    turns = [Turn(tool_calls=[call]) for call in calls]
    provider = ScriptedProvider(Script.for_all(*turns, Turn(text="Done.")))

    def runtime() -> Runtime:
        return Runtime(provider, tools=ToolRegistry([deploy]), clock=FrozenClock())

    stdout, stderr = io.StringIO(), io.StringIO()
    with piped(stdin_text) as stdin:
        status = await run_headless(
            runtime,
            "Ship it",
            json_output=False,
            answers=[],
            stdin=stdin,
            stdout=stdout,
            stderr=stderr,
        )
    assert status == 0, stderr.getvalue()
    outcomes = [
        block.content
        for message in provider.requests[-1].messages
        for block in message.tool_results
    ]
    return stdout.getvalue(), stderr.getvalue(), outcomes


@pytest.mark.anyio
async def test_the_approval_prompt_shows_the_reject_syntax() -> None:
    _, stderr, _ = await run_piped("once\n", DEPLOY)

    assert f"{APPROVAL_HINT}\n> once\n" in stderr
    assert "reject: REASON" in APPROVAL_HINT


@pytest.mark.anyio
async def test_a_reason_on_the_reject_line_goes_to_the_model() -> None:
    _, _, outcomes = await run_piped("reject: not on a Friday\n", DEPLOY)

    assert outcomes == ["the person rejected the call: not on a Friday"]


@pytest.mark.anyio
async def test_a_bare_reject_takes_the_reason_from_the_next_line() -> None:
    _, stderr, outcomes = await run_piped("reject\nnot on a Friday\n", DEPLOY)

    assert outcomes == ["the person rejected the call: not on a Friday"]
    assert f"> reject\n{REASON_PROMPT}not on a Friday\n" in stderr


@pytest.mark.anyio
async def test_an_empty_reason_line_rejects_without_a_reason() -> None:
    """The line after the empty one answers the next approval: nothing is lost or shifted."""
    _, _, outcomes = await run_piped("reject\n\nonce\n", DEPLOY, DEPLOY)

    assert outcomes == ["the person rejected the call: no reason given", "deployed to prod"]


@pytest.mark.anyio
async def test_stdin_ending_after_a_bare_reject_rejects_without_a_reason() -> None:
    _, stderr, outcomes = await run_piped("reject\n", DEPLOY)

    assert outcomes == ["the person rejected the call: no reason given"]
    assert "stdin has ended: rejected without a reason" in stderr


async def run_asking(provider: ScriptedProvider, stdin: TextIO, stderr: TextIO) -> int:
    """`agentui run` of a task whose model may ask the person (ask_user), reading `stdin`."""
    return await run_headless(
        lambda: Runtime(provider, tools=ToolRegistry([ASK_USER]), clock=FrozenClock()),
        "Plan a trip",
        json_output=False,
        answers=[],
        stdin=stdin,
        stdout=io.StringIO(),
        stderr=stderr,
    )


@pytest.mark.anyio
async def test_a_bare_reject_as_an_answer_to_a_question_is_just_its_answer() -> None:
    """Only an approval asks for a reason; a question's answer is the line itself."""
    ask = ScriptedToolCall(name="ask_user", arguments={"question": "Which word?"})
    provider = ScriptedProvider(Script.for_all(Turn(tool_calls=[ask]), Turn(text="Done.")))
    stderr = io.StringIO()
    with piped("reject\nnext line\n") as stdin:
        status = await run_asking(provider, stdin, stderr)
    assert status == 0, stderr.getvalue()
    assert REASON_PROMPT not in stderr.getvalue()
    (outcome,) = [b.content for m in provider.requests[-1].messages for b in m.tool_results]
    assert "reject" in outcome and "next line" not in outcome


@pytest.mark.parametrize(
    ("line", "asks"),
    [
        ("reject", True),
        ("  Reject: ", True),
        ("reject: too risky", False),
        ("no", False),  # a rejection without a reason, as the person chose
        ("once", False),
    ],
)
def test_which_lines_ask_for_a_reason(line: str, asks: bool) -> None:
    assert asks_for_reason(line) is asks


@pytest.mark.anyio
@pytest.mark.parametrize("reader_starts", ["as scheduled", "after the steer"])
async def test_a_steer_line_while_a_question_waits_shows_its_prompt_again(
    reader_starts: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The steer is said on its own line: the `> ` after it says the question still waits.

    Whether the answer's reader has started when the steer line comes was up to the scheduler,
    and a reader not started yet gave no `> ` back (it failed about 1 run in 3): the second
    case holds the reader back until the steer has been said, so that order is always tried."""
    steer_said = anyio.Event()
    read = Answers.read

    async def read_in_order(self: Answers, *args: object, **kwargs: object) -> str | None:
        if reader_starts == "after the steer":
            await steer_said.wait()
        return await read(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Answers, "read", read_in_order)
    ask = ScriptedToolCall(name="ask_user", arguments={"question": "Which city?"})
    provider = ScriptedProvider(Script.for_all(Turn(tool_calls=[ask]), Turn(text="Done.")))
    stderr = io.StringIO()
    read_fd, write_fd = os.pipe()

    async def shown(text: str) -> None:
        with anyio.fail_after(60):  # a guard only: the lines come as soon as the run reads
            while text not in stderr.getvalue():
                await anyio.sleep(0)

    with os.fdopen(read_fd, encoding="utf-8") as stdin, os.fdopen(write_fd, "w") as typing:
        async with anyio.create_task_group() as group:
            group.start_soon(run_asking, provider, stdin, stderr)
            await shown("question: Which city?\n> ")
            typing.write("/steer main mind the budget\n")
            typing.flush()
            # The prompt comes back with the steer's line, in the same step, or never.
            await shown("[you → main] mind the budget\n")
            assert stderr.getvalue().endswith("[you → main] mind the budget\n> ")
            steer_said.set()
            typing.write("Lisbon\n")
            typing.flush()
    (outcome,) = [b.content for m in provider.requests[-1].messages for b in m.tool_results]
    assert "Lisbon" in outcome
