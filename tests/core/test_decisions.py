"""Structured decisions: parsing and validating the model's JSON, scripting decisions, the
neutral answer a decision falls back to, and how that fallback is shown."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentui.core.agent.tree import AgentStatus
from agentui.core.protocol.conversation import user_text
from agentui.core.protocol.events import Event
from agentui.core.providers.base import ProviderRequest, StreamEnd, TextChunk
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.sample_args import minimal_instance
from agentui.core.providers.scripted.script import Script, Turn
from agentui.core.runtime import Runtime
from agentui.core.state import RunState
from agentui.core.state.transcript import TranscriptBuilder
from agentui.core.support.clock import FrozenClock
from agentui.core.workflow.decisions import (
    DECISIONS,
    ClarifyDecision,
    QuestionsDecision,
    ResolutionDecision,
    SubquestionsDecision,
)
from agentui.core.workflow.structured import InvalidDecision, parse_decision
from agentui.tui.headless.run import HeadlessPrinter


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


# -- the neutral answer, from the schema a request declares ---------------------------------


@pytest.mark.parametrize("cls", list(DECISIONS.values()), ids=list(DECISIONS))
def test_the_smallest_instance_of_each_decision_schema_is_its_neutral_answer(cls: type) -> None:
    assert cls.model_validate(minimal_instance(cls.model_json_schema())) == cls()


@pytest.mark.parametrize(
    ("schema", "least"),
    [
        ({"type": "object", "properties": {"a": {"type": "string"}}}, {}),
        (
            {
                "type": "object",
                "required": ["n", "tags", "kind", "when", "maybe"],
                "properties": {
                    "n": {"type": "integer", "minimum": 2},
                    "tags": {"type": "array", "items": {"type": "string", "minLength": 2}},
                    "kind": {"enum": ["first", "second"]},
                    "when": {"type": "string", "format": "date"},
                    "maybe": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                },
            },
            {"n": 2, "tags": [], "kind": "first", "when": "2026-01-01", "maybe": None},
        ),
        (
            {
                "$defs": {
                    "Item": {
                        "type": "object",
                        "required": ["ok"],
                        "properties": {"ok": {"type": "boolean"}},
                    }
                },
                "type": "array",
                "minItems": 1,
                "items": {"$ref": "#/$defs/Item"},
            },
            [{"ok": False}],
        ),
        ({"type": "number", "exclusiveMinimum": 0}, 1.0),
        ({"type": "integer", "maximum": -3}, -3),
        ({"type": "string", "minLength": 3}, "aaa"),
    ],
)
def test_the_smallest_instance_keeps_to_what_the_schema_requires(
    schema: dict[str, Any], least: Any
) -> None:
    assert minimal_instance(schema) == least


@given(
    st.fixed_dictionaries(
        {},
        optional={
            "ambiguous": st.booleans(),
            "question": st.one_of(st.none(), st.text(max_size=20)),
        },
    )
)
def test_any_clarify_reply_either_validates_or_says_why(data: dict[str, Any]) -> None:
    """Whatever object a schema-bound model sends, parsing never fails with anything else."""
    try:
        value = parse_decision(ClarifyDecision, json.dumps(data))
    except InvalidDecision as exc:
        assert str(exc)
    else:
        assert not value.ambiguous or value.question


async def _one_decision(provider: ScriptedProvider, schema: dict[str, Any]) -> str:
    request = ProviderRequest(
        model="scripted-1",
        instructions="",
        messages=[user_text("Task")],
        agent_id="a1",
        agent_name="main",
        purpose="decision",
        decision="estimate",
        response_schema=schema,
    )
    pieces: list[str] = []
    async for event in provider.stream(request):
        if isinstance(event, TextChunk):
            pieces.append(event.text)
        assert not isinstance(event, StreamEnd) or event.stop_reason == "end_turn"
    return "".join(pieces)


@pytest.mark.anyio
async def test_the_scripted_model_answers_an_unscripted_decision_from_its_schema() -> None:
    """It knows no decision by name: what the request declares is all it reads."""
    schema = {
        "type": "object",
        "required": ["days", "sure"],
        "properties": {"days": {"type": "integer", "minimum": 1}, "sure": {"type": "boolean"}},
    }
    provider = ScriptedProvider(Script.for_all(Turn(text="x")))
    assert json.loads(await _one_decision(provider, schema)) == {"days": 1, "sure": False}


# -- a decision the model never answers validly ---------------------------------------------


@pytest.mark.anyio
async def test_the_fallback_notice_shows_in_the_transcript_and_on_headless_stderr() -> None:
    script = Script(
        agents={"main": [Turn(text="Done anyway.")]},
        decisions={"main": {"subquestions": [Turn(text="two, maybe three")] * 3}},
    )
    runtime = Runtime(ScriptedProvider(script), clock=FrozenClock(), workflow="six-step")
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        root = runtime.start("Task")
        with anyio.fail_after(10):
            node = await runtime.wait(root)
    seen: list[Event] = events.drain()
    assert node.status is AgentStatus.COMPLETED and node.result == "Done anyway."
    said = (
        "the model gave no valid answer to the 'subquestions' decision in 3 attempts: "
        "the reply holds no JSON object. Going on with the neutral answer: no subagents."
    )
    transcript = TranscriptBuilder(root)
    for event in seen:
        transcript.apply(event)
    assert [item.text for item in transcript.items if item.kind == "error"] == [
        f"{said} (giving up)"
    ]
    out, err = io.StringIO(), io.StringIO()
    state = RunState(transcripts=False)
    printer = HeadlessPrinter(out, err, json_output=False, root_id=root, state=state)
    for event in seen:
        state.apply(event)
        printer.show(event)
    assert f"[main] model: {said}" in err.getvalue()
    assert out.getvalue().strip() == "Done anyway."  # the answer alone on stdout
