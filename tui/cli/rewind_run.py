"""`agentui run --resume ID --rewind AGENT@STEP`: a saved session goes on, headless, from one
of an agent's steps.

The session's agents are adopted (as `agentui --resume` does), the agent is rewound to the step
(core/agent/steps.py; `agentui steps ID AGENT` lists them), the `--steer`s for it are queued,
and it is resumed: it runs until it ends, printed as `agentui run` prints (its answer on stdout,
progress on stderr, or `--json`). The session's file grows: what came after the step stays in
it, set aside. Questions and budget stops are answered from `--answer`, then stdin, as
`agentui run` answers them: first those the session gave back (an agent that waited on a
question or an approval when it ended waits on it again, a budget's stop stands again:
given_back.py), then each as it comes. The inbox's rows are said on stderr as `agentui run`
says them (inbox_lines.py), those standing at the start first.

This is `tui/headless/run.run_headless`'s loop for a run that starts from a saved state: that
one folds only the events of its own run (its state knows no adopted agent).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

import anyio

from agentui.core.agent.steps import StepRef
from agentui.core.protocol.events import AgentSpawned, BudgetReached, Event, QueryRaised
from agentui.core.session.saved_steps import find_agent
from agentui.core.support.errors import AgentUIError
from agentui.core.support.terminal_text import visible_controls
from agentui.tui.headless.answers import Answers
from agentui.tui.headless.budget_answer import BudgetAnswers, settle_budget_stop
from agentui.tui.headless.given_back import given_back
from agentui.tui.headless.inbox_lines import InboxLines
from agentui.tui.headless.run import HeadlessPrinter, Steer

if TYPE_CHECKING:
    from agentui.core.runtime import Runtime
    from agentui.core.session.resume import ResumePlan


async def run_rewound(
    make_runtime: Callable[[], Runtime],
    plan: ResumePlan,
    ref: StepRef,
    *,
    json_output: bool,
    answers: list[str],
    steers: list[Steer],
    stdin: TextIO,
    stdout: TextIO,
    stderr: TextIO,
) -> int:
    """Rewind the agent `ref` names to its step, resume it, print it until it ends; the exit
    status is 0 when it completed, 1 when it did not, 2 when it could not be rewound."""
    state = plan.state
    agent = find_agent(state, ref.agent)

    async def next_line() -> str | None:
        line = await anyio.to_thread.run_sync(stdin.readline, abandon_on_cancel=True)
        return line.rstrip("\n") if line else None

    answers_read = Answers(
        answers, next_line, stderr, stdin_is_terminal=stdin.isatty(), json_output=json_output
    )
    budgets = BudgetAnswers(answers_read, state, stderr, json_output=json_output)

    async with make_runtime() as runtime:
        events = runtime.subscribe(maxsize=None)
        printer = HeadlessPrinter(
            stdout, stderr, json_output=json_output, root_id=agent.id, state=state
        )
        # Text mode's: JSON mode has the events the rows come from on stdout.
        inbox_lines = InboxLines(state) if not json_output else None

        def show(event: Event) -> None:
            """The inbox's new rows first (a question's prompt comes last), then the event."""
            if inbox_lines is not None:
                for line in inbox_lines.entered(event):
                    printer.note(line)
            printer.show(event)

        try:
            leaving = _stopped_by_rewind(plan, agent.id, ref.step)  # before it sets them aside
            runtime.rewind(agent.id, ref.step)
        except AgentUIError as exc:
            stderr.write(visible_controls(f"agentui: {exc}") + "\n")
            return 2
        if not json_output:
            stderr.write(visible_controls(f"agentui: {agent.name} went back to step {ref.step}\n"))
        back = given_back(plan, runtime, leaving)
        if inbox_lines is not None:  # what the resume gave back, waiting for the person
            now = runtime.clock.now()
            for line in inbox_lines.standing(now, leaving=leaving, settled=back.settled):
                printer.note(line)
        resumed = False
        async with anyio.create_task_group() as answerers:

            def answer(waiting: QueryRaised | BudgetReached) -> None:
                """Read its answer (it was just shown, with its "> ") and give it."""
                answers_read.asked()
                if isinstance(waiting, QueryRaised):
                    answerers.start_soon(answers_read.answer, runtime, waiting, state.open_queries)
                else:
                    answerers.start_soon(settle_budget_stop, runtime, waiting, budgets)

            # Asked before the session ended, open again: answered first, as new ones are.
            # Under --json their saved events come first (seqs below the run's new ones).
            for waiting in back.to_answer:
                printer.show(waiting)
                answer(waiting)
            printer.flush()
            done = False
            while not done and not printer.closed:
                for event in await events.next_batch():
                    state.apply(event)
                    show(event)
                    if isinstance(event, QueryRaised | BudgetReached):
                        answer(event)
                    if event.agent_id != agent.id or event.type != "agent:status":
                        continue
                    if not resumed and state.agents[agent.id].status.value == "paused":
                        resumed = True  # rewound: the person's words go with it, then it runs
                        _steer(runtime, agent.id, agent.name, steers, stderr)
                        runtime.resume(agent.id)
                    done = resumed and state.agents[agent.id].status.is_final
                printer.flush()
            answerers.cancel_scope.cancel()
    if printer.closed:
        return 141
    for event in events.drain():
        state.apply(event)
        show(event)
    printer.flush()
    ended = state.agents[agent.id]
    if ended.status.value == "completed":
        return 0
    reason = ended.error or f"the agent ended as {ended.status}"
    stderr.write(visible_controls(f"agentui: {ended.name} did not complete: {reason}\n"))
    return 1


def _steer(runtime: Runtime, agent_id: str, name: str, steers: list[Steer], stderr: TextIO) -> None:
    for steer in steers:
        if steer.agent_name != name:
            stderr.write(
                visible_controls(
                    f"agentui: not steered: only {name} runs here, not {steer.agent_name}\n"
                )
            )
            continue
        runtime.steer(agent_id, steer.text)
        stderr.write(visible_controls(f"[you → {name}] {steer.text}\n"))


def _stopped_by_rewind(plan: ResumePlan, agent_id: str, step: int) -> set[str]:
    """The agents a rewind of `agent_id` to `step` stops: itself (a live one's run ends before
    it goes back) and each subagent started after the step it goes back to, with its subtree
    (set aside).
    Refused in words (AgentUIError) when the agent has no such step."""
    steps = plan.steps.get(agent_id)
    if steps is None:
        return {agent_id}
    # A six-step root may go back further than asked, to a phase's start (Runtime.rewind).
    take_up = steps.workflow_take_up(step)
    later = steps.started_after(take_up.step if take_up is not None else step)
    return {agent_id} | {a.id for child in later for a in plan.state.subtree(child)}


def resumed_for_rewind(reference: str) -> ResumePlan:
    """The session to go on from, read and checked (not open in another agentui)."""
    from agentui.core.session.resume import open_for_resume

    plan = open_for_resume(reference)
    if any(isinstance(e, AgentSpawned) for e in plan.history):
        return plan
    raise AgentUIError(f"session {plan.log.id} has no agent to rewind")
