"""The scripted model's narrator: a short first-person line from a narrator request, offline.

It reads what the request declares as data (`request.narration`): the agent's steps (calls,
results, thoughts, text), the narrator's earlier lines, whether it may answer "..." to wait, and
whether the run ended. The same request always gets the same line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from agentui.core.providers.base import ProviderRequest
from agentui.core.providers.narration_subject import NarrationSubject, StepKind
from agentui.core.providers.scripted.script import Turn

WAIT = "..."
ASK_TOOL = "ask_user"  # its result is the person's answer
SNIPPET_CHARS = 40
NAMES_SHOWN = 4  # of a JSON answer's names

_OPENINGS = {
    "completed": "Done.",
    "error": "I stopped on an error.",
    "cancelled": "I was stopped.",
    "deleted": "I was removed.",
}


@dataclass
class _Reading:
    calls: list[str] = field(default_factory=list)  # tools called, in order
    ok: list[tuple[str, str]] = field(default_factory=list)  # (tool, result)
    failed: list[tuple[str, str]] = field(default_factory=list)  # (tool, error)
    thoughts: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    waiting_on: list[str] = field(default_factory=list)  # called after the last result


def _read(subject: NarrationSubject) -> _Reading:
    reading = _Reading()
    for step in subject.steps:
        match step.kind:
            case StepKind.CALL:
                reading.calls.append(step.tool)
                reading.waiting_on.append(step.tool)
            case StepKind.RESULT:
                target = reading.failed if step.failed else reading.ok
                target.append((step.tool, step.detail))
                if step.tool in reading.waiting_on:
                    reading.waiting_on.remove(step.tool)
            case StepKind.THOUGHT if step.detail:
                reading.thoughts.append(step.detail)
            case StepKind.TEXT if step.detail:
                reading.texts.append(step.detail)
    return reading


_MARKUP = re.compile(r"^#+\s*|\*\*")  # a heading's hashes, bold stars: noise in a quote


def _snippet(text: str) -> str:
    text = " ".join(_MARKUP.sub("", text).split()).rstrip("….,;: ")
    if len(text) <= SNIPPET_CHARS:
        return text
    cut = text[:SNIPPET_CHARS].rsplit(" ", 1)[0]
    return cut + "…"


# A JSON object or array as it starts; the narrator is shown a cut copy of the text, so the
# JSON may not parse whole.
_JSON_START = re.compile(r'^\s*(?:\{\s*(?:"|\})|\[\s*(?:[\[{"\d\]-]|true|false|null))')
_JSON_NAME = re.compile(r'"name"\s*:\s*"((?:[^"\\]|\\.)+)"')


def _written(text: str) -> str:
    """What the agent wrote, as said in a line: a quote of its start, or, for a JSON answer (a
    director's decision, a profile's result), the names it holds; raw JSON reads as noise."""
    if not _JSON_START.match(text):
        return f'"{_snippet(text)}"'
    names = list(dict.fromkeys(_JSON_NAME.findall(text)))[:NAMES_SHOWN]
    return "a structured answer" + (f" naming {_names(names)}" if names else "")


def _names(tools: list[str]) -> str:
    unique = list(dict.fromkeys(tools))
    return unique[0] if len(unique) == 1 else ", ".join(unique[:-1]) + " and " + unique[-1]


def _body(reading: _Reading, ended: str | None) -> str:
    clauses: list[str] = []
    if reading.ok:
        tool, latest = reading.ok[-1]
        quote = _snippet(latest)
        if tool == ASK_TOOL:
            said = f'answered "{quote}"' if quote else "said nothing"
            clauses.append(f"I asked, and the person {said}")
        else:
            tools = _names([t for t, _ in reading.ok])
            got = f'"{quote}"' if quote else "nothing back"
            clauses.append(f"I used {tools} and got {got}")
    if reading.failed:
        failed = [t for t, _ in reading.failed]
        error = _snippet(reading.failed[-1][1])
        if reading.ok:
            clauses.append(f"but {_names(failed)} failed ({error})")
        else:
            they = "it" if len(set(failed)) == 1 else "they"
            clauses.append(f"I tried {_names(failed)}, but {they} failed ({error})")
    if not clauses and reading.calls:
        clauses.append(f"I'm calling {_names(reading.calls)}")
    elif reading.waiting_on:
        clauses.append(f"and now I'm waiting on {_names(reading.waiting_on)}")
    # At the end, what was written says more than what was thought on the way.
    if not clauses and reading.thoughts and not (ended and reading.texts):
        clauses.append(f'I\'m thinking: "{_snippet(reading.thoughts[-1])}"')
    if reading.texts and (not clauses or ended):
        said = _written(reading.texts[-1])
        clauses.append(f"and wrote {said}" if clauses else f"I wrote {said}")
    if not clauses:
        clauses.append("I'm getting started")
    line = ", ".join(clauses)
    return line if line.rstrip('"').endswith((".", "!", "?", "…")) else line + "."


def narrate(request: ProviderRequest) -> str:
    """The narrator's answer to `request`: a line, or "..." when it may wait and would."""
    subject = request.narration or NarrationSubject()
    reading = _read(subject)
    only_calls = reading.calls and not (
        reading.ok or reading.failed or reading.thoughts or reading.texts
    )
    if subject.may_wait and only_calls:
        return WAIT  # a call without its result says nothing yet
    line = _body(reading, subject.ended)
    if subject.ended is not None:
        line = f"{_OPENINGS.get(subject.ended, 'I stopped.')} {line}"
    elif subject.earlier and subject.earlier[-1] == line:
        line = f"Still at it: {line}"
    return line


def narration_turn(request: ProviderRequest) -> Turn:
    return Turn(text=narrate(request))
