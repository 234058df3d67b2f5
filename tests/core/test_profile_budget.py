"""A profile's budget: written as --budget takes it or as a table (the same measures and
suffixes), refused in one message naming the file and the field; applied to the agents started
with the profile, never more than they were given otherwise ([budget], --budget, a parent's
share)."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentui.core.agent.budget import Budget
from agentui.core.agent.steps import ForkOrigin
from agentui.core.profiles.catalog import ProfileCatalog, builtin_profiles
from agentui.core.profiles.loading import load_profile_file, profile_from_data
from agentui.core.profiles.profile import AgentProfile, ProfileOrigin
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, Turn
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock
from agentui.core.support.errors import ProfileError
from agentui.core.tools.registry import ToolRegistry

pytestmark = pytest.mark.anyio

WRITER = 'instructions = "Write it."\n'


def written(tmp_path: Path, text: str, name: str = "writer.toml") -> Path:
    path = tmp_path / name
    path.write_text(WRITER + text, "utf-8")
    return path


@pytest.mark.parametrize(
    ("text", "budget"),
    [
        ('budget = "tokens=50k,usd=2"\n', Budget(tokens=50_000, usd=2.0)),
        ('budget = "tokens=1.5M, tool-calls=40"\n', Budget(tokens=1_500_000, tool_calls=40)),
        ('[budget]\ntokens = "5k"\nminutes = 30\nusd = "$0.50"\n',
         Budget(tokens=5_000, minutes=30.0, usd=0.5)),
        ('budget = ""\n', None),
    ],
    ids=["flag form", "suffix M and a dash", "table", "empty"],
)  # fmt: skip
def test_a_budget_is_read_as_the_flag_and_the_config_write_it(
    tmp_path: Path, text: str, budget: Budget | None
) -> None:
    assert load_profile_file(written(tmp_path, text)).budget == budget


def test_a_json_profile_takes_a_table_of_numbers(tmp_path: Path) -> None:
    path = tmp_path / "critic.json"
    path.write_text('{"instructions": "Judge.", "budget": {"tokens": 8000, "model_calls": 5}}')
    assert load_profile_file(path).budget == Budget(tokens=8_000, model_calls=5)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('budget = "cost=2"\n', "budget: 'cost' is not one of tokens, usd, minutes"),
        ("[budget]\ntokens = \"lots\"\n", "budget: tokens: Input should be a valid integer"),
        ('budget = "tokens"\n', "budget: 'tokens': give it as name=value"),
        ("budget = 5000\n", "budget: give it as a table of limits or as text like tokens=50k"),
        ('[budget]\nusd = -1\n', "budget: usd: Input should be greater than 0"),
    ],
    ids=["unknown measure", "not a number", "no value", "a bare number", "below zero"],
)  # fmt: skip
def test_a_bad_budget_is_one_message_naming_the_file_and_the_field(
    tmp_path: Path, text: str, said: str
) -> None:
    path = written(tmp_path, text)
    with pytest.raises(ProfileError) as caught:
        load_profile_file(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: {said}")
    assert "\n" not in message


def test_within_what_was_given_each_limit_is_the_lower_and_the_others_stay() -> None:
    profile = scene_profile({"budget": "tokens=5k,tool_calls=10"})
    given = Budget(tokens=3_000, usd=1.0)
    assert profile.budget_within(given) == Budget(tokens=3_000, usd=1.0, tool_calls=10)
    assert profile.budget_within(None) == Budget(tokens=5_000, tool_calls=10)
    assert scene_profile({}).budget_within(given) == given


# -- applied to the agents started with it ---------------------------------------------------


def scene_profile(extra: dict[str, object], name: str = "writer") -> AgentProfile:
    data = {"name": name, "instructions": "Write it.", **extra}
    return profile_from_data(data, ProfileOrigin(source="scene", where="test scene"))


def runtime_with(*profiles: AgentProfile, budget: Budget | None = None) -> Runtime:
    provider = ScriptedProvider(Script.for_all(Turn(text="done", hang_after_chunks=1)))
    return Runtime(
        provider,
        tools=ToolRegistry([]),
        clock=FrozenClock(),
        profiles=ProfileCatalog([*builtin_profiles(), *profiles]),
        budget=budget,
    )


async def test_an_agent_started_with_the_profile_gets_its_budget() -> None:
    runtime = runtime_with(scene_profile({"budget": "tokens=5k"}))
    async with runtime:
        root = runtime.start("Write the invitations", profile="writer")
        assert runtime.node(root).budget == Budget(tokens=5_000)
        plain = runtime.start("Something else")
        assert runtime.node(plain).budget is None
        runtime.cancel(root)
        runtime.cancel(plain)


async def test_a_profile_never_gives_more_than_the_flag_or_the_parent_s_share() -> None:
    runtime = runtime_with(
        scene_profile({"budget": "tokens=50k,tool_calls=10"}), budget=Budget(tokens=20_000)
    )
    async with runtime:
        root = runtime.start("Plan a launch", profile="writer")
        assert runtime.node(root).budget == Budget(tokens=20_000, tool_calls=10)
        child = runtime.start("Draft it", parent_id=root, profile="writer")
        # Its share of the root's: the whole of what is left for a first child.
        assert runtime.node(child).budget == Budget(tokens=20_000, tool_calls=10)
        runtime.cancel(root)


async def test_a_fork_holds_to_its_profile_s_budget_within_the_runtime_s() -> None:
    runtime = runtime_with(
        scene_profile({"budget": "tokens=50k,tool_calls=10"}), budget=Budget(tokens=20_000)
    )
    async with runtime:
        root = runtime.start("Plan a launch", profile="writer")
        fork = runtime.fork_from(root, 0)
        assert runtime.node(fork).budget == Budget(tokens=20_000, tool_calls=10)
        # A saved session's fork names the profile (agentui fork): the same budget.
        origin = ForkOrigin("a0", "saved", 0, session="s1")
        messages = runtime.node(root).conversation.messages[:1]
        saved = runtime.start_from("Plan a launch", "Write it.", messages, origin=origin,
                                   profile="writer")  # fmt: skip
        assert runtime.node(saved).budget == Budget(tokens=20_000, tool_calls=10)
        assert runtime.node(saved).profile == "writer"
        for agent_id in (root, fork, saved):
            runtime.cancel(agent_id)
