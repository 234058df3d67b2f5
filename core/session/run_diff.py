"""Two runs compared (`agentui diff`): per agent, the steps aligned, and the first point where
they part; for directed scenes, round by round.

    result = diff_runs(run_outline(a_events, "s1"), run_outline(b_events, "s2"))
    result.first             # the first agent that diverges and where, or None: the same work
    result.agents[0].pairs   # (A's step, B's step) in order, each marked same or not

Agents are matched by name (main with main, main.1 with main.1); one left over that is a fork
is then matched with its origin (main~1 with main), as is a fork compared with its origin by
`diff_agents`. Steps are aligned on each agent's path (a rewind's set-aside steps are not on
it) by difflib's SequenceMatcher over what each step did: runs of the same work are paired,
a step only one side made (a steer the other never had) stands alone, and the steps that differ
between two such runs are paired in order. A fork's first step is its copy of the origin's
conversation at the fork's step, so a fork's step 1 is aligned with its origin's step after
that one. Two steps are the same when they did the same work (StepContent.same_as); tokens,
cost and time are compared side by side, never as a divergence.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from difflib import SequenceMatcher
from itertools import zip_longest

from agentui.core.session.reader import collector_paused
from agentui.core.session.run_outline import AgentOutline, RoundOutline, RunOutline, StepContent

# Past this many differing steps SequenceMatcher leaves out the steps that recur most (its
# autojunk), which bounds its time; below it every step takes part in the alignment.
AUTOJUNK_PAST = 2_000


@dataclass(frozen=True, slots=True)
class StepPair:
    a: StepContent | None
    b: StepContent | None

    @property
    def same(self) -> bool:
        return self.a is not None and self.b is not None and self.a.same_as(self.b)


@dataclass(slots=True)
class AgentDiff:
    a: AgentOutline | None
    b: AgentOutline | None
    pairs: list[StepPair] = field(default_factory=list)
    diverges_at: int | None = None  # index into pairs; None: no step differs
    fork_point: tuple[int, int] | None = None  # (A's step, B's step) that hold the same copy

    @property
    def name(self) -> str:
        a, b = self.a, self.b
        if a is not None and b is not None and a.name != b.name:
            return f"{a.name} ↔ {b.name}"
        return (a or b).name  # type: ignore[union-attr]

    @property
    def diverged(self) -> bool:
        return self.a is None or self.b is None or self.diverges_at is not None

    def divergence(self) -> str | None:
        """Where they part, in words; None when they do not."""
        if self.a is None:
            return f"{self.b.name} is only in B"  # type: ignore[union-attr]
        if self.b is None:
            return f"{self.a.name} is only in A"
        if self.diverges_at is None:
            return None
        pair = self.pairs[self.diverges_at]
        if pair.a is None:
            step = pair.b
            return f"B has {self.b.name}@{step.number} ({step.kind}), A has no such step"  # type: ignore[union-attr]
        if pair.b is None:
            return f"A has {self.a.name}@{pair.a.number} ({pair.a.kind}), B has no such step"
        return f"{self.a.name}@{pair.a.number} and {self.b.name}@{pair.b.number} differ"


@dataclass(frozen=True, slots=True)
class RoundPair:
    a: RoundOutline | None
    b: RoundOutline | None

    @property
    def same(self) -> bool:
        return self.a is not None and self.b is not None and self.a.same_as(self.b)


@dataclass(slots=True)
class RunDiff:
    a: RunOutline
    b: RunOutline
    agents: list[AgentDiff] = field(default_factory=list)
    rounds: list[RoundPair] = field(default_factory=list)
    round_diverges_at: int | None = None  # index into rounds

    @property
    def first(self) -> AgentDiff | None:
        """The first agent (in A's order, then B's) whose work differs."""
        return next((agent for agent in self.agents if agent.diverged), None)

    @property
    def diverged(self) -> bool:
        return self.first is not None or self.round_diverges_at is not None


def diff_runs(a: RunOutline, b: RunOutline) -> RunDiff:
    """Every agent of both runs, matched and aligned; their rounds, when scenes. The collector
    is held off meanwhile: the logs just read are young objects it would walk for nothing."""
    with collector_paused():
        return _diff_runs(a, b)


def _diff_runs(a: RunOutline, b: RunOutline) -> RunDiff:
    result = RunDiff(a, b)
    unmatched_b = [agent for name, agent in b.agents.items() if name not in a.agents]
    matched: dict[str, AgentOutline | None] = {name: b.agents.get(name) for name in a.agents}
    for name, agent in a.agents.items():
        if matched[name] is None:
            fork = next((x for x in unmatched_b if _fork_of(x, agent) or _fork_of(agent, x)),
                        None)  # fmt: skip
            if fork is not None:
                unmatched_b.remove(fork)
                matched[name] = fork
    for name, agent in a.agents.items():
        other = matched[name]
        result.agents.append(diff_agents(agent, other) if other is not None
                             else AgentDiff(agent, None))  # fmt: skip
    result.agents.extend(AgentDiff(None, agent) for agent in unmatched_b)
    result.rounds = [RoundPair(x, y) for x, y in zip_longest(a.rounds, b.rounds)]
    result.round_diverges_at = next(
        (i for i, pair in enumerate(result.rounds) if not pair.same), None
    )
    return result


def diff_agents(a: AgentOutline, b: AgentOutline) -> AgentDiff:
    """One agent against another, its steps aligned (from the fork's point when one is a fork
    of the other)."""
    a_steps, b_steps = a.steps, b.steps
    fork_point = None
    if _fork_of(b, a):
        a_steps, b_steps, fork_point = _after_fork(a_steps, b_steps, b.forked.step)  # type: ignore[union-attr]
    elif _fork_of(a, b):
        b_steps, a_steps, point = _after_fork(b_steps, a_steps, a.forked.step)  # type: ignore[union-attr]
        fork_point = (point[1], point[0])
    pairs = aligned(a_steps, b_steps)
    diverges_at = next((i for i, pair in enumerate(pairs) if not pair.same), None)
    return AgentDiff(a, b, pairs, diverges_at, fork_point)


def aligned(a: list[StepContent], b: list[StepContent]) -> list[StepPair]:
    """The two paths of steps aligned (see the module's docstring).

    What both begin and end with is paired first, in one pass: SequenceMatcher meets only the
    part between, where the runs differ (a run that repeats one tool call thousands of times
    would cost it time that grows with the square of that part). Each step's work is a number
    there: equal work, equal number, compared without walking its text again."""
    numbers: dict[tuple[object, ...], int] = {}
    a_work = [numbers.setdefault(step.work, len(numbers)) for step in a]
    b_work = [numbers.setdefault(step.work, len(numbers)) for step in b]
    start = 0
    while start < len(a) and start < len(b) and a_work[start] == b_work[start]:
        start += 1
    end = 0  # how many steps both end with, not counting those they begin with
    while end < min(len(a), len(b)) - start and a_work[-1 - end] == b_work[-1 - end]:
        end += 1
    pairs = [StepPair(x, y) for x, y in zip(a[:start], b[:start], strict=True)]
    a_mid, b_mid = a[start : len(a) - end], b[start : len(b) - end]
    matcher = SequenceMatcher(
        None, a_work[start : len(a) - end], b_work[start : len(b) - end],
        autojunk=len(a_mid) + len(b_mid) > AUTOJUNK_PAST,
    )  # fmt: skip
    for op, a_from, a_to, b_from, b_to in matcher.get_opcodes():
        if op in ("equal", "replace"):
            pairs.extend(
                StepPair(x, y) for x, y in zip_longest(a_mid[a_from:a_to], b_mid[b_from:b_to])
            )
        elif op == "delete":
            pairs.extend(StepPair(x, None) for x in a_mid[a_from:a_to])
        else:
            pairs.extend(StepPair(None, y) for y in b_mid[b_from:b_to])
    pairs.extend(StepPair(x, y) for x, y in zip(a[len(a) - end :], b[len(b) - end :], strict=True))
    return pairs


def _fork_of(fork: AgentOutline, origin: AgentOutline) -> bool:
    return fork.forked is not None and fork.forked.origin_name == origin.name


def _after_fork(
    origin: list[StepContent], fork: list[StepContent], step: int
) -> tuple[list[StepContent], list[StepContent], tuple[int, int]]:
    """The origin's steps after the fork's step, and the fork's after its copy (its step 0)."""
    after = next((i for i, s in enumerate(origin) if s.number > step), len(origin))
    first = fork[0].number if fork else 0
    return origin[after:], fork[1:], (step, first)
