"""Comparing what a session file holds with what the bus emitted, deltas merged or not."""

from __future__ import annotations

from collections.abc import Sequence

from agentui.core.protocol.events import Event

DELTAS = ("text:delta", "thinking:delta")


def blocks(events: Sequence[Event]) -> dict[tuple[str, str, int], str]:
    """Each agent's streamed text per kind and iteration, joined."""
    out: dict[tuple[str, str, int], list[str]] = {}
    for event in events:
        if event.type in DELTAS:
            key = (event.agent_id, event.type, event.iteration)  # type: ignore[attr-defined]
            out.setdefault(key, []).append(event.delta)  # type: ignore[attr-defined]
    return {key: "".join(pieces) for key, pieces in out.items()}


def others(events: Sequence[Event]) -> list[Event]:
    return [e for e in events if e.type not in DELTAS]


def assert_same_story(written: Sequence[Event], emitted: Sequence[Event]) -> None:
    """The file tells what was emitted: every other event as it was, every block's whole text,
    each merged delta under the seq of its first piece, in order."""
    assert others(written) == others(emitted)
    assert blocks(written) == blocks(emitted)
    seqs = [e.seq for e in written]
    assert seqs == sorted(set(seqs)), "in order, none repeated"
    emitted_by_seq = {e.seq: e for e in emitted}
    for event in written:
        first = emitted_by_seq[event.seq]
        assert (first.type, first.agent_id, first.ts) == (event.type, event.agent_id, event.ts)
        if event.type in DELTAS:
            assert event.delta.startswith(first.delta)  # type: ignore[attr-defined]
