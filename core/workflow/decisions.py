"""The structured decisions the six-step workflow asks the model for, as pydantic models.

Every field defaults to "nothing to do", so `{}` is a valid answer to each decision and means
"no": not ambiguous, nothing missing, no subquestions, no uncertainty. That neutral answer is
also what the workflow goes on with when the model gives no valid answer (`neutral_meaning`
says what it means, for the notice that tells the person).
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Self

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]

MAX_QUESTIONS_PER_ROUND = 3
MAX_SUBQUESTIONS = 4


class Decision(BaseModel):
    # Models add keys of their own now and then; they do no harm, so they are ignored.
    model_config = ConfigDict(extra="ignore")

    name: ClassVar[str]
    neutral_meaning: ClassVar[str]  # what the neutral answer (`cls()`) means, in a few words


class ClarifyDecision(Decision):
    """Step 1: is the task ambiguous? If so, the one question that settles it."""

    name: ClassVar[str] = "clarify"
    neutral_meaning: ClassVar[str] = "the task is clear enough"

    ambiguous: bool = False
    question: Text | None = None

    @model_validator(mode="after")
    def _question_when_ambiguous(self) -> Self:
        if self.ambiguous and not self.question:
            raise ValueError("`question` is required when `ambiguous` is true")
        return self


class QuestionsDecision(Decision):
    """Step 2: blocking questions about critical missing information (empty: none)."""

    name: ClassVar[str] = "questions"
    neutral_meaning: ClassVar[str] = "nothing is missing"

    # A default the schema shows (pydantic copies it per instance), as a model held to the
    # schema strictly must be told what leaving the list out means.
    questions: list[Text] = Field([], max_length=MAX_QUESTIONS_PER_ROUND)


class SubquestionsDecision(Decision):
    """Step 3: independent subquestions for subagents to explore in parallel (0 to 4)."""

    name: ClassVar[str] = "subquestions"
    neutral_meaning: ClassVar[str] = "no subagents"

    subquestions: list[Text] = Field([], max_length=MAX_SUBQUESTIONS)  # shown: see questions


class ResolutionDecision(Decision):
    """Step 6: does an uncertainty remain that only the person can resolve?"""

    name: ClassVar[str] = "resolution"
    neutral_meaning: ClassVar[str] = "nothing is left to ask"

    uncertain: bool = False
    question: Text | None = None

    @model_validator(mode="after")
    def _question_when_uncertain(self) -> Self:
        if self.uncertain and not self.question:
            raise ValueError("`question` is required when `uncertain` is true")
        return self


DECISIONS: dict[str, type[Decision]] = {
    cls.name: cls
    for cls in (ClarifyDecision, QuestionsDecision, SubquestionsDecision, ResolutionDecision)
}
