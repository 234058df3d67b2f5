"""One table of model aliases: `--model sonnet`, `model = "sonnet"`, `narrator_model` and
`[monologue] model = "sonnet"` all mean the same model."""

from __future__ import annotations

import pytest

from agentui.core.config import Config
from agentui.core.monologue.config import MonologueConfig
from agentui.core.providers.anthropic.defaults import MODEL_ALIASES, resolve_model
from agentui.core.providers.factory import make_provider

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
