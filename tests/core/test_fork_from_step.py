"""Fork from a step: a new root NAME~1 from a copy of an agent's conversation at one of its
steps, beside its origin; tool results before the step are reused, never run again. And the
property: folding the log after any rewinds and forks gives the runtime's state."""

from __future__ import annotations

import anyio
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentui.core.agent.steps import steps_in
from agentui.core.protocol.events import AgentForked
from agentui.core.providers.scripted.script import Script, Turn
from agentui.core.session.fold import fold_session
from agentui.core.session.reader import read_session
from agentui.core.tools.ask_user import ASK_USER
from agentui.core.tools.registry import ToolRegistry

from .helpers import Recorder, is_type, scripted_runtime
from .session_helpers import SAFETY_NET_S, recorded_runtime
from .test_rewind import TALLY, tally_tool

pytestmark = pytest.mark.anyio


async def test_a_fork_starts_beside_its_origin_from_its_conversation_at_the_step() -> None:
    runs: list[int] = []
    tools = ToolRegistry([ASK_USER, tally_tool(runs)])
    script = Script(agents={"main": [TALLY, Turn(text="Origin done.")],
                            "main~1": [Turn(text="Fork done.")],
                            "main~2": [Turn(text="Second fork.")]})  # fmt: skip
    async with scripted_runtime(script=script, tools=tools) as runtime:
        recorder = Recorder(runtime)
        root = runtime.start("count")
        await runtime.wait(root)
        fork = runtime.fork_from(root, 2, instructions="Be brief.")
        await runtime.wait(fork)
        second = runtime.fork_from(root, 2)
        await runtime.wait(second)

        node = runtime.node(fork)
        assert (node.name, node.parent_id, node.result) == ("main~1", None, "Fork done.")
        assert runtime.node(second).name == "main~2"
        assert runs == [1], "the tool result before the step was reused, not run again"
        origin = runtime.node(root).conversation.messages
        assert node.conversation.messages[:3] == origin[:3]
        assert node.conversation.instructions == "Be brief."
        recorder.sync()
        (forked,) = recorder.of("agent:forked", agent_id=fork)
        assert isinstance(forked, AgentForked) and forked.origin == "main@2"
        assert node.forked_from == forked
        assert runtime.node(root).result == "Origin done.", "the origin is untouched"
        assert [s.kind for s in runtime.steps(fork)] == ["task", "model"]


async def test_a_fork_from_a_model_call_runs_its_tool_calls_anew() -> None:
    runs: list[int] = []
    tools = ToolRegistry([ASK_USER, tally_tool(runs)])
    script = Script(agents={"main": [TALLY, Turn(text="done")], "main~1": [Turn(text="again")]})
    async with scripted_runtime(script=script, tools=tools) as runtime:
        root = runtime.start("count")
        await runtime.wait(root)
        fork = runtime.fork_from(root, 1)
        await runtime.wait(fork)
        assert runs == [1, 1], "the call at the step had no result yet: it ran in the fork"
        assert runtime.node(fork).result == "again"


# -- the property ------------------------------------------------------------------------------

# What a person does after the first run: rewind the agent to a step and resume it (with a
# steer, or not), or fork it from a step; a step is picked as a fraction of the agent's steps.
ACTIONS = st.lists(
    st.tuples(st.sampled_from(["rewind", "rewind+steer", "fork"]), st.floats(0, 1)),
    min_size=1,
    max_size=4,
)


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(actions=ACTIONS)
async def test_folding_the_log_after_rewinds_and_forks_gives_the_runtime_s_state(
    tmp_path_factory: pytest.TempPathFactory, actions: list[tuple[str, float]]
) -> None:
    runs: list[int] = []
    turns = [TALLY, Turn(text="An answer.")] * 8
    runtime = recorded_runtime(
        tmp_path_factory.mktemp("session"), script=Script.for_all(*turns), tools=[tally_tool(runs)]
    )
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("count")
        await runtime.wait(root)
        agents = [root]
        for action, where in actions:
            agent_id = agents[-1]
            steps = [s for s in runtime.steps(agent_id) if not s.set_aside]
            step = steps[min(int(where * len(steps)), len(steps) - 1)].number
            if action == "fork":
                agents.append(runtime.fork_from(agent_id, step))
            else:
                runtime.rewind(agent_id, step)
                await recorder.wait_for(is_type("agent:rewound", agent_id),
                                        count=len(recorder.of("agent:rewound", agent_id=agent_id)) + 1)  # fmt: skip
                if action == "rewind+steer":
                    runtime.steer(agent_id, "once more")
                runtime.resume(agent_id)
            with anyio.fail_after(SAFETY_NET_S):
                await runtime.wait(agents[-1])
        live = runtime.tree()
        conversations = {i: runtime.agent(i)["conversation"] for i in live["agents"]}
        live_steps = {i: runtime.steps(i) for i in live["agents"]}
        marks = {
            i: (runtime.node(i).forked_from, runtime.node(i).set_aside) for i in live["agents"]
        }
    assert runtime.session.path is not None
    log = read_session(runtime.session.path)
    state = fold_session(log)
    assert {i: a.snapshot() for i, a in state.agents.items()} == live["agents"]
    for agent_id, agent in state.agents.items():
        assert agent.conversation.model_dump(mode="json") == conversations[agent_id]
        assert steps_in(log.events, agent_id, agent.name).steps == live_steps[agent_id]
        assert (agent.forked_from, agent.set_aside) == marks[agent_id]
