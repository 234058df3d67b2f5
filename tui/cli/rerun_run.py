"""The loop of `agentui rerun`: a saved session's task run again headless, with the person's
steers, modifies and answers given as its RerunPlayer says (core/session/rerun_player.py), and
printed as `agentui run` prints (its answer on stdout, progress on stderr, or `--json`).

A question the old run answered gets that answer, shown after the question as if typed; one it
did not is asked of the person as `agentui run` asks (`--answer`, then stdin). Under `--json`
stdin is not read: once the `--answer` values are used up, such a question is declined and that
is said on stderr. What was given, and what
never found its moment, is said on stderr once the run ends, in either mode.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import anyio

from agentui.core.protocol.events import QueryRaised
from agentui.core.session.rerun_plan import RerunPlan
from agentui.core.session.rerun_player import RerunPlayer
from agentui.core.state import RunState
from agentui.core.support.errors import AgentUIError
from agentui.core.support.terminal_text import visible_controls
from agentui.tui.headless.answers import Answers
from agentui.tui.headless.run import HeadlessPrinter

if TYPE_CHECKING:
    from agentui.core.runtime import Runtime
    from agentui.core.scene.settings import SceneSettings

NOT_RECORDED_UNDER_JSON = (
    "{agent} asked {prompt!r}, which the recorded run never answered: declined "
    "(--json asks nothing; give --answer, or run without --json to answer it)"
)


async def run_rerun(
    make_runtime: Callable[[], Runtime],
    plan: RerunPlan,
    *,
    instructions: str | None,
    json_output: bool,
    scene_settings: SceneSettings | None = None,
    answers: list[str],
    stdin: TextIO,
    stdout: TextIO,
    stderr: TextIO,
) -> int:
    """Run the plan to its end; 0 when every root it started completed (the first, and those
    the person had started later), 1 when one did not, 2 when it could not start."""
    state = RunState(transcripts=False)

    def say(line: str) -> None:
        stderr.write(visible_controls(line) + "\n")
        stderr.flush()

    async def next_line() -> str | None:
        line = await anyio.to_thread.run_sync(stdin.readline, abandon_on_cancel=True)
        return line.rstrip("\n") if line else None

    answers_read = Answers(
        answers, next_line, stderr, stdin_is_terminal=_is_terminal(stdin), json_output=json_output
    )
    given = list(answers)  # under --json: the --answer values, then nothing is asked

    async with make_runtime() as runtime:
        events = runtime.subscribe(maxsize=None)
        player = RerunPlayer(runtime, plan)
        player.attach()
        printer = HeadlessPrinter(stdout, stderr, json_output=json_output, root_id=None,
                                  state=state)  # fmt: skip
        try:
            root_id = player.start(instructions, scene_settings)
        except AgentUIError as exc:
            say(f"agentui: {exc}")
            return 2
        printer.root_id = root_id

        def finished() -> bool:
            """Every root started has ended, and no later root can still come (its moment
            waits on an agent: none is live)."""
            for root in player.roots:
                agent = state.agents.get(root)
                if agent is None or not agent.status.is_final:
                    return False
            live = any(not agent.status.is_final for agent in state.agents.values())
            return not (player.roots_to_come and live)

        async with anyio.create_task_group() as askers:
            done = False
            while not done and not printer.closed:
                for event in await events.next_batch():
                    state.apply(event)
                    printer.show(event)
                    if isinstance(event, QueryRaised):
                        name = state.agents[event.agent_id].name
                        recorded = player.answer(event, name)
                        if recorded is not None:
                            if not json_output:
                                say(f"{recorded.describe()}  (as in session {plan.session})")
                        elif json_output and given:
                            runtime.answer(event.query_id, given.pop(0))
                        elif json_output:
                            runtime.answer(event.query_id, None)
                            say("agentui: " + NOT_RECORDED_UNDER_JSON.format(
                                agent=name, prompt=event.prompt))  # fmt: skip
                        else:
                            answers_read.asked()
                            askers.start_soon(
                                answers_read.answer, runtime, event, state.open_queries
                            )
                    if event.type != "agent:status":
                        continue
                    over = state.agents[event.agent_id].status.is_final
                    if over and player.ended(event.agent_id):
                        continue  # the person's follow-up: it runs again
                    # A later root whose moment's agent has its step and waits, or ended: it
                    # makes no model call for the player's hook to start the root at.
                    done = not player.start_due_roots() and finished()
                printer.flush()
            askers.cancel_scope.cancel()
        for event in events.drain():
            state.apply(event)
        names = {agent.name: agent.id for agent in state.agents.values()}
        report = [*(p.describe() for p in player.played), *player.started, *player.refused,
                  *player.unplayed(names), *(f"not replayed: {n}" for n in plan.not_replayed)]  # fmt: skip
        new_session = _session_id(runtime)
    if printer.closed:
        return 141
    for line in report:
        say(f"agentui: rerun: {line}")
    if new_session is not None:
        say(f"agentui: re-ran session {plan.session} as {new_session}; compare them: "
            f"agentui diff {plan.session} {new_session}")  # fmt: skip
    unfinished = [state.agents[root] for root in player.roots
                  if state.agents[root].status.value != "completed"]  # fmt: skip
    for ended in unfinished:
        reason = ended.error or f"the agent ended as {ended.status}"
        say(f"agentui: {ended.name} did not complete: {reason}")
    return 1 if unfinished else 0


def _session_id(runtime: Runtime) -> str | None:
    session = getattr(runtime, "session", None)  # a RecordingRuntime's writer
    path: Path | None = getattr(session, "path", None)
    return path.stem if path is not None else None


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or fake stream
        return False
