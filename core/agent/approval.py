"""Tool approval by the person: the choices, what a typed answer means, and what is remembered.

A tool marked `needs_approval` runs only once the person allows it: once, or always (for the
rest of the run: the life of the Runtime), or they reject it with a reason the model reads.
The runtime raises the question as a query of kind "approval"; this module holds the rules.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, get_args

if TYPE_CHECKING:
    from agentui.core.tools.tool import Tool

ApprovalChoice = Literal["once", "always", "reject"]
APPROVAL_CHOICES: list[str] = list(get_args(ApprovalChoice))

# Typed answers (headless mode reads them from stdin): a choice is the answer's first word
# (single letters only on their own); any other answer is a rejection whose text is the
# reason, since a person who writes a sentence instead of a choice is objecting.
_WORDS: dict[str, ApprovalChoice] = {
    "once": "once",
    "allow": "once",
    "yes": "once",
    "ok": "once",
    "always": "always",
    "reject": "reject",
    "no": "reject",
    "deny": "reject",
}
_LETTERS: dict[str, ApprovalChoice] = {"y": "once", "a": "always", "n": "reject"}
_FIRST_WORD = re.compile(r"[a-z]+")


def parse_answer(text: str | None) -> tuple[ApprovalChoice, str]:
    """The choice and reason a typed answer (None: declined) stands for."""
    if text is None:
        return "reject", "the person declined to approve it"
    words = text.strip()
    lowered = words.lower()
    if lowered in _LETTERS:
        return _LETTERS[lowered], ""
    first = _FIRST_WORD.match(lowered)
    choice = _WORDS.get(first.group()) if first else None
    if choice is None:
        return "reject", words
    if choice == "reject":
        assert first is not None
        return "reject", words[first.end() :].lstrip(" :,;-–—").strip()
    return choice, ""


async def prompt_for(tool: Tool | None, name: str, arguments: dict[str, Any]) -> str:
    """`prompt`, with what the tool's own sandbox blocks here when it has one (the python
    tool: its settings and interpreter, measured on a thread, so the loop never waits)."""
    describe_sandbox = getattr(tool, "describe_sandbox", None)
    sandbox = None if describe_sandbox is None else await describe_sandbox()
    return prompt(name, arguments, sandbox=sandbox)


def prompt(tool: str, arguments: dict[str, Any], *, sandbox: str | None = None) -> str:
    """What the person reads: the tool and everything it would be called with (never cut:
    approving code one cannot see in full is no approval), and for python code, what its
    sandbox blocks (`sandbox`; limited: that it does not)."""
    if set(arguments) == {"code"} and isinstance(arguments["code"], str):
        shown = arguments["code"].strip("\n")  # the Python tool: code reads best as code
    else:
        shown = json.dumps(arguments, ensure_ascii=False, indent=None)
    question = f"Allow {tool} to run?"
    if sandbox is None and tool == "python":
        # A caller without the tool at hand (prompt_for has it): the sandbox the environment
        # asks for. Measured on first use, so it may block that long. Imported here: the
        # screen's approval block imports this module for its choices, and the sandbox's
        # modules (Landlock's binding, ctypes) are not for the first frame.
        from agentui.core.tools.sandbox_mode import choose_sandbox

        sandbox = choose_sandbox().describe()
    if sandbox is not None:
        question += f"\n{sandbox}"
    return f"{question}\n{shown}"


@dataclass(slots=True)
class ApprovalPolicy:
    """Whether approvals are asked at all (`approve_all` is `--yes`), and what is remembered."""

    approve_all: bool = False
    always_allowed: set[str] = field(default_factory=set)

    def standing_decision(self, tool: str) -> Literal["policy", "remembered"] | None:
        """Why `tool` may run without asking, or None when the person must be asked."""
        if self.approve_all:
            return "policy"
        if tool in self.always_allowed:
            return "remembered"
        return None
