"""How a subagent ended, as `join` (the wait tool, `wait()` in Python, the workflow) sees it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SubagentOutcome:
    handle: str  # the subagent's id, as fork returned it
    name: str
    status: str  # completed, error, cancelled or deleted
    result: str | None = None
    error: str | None = None  # the error, or why it was stopped

    @property
    def ok(self) -> bool:
        return self.status == "completed"

    def describe(self) -> str:
        """The result when it completed; otherwise one line saying how it ended and why."""
        if self.ok:
            return self.result or ""
        who = f"subagent {self.name} ({self.handle})"
        match self.status:
            case "error":
                return f"{who} failed: {self.error or 'no error message'}"
            case "deleted":
                return f"{who} was deleted by the person"
            case _:
                return f"{who} was {self.status}" + (f": {self.error}" if self.error else "")
