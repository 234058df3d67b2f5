"""The `[profiles]` settings of the config file."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class ProfilesConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    # How many times a JSON agent's invalid answer is sent back with its errors before the
    # agent ends failed (0: the first answer must hold).
    json_retries: int = Field(2, ge=0, le=10)
    # Checking an answer against a schema with patterns (regular expressions) is given up after
    # this long, and the answer fails its check saying so: a pattern that backtracks could
    # otherwise take hours.
    check_timeout_s: float = Field(5.0, gt=0, le=300, allow_inf_nan=False)
    # Debugging: each validated payload goes into its `answer:validated` event, so the session
    # log, `agentui run` (on stderr) and the transcript show it.
    log_payloads: bool = False
