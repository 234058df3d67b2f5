"""What the six-step workflow says to the model: decision prompts and the notes it adds.

Notes go into the agent's conversation as text from the person's side, so the model (and the
offline demo, which reads them back) sees what was asked, answered and found. The demo parses
the markers below: change them here and the demo follows.
"""

from __future__ import annotations

import json
from typing import Any

# -- markers the offline demo reads back ------------------------------------------------------

ASKED = "You asked the person: "
ANSWERED = "The person answered: "
DECLINED = "The person declined to answer. Use your best judgement and say what you assumed."
RESULTS_HEADER = "Your subagents have finished. Their results follow."
RESULT_HEADING = "### {name} ({status})"

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

# -- notes in the conversation ----------------------------------------------------------------

SUBAGENTS_STARTED = (
    "Subagents are exploring these parts of the task in parallel. Their results will come "
    "back to you, so do not do their work yourself:\n{lines}"
)

CHILD_TASK = "{subquestion}\n\nThis is one part of a larger task that other agents handle: {task}"

SYNTHESIS = (
    "Now write your final answer to the task. Combine your own work with what you learned "
    "since ({sources}). Keep what still holds, correct what does not, and say what remains "
    "uncertain."
)


def schema_text(schema: dict[str, Any]) -> str:
    return json.dumps(schema, separators=(",", ":"))


def answer_note(question: str, answer: str | None) -> str:
    reply = DECLINED if answer is None else f"{ANSWERED}{answer}"
    return f"{ASKED}{question}\n{reply}"


def results_note(results: list[tuple[str, str, str]]) -> str:
    """`results` holds (name, status, text) per subagent."""
    sections = [RESULTS_HEADER]
    for name, status, text in results:
        sections.append(f"{RESULT_HEADING.format(name=name, status=status)}\n{text}")
    return "\n\n".join(sections)
