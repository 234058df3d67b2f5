"""`agentui diff --json`: the whole comparison as one JSON document, exact strings.

    {"a": {"session": ...}, "b": {...}, "diverged": true,
     "first_divergence": {"agent": "main", "a_step": 4, "b_step": 4, "said": "..."} | null,
     "agents": [{"a": "main", "b": "main", "a_id": "a1", "b_id": "a1",
                 "status": [A, B], "tokens": [A, B], "cost_usd": [A, B], "seconds": [A, B],
                 "answers": [A's, B's], "fork_point": [A's step, B's step] | null,
                 "diverges_at": index into steps | null,
                 "steps": [{"same": bool, "a": STEP | null, "b": STEP | null}, ...]}],
     "rounds": [{"same": bool, "a": ROUND | null, "b": ROUND | null}], "rounds_diverge_at": i}

A STEP is {"step", "kind", "summary", "text", "calls": [{"name", "arguments"}],
"results": [{"content", "is_error"}], "tokens", "seconds"}; `arguments` is the call's
arguments (an object). A ROUND is {"round", "text", "ended", "summary",
"acted": [{"name", "ended", "text"}]}.
"""

from __future__ import annotations

import json
from typing import Any

from agentui.core.session.run_diff import AgentDiff, RunDiff
from agentui.core.session.run_outline import AgentOutline, RoundOutline, StepContent


def diff_document(result: RunDiff) -> dict[str, Any]:
    first = result.first
    return {
        "a": {"session": result.a.session},
        "b": {"session": result.b.session},
        "diverged": result.diverged,
        "first_divergence": _first(first) if first is not None else None,
        "agents": [_agent(agent) for agent in result.agents],
        "rounds": [
            {"same": pair.same, "a": _round(pair.a), "b": _round(pair.b)} for pair in result.rounds
        ],
        "rounds_diverge_at": result.round_diverges_at,
    }


def _first(agent: AgentDiff) -> dict[str, Any]:
    pair = agent.pairs[agent.diverges_at] if agent.diverges_at is not None else None
    return {
        "agent": agent.name,
        "a_step": pair.a.number if pair is not None and pair.a is not None else None,
        "b_step": pair.b.number if pair is not None and pair.b is not None else None,
        "said": agent.divergence(),
    }


def _agent(diff: AgentDiff) -> dict[str, Any]:
    a, b = diff.a, diff.b

    def both(read: Any) -> list[Any]:
        return [read(x) if x is not None else None for x in (a, b)]

    return {
        "a": a.name if a is not None else None,
        "b": b.name if b is not None else None,
        "a_id": a.id if a is not None else None,
        "b_id": b.id if b is not None else None,
        "status": both(lambda x: x.status),
        "tokens": both(lambda x: x.tokens),
        "cost_usd": both(lambda x: x.cost_usd),
        "seconds": both(lambda x: x.seconds),
        "answers": both(lambda x: list(x.answers)),
        "fork_point": list(diff.fork_point) if diff.fork_point is not None else None,
        "diverges_at": diff.diverges_at,
        "steps": [
            {"same": pair.same, "a": _step(pair.a), "b": _step(pair.b)} for pair in diff.pairs
        ]
        if a is not None and b is not None
        else [{"same": False, "a": _step(s), "b": None} for s in _steps(a)]
        + [{"same": False, "a": None, "b": _step(s)} for s in _steps(b)],
    }


def _steps(agent: AgentOutline | None) -> list[StepContent]:
    return agent.steps if agent is not None else []


def _step(step: StepContent | None) -> dict[str, Any] | None:
    if step is None:
        return None
    return {
        "step": step.number,
        "kind": step.kind,
        "summary": step.summary,
        "text": step.text,
        "calls": [{"name": c.name, "arguments": json.loads(c.arguments)} for c in step.calls],
        "results": [{"content": text, "is_error": error} for text, error in step.results],
        "tokens": step.tokens,
        "seconds": step.seconds,
    }


def _round(played: RoundOutline | None) -> dict[str, Any] | None:
    if played is None:
        return None
    return {
        "round": played.number,
        "text": played.text,
        "ended": played.ended,
        "summary": played.summary,
        "acted": [{"name": n, "ended": e, "text": t} for n, e, t in played.acted],
    }
