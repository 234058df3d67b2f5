"""Headless mode: run one task without a screen and print what happens.

With `json_output` every event is one JSON object per line on stdout. Otherwise the root's
answer streams to stdout and progress (tool calls, questions) goes to stderr. Questions are
answered from `answers` in order, then from lines of `stdin`; end of input declines.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TextIO

import anyio
import anyio.to_thread

from .events import (
    Event,
    LLMAbandoned,
    LLMFailed,
    LLMResponded,
    MonologueGenerated,
    QueryRaised,
    TextDelta,
    ToolStarted,
)
from .monologue.attach import attach_monologue
from .monologue.config import MonologueConfig
from .runtime import Runtime
from .tree import AgentStatus


class HeadlessPrinter:
    def __init__(self, stdout: TextIO, stderr: TextIO, *, json_output: bool, root_id: str) -> None:
        self._out = stdout
        self._err = stderr
        self._json = json_output
        self._root = root_id
        self._root_iteration = 0
        self._streamed = False  # root text written since the last response began

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

    def _write(self, event: Event) -> None:
        if self._json:
            self._out.write(event.model_dump_json() + "\n")
            return
        if isinstance(event, TextDelta) and event.agent_id == self._root:
            if self._root_iteration and event.iteration != self._root_iteration:
                self._out.write("\n\n")
            self._root_iteration = event.iteration
            self._streamed = True
            self._out.write(event.delta)
        elif isinstance(event, LLMResponded) and event.agent_id == self._root:
            self._streamed = False  # that text is the answer's now
        elif isinstance(event, LLMFailed | LLMAbandoned) and event.agent_id == self._root:
            # The text streamed so far will not be part of the answer: say so where it shows.
            if self._streamed:
                self._out.write("\n[cut short]\n\n")
                self._root_iteration, self._streamed = 0, False
            what = event.error if isinstance(event, LLMFailed) else event.reason
            self._err.write(f"\n[{event.agent_id}] model: {what}\n")
        elif isinstance(event, ToolStarted):
            self._err.write(f"\n[{event.agent_id}] tool {event.call.name}\n")
        elif isinstance(event, QueryRaised) and event.choices:  # an approval
            choices = " / ".join(event.choices)
            self._err.write(
                f"\n[{event.agent_id}] {event.kind}: {event.prompt}\n"
                f"({choices}; a reason after reject goes to the model)\n> "
            )
        elif isinstance(event, QueryRaised):
            self._err.write(f"\n[{event.agent_id}] question: {event.prompt}\n> ")
        elif isinstance(event, MonologueGenerated):
            self._err.write(f"\n[{event.entry.agent_name}] {event.entry.text}\n")

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
    if not json_output:
        stdout.write("\n")
    printer.flush()
    if node.status is AgentStatus.COMPLETED:
        return 0
    reason = node.error or f"the agent ended as {node.status}"
    stderr.write(f"agentui: {node.name} did not complete: {reason}\n")
    return 1
