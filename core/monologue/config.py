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

    enabled: bool = Field(True, description="Narrate: a short first-person monologue per agent.")
    min_buffer: int = Field(
        1,
        ge=1,
        description="Counted events (tool calls, results, thoughts; not text) the narrator needs "
        "before it is asked at all.",
    )
    max_buffer: int = Field(
        10,
        ge=1,
        description="Counted events at which the narrator is made to write, without the choice "
        "to wait.",
    )
    history_size: int = Field(
        5, ge=0, description="Earlier narratives given back to the narrator; 0: none."
    )
    model: str = Field(
        "haiku",
        min_length=1,
        description="The narrator's model: an alias from model_aliases, or an id.",
    )
    model_aliases: dict[str, str] = Field(
        default_factory=lambda: dict(MODEL_ALIASES),
        description="Model aliases to ids: the agents' table (one table for both); a config "
        "may replace it.",
    )
    preset: PresetName = Field("default", description="The narrator's instructions: a preset.")
    system_prompt: str | None = Field(
        None,
        min_length=1,
        description="Instructions that replace the preset; may use {{agentName}}, {{events}} "
        "and {{history}}.",
    )
    max_tokens: int = Field(200, ge=16, description="Tokens one narrative may take.")
    timeout_s: float = Field(
        30.0, gt=0, description="Seconds a narrator may take before it is reported as failed."
    )

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
