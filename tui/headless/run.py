"""Headless mode: run one task without a screen and print what happens.

With `json_output` every event is one JSON object per line on stdout. Otherwise stdout gets the
root's final answer only, and progress (its other text, tool calls and their results, questions)
goes to stderr.
Questions are answered from `answers` in order, then from lines of `stdin`; end of input declines
(headless_answers.py: a bare `reject` asks for its reason on the next line).
A stdin line `/steer NAME MESSAGE` (and each `steers` entry, "NAME: MESSAGE") is not an answer:
it queues MESSAGE into agent NAME's next model call, as `s` does in the app.

With MCP servers configured, the task starts once each has had its first outcome (ready or
failed; at most its startup_timeout_s): a short run would otherwise never see their tools.
"""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

import anyio
import anyio.from_thread
import anyio.lowlevel

from agentui.core.agent.budget import STOP_CHOICES, stop_words
from agentui.core.monologue.attach import attach_monologue
from agentui.core.monologue.config import MonologueConfig
from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.protocol.events import (
    AgentSpawned,
    AnswerValidated,
    BudgetContinued,
    BudgetReached,
    BudgetSet,
    Event,
    ExecutionCancelled,
    ExecutionCompleted,
    ExecutionFailed,
    LLMAbandoned,
    LLMFailed,
    LLMRequested,
    LLMResponded,
    McpServerChanged,
    MonologueGenerated,
    QueryRaised,
    TextDelta,
    ToolCompleted,
    ToolFailed,
    ToolProgressed,
    ToolStarted,
    ToolTimedOut,
)
from agentui.core.runtime import Runtime
from agentui.core.state import RunState
from agentui.core.state.scene_items import scene_line, scene_line_events
from agentui.core.state.transcript import validation_text
from agentui.core.support.errors import AgentUIError
from agentui.core.support.terminal_json import escaped_controls
from agentui.core.support.terminal_text import clipped, visible_controls
from agentui.core.support.utf8 import model_json
from agentui.core.tools.mcp.first_outcomes import FirstOutcomes
from agentui.tui.headless.answers import ANSWER_PROMPT, APPROVAL_HINT, Answers
from agentui.tui.headless.budget_answer import BUDGET_HINT, BudgetAnswers, settle_budget_stop
from agentui.tui.headless.inbox_lines import InboxLines

# Types text mode prints something for (the root's text, progress); see `_write`.
PRINTED = (
    AgentSpawned, TextDelta, LLMRequested, LLMResponded, LLMFailed, LLMAbandoned,
    ExecutionCompleted, ExecutionCancelled, ExecutionFailed, ToolStarted, ToolCompleted,
    ToolFailed, ToolTimedOut, ToolProgressed, QueryRaised, MonologueGenerated, AnswerValidated, McpServerChanged,
    BudgetSet, BudgetReached, BudgetContinued,
)  # fmt: skip


# A tool's result is shown as the app's folded tool block shows it (widgets/blocks.py): on one
# line, cut at this many characters; `--json` has it whole (its tool:complete event).
RESULT_PREVIEW_CHARS = 60


def result_preview(result: str) -> str:
    """A tool's result on one line, its controls made visible, cut as the app cuts it."""
    return clipped(" ".join(visible_controls(result).split()), RESULT_PREVIEW_CHARS) or "(nothing)"


class HeadlessPrinter:
    """Prints events as they come. Text mode keeps stdout for the answer alone.

    The root's final answer (its execution's result) goes to stdout once the root completes;
    everything else (its text before tool calls, attempts cut short, tool calls, questions,
    narration) is progress on stderr. Every string from a model, tool or task passes through
    `visible_controls` first; JSON lines keep exact strings (JSON escapes control characters).
    """

    # What text mode leaves out: only the root's answer and the progress above are printed.
    NOT_PRINTED = frozenset({
        "agent:status", "approval:decided", "conversation:changed", "execution:paused",
        "execution:resumed", "execution:start", "hook:error", "intervention:applied",
        "intervention:unused", "iteration:complete", "iteration:start", "monologue:error",
        "note:delivered", "note:queued", "query:answered", "query:declined", "thinking:delta",
        "thinking:redacted", "tool:detected",
        "usage:updated", "workflow:deciding", "workflow:decision", "workflow:result",
        "workflow:step", "director:start", "character:start",
        "run:resumed",  # written with a resume plan, never emitted live; an export may hold it
        "session:error",  # said on stderr when the run ends (cli.py), as before this event
        "agent:stalled",  # its inbox line says it (inbox_lines.py)
        "agent:rewound",  # `run --rewind` says it before the agent goes on (rewind_run.py)
        "agent:forked",  # its name says it (NAME~1); `agentui fork` was given the step
    })  # fmt: skip

    def __init__(
        self,
        stdout: TextIO,
        stderr: TextIO,
        *,
        json_output: bool,
        root_id: str | None,
        state: RunState,
    ) -> None:
        """`root_id`: None until the root has started (the runtime's own events come first)."""
        self._out = stdout
        self._err = stderr
        self._json = json_output
        self.root_id = root_id
        self._state = state  # the run as folded so far: names people see (main.1)
        self.unfolded: set[str] = set()  # event types met that no case prints or passes over
        self._attempt: list[str] = []  # the root's text streamed in the current model call
        # The root's latest reply without tool calls: its answer if the execution ends now,
        # progress if the root goes on (the six-step workflow takes more turns after one).
        self._held: str | None = None

    closed = False  # the reader went away (e.g. `| head`)

    def note(self, text: str) -> None:
        """Progress of the run's own (already visible: inbox_lines.py) on stderr."""
        if self.closed:
            return
        try:
            self._err.write(text)
        except BrokenPipeError:
            self._went_away()

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
            self._out.write(escaped_controls(model_json(event)) + "\n")  # exact, and inert
            return
        name = self._name(event.agent_id)
        if self.root_id is not None and event.agent_id == self.root_id:
            self._root_text(event)
        if isinstance(event, LLMFailed | LLMAbandoned) and event.agent_id == self.root_id:
            what = event.error if isinstance(event, LLMFailed) else event.reason
            self._progress(f"\n[{name}] model: {what}\n")
        elif isinstance(event, ToolStarted):
            self._progress(f"\n[{name}] tool {event.call.name}\n")
        elif isinstance(event, ToolCompleted):
            self._progress(f"\n[{name}] tool {event.name} → {result_preview(event.result)}\n")
        elif isinstance(event, ToolFailed):
            self._progress(f"\n[{name}] tool {event.name} failed: {event.error}\n")
        elif isinstance(event, ToolProgressed):
            self._progress(f"\n[{name}] tool {event.name}: {event.line()}\n")
        elif isinstance(event, ToolTimedOut):
            self._progress(f"\n[{name}] tool {event.name} timed out after {event.timeout_s:g} s\n")
        elif isinstance(event, QueryRaised) and event.choices:  # an approval
            self._progress(
                f"\n[{name}] {event.kind}: {event.prompt}\n{APPROVAL_HINT}\n{ANSWER_PROMPT}"
            )
        elif isinstance(event, QueryRaised):
            self._progress(f"\n[{name}] question: {event.prompt}\n{ANSWER_PROMPT}")
        elif isinstance(event, MonologueGenerated):
            self._progress(f"\n[{event.entry.agent_name}] {event.entry.text}\n")
        elif isinstance(event, BudgetReached):
            said = stop_words(event.measure, event.limit, event.spent, event.over)
            stopped = self._name(event.stopped_agent)
            self._progress(
                f"\n[{name}] budget reached: {said}; {stopped} is paused: {STOP_CHOICES}\n"
                f"{BUDGET_HINT}\n{ANSWER_PROMPT}"
            )
        elif isinstance(event, BudgetSet):
            if event.source != "inherited":  # a share per subagent would be noise
                agent = self._state.agents.get(event.agent_id)
                budget = agent.budget if agent is not None else None
                said = budget.describe() if budget is not None else "none"
                self._progress(f"\n[{name}] budget: {said}\n")
        elif isinstance(event, BudgetContinued):
            self._progress(f"\n[{name}] goes on for one more step past its budget\n")
        elif isinstance(event, AnswerValidated):
            # A valid answer is the result; only a failed check or a logged payload is news.
            if not event.ok or event.payload is not None:
                self._progress(f"\n[{name}] answer {validation_text(event)}\n")
        elif isinstance(event, McpServerChanged):
            # An MCP server that is ready, or failed (starting and restarting are no news).
            if event.state == "ready":
                tools = ", ".join(event.tools) or "no tools"
                self._progress(f"\n[mcp] {event.server} ready: {tools}\n")
            elif event.state == "failed":
                self._progress(f"\n[mcp] {event.server} failed: {event.error}\n")
        elif isinstance(event, scene_line_events()):
            # A directed scene as it plays; the scene's root answers with the whole of it.
            line = scene_line(event)
            if line is not None:
                self._progress(f"\n[{name}] {line.title}: {line.text}\n")
        elif not isinstance(event, PRINTED) and event.type not in self.NOT_PRINTED:
            self.unfolded.add(event.type)

    def _name(self, agent_id: str) -> str:
        agent = self._state.agents.get(agent_id)
        return agent.name if agent is not None else agent_id

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
        if text.strip() and self.root_id is not None:
            self._progress(f"\n[{self._name(self.root_id)}] {text}\n")

    def flush(self) -> None:
        if self.closed:
            return
        try:
            self._out.flush()
            self._err.flush()
        except BrokenPipeError:
            self._went_away()


STEER_COMMAND = "/steer "


@dataclass(frozen=True, slots=True)
class Steer:
    """A message for one agent's next model call, by the agent's name (main, main.1, ...)."""

    agent_name: str
    text: str

    @classmethod
    def parse(cls, spec: str) -> Steer:
        """'main.1: prefer trains' -> Steer('main.1', 'prefer trains')."""
        name, colon, text = spec.partition(":")
        if not colon or not name.strip() or " " in name.strip() or not text.strip():
            raise ValueError(
                f"a steer is 'AGENT: MESSAGE', e.g. 'main: keep it short' (got {spec!r})"
            )
        return cls(name.strip(), text.strip())

    @classmethod
    def from_line(cls, line: str) -> Steer | None:
        """A stdin line '/steer main.1 prefer trains', or None when the line is an answer."""
        if not line.startswith(STEER_COMMAND):
            return None
        name, _, text = line[len(STEER_COMMAND) :].strip().partition(" ")
        return cls(name, text.strip()) if name and text.strip() else None


class _Steering:
    """Delivers steers by name: at once to an agent that is running, or when it appears."""

    def __init__(self, runtime: Runtime, stderr: TextIO, steers: list[Steer]) -> None:
        self._runtime = runtime
        self._stderr = stderr
        self._waiting = list(steers)
        self._names: dict[str, str] = {}  # name -> agent id

    def spawned(self, event: AgentSpawned) -> None:
        self._names[event.name] = event.agent_id
        due = [s for s in self._waiting if s.agent_name == event.name]
        self._waiting = [s for s in self._waiting if s.agent_name != event.name]
        for steer in due:
            self.send(steer)

    def send(self, steer: Steer) -> None:
        agent_id = self._names.get(steer.agent_name)
        if agent_id is None:
            self._waiting.append(steer)  # sent when an agent of that name starts
            self._say(f"[you → {steer.agent_name}] waits until {steer.agent_name} starts")
            return
        try:
            self._runtime.steer(agent_id, steer.text)
        except AgentUIError as exc:
            self._say(f"agentui: not steered: {exc}")
            return
        self._say(f"[you → {steer.agent_name}] {steer.text}")

    def report_unsent(self) -> None:
        for steer in self._waiting:
            self._say(f"agentui: not steered: no agent named {steer.agent_name} started")

    def _say(self, line: str) -> None:
        self._stderr.write(visible_controls(line) + "\n")
        self._stderr.flush()


class _StdinLines:
    """Lines of stdin as they come, read by a daemon thread (a read that never returns must
    not hold up the exit): steer lines go to their agent at once, the others answer questions
    in order."""

    def __init__(self, stdin: TextIO, steering: _Steering, reprompt: Callable[[], None]) -> None:
        self._steering = steering
        self._reprompt = reprompt  # after a steer line: the answer awaited still is
        self._send, self._answers = anyio.create_memory_object_stream[str | None](
            max_buffer_size=math.inf
        )
        self._ended = False
        token = anyio.lowlevel.current_token()
        threading.Thread(
            target=self._read, args=(stdin, token), name="agentui stdin", daemon=True
        ).start()

    def _read(self, stdin: TextIO, token: anyio.lowlevel.EventLoopToken) -> None:
        try:
            for line in iter(stdin.readline, ""):
                anyio.from_thread.run_sync(self._take, line.rstrip("\n"), token=token)
            anyio.from_thread.run_sync(self._send.send_nowait, None, token=token)
        except (OSError, ValueError, RuntimeError):
            return  # stdin closed, or the run is over and its loop gone

    def _take(self, line: str) -> None:
        steer = Steer.from_line(line)
        if steer is not None:
            self._steering.send(steer)
            self._reprompt()
        else:
            self._send.send_nowait(line)

    async def next_answer(self) -> str | None:
        """The next line that is not a steer; None once stdin has ended."""
        if self._ended:
            return None
        line = await self._answers.receive()
        if line is None:
            self._ended = True
        return line


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or fake stream
        return False


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
    steers: list[Steer] | None = None,
    start: Callable[[Runtime], str] | None = None,
) -> int:
    """Run `task` to its end; the exit status is 0 when the root agent completed. `start`,
    when given, starts the root instead (a directed scene: its id), and `task` is unused.

    With an enabled `monologue` config the agents are narrated too, and the run waits (at most
    the narrator's timeout) for the closing narratives before it ends.
    """
    lines: _StdinLines | None = None
    steering: _Steering | None = None
    state = RunState(transcripts=False)  # the run as its events tell it

    async def next_line() -> str | None:
        assert lines is not None
        return await lines.next_answer()

    answers_read = Answers(
        answers,
        next_line,
        stderr,
        stdin_is_terminal=_is_terminal(stdin),
        json_output=json_output,
    )

    budgets = BudgetAnswers(answers_read, state, stderr, json_output=json_output)

    async with make_runtime() as runtime:
        events = runtime.subscribe(maxsize=None)  # lossless: every delta as emitted
        outcomes = FirstOutcomes.of(runtime)  # at once: no server's outcome falls in between
        narration = attach_monologue(runtime, runtime.provider, monologue) if monologue else None
        steering = _Steering(runtime, stderr, list(steers or []))
        for problem in runtime.profiles.problems:  # one line per profile file left out
            stderr.write(f"agentui: warning: profile skipped: {visible_controls(problem)}\n")
        lines = _StdinLines(stdin, steering, answers_read.prompt_again)
        printer = HeadlessPrinter(
            stdout, stderr, json_output=json_output, root_id=None, state=state
        )
        # Text mode's: JSON mode has the events the rows come from on stdout.
        inbox_lines = InboxLines(state) if not json_output else None

        def show(event: Event) -> None:
            """The inbox's new rows first (a question's prompt comes last), then the event."""
            if inbox_lines is not None:
                for line in inbox_lines.entered(event):
                    printer.note(line)
            printer.show(event)

        if not outcomes.done:
            if not json_output:
                names = ", ".join(outcomes.waiting)
                stderr.write(
                    visible_controls(
                        f"agentui: waiting for MCP servers to start: {names} "
                        f"(at most {outcomes.limit_s:g} s)"
                    )
                    + "\n"
                )
            with anyio.move_on_after(outcomes.limit_s):  # each one's own try ends by then
                while not outcomes.done and not printer.closed:
                    batch = await events.next_batch()
                    if not batch:
                        break  # the runtime is ending
                    for event in batch:
                        state.apply(event)
                        show(event)
                        outcomes.observe(event)
                    printer.flush()
        try:
            root_id = start(runtime) if start is not None else runtime.start(task)
        except AgentUIError as exc:  # an unknown profile, a scene that cannot start
            stderr.write(visible_controls(f"agentui: {exc}") + "\n")
            return 2
        printer.root_id = root_id
        async with anyio.create_task_group() as answerers:
            done = False
            while not done and not printer.closed:
                for event in await events.next_batch():
                    state.apply(event)
                    show(event)
                    if isinstance(event, AgentSpawned):
                        steering.spawned(event)
                    if isinstance(event, QueryRaised):
                        answers_read.asked()  # with the prompt just shown: no gap
                        answerers.start_soon(
                            answers_read.answer, runtime, event, state.open_queries
                        )
                    if isinstance(event, BudgetReached) and not printer.closed:
                        answers_read.asked()
                        answerers.start_soon(settle_budget_stop, runtime, event, budgets)
                    if event.agent_id == root_id and event.type == "agent:status":
                        done = state.agents[root_id].status.is_final
                printer.flush()
            answerers.cancel_scope.cancel()
        node = state.agents[root_id]
        status = node.status  # as it ended (the shutdown cancels only the others)
        steering.report_unsent()
        if narration is not None and not printer.closed:
            with anyio.move_on_after(narration.config.timeout_s):
                await narration.wait_idle()
    if printer.closed:
        return 141  # as Unix tools do when their reader goes away
    for event in events.drain():  # the shutdown's own events (other agents cancelled)
        state.apply(event)
        show(event)
    printer.flush()
    if status is AgentStatus.COMPLETED:
        return 0
    reason = node.error or f"the agent ended as {status}"
    stderr.write(visible_controls(f"agentui: {node.name} did not complete: {reason}\n"))
    return 1
