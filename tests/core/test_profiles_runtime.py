"""Agents with profiles in the real runtime on the scripted model: a JSON answer that fails its
contract and is retried with the errors, one that never holds (the agent fails with the error
on its node), payloads, the offline model answering from the declared contract, a profile's
tools and model, fork with a profile from the tool and from python, and a scene's own profile."""

from __future__ import annotations

import json
import sys
from typing import Any

import anyio
import pytest

from agentui.core.agent.tree import AgentNode, AgentStatus
from agentui.core.profiles.catalog import ProfileCatalog, builtin_profiles
from agentui.core.profiles.config import ProfilesConfig
from agentui.core.profiles.loading import profile_from_data
from agentui.core.profiles.profile import AgentProfile, ProfileOrigin
from agentui.core.profiles.prompt import profile_instructions
from agentui.core.protocol.events import AnswerValidated, Event
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.state import RunState
from agentui.core.support.clock import FrozenClock
from agentui.core.support.errors import AgentUIError, UnknownProfileError
from agentui.core.tools.ask_user import ASK_USER
from agentui.core.tools.fork import FORK, WAIT
from agentui.core.tools.python import PythonToolConfig, python_tool
from agentui.core.tools.registry import ToolRegistry

from .helpers import Recorder

pytestmark = pytest.mark.anyio

S = AgentStatus
SCORER = {
    "name": "scorer",
    "instructions": "Score the work.",
    "tools": [],
    "expects_json": True,
    "json_mode": "schema",
    "json_schema": {
        "type": "object",
        "properties": {"score": {"type": "integer", "minimum": 1}, "why": {"type": "string"}},
        "required": ["score", "why"],
        "additionalProperties": False,
    },
}
GOOD = '{"score": 8, "why": "clear"}'


def scene_profile(data: dict[str, Any]) -> AgentProfile:
    return profile_from_data(data, ProfileOrigin(source="scene", where="test scene"))


def build(
    script: Script | None,
    *,
    profiles: list[AgentProfile] = (),  # type: ignore[assignment]
    settings: ProfilesConfig | None = None,
    tools: ToolRegistry | None = None,
) -> tuple[Runtime, ScriptedProvider]:
    provider = ScriptedProvider(script)
    catalog = ProfileCatalog([*builtin_profiles(), *profiles])
    runtime = Runtime(
        provider,
        tools=tools if tools is not None else ToolRegistry([ASK_USER, FORK, WAIT]),
        clock=FrozenClock(),
        profiles=catalog,
        profile_settings=settings,
    )
    return runtime, provider


async def run_to_end(runtime: Runtime, task: str, **options: Any) -> tuple[str, list[Event]]:
    recorder = Recorder(runtime)
    agent_id = runtime.start(task, **options)
    with anyio.fail_after(10):  # safety net only
        await runtime.wait(agent_id)
    recorder.sync()
    return agent_id, recorder.events


def checks(events: list[Event]) -> list[AnswerValidated]:
    return [e for e in events if isinstance(e, AnswerValidated)]


# -- the contract at run time -----------------------------------------------------------------------


async def test_an_invalid_answer_is_retried_with_its_errors_then_holds() -> None:
    script = Script(
        agents={"*": [Turn(text='{"score": "high"}'), Turn(text=f"```json\n{GOOD}\n```")]}
    )
    runtime, provider = build(script, profiles=[scene_profile(SCORER)])
    async with runtime:
        agent_id, events = await run_to_end(runtime, "Score my essay", profile="scorer")

    node = runtime.node(agent_id)
    assert (node.status, node.profile, node.error) == (S.COMPLETED, "scorer", None)
    assert node.result == json.dumps({"score": 8, "why": "clear"})
    assert runtime.payload(agent_id) == {"score": 8, "why": "clear"}
    first, second = checks(events)
    assert (first.attempt, first.attempts, first.ok, first.profile) == (1, 3, False, "scorer")
    assert first.errors == [
        "$: 'why' is a required property",
        "$.score: 'high' is not of type 'integer'",
    ]
    assert (second.attempt, second.ok, second.errors, second.payload) == (2, True, [], None)
    # The retry carries the errors, by JSON path, as the person's words to the model.
    retry = provider.requests[1].messages[-1]
    assert retry.role == "user"
    assert "$.score: 'high' is not of type 'integer'" in retry.text
    assert "$: 'why' is a required property" in retry.text
    # Every request declares the contract: its instructions show the schema, its schema field
    # lets a provider with structured output hold the model to it.
    for request in provider.requests:
        assert request.instructions == profile_instructions(scene_profile(SCORER))
        assert request.response_schema == SCORER["json_schema"]
        assert request.tools == []


async def test_an_answer_that_never_holds_fails_the_agent_with_the_error_on_its_node() -> None:
    script = Script(agents={"*": [Turn(text="Eight out of ten."), Turn(text='{"score": 0}')]})
    runtime, _ = build(
        script, profiles=[scene_profile(SCORER)], settings=ProfilesConfig(json_retries=1)
    )
    async with runtime:
        agent_id, events = await run_to_end(runtime, "Score my essay", profile="scorer")

    node = runtime.node(agent_id)
    assert (node.status, node.result, runtime.payload(agent_id)) == (S.ERROR, None, None)
    assert node.error == (
        "the answer is not valid for profile 'scorer''s JSON contract after 2 attempts: "
        "$: 'why' is a required property; $.score: 0 is less than the minimum of 1"
    )
    assert [(c.attempt, c.attempts, c.ok) for c in checks(events)] == [(1, 2, False), (2, 2, False)]
    failed = [e for e in events if e.type == "execution:error"]
    assert [(e.kind, e.error) for e in failed] == [("contract", node.error)]  # type: ignore[attr-defined]

    # What a screen folds from the events: the error on the node, each failed check shown.
    state = RunState()
    state.apply_all(events)
    agent = state.agents[agent_id]
    assert (agent.status, agent.error, agent.profile) == (S.ERROR, node.error, "scorer")
    invalid = [item for item in agent.entries if item.title == "invalid answer"]
    assert [item.text for item in invalid] == [
        "not valid for profile scorer (attempt 1 of 2; asking again): "
        "$: the answer is not JSON (Expecting value at line 1 column 1)",
        "not valid for profile scorer (attempt 2 of 2; no attempts left): "
        "$: 'why' is a required property; $.score: 0 is less than the minimum of 1",
    ]


async def test_with_log_payloads_each_validated_payload_is_in_its_event_and_shown() -> None:
    script = Script(agents={"*": [Turn(text=GOOD)]})
    runtime, _ = build(
        script, profiles=[scene_profile(SCORER)], settings=ProfilesConfig(log_payloads=True)
    )
    async with runtime:
        agent_id, events = await run_to_end(runtime, "Score it", profile="scorer")
    (check,) = checks(events)
    assert check.payload == {"score": 8, "why": "clear"}
    state = RunState()
    state.apply_all(events)
    (shown,) = [item for item in state.agents[agent_id].entries if item.title == "payload"]
    assert shown.text == 'valid for profile scorer: {"score": 8, "why": "clear"}'


async def test_a_text_profile_bypasses_the_contract() -> None:
    script = Script(agents={"*": [Turn(text="Done, in prose.")]})
    runtime, provider = build(script)
    async with runtime:
        agent_id, events = await run_to_end(runtime, "Do the thing", profile="worker")
    assert runtime.node(agent_id).result == "Done, in prose."
    assert runtime.payload(agent_id) is None
    assert checks(events) == []
    (request,) = provider.requests
    assert (request.response_schema, request.response_example) == (None, None)
    assert request.instructions == profile_instructions(runtime.profiles.get("worker"))
    assert [t.name for t in request.tools] == ["ask_user", "fork", "wait"]  # the runtime's


# -- the offline model answers from the contract ------------------------------------------------


@pytest.mark.parametrize("name", ["director", "critic", "summarizer"])
async def test_the_offline_model_answers_a_json_profile_validly(name: str) -> None:
    runtime, provider = build(None)  # the demo: no script
    async with runtime:
        agent_id, events = await run_to_end(runtime, "Run the scene", profile=name)
    assert runtime.node(agent_id).status is S.COMPLETED
    profile = runtime.profiles.get(name)
    assert runtime.payload(agent_id) == profile.json_example
    assert [c.ok for c in checks(events)] == [True]
    assert provider.requests[0].response_example == profile.json_example


async def test_the_offline_model_fills_a_schema_without_an_example() -> None:
    runtime, _ = build(None, profiles=[scene_profile(SCORER)])
    async with runtime:
        agent_id, _ = await run_to_end(runtime, "Score it", profile="scorer")
    assert runtime.payload(agent_id) == {"score": 1, "why": "example why"}


# -- what a profile gives an agent --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("provider_name", "alias", "model"),
    [
        ("anthropic", "haiku", "claude-haiku-4-5"),
        ("google", "flash", "gemini-3.8-flash"),
        ("google", "haiku", "haiku"),  # Claude's alias means nothing to Gemini
        ("openai", "flash", "flash"),  # a local server may call a model so
        ("scripted", "sonnet", "sonnet"),
    ],
)
async def test_a_profile_picks_the_runtimes_tools_and_its_own_model_in_its_providers_names(
    provider_name: str, alias: str, model: str
) -> None:
    picky = scene_profile({"name": "asker", "instructions": "Ask.", "tools": ["ask_user"]})
    fast = scene_profile({"name": "fast", "instructions": "Hurry.", "model": alias})
    script = Script(agents={"*": [Turn(text="ok")]})
    runtime, provider = build(script, profiles=[picky, fast])
    provider.name = provider_name  # the offline model standing in for that backend
    async with runtime:
        await run_to_end(runtime, "one", profile="asker")
        fast_id, events = await run_to_end(runtime, "two", profile="fast")
    asker_request, fast_request = provider.requests
    assert [t.name for t in asker_request.tools] == ["ask_user"]
    assert fast_request.model == model
    assert [e.model for e in events if e.type == "llm:request" and e.agent_id == fast_id] == [  # type: ignore[attr-defined]
        model
    ]


async def test_a_resumed_agent_runs_its_profiles_model_in_its_providers_names() -> None:
    fast = scene_profile({"name": "fast", "instructions": "Hurry.", "model": "flash"})
    script = Script(agents={"*": [Turn(text="ok"), Turn(text="more")]})
    runtime, provider = build(script, profiles=[fast])
    provider.name = "google"
    saved = AgentNode(
        id="a1", name="main", task="one", profile="fast", created_at=0.0, status=S.COMPLETED
    )
    async with runtime:
        runtime.adopt(saved)
        runtime.send("a1", "go on")
        with anyio.fail_after(10):  # safety net only
            await runtime.wait("a1")
    assert [r.model for r in provider.requests] == ["gemini-3.8-flash"]


async def test_a_profile_naming_a_tool_the_runtime_lacks_is_refused() -> None:
    runtime, _ = build(None, profiles=[scene_profile({**SCORER, "tools": ["python", "ask_user"]})])
    async with runtime:
        with pytest.raises(AgentUIError) as caught:
            runtime.start("Score it", profile="scorer")
        with pytest.raises(UnknownProfileError):
            runtime.start("Score it", profile="no-such")
        with pytest.raises(AgentUIError, match="a profile or instructions, not both"):
            runtime.start("Score it", profile="worker", instructions="Be brief.")
    assert str(caught.value) == (
        "profile 'scorer' (scene test scene) names tools this runtime does not have: python; "
        "it has: ask_user, fork, wait"
    )
    assert runtime.snapshot()["agents"] == {}  # nothing was started


async def test_a_scenes_own_profile_runs_without_a_catalog_entry() -> None:
    barkeep = scene_profile(
        {"name": "barkeep", "instructions": "Pour drinks.", "persona": "Gruff.", "tools": []}
    )
    runtime, provider = build(Script(agents={"*": [Turn(text="*pours*")]}))
    async with runtime:
        agent_id, events = await run_to_end(runtime, "A stranger walks in", profile=barkeep)
    assert runtime.node(agent_id).profile == "barkeep"
    assert provider.requests[0].instructions == "Pour drinks.\n\nYour persona:\nGruff."
    (spawned,) = [e for e in events if e.type == "agent:spawned"]
    assert spawned.profile == "barkeep"  # type: ignore[attr-defined]


# -- fork with a profile --------------------------------------------------------------------------


def fork_call(prompt: str, **arguments: Any) -> ScriptedToolCall:
    return ScriptedToolCall(name="fork", arguments={"prompt": prompt, **arguments})


async def test_the_fork_tool_starts_a_subagent_with_a_profile() -> None:
    script = Script(
        agents={
            "main": [
                Turn(tool_calls=[fork_call("Review the plan", profile="scorer")]),
                Turn(tool_calls=[ScriptedToolCall(name="wait", arguments={"handle": "a2"})]),
                Turn(text="Reviewed."),
            ],
            "main.1": [Turn(text=GOOD)],
        }
    )
    runtime, provider = build(script, profiles=[scene_profile(SCORER)])
    async with runtime:
        root, _ = await run_to_end(runtime, "Plan and review")
    child = runtime.node("a2")
    assert (child.parent_id, child.profile, child.status) == (root, "scorer", S.COMPLETED)
    assert runtime.payload("a2") == {"score": 8, "why": "clear"}
    (child_request,) = [r for r in provider.requests if r.agent_id == "a2"]
    assert child_request.instructions == profile_instructions(scene_profile(SCORER))
    assert child_request.tools == []
    waited = [r for r in provider.requests if r.agent_id == root][2].messages[-1]
    assert [(b.content, b.is_error) for b in waited.tool_results] == [
        ('{"score": 8, "why": "clear"}', False)
    ]


async def test_forking_an_unknown_profile_is_a_tool_error_listing_the_known_ones() -> None:
    script = Script(
        agents={
            "main": [
                Turn(tool_calls=[fork_call("Review", profile="critc")]),
                Turn(text="I will do it myself."),
            ]
        }
    )
    runtime, provider = build(script)
    async with runtime:
        root, _ = await run_to_end(runtime, "Plan")
    results = [r for r in provider.requests if r.agent_id == root][1].messages[-1].tool_results
    assert [(b.content, b.is_error) for b in results] == [
        (
            "unknown profile 'critc'; the profiles are: "
            "character, critic, director, summarizer, worker, world",
            True,
        )
    ]
    assert runtime.node(root).children == []


@pytest.mark.skipif(sys.platform == "win32", reason="the sandbox needs POSIX")
async def test_python_fork_takes_a_profile() -> None:
    code = (
        "h = fork('Review the plan', profile='scorer')\n"
        "print(wait(h))\n"
        "try:\n"
        "    fork('Again', profile='nobody')\n"
        "except AgentError as exc:\n"
        "    print('refused:', exc)\n"
    )
    script = Script(
        agents={
            "main": [
                Turn(tool_calls=[ScriptedToolCall(name="python", arguments={"code": code})]),
                Turn(text="done"),
            ],
            "main.1": [Turn(text=GOOD)],
        }
    )
    quick = PythonToolConfig(needs_approval=False, timeout_s=20, cpu_s=20, memory_mb=256)
    tools = ToolRegistry([ASK_USER, FORK, WAIT, python_tool(quick)])
    runtime, provider = build(script, profiles=[scene_profile(SCORER)], tools=tools)
    async with runtime:
        root, _ = await run_to_end(runtime, "Plan and review")
    (result,) = [r for r in provider.requests if r.agent_id == root][1].messages[-1].tool_results
    assert (result.content, result.is_error) == (
        '{"score": 8, "why": "clear"}\n'
        "refused: unknown profile 'nobody'; the profiles are: "
        "character, critic, director, scorer, summarizer, worker, world\n",
        False,
    )
    assert runtime.node("a2").profile == "scorer"
