"""The `[profiles]` settings of the config file."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class ProfilesConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    json_retries: int = Field(
        2,
        ge=0,
        le=10,
        description="How many times a JSON agent's invalid answer is sent back with its errors "
        "before the agent ends failed (0: the first answer must hold).",
    )
    check_timeout_s: float = Field(
        5.0,
        gt=0,
        le=300,
        allow_inf_nan=False,
        description="Seconds a check against a schema with patterns (regular expressions) may "
        "take; then the answer fails its check, saying so (a pattern that backtracks could "
        "otherwise take hours).",
    )
    log_payloads: bool = Field(
        False,
        description="Debugging: each validated payload goes into its answer:validated event, "
        "so the session log, agentui run (on stderr) and the transcript show it.",
    )
