"""What goes wrong with a session file: not found, ambiguous, damaged, or open elsewhere."""

from __future__ import annotations

from ..errors import AgentUIError


class SessionError(AgentUIError):
    """A session cannot be found, read or continued; the message says which and why."""


class SessionCorruptError(SessionError):
    """A line that is not the last one does not parse: the file was changed or damaged."""

    def __init__(self, path: str, line: int, problem: str) -> None:
        super().__init__(f"{path}:{line}: {problem}")
        self.path = path
        self.line = line
        self.problem = problem
