"""Every door applies the one table (core/protocol/commands.allowed): over every status x
driver x mode x command, the runtime accepts a command exactly when `allowed` holds it, in
`refusal`'s words when not; the HTTP API answers 200 or 409 by it (with the same words); ACP
sends a prompt to a root by it; a replay allows nothing.

The runtime's refusal reads the agent's node (its status and driver) and its open queries, so
the table's cases set a node's status directly (one adopted agent per case, no run behind it);
the property test reaches statuses the real way, by random sequences of commands on a running
agent, and checks the table before each command.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from itertools import count, product
from typing import Any

import anyio
import anyio.lowlevel
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentui.core.agent.queries import Query
from agentui.core.agent.steps import StepLog
from agentui.core.agent.tree import AgentNode
from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.protocol.commands import AgentView, Command, Mode, allowed, refusal
from agentui.core.protocol.events import ConversationChanged
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.remote.client import RemoteClient, RemoteError
from agentui.core.runtime import Runtime
from agentui.core.state import RunState
from agentui.core.state.agent_state import AgentState
from agentui.core.support.errors import AgentEndedError, CommandRefusedError
from agentui.core.tools.ask_user import ASK_USER
from agentui.core.tools.registry import ToolRegistry

from .helpers import deploy_tool, scripted_runtime

# The SDKs (and the agentui modules that import them) are imported where used: collecting
# this module imports no SDK (tests/core/test_collection_imports.py).

pytestmark = pytest.mark.anyio

DRIVERS = (None, "scene")
# The commands about an agent's state; an answer or an approval names its query (below).
AGENT_COMMANDS = tuple(
    c for c in Command if c not in (Command.START, Command.ANSWER, Command.APPROVE)
)
DONE = Turn(text="done")
HANGS = Turn(text="working on it", hang_after_chunks=1)


def _agent_in(runtime: Runtime, ids: count[int], status: AgentStatus, driver: str | None) -> str:
    """A root agent of `runtime` in `status`, run by `driver`: adopted, then set (no run is
    behind it: the refusal reads only the node and the open queries)."""
    agent_id = f"x{next(ids)}"
    runtime.adopt(
        AgentNode(id=agent_id, name=agent_id, task="t", driver=driver, created_at=0.0,
                  status=AgentStatus.COMPLETED)
    )  # fmt: skip
    runtime.node(agent_id).status = status
    return agent_id


def _give(runtime: Runtime, command: Command, agent_id: str) -> None:
    """The runtime's method for `command`, as a front end calls it."""
    calls: dict[Command, Callable[[], None]] = {
        Command.CONTINUE: lambda: runtime.send(agent_id, "go on"),
        Command.PAUSE: lambda: runtime.pause(agent_id),
        Command.RESUME: lambda: runtime.resume(agent_id),
        Command.CANCEL: lambda: runtime.cancel(agent_id),
        Command.INTERRUPT: lambda: runtime.cancel(agent_id, "interrupted by the person"),
        Command.DELETE: lambda: runtime.delete(agent_id),
        Command.MODIFY: lambda: runtime.modify(agent_id, content="another task"),
        Command.STEER: lambda: runtime.steer(agent_id, "a word"),
        Command.BUDGET: lambda: runtime.set_budget(agent_id, {"tokens": 50_000}),
        Command.PAST_BUDGET: lambda: runtime.continue_past_budget(agent_id),
        Command.REWIND: lambda: runtime.rewind(_with_its_start(runtime, agent_id), 0),
        Command.FORK: lambda: _fork_from_its_start(runtime, agent_id),
    }
    calls[command]()


def _with_its_start(runtime: Runtime, agent_id: str) -> str:
    """The agent, given its step 0 if it has none (an adopted one, no run behind it)."""
    if not runtime.steps(agent_id):
        start = ConversationChanged(seq=0, ts=0.0, agent_id=agent_id, keep=0)
        steps = StepLog()
        steps.apply(start)
        runtime.recall_steps(agent_id, steps)
    return agent_id


def _fork_from_its_start(runtime: Runtime, agent_id: str) -> None:
    runtime.fork_from(_with_its_start(runtime, agent_id), 0)


def _words(agent_id: str, view: AgentView, command: Command, mode: Mode) -> str | None:
    """`refusal`'s words, None when allowed. An interrupt is the runtime's `cancel` with its
    own reason: refused in a cancel's words."""
    said_as = Command.CANCEL if command is Command.INTERRUPT else command
    refused = refusal(agent_id, view, said_as, mode)
    assert (refused is None) == (command in allowed(view, mode))
    return str(refused) if refused is not None else None


def _refused_by(runtime: Runtime, command: Command, agent_id: str) -> str | None:
    """The refusal's words, or None when the runtime took the command."""
    try:
        _give(runtime, command, agent_id)
    except CommandRefusedError as exc:
        if command is Command.STEER:  # a front end offers a continue instead: it must know
            assert isinstance(exc, AgentEndedError) == (runtime.node(agent_id).driver is None)
        return str(exc)
    return None


# -- the table itself -------------------------------------------------------------------------


def test_a_replay_allows_nothing_and_attached_allows_what_local_does() -> None:
    kinds: tuple[frozenset[str], ...] = (
        frozenset(),
        frozenset({"question"}),
        frozenset({"approval"}),
    )
    for status, driver, asks in product(AgentStatus, DRIVERS, kinds):
        view = AgentView(status, driver, asks)
        assert allowed(view, Mode.REPLAY) == frozenset()
        assert allowed(view, Mode.ATTACHED) == allowed(view, Mode.LOCAL)
        for command in Command:
            refused = refusal("main", view, command, Mode.REPLAY)
            assert refused is not None and "replay" in str(refused)
            local = refusal("main", view, command, Mode.LOCAL)
            assert (local is None) == (command in allowed(view, Mode.LOCAL)), (view, command)
    assert allowed(None, Mode.LOCAL) == {Command.START}
    assert allowed(None, Mode.REPLAY) == frozenset()


# -- the runtime ------------------------------------------------------------------------------


async def test_the_runtime_takes_exactly_what_the_table_allows() -> None:
    ids = count(1)
    async with scripted_runtime(DONE) as runtime:
        for status, driver, command in product(AgentStatus, DRIVERS, AGENT_COMMANDS):
            agent_id = _agent_in(runtime, ids, status, driver)
            expected = _words(agent_id, AgentView.of(runtime.node(agent_id)), command, Mode.LOCAL)
            refused = _refused_by(runtime, command, agent_id)
            assert refused == expected, (status, driver, command)


def _asks(kind: str) -> Turn:
    if kind == "approval":
        return Turn(tool_calls=[ScriptedToolCall(name="deploy", arguments={"target": "prod"})])
    return Turn(tool_calls=[ScriptedToolCall(name="ask_user", arguments={"question": "Which?"})])


@pytest.mark.parametrize("kind", ["question", "approval"])
async def test_an_agent_that_asks_takes_an_answer_and_only_an_approval_takes_a_decision(
    kind: str,
) -> None:
    tools = ToolRegistry([ASK_USER, deploy_tool([])])
    async with scripted_runtime(_asks(kind), DONE, tools=tools) as runtime:
        agent_id = runtime.start("work")
        while not runtime.open_queries():
            await anyio.lowlevel.checkpoint()
        (query,) = runtime.open_queries()
        table = runtime.allowed(agent_id)
        assert Command.ANSWER in table
        assert (Command.APPROVE in table) == (kind == "approval")
        _decide(runtime, query, Command.APPROVE if kind == "approval" else Command.ANSWER)
        assert Command.ANSWER not in runtime.allowed(agent_id)
        await runtime.wait(agent_id)
        assert not {Command.ANSWER, Command.APPROVE} & runtime.allowed(agent_id)


def _decide(runtime: Runtime, query: Query, command: Command) -> None:
    if command is Command.APPROVE:
        runtime.approve(query.id, "once")
    else:
        runtime.answer(query.id, "the blue one")


SEQUENCES = st.lists(st.sampled_from(AGENT_COMMANDS), min_size=1, max_size=8)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(commands=SEQUENCES)
async def test_through_any_commands_the_runtime_takes_what_the_table_allows(
    commands: list[Command],
) -> None:
    async with scripted_runtime(script=Script.for_all(*[HANGS] * 12)) as runtime:
        agent_id = runtime.start("work")
        for command in commands:
            expected = command in runtime.allowed(agent_id)  # read in the same step as given
            accepted = _refused_by(runtime, command, agent_id) is None
            assert accepted == expected, (runtime.node(agent_id).status, command)
            for _ in range(5):  # let the run move on: the next command finds where it went
                await anyio.lowlevel.checkpoint()


# -- the HTTP API -----------------------------------------------------------------------------

HTTP_CALLS: dict[Command, Callable[[RemoteClient, str], Awaitable[Any]]] = {
    Command.CONTINUE: lambda client, agent_id: client.send(agent_id, "go on"),
    Command.PAUSE: lambda client, agent_id: client.pause(agent_id),
    Command.RESUME: lambda client, agent_id: client.resume(agent_id),
    Command.CANCEL: lambda client, agent_id: client.cancel(agent_id),
    Command.INTERRUPT: lambda client, agent_id: client.cancel(
        agent_id, "interrupted by the person"
    ),
    Command.DELETE: lambda client, agent_id: client.delete(agent_id),
    Command.MODIFY: lambda client, agent_id: client.modify(agent_id, content="another task"),
    Command.STEER: lambda client, agent_id: client.steer(agent_id, "a word"),
    Command.BUDGET: lambda client, agent_id: client.set_budget(agent_id, {"tokens": 50_000}),
    Command.PAST_BUDGET: lambda client, agent_id: client.continue_past_budget(agent_id),
}
# The seed's intervention that asks for each command (its userComment, userContent, status).
INTERVENTIONS: dict[Command, dict[str, str]] = {
    Command.STEER: {"user_comment": "a word"},
    Command.MODIFY: {"user_comment": "modify", "user_content": "another task"},
    Command.PAUSE: {"status": "paused"},
    Command.RESUME: {"status": "running"},
    Command.CANCEL: {"status": "cancelled"},
    Command.DELETE: {"user_comment": "delete"},
}


async def _http_refusal(call: Awaitable[Any]) -> tuple[int, str] | None:
    try:
        await call
    except RemoteError as exc:
        return exc.status, exc.message
    return None


async def test_the_http_api_answers_by_the_table_in_its_words() -> None:
    from ..remote.server_fixture import served_runtime

    ids = count(1)
    async with served_runtime(DONE) as server, server.client() as client:
        runtime = server.runtime
        for status, driver in product(AgentStatus, DRIVERS):
            for command, call in HTTP_CALLS.items():
                agent_id = _agent_in(runtime, ids, status, driver)
                view = AgentView.of(runtime.node(agent_id))
                expected = _words(agent_id, view, command, Mode.ATTACHED)
                answered = await _http_refusal(call(client, agent_id))
                assert answered == (None if expected is None else (409, expected)), (
                    status, driver, command,
                )  # fmt: skip
            for command, body in INTERVENTIONS.items():
                agent_id = _agent_in(runtime, ids, status, driver)
                view = AgentView.of(runtime.node(agent_id))
                expected = _words(agent_id, view, command, Mode.ATTACHED)
                answered = await _http_refusal(client.intervene(agent_id, **body))
                assert answered == (None if expected is None else (409, expected)), (
                    status, driver, command, body,
                )  # fmt: skip


# -- ACP ----------------------------------------------------------------------------------------


async def test_acp_sends_a_prompt_to_a_root_that_takes_a_steer_or_a_new_message() -> None:
    from agentui.core.acp.session import takes_a_prompt

    ids = count(1)
    async with scripted_runtime(DONE) as runtime:
        for status, driver in product(AgentStatus, DRIVERS):
            taken = []
            for command in (Command.STEER, Command.CONTINUE):
                agent_id = _agent_in(runtime, ids, status, driver)
                taken.append(_refused_by(runtime, command, agent_id) is None)
            folded = AgentState(
                id="r", name="r", task="t", status=status, driver=driver, created_at=0.0
            )
            assert takes_a_prompt(RunState(), folded) == any(taken), (status, driver)
