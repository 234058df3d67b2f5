"""The price table and the cost the runtime puts on usage events and nodes."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from agentui.core.protocol.events import UsageUpdated
from agentui.core.protocol.usage import Usage
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, Turn
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock
from agentui.core.support.pricing import DEFAULT_PRICES, ModelPrice, PriceTable

USAGE = Usage(
    input_tokens=1_000_000,
    output_tokens=100_000,
    cache_creation_input_tokens=10_000,
    cache_read_input_tokens=200_000,
)


def test_cost_adds_every_kind_of_token_at_its_price() -> None:
    price = ModelPrice(input=3, output=15, cache_write=3.75, cache_read=0.30)

    assert price.cost(USAGE) == pytest.approx(3 + 1.5 + 0.0375 + 0.06)


def test_every_default_model_has_a_price() -> None:
    for model in ("claude-haiku-4-5", "claude-sonnet-4-6", "claude-opus-4-8", "claude-sonnet-5-5"):
        assert DEFAULT_PRICES.cost(model, USAGE) is not None, model


def test_an_unknown_model_has_no_cost() -> None:
    assert DEFAULT_PRICES.cost("scripted-1", USAGE) is None
    assert DEFAULT_PRICES.cost("claude-sonnet", USAGE) is None, "no prefix without a dash"


def test_a_dated_model_id_uses_its_base_price() -> None:
    assert DEFAULT_PRICES.cost("claude-sonnet-4-5-20250929", USAGE) == DEFAULT_PRICES.cost(
        "claude-sonnet-4-5", USAGE
    )
    assert DEFAULT_PRICES.cost("gpt-4.1-2025-04-14", USAGE) == DEFAULT_PRICES.cost("gpt-4.1", USAGE)


@pytest.mark.parametrize(
    "model", ["gpt-5.4-pro", "gpt-5-codex", "gpt-4o-audio-preview", "qwen3:8b", "llama3.1"]
)
def test_another_suffix_is_another_model_and_has_no_cost(model: str) -> None:
    """Not its prefix's price: gpt-5.4-pro costs twelve times what gpt-5.4 does."""
    assert DEFAULT_PRICES.cost(model, USAGE) is None


def test_openai_cached_input_is_priced_as_a_cache_read() -> None:
    usage = Usage(
        input_tokens=1_000_000, output_tokens=1_000_000, cache_read_input_tokens=1_000_000
    )
    assert DEFAULT_PRICES.cost("gpt-5.4", usage) == pytest.approx(2.50 + 15.00 + 0.25)


def test_a_table_from_plain_data_overrides_the_defaults() -> None:
    table = PriceTable.from_dict(
        {
            "claude-sonnet-4-6": {"input": 1, "output": 2, "cache_write": 3, "cache_read": 4},
            "my-proxy-model": {"input": 0, "output": 0, "cache_write": 0, "cache_read": 0},
        },
        base=DEFAULT_PRICES,
    )

    assert table.models["claude-sonnet-4-6"] == ModelPrice(
        input=1, output=2, cache_write=3, cache_read=4
    )
    assert table.cost("my-proxy-model", USAGE) == 0
    assert table.models["claude-haiku-4-5"] == DEFAULT_PRICES.models["claude-haiku-4-5"]
    assert "my-proxy-model" not in DEFAULT_PRICES.models, "the defaults are not changed"


@pytest.mark.parametrize(
    "entry",
    [
        {"input": 1, "output": 2, "cache_write": 3},  # one price missing
        {"input": -1, "output": 2, "cache_write": 3, "cache_read": 4},
        {"input": 1, "output": 2, "cache_write": 3, "cache_read": 4, "extra": 5},
    ],
)
def test_a_malformed_entry_is_refused(entry: dict[str, float]) -> None:
    with pytest.raises(ValidationError):
        PriceTable.from_dict({"m": entry})


def test_every_problem_of_an_entry_is_one_error() -> None:
    entry = {"input": float("nan"), "output": -1, "cache_write": float("inf"), "ouput": 2}
    with pytest.raises(ValidationError) as caught:
        ModelPrice.model_validate(entry)
    (error,) = caught.value.errors()
    assert error["msg"] == (
        "Value error, input: Input should be a finite number (got nan); "
        "output: Input should be greater than or equal to 0 (got -1); "
        "cache_write: Input should be a finite number (got inf); "
        "missing cache_read; not a price: ouput; "
        "a price is input, output, cache_write, cache_read, in USD per million tokens"
    )


async def _usage_events(
    model: str, prices: PriceTable | None
) -> tuple[list[UsageUpdated], dict[str, Any]]:
    turn = Turn(text="Done.", usage=Usage(input_tokens=1000, output_tokens=200))
    provider = ScriptedProvider(Script.for_all(turn, turn), model=model)
    async with Runtime(provider, prices=prices, clock=FrozenClock()) as runtime:
        events = runtime.subscribe(maxsize=None)
        agent_id = runtime.start("Task.")
        await runtime.wait(agent_id)
        runtime.send(agent_id, "Once more.")
        await runtime.wait(agent_id)
    node = runtime.tree()["agents"][agent_id]
    return [e for e in events.drain() if isinstance(e, UsageUpdated)], node


@pytest.mark.anyio
async def test_the_runtime_prices_usage_per_agent() -> None:
    prices = PriceTable.from_dict(
        {"priced-model": {"input": 1, "output": 10, "cache_write": 0, "cache_read": 0}}
    )
    updates, node = await _usage_events("priced-model", prices)

    each = (1000 * 1 + 200 * 10) / 1e6
    assert [u.cost_usd for u in updates] == [pytest.approx(each)] * 2
    assert [u.total_cost_usd for u in updates] == [pytest.approx(each), pytest.approx(2 * each)]
    assert node["cost_usd"] == pytest.approx(2 * each)


@pytest.mark.anyio
async def test_an_unpriced_model_reports_usage_without_a_cost() -> None:
    updates, node = await _usage_events("scripted-1", None)

    assert len(updates) == 2
    assert all(u.cost_usd is None and u.total_cost_usd is None for u in updates)
    assert node["cost_usd"] is None
