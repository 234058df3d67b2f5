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

    max_iterations: int = Field(
        25, ge=1, le=10_000, description="Model calls one run of an agent may make."
    )
    max_tool_calls: int = Field(
        200, ge=0, le=100_000, description="Tool calls one run of an agent may make."
    )
    max_duration_s: Seconds | None = Field(
        1800.0,
        gt=0,
        le=7 * DAY_S,
        description="Seconds one run may take, active time only: time spent paused or waiting "
        "for the person does not count.",
    )
    tool_timeout_s: Seconds = Field(
        30.0, gt=0, le=DAY_S, description="Seconds one tool call may take before it times out."
    )
    max_messages: int = Field(
        60, ge=2, le=100_000, description="The sliding window of messages sent to the model."
    )
    tool_failure_mode: Literal["continue", "fail"] = Field(
        "continue",
        description="continue: a failed tool call's error goes back to the model; fail: the "
        "agent fails with it.",
    )
    llm_retries: int = Field(
        2, ge=0, le=20, description="Extra attempts after a retryable provider error."
    )
    retry_backoff_s: Seconds = Field(
        1.0, ge=0, le=HOUR_S, description="Seconds before a retry, doubled after each attempt."
    )
    max_depth: int = Field(
        3,
        ge=0,
        le=20,
        description="How deep subagents (fork, the workflow's subquestions) may nest: a root is "
        "at depth 0, its children at 1.",
    )
    max_live_children: int = Field(
        8,
        ge=0,
        le=256,
        description="Subagents one agent may have running at once (only those still running "
        "count).",
    )
    decision_retries: int = Field(
        2,
        ge=0,
        le=10,
        description="Extra attempts when the model's structured answer (a workflow decision) "
        "does not validate.",
    )
