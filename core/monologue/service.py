"""MonologueService: one agent's monologue. Buffers its actions and decides when to narrate.

- Below `min_buffer` counted actions it only buffers.
- From `min_buffer` on it asks at natural points (after a tool result, or when the agent starts
  waiting for the person); the narrator may answer "..." to wait for more.
- At `max_buffer` it asks with no choice to wait.
- When the agent ends, whatever is left is flushed in a closing narrative marked final.
- At most one narrator call is in flight. It runs as its own task (through `spawn`), so adding
  an action never waits; actions that arrive meanwhile are kept for the next call.
- A failed or waited-on call keeps its actions for the next one; nothing the agent did is
  dropped. A new call needs something new (a counted action, or the agent's end), so a failing
  or reticent narrator is asked at most once per new action.
- The last `history_size` narratives go back into every request.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Coroutine
from functools import partial
from typing import Any

from agentui.core.monologue.action import Action
from agentui.core.monologue.config import MonologueConfig
from agentui.core.monologue.narrator import Narration, NarrationAsk, Narrator, NarratorError
from agentui.core.protocol.narrative import NarrativeEntry, NarrativeMetadata
from agentui.core.protocol.usage import Usage

log = logging.getLogger("agentui.monologue")

# Starts a coroutine function as a task, e.g. a task group's start_soon (whose result is unused)
Spawn = Callable[[Callable[[], Coroutine[Any, Any, None]]], object]
EntrySink = Callable[[NarrativeEntry, Usage], None]
FailureSink = Callable[[str], None]


class MonologueService:
    def __init__(
        self,
        *,
        agent_id: str,
        agent_name: str,
        narrator: Narrator,
        config: MonologueConfig,
        spawn: Spawn,
        on_entry: EntrySink,
        on_failure: FailureSink,
        on_settled: Callable[[], None] | None = None,
    ) -> None:
        self.agent_id = agent_id
        self.agent_name = agent_name
        self.narrator = narrator
        self.config = config
        self._spawn = spawn
        self._on_entry = on_entry
        self._on_failure = on_failure
        self._on_settled = on_settled
        self._buffer: list[Action] = []
        self._history: deque[str] = deque(maxlen=config.history_size)
        self._counted = 0  # counted actions in the buffer
        self._fresh = 0  # counted actions added since the last call began
        self._due = False  # a natural point at or past min_buffer came since the last call
        self._final_status: str | None = None  # the agent ended; its closing flush is owed
        self._in_flight = False
        self._unreported = Usage()  # narrator tokens not yet carried by an entry
        # What it saw and what it cost, for the app's totals and the benchmark.
        self.actions = 0
        self.calls = 0
        self.narratives = 0
        self.waits = 0
        self.failures = 0
        self.narrated_actions = 0
        self.usage = Usage()

    # -- reading -------------------------------------------------------------------------

    @property
    def buffer(self) -> tuple[Action, ...]:
        return tuple(self._buffer)

    @property
    def history(self) -> tuple[str, ...]:
        return tuple(self._history)

    @property
    def busy(self) -> bool:
        """A narrator call is in flight (a final flush owed is started at once, so it is too)."""
        return self._in_flight

    # -- input ---------------------------------------------------------------------------

    def add(self, action: Action) -> None:
        """Buffer one action; may start a narrator call. Never waits."""
        self._buffer.append(action)
        self.actions += 1
        if action.counts:
            self._counted += 1
            self._fresh += 1
        if action.is_natural_point:
            self.natural_point()
        else:
            self._consider()

    def natural_point(self) -> None:
        """The agent reached a pause in its work: ask, if enough is buffered."""
        if self._counted >= self.config.min_buffer:
            self._due = True
        self._consider()

    def finish(self, status: str) -> None:
        """The agent ended (completed, error, cancelled, deleted): flush what is left as final."""
        self._final_status = status
        self._consider()

    # -- deciding ------------------------------------------------------------------------

    def _consider(self) -> None:
        if self._in_flight:
            return  # what arrives meanwhile waits for the next call
        if self._final_status is not None:
            status, self._final_status = self._final_status, None
            if self._buffer:
                self._start(final_status=status)
            return
        if not self._fresh:
            return  # nothing new since the narrator last waited or failed
        if self._counted >= self.config.max_buffer:
            self._start(forced=True)
        elif self._due:
            self._start()

    def _start(self, *, forced: bool = False, final_status: str | None = None) -> None:
        ask = NarrationAsk(
            agent_id=self.agent_id,
            agent_name=self.agent_name,
            actions=tuple(self._buffer),
            history=tuple(self._history),
            forced=forced,
            final_status=final_status,
        )
        self._in_flight = True
        self._fresh = 0
        self._due = False
        self.calls += 1
        self._spawn(partial(self._call, ask))

    async def _call(self, ask: NarrationAsk) -> None:
        # Runs as its own task. Cancellation (runtime shutdown) is not caught: it ends the call.
        try:
            narration = await self.narrator.narrate(ask)
        except NarratorError as exc:
            self._failed(str(exc))
        except Exception as exc:
            log.exception("monologue of agent %s: narrator call failed", self.agent_id)
            self._failed(f"internal error: {type(exc).__name__}: {exc}")
        else:
            self._answered(ask, narration)
        self._in_flight = False
        self._consider()
        if self._on_settled is not None:
            self._on_settled()

    # -- outcomes ------------------------------------------------------------------------

    def _answered(self, ask: NarrationAsk, narration: Narration) -> None:
        self.usage = self.usage + narration.usage
        self._unreported = self._unreported + narration.usage
        if narration.text is None:
            self.waits += 1
            if not ask.may_wait:
                log.info("monologue of agent %s: narrator waited when it may not", self.agent_id)
            return
        size = len(ask.actions)
        del self._buffer[:size]  # the narrated actions were the buffer's prefix
        self._counted = sum(1 for a in self._buffer if a.counts)
        # A call that started before the agent ended, and covered everything, is its last word.
        is_final = ask.final_status is not None or (
            self._final_status is not None and not self._buffer
        )
        entry = NarrativeEntry(
            timestamp=self.narrator.clock.now(),
            agent_name=self.agent_name,
            task_id=self.agent_id,
            text=narration.text,
            metadata=NarrativeMetadata(
                event_count=size,
                history_length=len(ask.history),
                is_final=is_final,
                model=narration.model,
                latency_ms=narration.latency_ms,
            ),
        )
        self._history.append(narration.text)
        self.narratives += 1
        self.narrated_actions += size
        usage, self._unreported = self._unreported, Usage()
        try:
            self._on_entry(entry, usage)
        except Exception:
            log.exception("monologue of agent %s: delivering an entry failed", self.agent_id)

    def _failed(self, error: str) -> None:
        self.failures += 1
        log.warning("monologue of agent %s: %s", self.agent_id, error)
        try:
            self._on_failure(error)
        except Exception:
            log.exception("monologue of agent %s: reporting a failure failed", self.agent_id)
