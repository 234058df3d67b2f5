"""Structured decisions: parsing and validating the model's JSON, and scripting decisions."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from agentui.core.clock import FrozenClock
from agentui.core.providers.script import Script, Turn
from agentui.core.providers.scripted import ScriptedProvider
from agentui.core.runtime import Runtime
from agentui.core.tree import AgentStatus
from agentui.core.workflow.decisions import (
    DECISIONS,
    ClarifyDecision,
    QuestionsDecision,
    ResolutionDecision,
    SubquestionsDecision,
)
from agentui.core.workflow.structured import InvalidDecision, parse_decision


@pytest.mark.parametrize("cls", list(DECISIONS.values()), ids=list(DECISIONS))
def test_an_empty_object_is_the_neutral_answer_to_every_decision(cls: type) -> None:
    value = parse_decision(cls, "{}")
    assert not any(v for v in value.model_dump().values())


@pytest.mark.parametrize(
    "text",
    [
        '{"ambiguous": true, "question": "Which city?"}',
        '```json\n{"ambiguous": true, "question": "Which city?"}\n```',
        'Here you go: {"ambiguous": true, "question": "  Which city?  "} Hope that helps.',
        '{"ambiguous": true, "question": "Which city?", "confidence": 0.4}',
    ],
)
def test_a_valid_answer_is_found_and_tidied(text: str) -> None:
    assert parse_decision(ClarifyDecision, text) == ClarifyDecision(
        ambiguous=True, question="Which city?"
    )


@pytest.mark.parametrize(
    ("cls", "text", "error"),
    [
        (ClarifyDecision, "no idea", "the reply holds no JSON object"),
        (ClarifyDecision, "{'ambiguous': True}", "the JSON does not parse"),
        (ClarifyDecision, '{"ambiguous": true}', "`question` is required"),
        (ClarifyDecision, '{"ambiguous": "perhaps"}', "ambiguous: Input should be a valid boolean"),
        (ResolutionDecision, '{"uncertain": true, "question": " "}', "question:"),
        (QuestionsDecision, '{"questions": ["a", "b", "c", "d"]}', "at most 3 items"),
        (SubquestionsDecision, '{"subquestions": ["1", "2", "3", "4", "5"]}', "at most 4 items"),
        (SubquestionsDecision, '{"subquestions": "one"}', "subquestions: Input should be"),
    ],
)
def test_an_invalid_answer_says_what_is_wrong(cls: type, text: str, error: str) -> None:
    with pytest.raises(InvalidDecision) as caught:
        parse_decision(cls, text)
    assert error in str(caught.value)


def test_scripts_load_decisions_with_a_fallback(tmp_path: Path) -> None:
    path = tmp_path / "script.toml"
    path.write_text(
        '[[agents."*"]]\ntext = "done"\n\n'
        "[[decisions.main.clarify]]\n"
        'text = \'{"ambiguous": true, "question": "Which city?"}\'\n\n'
        '[[decisions."*".subquestions]]\n'
        'text = \'{"subquestions": ["a"]}\'\n',
        encoding="utf-8",
    )
    script = Script.load(path)
    clarify = script.decision_turns("main", "clarify")
    assert clarify is not None and clarify[0].text.startswith('{"ambiguous": true')
    assert script.decision_turns("main", "subquestions") == script.decision_turns(
        "other", "subquestions"
    )
    assert script.decision_turns("other", "clarify") is None


@pytest.mark.anyio
async def test_a_script_that_runs_out_of_decisions_fails_like_one_out_of_turns() -> None:
    script = Script(
        agents={"main": [Turn(text="x")]},
        decisions={"main": {"questions": [Turn(text='{"questions": ["Why?"]}')]}},
    )
    runtime = Runtime(ScriptedProvider(script), clock=FrozenClock(), workflow="six-step")
    async with runtime:
        root = runtime.start("Task")
        subscription = runtime.subscribe(maxsize=None)
        with anyio.fail_after(10):
            async for event in subscription:
                if event.type == "query:raised":
                    runtime.answer(event.query_id, "because")  # type: ignore[attr-defined]
                if event.type == "agent:status" and runtime.node(root).status.is_final:
                    break
    node = runtime.node(root)
    assert node.status is AgentStatus.ERROR
    assert node.error == (
        "the script ran out of 'questions' decisions for agent 'main' "
        "(it has 1, call 2 asked for another)"
    )
