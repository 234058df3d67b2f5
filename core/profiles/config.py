"""The `[profiles]` settings of the config file."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class ProfilesConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    # How many times a JSON agent's invalid answer is sent back with its errors before the
    # agent ends failed (0: the first answer must hold).
    json_retries: int = Field(2, ge=0, le=10)
    # Debugging: each validated payload goes into its `answer:validated` event, so the session
    # log, `agentui run` (on stderr) and the transcript show it.
    log_payloads: bool = False
