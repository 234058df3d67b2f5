"""MonologueConfig: how often the narrator is asked, what it remembers, and which model it is."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator

from agentui.core.providers.anthropic.defaults import MODEL_ALIASES, resolve_model
from agentui.core.support.errors import AgentUIError
from agentui.core.support.validation import describe_errors

PresetName = Literal["default", "terse", "verbose"]


class MonologueConfigError(AgentUIError):
    """A monologue setting is invalid; the message names the field."""


class MonologueConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    enabled: bool = True
    # Counted events (tool calls, results, thoughts; not text) the narrator needs before it is
    # asked at all...
    min_buffer: int = Field(1, ge=1)
    # ...and at which it is made to write, without the choice to wait.
    max_buffer: int = Field(10, ge=1)
    history_size: int = Field(5, ge=0)  # earlier narratives re-injected; 0: none
    model: str = Field("haiku", min_length=1)  # an alias from `model_aliases`, or a model id
    # The agents' table (one table for both); a config may replace it.
    model_aliases: dict[str, str] = Field(default_factory=lambda: dict(MODEL_ALIASES))
    preset: PresetName = "default"
    # Replaces the preset. May use {{agentName}}, {{events}} and {{history}}.
    system_prompt: str | None = Field(None, min_length=1)
    max_tokens: int = Field(200, ge=16)
    timeout_s: float = Field(30.0, gt=0)  # a narrator that takes longer is reported as failed

    @field_validator("max_buffer")
    @classmethod
    def _max_not_below_min(cls, value: int, info: ValidationInfo) -> int:
        minimum = info.data.get("min_buffer")
        if minimum is not None and value < minimum:
            raise ValueError(f"max_buffer ({value}) must be at least min_buffer ({minimum})")
        return value

    @property
    def resolved_model(self) -> str:
        """The concrete model id the narrator asks for."""
        return resolve_model(self.model, self.model_aliases)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> MonologueConfig:
        """Build from a config file's `[monologue]` table; errors name each bad field."""
        try:
            return cls.model_validate(dict(data))
        except ValidationError as exc:
            raise MonologueConfigError(describe_errors(exc, "(table)", "monologue.")) from None
