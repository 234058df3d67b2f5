"""Headless mode: run one task without a screen and print what happens.

With `json_output` every event is one JSON object per line on stdout. Otherwise stdout gets the
root's final answer only, and progress (its other text, tool calls, questions) goes to stderr.
Questions are answered from `answers` in order, then from lines of `stdin`; end of input declines.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TextIO

import anyio
import anyio.to_thread

from .events import (
    Event,
    ExecutionCancelled,
    ExecutionCompleted,
    ExecutionFailed,
    LLMAbandoned,
    LLMFailed,
    LLMRequested,
    LLMResponded,
    MonologueGenerated,
    QueryRaised,
    TextDelta,
    ToolStarted,
)
from .monologue.attach import attach_monologue
from .monologue.config import MonologueConfig
from .runtime import Runtime
from .terminal_text import visible_controls
from .tree import AgentStatus


class HeadlessPrinter:
    """Prints events as they come. Text mode keeps stdout for the answer alone.

    The root's final answer (its execution's result) goes to stdout once the root completes;
    everything else (its text before tool calls, attempts cut short, tool calls, questions,
    narration) is progress on stderr. Every string from a model, tool or task passes through
    `visible_controls` first; JSON lines keep exact strings (JSON escapes control characters).
    """

    def __init__(self, stdout: TextIO, stderr: TextIO, *, json_output: bool, root_id: str) -> None:
        self._out = stdout
        self._err = stderr
        self._json = json_output
        self._root = root_id
        self._attempt: list[str] = []  # the root's text streamed in the current model call
        # The root's latest reply without tool calls: its answer if the execution ends now,
        # progress if the root goes on (the six-step workflow takes more turns after one).
        self._held: str | None = None

    closed = False  # the reader went away (e.g. `| head`)

    def show(self, event: Event) -> None:
        if self.closed:
            return
        try:
            self._write(event)
        except BrokenPipeError:
            self._went_away()

    def _went_away(self) -> None:
        self.closed = True
        # Point stdout at /dev/null so the interpreter's final flush does not fail again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, self._out.fileno())
        os.close(devnull)

    def _progress(self, text: str) -> None:
        self._err.write(visible_controls(text))

    def _write(self, event: Event) -> None:
        if self._json:
            self._out.write(event.model_dump_json() + "\n")
            return
        if event.agent_id == self._root:
            self._root_text(event)
        if isinstance(event, LLMFailed | LLMAbandoned) and event.agent_id == self._root:
            what = event.error if isinstance(event, LLMFailed) else event.reason
            self._progress(f"\n[{event.agent_id}] model: {what}\n")
        elif isinstance(event, ToolStarted):
            self._progress(f"\n[{event.agent_id}] tool {event.call.name}\n")
        elif isinstance(event, QueryRaised) and event.choices:  # an approval
            choices = " / ".join(event.choices)
            self._progress(
                f"\n[{event.agent_id}] {event.kind}: {event.prompt}\n"
                f"({choices}; a reason after reject goes to the model)\n> "
            )
        elif isinstance(event, QueryRaised):
            self._progress(f"\n[{event.agent_id}] question: {event.prompt}\n> ")
        elif isinstance(event, MonologueGenerated):
            self._progress(f"\n[{event.entry.agent_name}] {event.entry.text}\n")

    def _root_text(self, event: Event) -> None:
        """Follow the root's text: the answer to stdout, the rest to stderr in order."""
        if isinstance(event, TextDelta):
            self._attempt.append(event.delta)
        elif isinstance(event, LLMResponded):
            self._attempt.clear()
            self._release_held()
            if event.tool_calls:
                self._say(event.text)
            else:
                self._held = event.text
        elif isinstance(event, ExecutionCompleted):
            self._held = None  # the result replaces it (an after:execution hook may edit it)
            if event.result:
                answer = visible_controls(event.result)
                self._out.write(answer if answer.endswith("\n") else answer + "\n")
        elif isinstance(event, LLMFailed | LLMAbandoned | ExecutionCancelled):
            # The text streamed so far will not be part of the answer: say so where it shows.
            partial = "".join(self._attempt)
            self._attempt.clear()
            if partial:
                self._say(f"{partial} [cut short]")
            if isinstance(event, ExecutionCancelled):
                self._release_held()
        elif isinstance(event, LLMRequested | QueryRaised | ExecutionFailed):
            self._release_held()  # the root went on (or failed): that reply was not the answer

    def _release_held(self) -> None:
        if self._held is not None:
            self._say(self._held)
            self._held = None

    def _say(self, text: str) -> None:
        if text.strip():
            self._progress(f"\n[{self._root}] {text}\n")

    def flush(self) -> None:
        if self.closed:
            return
        try:
            self._out.flush()
            self._err.flush()
        except BrokenPipeError:
            self._went_away()


async def run_headless(
    make_runtime: Callable[[], Runtime],
    task: str,
    *,
    json_output: bool,
    answers: list[str],
    stdin: TextIO,
    stdout: TextIO,
    stderr: TextIO,
    monologue: MonologueConfig | None = None,
) -> int:
    """Run `task` to its end; the exit status is 0 when the root agent completed.

    With an enabled `monologue` config the agents are narrated too, and the run waits (at most
    the narrator's timeout) for the closing narratives before it ends.
    """
    pending_answers = list(answers)
    stdin_open = True

    async def answer(runtime: Runtime, query: QueryRaised) -> None:
        nonlocal stdin_open
        text: str | None = None
        if pending_answers:
            text = pending_answers.pop(0)
        elif stdin_open:
            line = await anyio.to_thread.run_sync(stdin.readline, abandon_on_cancel=True)
            if line:
                text = line.rstrip("\n")
            else:
                stdin_open = False
        if any(q.id == query.query_id for q in runtime.open_queries()):
            runtime.answer(query.query_id, text)

    async with make_runtime() as runtime:
        events = runtime.subscribe(maxsize=None)  # lossless: every delta as emitted
        narration = attach_monologue(runtime, runtime.provider, monologue) if monologue else None
        root_id = runtime.start(task)
        printer = HeadlessPrinter(stdout, stderr, json_output=json_output, root_id=root_id)
        async with anyio.create_task_group() as answerers:
            done = False
            while not done and not printer.closed:
                for event in await events.next_batch():
                    printer.show(event)
                    if isinstance(event, QueryRaised):
                        answerers.start_soon(answer, runtime, event)
                    if event.agent_id == root_id and event.type == "agent:status":
                        done = runtime.node(root_id).status.is_final
                printer.flush()
            answerers.cancel_scope.cancel()
        node = runtime.node(root_id)
        if narration is not None and not printer.closed:
            with anyio.move_on_after(narration.config.timeout_s):
                await narration.wait_idle()
    if printer.closed:
        return 141  # as Unix tools do when their reader goes away
    for event in events.drain():  # the shutdown's own events (other agents cancelled)
        printer.show(event)
    printer.flush()
    if node.status is AgentStatus.COMPLETED:
        return 0
    reason = node.error or f"the agent ended as {node.status}"
    stderr.write(visible_controls(f"agentui: {node.name} did not complete: {reason}\n"))
    return 1
