"""The inbox over ACP (core/state/inbox.py): ACP has no such concept, so agentui offers it as
an extension, as ACP's extensibility allows (method names beginning with `_`, advertised in
the capabilities' `_meta`):

- `_agentui/inbox`, a notification to the client whenever a session's rows change (and once a
  loaded session is replayed): `{"sessionId": ..., "rows": [...]}`;
- `_agentui/inbox`, a request from the client, `{"sessionId": ...}`: `{"rows": [...]}` now.

Each row is what `GET /inbox` of `agentui serve` lists (id, kind, agent_id, path, since,
waited_s, waiting, text, query_ids, agent_ids, tool, arguments), from the same fold of the same
events, so an editor, an attached screen and the app list the same rows. A client that knows
nothing of agentui ignores the notification (JSON-RPC) and still sees each question as a
permission request and a budget's stop as a message (updates.py).

`initialize` says so: `agentCapabilities._meta.agentui.inbox` is the method's name.
"""

from __future__ import annotations

from typing import Any

from agentui.core.acp.visible import visible
from agentui.core.state import RunState
from agentui.core.state.inbox import InboxRow, inbox

METHOD = "agentui/inbox"  # the SDK's ext_* add the leading underscore
WIRE_METHOD = f"_{METHOD}"


def row_json(row: InboxRow, now: float) -> dict[str, Any]:
    """A row as `GET /inbox` lists it, its strings made visible."""
    return visible({**row.as_json(), "waited_s": row.waited_s(now)})


class InboxNews:
    """A session's inbox as last sent: `changed` says when the fold's differs."""

    def __init__(self) -> None:
        self._sent: list[dict[str, Any]] | None = None

    def changed(self, state: RunState) -> list[InboxRow] | None:
        """The rows now when they differ from those last sent (then they count as sent);
        None when they do not. Waiting longer is no change."""
        rows = inbox(state)
        shown = [row.as_json() for row in rows]
        if shown == self._sent or (self._sent is None and not shown):
            return None
        self._sent = shown
        return rows
