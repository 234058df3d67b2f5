"""The notes a workflow adds to an agent's conversation, as values: written for the model, and
read back from a conversation as the same values.

Three kinds: the person's answer to a question the workflow asked (not through a tool), the
subagents it started, and their results. A note goes into the conversation as text from the
person's side; `read_notes` finds each one again, so a provider that does not read prose (the
scripted model) learns what the conversation holds from values, without importing the workflow
or knowing its wording. They live at the conversation's level, beside workflow_report.py, so
both sides import them downwards.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from agentui.core.protocol.conversation import Message, TextBlock

ASKED = "You asked the person: "
ANSWERED = "The person answered: "
DECLINED = "The person declined to answer. Use your best judgement and say what you assumed."
STARTED = (
    "Subagents are exploring these parts of the task in parallel. Their results will come "
    "back to you, so do not do their work yourself:"
)
RESULTS = "Your subagents have finished. Their results follow."

_STARTED_LINE = re.compile(r"^- (?P<name>\S+): (?P<subquestion>.*)$")
_RESULT_HEADING = re.compile(r"^### (?P<name>\S+) \((?P<status>\w+)\)$")


@dataclass(frozen=True, slots=True)
class PersonAnswer:
    question: str
    answer: str | None  # None: the person declined


@dataclass(frozen=True, slots=True)
class StartedSubagent:
    name: str
    subquestion: str


@dataclass(frozen=True, slots=True)
class SubagentResult:
    name: str
    status: str  # completed, error, cancelled, deleted
    text: str  # its answer, or what went wrong


@dataclass(slots=True)
class WorkflowNotes:
    """What a conversation's notes hold, in the order they came."""

    answers: list[PersonAnswer] = field(default_factory=list)
    started: list[StartedSubagent] = field(default_factory=list)
    results: list[SubagentResult] = field(default_factory=list)


# -- written for the model --------------------------------------------------------------------


def answer_note(answer: PersonAnswer) -> str:
    reply = DECLINED if answer.answer is None else f"{ANSWERED}{answer.answer}"
    return f"{ASKED}{answer.question}\n{reply}"


def started_note(started: Sequence[StartedSubagent]) -> str:
    lines = [f"- {s.name}: {' '.join(s.subquestion.split())}" for s in started]
    return "\n".join([STARTED, *lines])


def results_note(results: Sequence[SubagentResult]) -> str:
    sections = [RESULTS, *(f"### {r.name} ({r.status})\n{r.text}" for r in results)]
    return "\n\n".join(sections)


# -- read back ----------------------------------------------------------------------------------


def read_notes(messages: Sequence[Message]) -> WorkflowNotes:
    notes = WorkflowNotes()
    for message in messages:
        if message.role != "user":
            continue
        for block in message.content:
            if isinstance(block, TextBlock):
                _read_block(block.text, notes)
    return notes


def _read_block(text: str, notes: WorkflowNotes) -> None:
    if text.startswith(ASKED):
        notes.answers.append(_read_answer(text.removeprefix(ASKED)))
    elif text.startswith(STARTED + "\n"):
        for line in text.splitlines()[1:]:
            if match := _STARTED_LINE.match(line):
                notes.started.append(StartedSubagent(match["name"], match["subquestion"]))
    elif text.startswith(RESULTS + "\n\n"):
        notes.results.extend(_read_results(text.removeprefix(RESULTS + "\n\n")))


def _read_answer(body: str) -> PersonAnswer:
    if body.endswith(f"\n{DECLINED}"):
        return PersonAnswer(body.removesuffix(f"\n{DECLINED}"), None)
    question, _, answer = body.partition(f"\n{ANSWERED}")
    return PersonAnswer(question, answer)


def _read_results(body: str) -> list[SubagentResult]:
    """Sections start at a heading line; a result's own text may hold blank lines."""
    results: list[SubagentResult] = []
    heading: re.Match[str] | None = None
    lines: list[str] = []
    for section in body.split("\n\n"):
        first, _, rest = section.partition("\n")
        match = _RESULT_HEADING.match(first)
        if match is None:
            lines.append(section)  # a blank line inside the current result's text
            continue
        if heading is not None:
            results.append(_result(heading, lines))
        heading, lines = match, [rest]
    if heading is not None:
        results.append(_result(heading, lines))
    return results


def _result(heading: re.Match[str], lines: list[str]) -> SubagentResult:
    return SubagentResult(heading["name"], heading["status"], "\n\n".join(lines))
