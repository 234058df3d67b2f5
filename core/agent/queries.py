"""Queries: the blocking questions and approvals agents put to the person, and their answers.

An agent raises a query and waits on it (see AgentRun); the person resolves it by its id with
`answer` (text, or None to decline) or, for an approval, `approve`. Every step is an event.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import anyio

from agentui.core.agent.approval import (
    APPROVAL_CHOICES,
    ApprovalChoice,
    ApprovalPolicy,
    parse_answer,
)
from agentui.core.agent.ids import IdSource
from agentui.core.bus import EventBus
from agentui.core.protocol.events import (
    AGENT_STOPPED_REASON,
    PERSON_DECLINED_REASON,
    ApprovalDecided,
    QueryAnswered,
    QueryDeclined,
    QueryRaised,
)
from agentui.core.support.errors import CommandRefusedError, UnknownQueryError


@dataclass(slots=True)
class Query:
    id: str
    agent_id: str
    prompt: str
    kind: str
    answered: anyio.Event
    answer: str | None = None
    resolved: bool = False
    # Approvals only: the call in question, and the person's choice and reason.
    tool: str | None = None
    arguments: dict[str, Any] | None = None
    call_id: str | None = None
    choice: ApprovalChoice | None = None
    reason: str = ""


class QueryBook:
    """The queries of one runtime that are raised and not yet withdrawn, in the order raised."""

    def __init__(self, bus: EventBus, ids: IdSource, approvals: ApprovalPolicy) -> None:
        self._bus = bus
        self._ids = ids
        self.approvals = approvals
        self._queries: dict[str, Query] = {}

    def open_queries(self) -> list[Query]:
        return [q for q in self._queries.values() if not q.resolved]

    def new(self, agent_id: str, prompt: str, kind: str, **approval: Any) -> Query:
        """A query not raised yet; `approval` holds an approval's tool, arguments and call_id."""
        return Query(self._ids.next("q"), agent_id, prompt, kind, anyio.Event(), **approval)

    def raise_query(self, query: Query) -> None:
        self._queries[query.id] = query
        extra: dict[str, Any] = {}
        if query.kind == "approval":
            extra = {"tool": query.tool, "arguments": query.arguments, "choices": APPROVAL_CHOICES}
        self._bus.emit(
            QueryRaised,
            query.agent_id,
            query_id=query.id,
            prompt=query.prompt,
            kind=query.kind,
            **extra,
        )

    def reopen(self, query: Query) -> None:
        """Take in a query a resumed session's log holds open (raised before it ended): open
        again under its own id, with no event (the log's query:raised stands)."""
        self._queries[query.id] = query

    def withdraw(self, query: Query) -> None:
        """The agent stopped waiting: an unresolved query is declined on its behalf."""
        del self._queries[query.id]
        if not query.resolved:
            query.resolved = True
            self._bus.emit(
                QueryDeclined, query.agent_id, query_id=query.id, reason=AGENT_STOPPED_REASON
            )

    def withdraw_questions(self, agent_id: str, reason: str) -> list[Query]:
        """Resolve the agent's open questions (not its approvals) unanswered, as declined for
        `reason`: what it asked no longer applies. The asker wakes with no answer (None);
        the queries it withdrew."""
        withdrawn = [
            query
            for query in self.open_queries()
            if query.agent_id == agent_id and query.kind != "approval"
        ]
        for query in withdrawn:
            query.resolved = True
            query.answer = None
            self._bus.emit(QueryDeclined, query.agent_id, query_id=query.id, reason=reason)
            query.answered.set()
        return withdrawn

    def answer(self, query_id: str, text: str | None) -> None:
        """Answer an open query, or decline it with None (an approval: see approval.py)."""
        query = self._open(query_id)
        if query.kind == "approval":
            choice, reason = parse_answer(text)
            self._decide(query, choice, reason)
            return
        query.resolved = True
        query.answer = text
        if text is None:
            self._bus.emit(
                QueryDeclined, query.agent_id, query_id=query_id, reason=PERSON_DECLINED_REASON
            )
        else:
            self._bus.emit(QueryAnswered, query.agent_id, query_id=query_id, answer=text)
        query.answered.set()

    def approve(self, query_id: str, decision: ApprovalChoice, reason: str | None) -> None:
        query = self._open(query_id)
        if query.kind != "approval":
            raise CommandRefusedError(
                f"query {query_id} is a {query.kind}, not an approval: answer it with answer()"
            )
        if decision not in APPROVAL_CHOICES:
            raise CommandRefusedError(
                f"unknown approval decision {decision!r}; choose one of {APPROVAL_CHOICES}"
            )
        self._decide(query, decision, (reason or "").strip())

    def allow_by_policy(self, query: Query) -> bool:
        """Settle an open approval the policy decides now without asking (approvals off: a
        session resumed with `--yes` that had asked before); False when the person decides."""
        assert query.tool is not None
        standing = self.approvals.standing_decision(query.tool)
        if standing is None or query.resolved:
            return False
        query.resolved = True
        query.choice, query.answer = "always", "allowed: approvals are off"
        self._bus.emit(QueryAnswered, query.agent_id, query_id=query.id, answer=query.answer)
        self._bus.emit(
            ApprovalDecided, query.agent_id, tool=query.tool, call_id=query.call_id,
            decision="always", query_id=query.id, source=standing,
        )  # fmt: skip
        query.answered.set()
        return True

    def allowed_without_asking(self, agent_id: str, tool: str, call_id: str | None) -> bool:
        """True (and an `approval:decided` saying why) when `tool` may run without asking."""
        standing = self.approvals.standing_decision(tool)
        if standing is None:
            return False
        self._bus.emit(
            ApprovalDecided,
            agent_id,
            tool=tool,
            call_id=call_id,
            decision="always",
            source=standing,
        )
        return True

    def _open(self, query_id: str) -> Query:
        query = self._queries.get(query_id)
        if query is None or query.resolved:
            raise UnknownQueryError(query_id)
        return query

    def _decide(self, query: Query, choice: ApprovalChoice, reason: str) -> None:
        """Resolve an approval with the person's choice; "always" also settles the other open
        approvals of the same tool."""
        assert query.tool is not None
        query.resolved = True
        query.choice, query.reason = choice, reason
        if choice == "reject":
            declined = f"rejected: {reason}" if reason else "rejected"
            self._bus.emit(QueryDeclined, query.agent_id, query_id=query.id, reason=declined)
        else:
            query.answer = "allowed once" if choice == "once" else "always allowed"
            self._bus.emit(QueryAnswered, query.agent_id, query_id=query.id, answer=query.answer)
        self._bus.emit(
            ApprovalDecided,
            query.agent_id,
            tool=query.tool,
            call_id=query.call_id,
            decision=choice,
            reason=reason,
            query_id=query.id,
        )
        query.answered.set()
        if choice != "always":
            return
        self.approvals.always_allowed.add(query.tool)
        for other in self.open_queries():
            if other.kind == "approval" and other.tool == query.tool:
                other.resolved = True
                other.choice, other.answer = "always", "always allowed (an earlier answer)"
                self._bus.emit(
                    QueryAnswered, other.agent_id, query_id=other.id, answer=other.answer
                )
                self._bus.emit(
                    ApprovalDecided,
                    other.agent_id,
                    tool=other.tool,
                    call_id=other.call_id,
                    decision="always",
                    query_id=other.id,
                    source="remembered",
                )
                other.answered.set()
