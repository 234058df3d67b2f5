"""How `agentui run` reads a person's answer to a question or a tool approval.

Answers come from `--answer` values in order, then from lines of stdin; the end of stdin
declines. An approval takes `once`, `always` or `reject: REASON` on one line (approval.py
reads it). A bare `reject` from stdin asks for the reason on the next line (one line; empty
for none), piped or typed alike: the same lines mean the same answers either way, and the
reason line is echoed, so a piped run shows what it was read as. An `--answer` value is always
a whole answer: `--answer "reject: too risky"`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Container
from typing import TYPE_CHECKING, TextIO

import anyio

from agentui.core.protocol.events import QueryRaised
from agentui.core.support.terminal_text import visible_controls

if TYPE_CHECKING:
    from agentui.core.runtime import Runtime

# Shown under an approval's question, before its "> " prompt.
APPROVAL_HINT = (
    '(once, always, or reject: REASON; "reject" alone asks for the reason on the next line)'
)
ANSWER_PROMPT = "> "  # after a question or an approval
REASON_PROMPT = "reason for the model (one line; empty for none)> "
_REJECT = "reject"
# Said once, at the first question or approval that stdin's end declined.
STDIN_ENDED_HINT = (
    "(nobody can answer here: --answer TEXT answers the next question ahead; --yes runs tools"
    " that need approval without asking)\n"
)


def asks_for_reason(text: str) -> bool:
    """A rejection typed without its reason: `reject`, or `reject:` with nothing after."""
    return text.strip().removesuffix(":").strip().lower() == _REJECT


class Answers:
    """Reads each question's answer in turn: one question takes its line(s) at a time, in the
    order the questions came, so a reason line never goes to another question."""

    def __init__(
        self,
        given: list[str],
        next_line: Callable[[], Awaitable[str | None]],
        stderr: TextIO,
        *,
        stdin_is_terminal: bool,
        json_output: bool,
    ) -> None:
        self._given = list(given)
        self._next_line = next_line
        self._stderr = stderr
        self._terminal = stdin_is_terminal
        self._quiet = json_output  # JSON mode prints no prompts, so no echoes either
        self._reading = anyio.Lock()
        self._prompt: str | None = None  # the prompt a line is awaited after, if any
        # Questions shown (with their "> ") whose answer is not read yet. Counted when the
        # printer shows one, not when its reader starts: a steer line in between must get its
        # "> " back too.
        self._unread = 0
        self._hinted = False  # how to answer without stdin: said once, at the first decline

    def asked(self) -> None:
        """A question and its "> " prompt were just shown; `read` takes its answer later."""
        self._unread += 1

    def prompt_again(self) -> None:
        """A steer line came while an answer was awaited: show that it still is."""
        prompt = self._prompt or (ANSWER_PROMPT if self._unread else None)
        if prompt is not None:
            self._say(prompt)

    async def _line_after(self, prompt: str) -> str | None:
        self._prompt = prompt
        try:
            return await self._next_line()
        finally:
            self._prompt = None

    async def answer(
        self, runtime: Runtime, query: QueryRaised, open_queries: Container[str]
    ) -> None:
        """Read `query`'s answer and give it to `runtime`, unless it was settled meanwhile (from
        another front end, or its agent ended): `open_queries`, the fold's, says which are open."""

        def is_open() -> bool:
            return query.query_id in open_queries

        text = await self.read(query, is_open)
        if is_open():
            runtime.answer(query.query_id, text)

    async def read(self, query: QueryRaised, is_open: Callable[[], bool]) -> str | None:
        """The answer to `query` (None: declined, stdin has ended). `is_open` says whether the
        query still waits: nothing is shown or asked for one answered or withdrawn meanwhile
        (its line is used up all the same, as a line typed for it). The question was
        announced by `asked` when it was shown."""
        try:
            return await self._read(query, is_open)
        finally:
            self._unread -= 1

    async def _read(self, query: QueryRaised, is_open: Callable[[], bool]) -> str | None:
        async with self._reading:
            given = bool(self._given)
            # The printer showed the question and its "> " prompt.
            text = self._given.pop(0) if given else await self._line_after(ANSWER_PROMPT)
            if not is_open():
                return text
            self._show(text, query, echo=given or not self._terminal)
            if given or text is None or not query.choices or not asks_for_reason(text):
                return text
            self._say(REASON_PROMPT)
            reason = await self._line_after(REASON_PROMPT)
            if reason is None:
                self._say("(stdin has ended: rejected without a reason)\n")
                return _REJECT
            self._show(reason, query, echo=not self._terminal)
            return f"{_REJECT}: {reason.strip()}" if reason.strip() else _REJECT

    async def read_line(self, is_open: Callable[[], bool]) -> str | None:
        """One whole line for something that is not a query (a budget stop), after its "> "
        was shown and announced by `asked`: the next `--answer` value or stdin line, echoed
        when no terminal did; None once stdin has ended."""
        try:
            async with self._reading:
                given = bool(self._given)
                text = self._given.pop(0) if given else await self._line_after(ANSWER_PROMPT)
                if is_open() and text is not None and (given or not self._terminal):
                    self._say(visible_controls(text) + "\n")
                return text
        finally:
            self._unread -= 1

    def _show(self, text: str | None, query: QueryRaised, *, echo: bool) -> None:
        """What was read, after its prompt, when no terminal echoed it (`--answer`, piped
        stdin); or that stdin has ended."""
        if text is None:
            what = "rejected" if query.choices else "declined"
            self._say(f"(no answer: stdin has ended, so it is {what})\n")
            if not self._hinted:
                self._hinted = True
                self._say(STDIN_ENDED_HINT)
        elif echo:
            self._say(visible_controls(text) + "\n")

    def _say(self, text: str) -> None:
        if self._quiet:  # JSON mode prints no prompts: stdout is for the events alone
            return
        self._stderr.write(text)
        self._stderr.flush()
