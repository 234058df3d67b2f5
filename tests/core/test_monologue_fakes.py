"""Shared fakes for the monologue tests (this module holds no tests of its own).

FakeNarrator is a Provider that records every request and answers from a list: a string is
streamed as the answer, an exception is raised, a Gate holds the call until it is opened.
"""

from __future__ import annotations

from collections import deque
from collections.abc import AsyncIterator, Callable, Iterable

import anyio

from agentui.core.monologue.action import Action, ActionKind
from agentui.core.monologue.config import MonologueConfig
from agentui.core.monologue.entry import NarrativeEntry
from agentui.core.monologue.narrator import Narrator
from agentui.core.monologue.service import MonologueService, Spawn
from agentui.core.protocol.usage import Usage
from agentui.core.providers.base import (
    ProviderRequest,
    StreamEnd,
    StreamEvent,
    TextChunk,
    UsageReport,
)
from agentui.core.support.clock import FrozenClock

NARRATOR_USAGE = Usage(input_tokens=100, output_tokens=10)


class Gate:
    """An answer that waits until `open()` (forever if never opened), then answers `text`."""

    def __init__(self, text: str = "I waited for the gate.") -> None:
        self.text = text
        self.entered = anyio.Event()
        self._opened = anyio.Event()

    def open(self) -> None:
        self._opened.set()

    async def wait(self) -> str:
        self.entered.set()
        await self._opened.wait()
        return self.text


Answer = str | BaseException | Gate | Callable[[ProviderRequest], str]


class FakeNarrator:
    name = "fake"
    model = "fake-model"

    def __init__(
        self, answers: Iterable[Answer] = (), *, default: Answer = "I did a thing."
    ) -> None:
        self._answers: deque[Answer] = deque(answers)
        self.default = default
        self.requests: list[ProviderRequest] = []

    async def aclose(self) -> None:
        pass

    def stream(self, request: ProviderRequest) -> AsyncIterator[StreamEvent]:
        self.requests.append(request)
        answer = self._answers.popleft() if self._answers else self.default
        return self._answer(request, answer)

    async def _answer(self, request: ProviderRequest, answer: Answer) -> AsyncIterator[StreamEvent]:
        if isinstance(answer, Gate):
            answer = await answer.wait()
        if isinstance(answer, BaseException):
            raise answer
        text = answer(request) if callable(answer) else answer
        if text:
            yield TextChunk(text)
        yield UsageReport(NARRATOR_USAGE)
        yield StreamEnd("end_turn")

    def user_prompt(self, index: int) -> str:
        return self.requests[index].messages[-1].text


def call(tool: str = "lookup", arguments: str = '{"query": "port"}', ts: float = 0.0) -> Action:
    return Action(ActionKind.TOOL_CALL, ts, arguments, tool)


def result(tool: str = "lookup", detail: str = "found: 8080", *, error: bool = False) -> Action:
    return Action(ActionKind.TOOL_RESULT, 0.0, detail, tool, is_error=error)


def thought(text: str = "I should read the config.") -> Action:
    return Action(ActionKind.THINKING, 0.0, text)


def text(words: str = "Here is what I found.") -> Action:
    return Action(ActionKind.TEXT, 0.0, words)


class ServiceHarness:
    """One MonologueService on a FakeNarrator, recording what it delivers."""

    def __init__(self, narrator: FakeNarrator, spawn: Spawn, **settings: object) -> None:
        self.narrator = narrator
        self.config = MonologueConfig.model_validate(settings)
        self.entries: list[NarrativeEntry] = []
        self.usages: list[Usage] = []
        self.failures: list[str] = []
        self._settled = anyio.Event()
        self.service = MonologueService(
            agent_id="a1",
            agent_name="coder",
            narrator=Narrator(narrator, self.config, clock=FrozenClock()),
            config=self.config,
            spawn=spawn,
            on_entry=self._entry,
            on_failure=self.failures.append,
            on_settled=self._on_settled,
        )

    def _entry(self, entry: NarrativeEntry, usage: Usage) -> None:
        self.entries.append(entry)
        self.usages.append(usage)

    def _on_settled(self) -> None:
        self._settled.set()

    def add(self, *actions: Action) -> None:
        for action in actions:
            self.service.add(action)

    async def settle(self) -> None:
        """Until no narrator call is in flight (each finished call may start the next)."""
        with anyio.fail_after(5):
            while self.service.busy:
                self._settled = anyio.Event()
                await self._settled.wait()

    @property
    def texts(self) -> list[str]:
        return [e.text for e in self.entries]
