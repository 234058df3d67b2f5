"""The steering eval (tests/bench/steering_eval.py) on the offline model: every case's score is
exact, so a regression in any steering feature (steer, modify, pause, resume, delete, a late
answer) fails here. The eval itself is checked too: it must catch a steer that lands late."""

from __future__ import annotations

import pytest

from agentui.core.agent.agent_run import AgentRun
from agentui.core.protocol.conversation import Conversation
from tests.bench.steering_eval import Score, score_offline, table

YES = Score(delivered=True, reflected=True, clean=None, tokens_after=0)

EXPECTED = {
    "add_constraint": YES,
    "answer_late": YES,
    "delete_subagent": Score(delivered=True, reflected=True, clean=True, tokens_after=0),
    "modify_task": YES,
    "pause_and_steer": Score(delivered=True, reflected=True, clean=True, tokens_after=0),
    "retract_constraint": YES,
    "revise_constraint": YES,
    # Not paused, the response under way when the steer came is finished and paid for: 200
    # tokens in, 25 out (the offline model's fixed usage), then the next call reads the steer.
    "steer_mid_response": Score(delivered=True, reflected=True, clean=None, tokens_after=225),
}


def test_every_case_scores_exactly_as_recorded() -> None:
    scores = score_offline()
    assert scores == EXPECTED, table(scores)


def test_the_eval_catches_a_steer_given_during_a_tool_call_that_lands_a_call_late(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The failure mode add_constraint guards: what the person says while a tool runs is held
    # back from the model call right after the tool's result (here, until the one after it).
    deliver = AgentRun.apply_interventions

    def one_call_late(run: AgentRun, conversation: Conversation) -> bool:
        last = conversation.messages[-1] if conversation.messages else None
        if last is not None and last.tool_results:
            return False
        return deliver(run, conversation)

    monkeypatch.setattr(AgentRun, "apply_interventions", one_call_late)
    [(name, score)] = score_offline(["add_constraint"]).items()
    assert (score.delivered, score.reflected) == (False, False), table({name: score})
    assert any("no note:delivered before the next call" in p for p in score.problems)
    assert "the answer lacks '300'" in score.problems
