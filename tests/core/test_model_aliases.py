"""Model aliases: on Claude, `--model sonnet`, `model = "sonnet"`, `narrator_model` and
`[monologue] model = "sonnet"` all mean the same model; a profile's or the narrator's model
goes through the aliases of the provider that runs it (core/providers/model_aliases.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentui.core.config.settings import Config
from agentui.core.monologue.config import MonologueConfig
from agentui.core.monologue.narrator import Narrator
from agentui.core.providers import model_aliases as aliases
from agentui.core.providers.anthropic.defaults import MODEL_ALIASES, resolve_model
from agentui.core.providers.factory import make_provider
from agentui.core.providers.record.exchange import Exchange
from agentui.core.providers.record.replay import ReplayProvider
from agentui.core.providers.scripted.provider import ScriptedProvider

ALIASES = [*MODEL_ALIASES, *(alias.upper() for alias in MODEL_ALIASES), " Sonnet "]


@pytest.mark.anyio
@pytest.mark.parametrize("alias", ALIASES)
async def test_the_monologue_and_the_agents_resolve_every_alias_the_same(alias: str) -> None:
    agents = make_provider("anthropic", model=alias, environ={"ANTHROPIC_API_KEY": "sk-test"})
    try:
        agents_model = agents.model
    finally:
        await agents.aclose()
    from_file = Config.model_validate({"monologue": {"model": alias}}).monologue_config()
    narrator_setting = Config.model_validate({"narrator_model": alias}).monologue_config()

    assert agents_model == MODEL_ALIASES[alias.strip().lower()]
    assert MonologueConfig(model=alias).resolved_model == agents_model
    assert from_file.resolved_model == agents_model
    assert narrator_setting.resolved_model == agents_model


def test_ids_pass_through_and_a_config_may_replace_the_table() -> None:
    assert resolve_model(" claude-haiku-4-5-20251001 ") == "claude-haiku-4-5-20251001"
    assert MonologueConfig(model="my-model-1").resolved_model == "my-model-1"
    custom = MonologueConfig(model="Cheap", model_aliases={"cheap": "my-model-1"})
    assert custom.resolved_model == "my-model-1"
    assert MonologueConfig(model="sonnet", model_aliases={}).resolved_model == "sonnet"


@pytest.mark.parametrize(
    ("provider", "name", "model"),
    [
        ("anthropic", " Haiku ", "claude-haiku-4-5"),
        ("google", "flash", "gemini-3.8-flash"),
        ("google", "models/gemini-2.5-pro", "gemini-2.5-pro"),
        ("google", "haiku", "haiku"),
        ("openai", "flash", "flash"),
        ("scripted", " sonnet ", "sonnet"),
    ],
)
def test_a_name_goes_through_the_aliases_of_the_provider_that_runs_it(
    provider: str, name: str, model: str
) -> None:
    assert aliases.resolve_model(provider, name) == model
    stand_in = ScriptedProvider()
    stand_in.name = provider
    assert aliases.model_on(stand_in, name) == model
    narrator = Narrator(stand_in, MonologueConfig(model=name, model_aliases={}))
    assert narrator.model == model


def test_a_replay_reads_a_name_as_its_recording_did(tmp_path: Path) -> None:
    exchange = Exchange(
        agent="main",
        index=0,
        request={"agent": "main", "purpose": "agent", "model": "gemini-3.8-flash"},
        events=[],
        outcome="complete",
    )
    (tmp_path / exchange.file_name).write_text(exchange.model_dump_json())
    replay = ReplayProvider(tmp_path, model="flash")
    assert replay.model == "gemini-3.8-flash"
    assert aliases.model_on(replay, "flash") == "gemini-3.8-flash"
    assert aliases.model_on(replay, "haiku") == "haiku", "not a model it recorded"
