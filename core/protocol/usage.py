"""Token usage as reported by a provider, summable per agent and per run."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Usage(BaseModel):
    # Its schema is built at its first validation, not at import (defer_build): a resumed
    # session's first frame unpickles these models and validates none (issue 36).
    model_config = ConfigDict(defer_build=True)

    input_tokens: int = 0
    output_tokens: int = 0
    cache_creation_input_tokens: int = 0
    cache_read_input_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            cache_creation_input_tokens=self.cache_creation_input_tokens
            + other.cache_creation_input_tokens,
            cache_read_input_tokens=self.cache_read_input_tokens + other.cache_read_input_tokens,
        )

    @property
    def total_tokens(self) -> int:
        return (
            self.input_tokens
            + self.output_tokens
            + self.cache_creation_input_tokens
            + self.cache_read_input_tokens
        )
