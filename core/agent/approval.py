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

# Typed answers (headless mode and the HTTP API read them): an answer allows only when it is
# all one of these (case, spaces and end punctuation aside): "always ask me first" starts with
# an allowing word, and a person who writes a sentence instead of a choice is objecting.
_ALLOWING: dict[str, ApprovalChoice] = {
    **dict.fromkeys(
        ("once", "allow", "allow once", "yes", "yes please", "y", "ok", "okay"), "once"
    ),
    **dict.fromkeys(("always", "always allow", "allow always", "a"), "always"),
}
# A rejection may say why after its first word ("no: too risky"); single letters only alone.
_REJECTING = frozenset({"reject", "no", "deny"})
_FIRST_WORD = re.compile(r"[a-z]+")


def parse_answer(text: str | None) -> tuple[ApprovalChoice, str]:
    """The choice and reason a typed answer (None: declined) stands for."""
    if text is None:
        return "reject", "no answer was given"
    words = text.strip()
    lowered = " ".join(words.lower().rstrip(".!").split())
    if lowered in _ALLOWING:
        return _ALLOWING[lowered], ""
    if lowered == "n":
        return "reject", ""
    first = _FIRST_WORD.match(lowered)
    if first is not None and first.group() in _REJECTING:
        reason = words[len(first.group()) :].lstrip(" :,;-–—").strip()
        return "reject", reason
    return "reject", words


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
