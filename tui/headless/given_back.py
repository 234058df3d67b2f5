"""What a resumed session gives back to a headless run to answer: questions, approvals and
budget stops.

An agent that waited on the person when its session ended waits again in the resumed run
(core/session/resume.py): its question is open from the start, raised in the saved log (a
kill left it open) or by the resume's closing events (a quit's shutdown had declined it). No
new `query:raised` comes for it, so the headless loop, which answers each one as it comes,
takes these up first, in the order they were asked, the same way (`--answer`, then stdin). A
budget's stop that stood stands again (the resume holds its subtree paused): it is answered as
a new one is (budget_answer.py).

Left out: those of agents about to be stopped (`leaving`: a rewind stops the agent and the
subagents it set aside, which withdraws their questions), and an approval the settings in
effect now settle without asking (`--yes`: the runtime allows a tool's call itself,
AgentRun.approve; a fork past a budget is the budget's, asked whatever the policy).
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass
from typing import TYPE_CHECKING

from agentui.core.protocol.events import BudgetReached, QueryRaised

if TYPE_CHECKING:
    from agentui.core.runtime import Runtime
    from agentui.core.session.resume import ResumePlan


@dataclass(frozen=True, slots=True)
class GivenBack:
    # What the person answers, in the order it came: questions and approvals open again,
    # and budget stops that stand again (each holding its subtree's live agents paused).
    to_answer: list[QueryRaised | BudgetReached]
    settled: frozenset[str]  # query ids the approval policy settles without asking


def given_back(plan: ResumePlan, runtime: Runtime, leaving: Container[str] = ()) -> GivenBack:
    """What waits on the person from the start of a run that resumed `plan`."""
    open_now = {query.id for query in runtime.open_queries()}
    raised = [
        event
        for event in plan.history
        if isinstance(event, QueryRaised) and event.query_id in open_now
    ]
    settled = frozenset(e.query_id for e in raised if _settled_by_policy(runtime, e))
    asked = [e for e in raised if e.agent_id not in leaving and e.query_id not in settled]
    stops = [
        agent.budget_stop
        for agent in plan.state.budget_stops()
        # one the resumed runtime holds (plan.stops), of an agent the rewind leaves alone
        if agent.budget_stop is not None and agent.id in plan.stops and agent.id not in leaving
    ]
    return GivenBack(sorted([*asked, *stops], key=lambda e: e.seq), settled)


def _settled_by_policy(runtime: Runtime, raised: QueryRaised) -> bool:
    """An approval the approval policy allows now without asking, as the runtime decides a
    given-back one (QueryBook.allow_by_policy: by its tool's standing decision alone)."""
    if raised.kind != "approval" or raised.tool is None:
        return False
    return runtime.approvals.standing_decision(raised.tool) is not None
