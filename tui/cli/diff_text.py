"""`agentui diff`'s text: readable in 80 columns, every line cut to the width, and every model,
tool, task or person's text shown through terminal_text's `visible_controls`.

Each agent gets a heading (where it diverges, or that it did the same work), two lines of its
tokens, cost, time and end (A | B), then its steps aligned: a run of steps that did the same
work is one `=` line; the first that differs is marked `▶`, later ones `≠`, each with A's and
B's side and their tool calls with arguments. Scenes end with their rounds, compared the same
way.
"""

from __future__ import annotations

from collections.abc import Iterator

from agentui.core.session.run_diff import AgentDiff, RoundPair, RunDiff, StepPair
from agentui.core.session.run_outline import AgentOutline, RoundOutline, StepContent
from agentui.core.support.terminal_text import clipped, visible_controls

SHOWN_DIFFERENCES = 20  # differing steps shown per agent; --json has them all
RUN_OF_SAME = 3  # longer runs of the same steps are one line


def diff_lines(result: RunDiff, width: int = 80) -> Iterator[str]:
    """The lines of the text, each at most `width` columns, terminal-safe."""
    for line in _lines(result):
        yield clipped(" ".join(visible_controls(line).split("\n")), width)


def _lines(result: RunDiff) -> Iterator[str]:
    yield f"A  {result.a.session}"
    yield f"B  {result.b.session}"
    first = result.first
    if first is not None:
        yield f"First divergence: {first.divergence()}"
    elif result.round_diverges_at is not None:
        yield f"First divergence: round {_round_number(result.rounds[result.round_diverges_at])}"
    else:
        yield "The same work: no step differs."
    for agent in result.agents:
        yield ""
        yield from _agent(agent)
    if result.rounds:
        yield ""
        yield from _rounds(result)


def _agent(diff: AgentDiff) -> Iterator[str]:
    a, b = diff.a, diff.b
    if a is None or b is None:
        only = a or b
        side = "A" if a is not None else "B"
        assert only is not None
        yield f"{only.name}: only in {side} ({len(only.steps)} steps, {only.status})"
        return
    said = diff.divergence()
    yield f"{diff.name}: {said}" if said else f"{diff.name}: the same work"
    yield from _figures(a, b)
    if diff.fork_point is not None:
        at_a, at_b = diff.fork_point
        yield f"  = {a.name}@{at_a} is {b.name}@{at_b} (a fork's copy)"
    shown = 0
    run: list[StepPair] = []
    for index, pair in enumerate(diff.pairs):
        if pair.same:
            run.append(pair)
            continue
        yield from _same(run, a, b)
        run = []
        if shown == SHOWN_DIFFERENCES:
            left = sum(1 for p in diff.pairs[index:] if not p.same)
            yield f"  … {left} more steps differ (agentui diff --json has them all)"
            return
        shown += 1
        mark = "▶" if index == diff.diverges_at else "≠"
        yield from _pair(mark, pair, a, b)
    yield from _same(run, a, b)


def _same(run: list[StepPair], a: AgentOutline, b: AgentOutline) -> Iterator[str]:
    if not run:
        return
    if len(run) > RUN_OF_SAME:
        first, last = run[0], run[-1]
        yield f"  = {_span(a.name, first.a, last.a)} the same as " \
              f"{_span(b.name, first.b, last.b)} ({len(run)} steps)"  # fmt: skip
        return
    for pair in run:
        assert pair.a is not None and pair.b is not None
        numbers = f"@{pair.a.number}" if pair.a.number == pair.b.number else \
            f"@{pair.a.number}|{pair.b.number}"  # fmt: skip
        yield f"  = {numbers:<6} {pair.a.kind:<6} {pair.a.summary}"


def _span(name: str, first: StepContent | None, last: StepContent | None) -> str:
    assert first is not None and last is not None
    return f"{name}@{first.number}–{last.number}"


def _pair(mark: str, pair: StepPair, a: AgentOutline, b: AgentOutline) -> Iterator[str]:
    for side, step, agent in (("A", pair.a, a), ("B", pair.b, b)):
        lead = f"  {mark} {side}" if side == "A" else f"    {side}"
        if step is None:
            yield f"{lead} (no such step)"
            continue
        yield f"{lead} {agent.name}@{step.number} {step.kind:<6} {step.summary}"
        for call in step.calls:
            yield f"        {call}"


def _figures(a: AgentOutline, b: AgentOutline) -> Iterator[str]:
    """Two lines, A | B: what it spent, then how long it took and how it ended."""
    yield f"  tokens {a.tokens:,} | {b.tokens:,}   cost {_usd(a.cost_usd)} | {_usd(b.cost_usd)}"
    yield f"  time {_seconds(a.seconds)} | {_seconds(b.seconds)}   ended {a.status} | {b.status}"


def _usd(cost: float | None) -> str:
    return "–" if cost is None else f"${cost:.4f}"


def _seconds(seconds: float | None) -> str:
    return "–" if seconds is None else f"{seconds:.1f} s"


def _rounds(result: RunDiff) -> Iterator[str]:
    yield "Rounds:"
    for index, pair in enumerate(result.rounds):
        if pair.same:
            yield f"  = round {_round_number(pair)} the same ({_acted(pair.a)})"
            continue
        mark = "▶" if index == result.round_diverges_at else "≠"
        for side, played in (("A", pair.a), ("B", pair.b)):
            lead = f"  {mark} {side}" if side == "A" else f"    {side}"
            if played is None:
                yield f"{lead} (no round {_round_number(pair)})"
                continue
            yield f"{lead} round {played.number} {played.ended}: {played.text or '(no input)'}"
            for name, ended, text in played.acted:
                yield f"        {name} ({ended}): {' '.join(text.split())}"


def _round_number(pair: RoundPair) -> int:
    played = pair.a or pair.b
    return played.number if played is not None else 0


def _acted(played: RoundOutline | None) -> str:
    names = [name for name, _, _ in played.acted] if played is not None else []
    return ", ".join(names) or "nobody acted"
