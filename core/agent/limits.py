"""Per-agent limits and error handling settings of the agentic loop and of forking."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Limits(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    max_iterations: int = Field(25, ge=1)
    max_tool_calls: int = Field(200, ge=0)
    # Active time only: time spent paused or waiting for the person does not count.
    max_duration_s: float | None = Field(1800.0, gt=0)
    tool_timeout_s: float = Field(30.0, gt=0)
    max_messages: int = Field(60, ge=2)  # sliding window sent to the model
    tool_failure_mode: Literal["continue", "fail"] = "continue"
    llm_retries: int = Field(2, ge=0)  # extra attempts after a retryable provider error
    retry_backoff_s: float = Field(1.0, ge=0)  # doubled after each attempt
    # Subagents (fork, the workflow's subquestions): a root is at depth 0, its children at 1.
    max_depth: int = Field(3, ge=0)
    max_live_children: int = Field(8, ge=0)  # per agent, counting only those still running
    # Extra attempts when the model's structured answer (a workflow decision) does not validate.
    decision_retries: int = Field(2, ge=0)
