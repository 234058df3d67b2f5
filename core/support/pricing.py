"""What tokens cost: a per-model price table, editable from config, and the cost of a Usage.

Prices are USD per million tokens. Cache writes are priced at the 5-minute rate (the usage a
response reports does not say which lifetime was written). A model missing from the table has
no cost (None), never a guessed one. A bad entry in a config's `[prices]` is one message: every
problem of the entry (a value that is not a finite number, 0 or more; a price missing; a key
that is not a price) on one line, not a line each.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, model_validator

from agentui.core.protocol.usage import Usage
from agentui.core.support.validation import describe_problem

PER_TOKEN = 1 / 1_000_000
# A dated id: Claude's `-20250929`, OpenAI's `-2025-04-16`.
_DATE_SUFFIX = re.compile(r"-(?:\d{8}|\d{4}-\d{2}-\d{2})$")


# USD per million tokens: a real amount, so finite and not negative.
Price = Annotated[float, Field(ge=0, allow_inf_nan=False)]
_PRICE = TypeAdapter(Price)
PRICE_NAMES = ("input", "output", "cache_write", "cache_read")


class ModelPrice(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    input: Price = Field(description="USD per million input tokens.")
    output: Price = Field(description="USD per million output tokens.")
    cache_write: Price = Field(description="USD per million tokens written to the prompt cache.")
    cache_read: Price = Field(description="USD per million tokens read from the prompt cache.")

    @model_validator(mode="before")
    @classmethod
    def _one_message(cls, data: Any) -> Any:
        """Every problem of an entry in one error, so a config shows one line for it."""
        if not isinstance(data, Mapping):
            return data  # pydantic says it is not a table
        problems: list[str] = []
        for name in PRICE_NAMES:
            if name in data:
                try:
                    _PRICE.validate_python(data[name])
                except ValidationError as exc:
                    problems.append(f"{name}: {describe_problem(exc.errors()[0])}")
        missing = [name for name in PRICE_NAMES if name not in data]
        unknown = [str(name) for name in data if name not in PRICE_NAMES]
        if missing:
            problems.append(f"missing {', '.join(missing)}")
        if unknown:
            problems.append(f"not a price: {', '.join(unknown)}")
        if not problems:
            return data
        if missing or unknown:
            problems.append(f"a price is {', '.join(PRICE_NAMES)}, in USD per million tokens")
        raise ValueError("; ".join(problems))

    def cost(self, usage: Usage) -> float:
        return PER_TOKEN * (
            usage.input_tokens * self.input
            + usage.output_tokens * self.output
            + usage.cache_creation_input_tokens * self.cache_write
            + usage.cache_read_input_tokens * self.cache_read
        )


class PriceTable(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    models: dict[str, ModelPrice] = Field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, base: PriceTable | None = None) -> PriceTable:
        """A table from plain data (e.g. a config file's `[prices]`), over `base` when given.

        `data` maps model ids to `{input, output, cache_write, cache_read}`; an entry replaces
        the base's entry for that id whole, so a config never mixes two price lists.
        """
        own = cls.model_validate({"models": dict(data)})
        if base is None:
            return own
        return cls(models={**base.models, **own.models})

    def price_for(self, model: str) -> ModelPrice | None:
        """The model's price; a dated id (`claude-sonnet-4-5-20250929`, `gpt-4.1-2025-04-14`)
        uses its base id's. Any other suffix is another model (`gpt-5.4-pro` is not priced
        as `gpt-5.4`): unpriced unless the table has it."""
        price = self.models.get(model)
        if price is not None:
            return price
        return self.models.get(_DATE_SUFFIX.sub("", model))

    def cost(self, model: str, usage: Usage) -> float | None:
        price = self.price_for(model)
        return price.cost(usage) if price is not None else None


def _price(input: float, output: float, cache_write: float, cache_read: float) -> ModelPrice:
    return ModelPrice(input=input, output=output, cache_write=cache_write, cache_read=cache_read)


# List prices (USD per million tokens) as published when this was written; a config file can
# replace any entry. Haiku 5.5 is billed in two bands: this is the band for prompts up to 100k
# tokens.
DEFAULT_PRICES = PriceTable(
    models={
        "claude-haiku-4-5": _price(1.00, 5.00, 1.25, 0.10),
        "claude-sonnet-4-5": _price(3.00, 15.00, 3.75, 0.30),
        "claude-sonnet-4-6": _price(3.00, 15.00, 3.75, 0.30),
        "claude-opus-4-8": _price(5.00, 25.00, 6.25, 0.50),
        "claude-haiku-5-5": _price(0.10, 0.50, 0.125, 0.01),
        "claude-sonnet-5-5": _price(2.00, 10.00, 2.50, 0.10),
        "claude-opus-5-5": _price(4.00, 20.00, 5.00, 0.20),
        # Gemini (Google's list prices, November 2026; the text tier, prompts up to 200k tokens).
        # Gemini bills thinking as output and reports no cache writes (cache_write = input).
        # The 3.6-3.8 Flash prices are half price until 2026-12-31 ($1.50 / $7.50 / $0.15
        # from 2027-01-01): change them here or in a config's [prices] then.
        "gemini-3.8-flash": _price(0.75, 3.75, 0.75, 0.075),
        "gemini-3.7-flash": _price(0.75, 3.75, 0.75, 0.075),
        "gemini-3.6-flash": _price(0.75, 3.75, 0.75, 0.075),
        "gemini-3.5-flash": _price(1.50, 9.00, 1.50, 0.15),
        "gemini-3.5-flash-lite": _price(0.30, 2.50, 0.30, 0.03),
        "gemini-3.1-flash-lite": _price(0.25, 1.50, 0.25, 0.025),
        "gemini-3.1-pro-preview": _price(2.00, 12.00, 2.00, 0.20),
        "gemini-3-flash-preview": _price(0.50, 3.00, 0.50, 0.05),
        "gemini-2.5-pro": _price(1.25, 10.00, 1.25, 0.125),
        "gemini-2.5-flash": _price(0.30, 2.50, 0.30, 0.03),
        "gemini-2.5-flash-lite": _price(0.10, 0.40, 0.10, 0.01),
        # OpenAI (list prices, mid 2026; GPT-5.5 and 5.4 for prompts up to 272k tokens).
        # OpenAI charges nothing for writing its prompt cache (cache_write = input, never
        # reported) and reads it at the cached-input price. Models behind a local server are
        # not here: they show tokens without a cost.
        "gpt-5.5": _price(5.00, 30.00, 5.00, 0.50),
        "gpt-5.4": _price(2.50, 15.00, 2.50, 0.25),
        "gpt-5.4-mini": _price(0.75, 4.50, 0.75, 0.075),
        "gpt-5.4-nano": _price(0.20, 1.25, 0.20, 0.02),
        "gpt-5.1": _price(1.25, 10.00, 1.25, 0.125),
        "gpt-5": _price(1.25, 10.00, 1.25, 0.125),
        "gpt-5-mini": _price(0.25, 2.00, 0.25, 0.025),
        "gpt-5-nano": _price(0.05, 0.40, 0.05, 0.005),
        "gpt-4.1": _price(2.00, 8.00, 2.00, 0.50),
        "gpt-4.1-mini": _price(0.40, 1.60, 0.40, 0.10),
        "gpt-4.1-nano": _price(0.10, 0.40, 0.10, 0.025),
        "gpt-4o": _price(2.50, 10.00, 2.50, 1.25),
        "gpt-4o-mini": _price(0.15, 0.60, 0.15, 0.075),
        "o3": _price(2.00, 8.00, 2.00, 0.50),
        "o4-mini": _price(1.10, 4.40, 1.10, 0.275),
    }
)
