"""The server's fold for `GET /inbox`: the runtime's events (a resumed session's saved ones
first) folded as every front end folds them, so the rows it lists are the rows an attached
screen, the app and ACP compute from the same events (core/state/inbox.py).

The event stream carries no inbox of its own: each row comes from events on it (a question or
an approval raised, a budget's stop, an agent:stalled, a steer queued), and a client folding
the stream with `RunState` and `inbox()` gets these rows; `GET /inbox` is the same list for a
client that folds nothing, with how long each has waited by the server's clock.

    inbox = InboxFold(runtime, history=plan.history)
    inbox.attach(runtime)            # inside `async with runtime`: keeps the fold current
    rows = inbox.rows()
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from agentui.core.protocol.events import Event
from agentui.core.state import RunState
from agentui.core.state.inbox import InboxRow, inbox

if TYPE_CHECKING:
    from agentui.core.runtime import Runtime


class InboxFold:
    def __init__(self, runtime: Runtime, history: Iterable[Event] = ()) -> None:
        """Subscribed now (before the runtime runs: nothing is missed). Without `attach` the
        events wait in the subscription until the next `rows()`."""
        self._state = RunState(transcripts=False, streamed_text=False)
        self._state.apply_all(history)
        self._events = runtime.subscribe()  # deltas may merge: only their times count here

    def attach(self, runtime: Runtime) -> None:
        """Fold as events come (call it inside `async with runtime`), so none pile up."""
        runtime.run_service(self._follow, name="inbox fold")

    async def _follow(self) -> None:
        try:
            while batch := await self._events.next_batch():
                self._state.apply_all(batch)
        finally:
            self._state.apply_all(self._events.drain())
            self._events.close()

    def rows(self) -> list[InboxRow]:
        """Every row now (what the runtime has published so far is folded first)."""
        self._state.apply_all(self._events.drain())
        return inbox(self._state)
