"""ACP lists the inbox after each batch of events only when the fold says its rows may have
changed (core/state/inbox.inbox_key): a batch of streamed work computes nothing, and the client
is told each change once (core/acp/session.py, `_send_inbox`)."""

from __future__ import annotations

from typing import Any

import pytest

from agentui.core.acp import inbox as acp_inbox
from agentui.core.acp.inbox import METHOD
from agentui.core.protocol import events as ev
from agentui.core.state import RunState
from agentui.core.state.inbox import InboxRow

from ..acp.acp_client import RecordingClient
from ..acp.test_acp_session import runtime_for

# The SDKs (and the agentui modules that import them) are imported where used: collecting
# this module imports no SDK (tests/core/test_collection_imports.py).

pytestmark = pytest.mark.anyio


def _batches() -> list[list[ev.Event]]:
    def at(seq: int, cls: type[ev.Event], agent_id: str, **fields: Any) -> ev.Event:
        return cls(seq=seq, ts=float(seq), agent_id=agent_id, **fields)

    spawned = [
        at(1, ev.AgentSpawned, "a1", parent_id=None, name="main", task="t"),
        at(2, ev.StatusChanged, "a1", old="pending", new="running", reason=""),
    ]
    asked = [at(3, ev.QueryRaised, "a1", query_id="q1", prompt="Which city?", kind="question")]
    work = [[at(seq, ev.TextDelta, "a1", iteration=1, delta="word ")] for seq in range(4, 24)]
    answered = [at(24, ev.QueryAnswered, "a1", query_id="q1", answer="Oslo")]
    return [spawned, asked, *work, answered, *work]


async def test_a_batch_that_changes_nothing_in_the_inbox_does_not_list_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from agentui.core.acp.modes import ASK
    from agentui.core.acp.session import AcpSession

    listed: list[int] = []  # the last event folded at each listing
    rows_of = acp_inbox.inbox

    def counted(state: RunState) -> list[InboxRow]:
        listed.append(state.last_seq)
        return rows_of(state)

    monkeypatch.setattr(acp_inbox, "inbox", counted)  # what InboxNews lists the rows with
    client = RecordingClient()
    runtime = runtime_for({"main": [{"text": "-"}]})
    session = AcpSession("s1", runtime, client, mode=ASK, forms=False)  # type: ignore[arg-type]
    for batch in _batches():
        for event in batch:
            session._translator.apply(event)
        await session._send_inbox()
    assert listed == [2, 3, 24], "listed after the spawn, the question and the answer only"
    rows = [params["rows"] for method, params in client.notifications if method == METHOD]
    assert [[row["id"] for row in sent] for sent in rows] == [["q1"], []]
