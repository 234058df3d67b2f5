"""Which agent a client's request_id started: `/agent/stream` asked again with the same id (an
EventSource reconnecting before it saw any message id) streams that agent instead of starting
the task again.

A reconnect comes within seconds, so only the newest requests are remembered, and each prompt
by its digest: a server that runs for weeks holds a bounded table, not every prompt it got.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict

REMEMBERED = 4096  # requests; a reconnect that comes after this many others starts anew


def _digest(prompt: str) -> bytes:
    return hashlib.sha256(prompt.encode("utf-8", "surrogatepass")).digest()


class RequestStarts:
    def __init__(self, remembered: int = REMEMBERED) -> None:
        self._remembered = remembered
        self._started: OrderedDict[str, tuple[str, bytes]] = OrderedDict()

    def remember(self, request_id: str, agent_id: str, prompt: str) -> None:
        self._started[request_id] = (agent_id, _digest(prompt))
        while len(self._started) > self._remembered:
            self._started.popitem(last=False)

    def started(self, request_id: str, prompt: str) -> tuple[str, bool] | None:
        """The agent `request_id` started and whether it was for this same `prompt`; None when
        the request is not remembered."""
        earlier = self._started.get(request_id)
        if earlier is None:
            return None
        agent_id, digest = earlier
        return agent_id, digest == _digest(prompt)
