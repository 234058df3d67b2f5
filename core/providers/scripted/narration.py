"""The scripted model's narrator: a short first-person line from a narrator request, offline.

It reads the request as a model would, from its text: the action lines (`[12:00:01] called
lookup {...}`, `lookup returned: ...`, `thought: ...`, `wrote: ...`), the numbered earlier
lines, and the closing ask (whether it may answer "..." to wait, and whether the run ended).
The same request always gets the same line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..base import ProviderRequest
from .script import Turn

WAIT = "..."
ASK_TOOL = "ask_user"  # its result is the person's answer
SNIPPET_CHARS = 40

_ACTION = re.compile(r"^\[\d{2}:\d{2}:\d{2}\] (?P<what>.+)$")
_CALL = re.compile(r"^called (?P<tool>\S+)")
_RESULT = re.compile(r"^(?P<tool>\S+) (?P<verb>returned|failed): (?P<detail>.*)$")
_EARLIER = re.compile(r"^\d+\. (?P<line>.+)$")
_ENDED = re.compile(r"ended \((?P<status>\w+)\)")

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
    earlier: list[str] = field(default_factory=list)
    may_wait: bool = False
    ended: str | None = None


def _read(request: ProviderRequest) -> _Reading:
    prompt = request.messages[-1].text if request.messages else ""
    lines = [line.strip() for line in prompt.splitlines() if line.strip()]
    reading = _Reading()
    if lines:
        ask = lines[-1]
        reading.may_wait = WAIT in ask
        ended = _ENDED.search(ask)
        reading.ended = ended["status"] if ended else None
    for line in lines:
        if earlier := _EARLIER.match(line):
            reading.earlier.append(earlier["line"])
            continue
        action = _ACTION.match(line)
        if action is None:
            continue
        what = action["what"]
        if call := _CALL.match(what):
            reading.calls.append(call["tool"])
            reading.waiting_on.append(call["tool"])
        elif result := _RESULT.match(what):
            target = reading.ok if result["verb"] == "returned" else reading.failed
            target.append((result["tool"], result["detail"]))
            if result["tool"] in reading.waiting_on:
                reading.waiting_on.remove(result["tool"])
        elif what.startswith("thought: "):
            reading.thoughts.append(what.removeprefix("thought: "))
        elif what.startswith("wrote: "):
            reading.texts.append(what.removeprefix("wrote: "))
    return reading


_MARKUP = re.compile(r"^#+\s*|\*\*")  # a heading's hashes, bold stars: noise in a quote


def _snippet(text: str) -> str:
    text = " ".join(_MARKUP.sub("", text).split()).rstrip("….,;: ")
    if len(text) <= SNIPPET_CHARS:
        return text
    cut = text[:SNIPPET_CHARS].rsplit(" ", 1)[0]
    return cut + "…"


def _names(tools: list[str]) -> str:
    unique = list(dict.fromkeys(tools))
    return unique[0] if len(unique) == 1 else ", ".join(unique[:-1]) + " and " + unique[-1]


def _body(reading: _Reading) -> str:
    clauses: list[str] = []
    if reading.ok:
        tool, latest = reading.ok[-1]
        if tool == ASK_TOOL:
            clauses.append(f'I asked, and the person answered "{_snippet(latest)}"')
        else:
            tools = _names([t for t, _ in reading.ok])
            clauses.append(f'I used {tools} and got "{_snippet(latest)}"')
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
    if not clauses and reading.thoughts and not (reading.ended and reading.texts):
        clauses.append(f'I\'m thinking: "{_snippet(reading.thoughts[-1])}"')
    if reading.texts and (not clauses or reading.ended):
        said = f'"{_snippet(reading.texts[-1])}"'
        clauses.append(f"and wrote {said}" if clauses else f"I wrote {said}")
    if not clauses:
        clauses.append("I'm getting started")
    line = ", ".join(clauses)
    return line if line.rstrip('"').endswith((".", "!", "?", "…")) else line + "."


def narrate(request: ProviderRequest) -> str:
    """The narrator's answer to `request`: a line, or "..." when it may wait and would."""
    reading = _read(request)
    only_calls = reading.calls and not (
        reading.ok or reading.failed or reading.thoughts or reading.texts
    )
    if reading.may_wait and only_calls:
        return WAIT  # a call without its result says nothing yet
    line = _body(reading)
    if reading.ended is not None:
        line = f"{_OPENINGS.get(reading.ended, 'I stopped.')} {line}"
    elif reading.earlier and reading.earlier[-1] == line:
        line = f"Still at it: {line}"
    return line


def narration_turn(request: ProviderRequest) -> Turn:
    return Turn(text=narrate(request))
