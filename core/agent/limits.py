"""Per-agent limits and error handling settings of the agentic loop and of forking.

Every number has an upper bound as well as a lower one: a limit past its bound no longer limits
anything (`max_iterations = 1e29`, `tool_timeout_s = 1e308`), or asks for a tree no machine
holds (`max_depth = 100000`). The bounds sit well above any real use; a value past one is
refused with one message that names it, like any other bad setting.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

HOUR_S = 3600.0
DAY_S = 24 * HOUR_S
# Floats are finite: NaN and infinity are refused with their own message, not as out of range.
Seconds = Annotated[float, Field(allow_inf_nan=False)]


class Limits(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    max_iterations: int = Field(25, ge=1, le=10_000)
    max_tool_calls: int = Field(200, ge=0, le=100_000)
    # Active time only: time spent paused or waiting for the person does not count.
    max_duration_s: Seconds | None = Field(1800.0, gt=0, le=7 * DAY_S)
    tool_timeout_s: Seconds = Field(30.0, gt=0, le=DAY_S)
    max_messages: int = Field(60, ge=2, le=100_000)  # sliding window sent to the model
    tool_failure_mode: Literal["continue", "fail"] = "continue"
    llm_retries: int = Field(2, ge=0, le=20)  # extra attempts after a retryable provider error
    retry_backoff_s: Seconds = Field(1.0, ge=0, le=HOUR_S)  # doubled after each attempt
    # Subagents (fork, the workflow's subquestions): a root is at depth 0, its children at 1.
    max_depth: int = Field(3, ge=0, le=20)
    max_live_children: int = Field(8, ge=0, le=256)  # per agent, counting only those still running
    # Extra attempts when the model's structured answer (a workflow decision) does not validate.
    decision_retries: int = Field(2, ge=0, le=10)
