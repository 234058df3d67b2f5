"""What the six-step workflow says to the model: decision prompts, and its task for a subagent
and its ask for the final answer.

The notes it adds to the conversation (the person's answers, the subagents started, their
results) are values with their own text, in core/protocol/workflow_notes.py: a provider can read them
back without importing the workflow.
"""

from __future__ import annotations

import json
from typing import Any

# -- decisions --------------------------------------------------------------------------------

JSON_RULES = (
    "\n\nFor this step you answer with a single JSON object and nothing else: no prose before "
    "or after it, no code fence. It must match this JSON Schema:\n{schema}"
)

CLARIFY = (
    "Before you start work: is the task ambiguous, so that sensible readings of it would lead "
    "to clearly different work? If it is, write the one question to the person that would "
    'settle it. Answer {"ambiguous": true, "question": "..."} or {"ambiguous": false}.'
)

QUESTIONS = (
    "Round {round} of at most {rounds}. Is information still missing that only the person "
    "has, that you cannot sensibly assume, and without which the work would likely be wrong? "
    "Do not ask again what was already answered or declined. If so, list at most {most} short "
    'questions; if not, none. Answer {{"questions": ["..."]}} or {{"questions": []}}.'
)

SUBQUESTIONS = (
    "Could parts of this task be explored independently, in parallel, by helper agents? "
    "Propose 0 to {most} self-contained subquestions, each answerable without the others and "
    "without asking the person. Propose none when the task is small or cannot be split. "
    'Answer {{"subquestions": ["..."]}} or {{"subquestions": []}}.'
)

RESOLUTION = (
    "Your work so far and your subagents' results are above. Does an uncertainty remain that "
    "only the person can resolve and that would change your answer? If so, write one question "
    'to the person. Answer {"uncertain": true, "question": "..."} or {"uncertain": false}.'
)

INVALID = (
    "That reply was not valid: {error}\n"
    "Answer again with only the JSON object, matching the schema."
)

# -- a subagent's task, the final answer ------------------------------------------------------

CHILD_TASK = "{subquestion}\n\nThis is one part of a larger task that other agents handle: {task}"

SYNTHESIS = (
    "Now write your final answer to the task. Combine your own work with what you learned "
    "since ({sources}). Keep what still holds, correct what does not, and say what remains "
    "uncertain."
)


def schema_text(schema: dict[str, Any]) -> str:
    return json.dumps(schema, separators=(",", ":"))
