"""What a finished six-step workflow hands back besides its answer: who helped, what was asked.

It lives at the events' level (not in workflow/) because events.py carries it in
`workflow:result`: the event vocabulary imports nothing from the workflows above it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from agentui.core.protocol.usage import Usage

QuestionStep = Literal["clarify", "questions", "resolution"]


class ChildReport(BaseModel):
    """One subagent the workflow started for a subquestion, as it ended."""

    # Its schema is built at its first validation, not at import (defer_build): a resumed
    # session's first frame unpickles these models and validates none (issue 36).
    model_config = ConfigDict(defer_build=True)

    id: str
    name: str
    task: str
    status: str  # completed, error, cancelled, deleted
    result: str | None = None
    error: str | None = None


class QuestionReport(BaseModel):
    model_config = ConfigDict(defer_build=True)

    step: QuestionStep
    question: str
    answer: str | None  # None: the person declined


class WorkflowReport(BaseModel):
    model_config = ConfigDict(defer_build=True)

    answer: str
    children: list[ChildReport] = Field(default_factory=list)
    questions: list[QuestionReport] = Field(default_factory=list)
    # Subquestions proposed but not started (a depth or live-children limit refused them).
    skipped_subquestions: list[str] = Field(default_factory=list)
    # Decisions the model gave no valid answer to, which went on with their neutral answer.
    fallback_decisions: list[str] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)  # the agent's own model calls
    total_usage: Usage = Field(default_factory=Usage)  # the agent and all its subagents
    duration_s: float = 0.0  # active time: not paused, not waiting for the person
    interventions: list[str] = Field(default_factory=list)  # kinds, in the order applied
