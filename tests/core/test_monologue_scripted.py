"""The scripted provider narrates offline: deterministic lines, the wait signal, scripts intact."""

from __future__ import annotations

from dataclasses import replace

import pytest

from agentui.core.monologue.config import MonologueConfig
from agentui.core.monologue.narrator import NarrationAsk, Narrator
from agentui.core.protocol.conversation import user_text
from agentui.core.providers.base import ProviderRequest, TextChunk
from agentui.core.providers.narration_subject import StepKind
from agentui.core.providers.scripted.narration import narrate
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, Turn

from .test_monologue_fakes import call, result, text, thought

pytestmark = pytest.mark.anyio


def request(*actions: object, history: tuple[str, ...] = (), **ask: object) -> ProviderRequest:
    narrator = Narrator(ScriptedProvider(), MonologueConfig())
    return narrator.build_request(NarrationAsk("a1", "main", actions, history, **ask))  # type: ignore[arg-type]


def test_lines_from_results_failures_thoughts_and_text() -> None:
    assert narrate(request(call(), result())) == 'I used lookup and got "found: 8080".'
    assert narrate(request(call("a"), result("a", "no such file", error=True))) == (
        "I tried a, but it failed (no such file)."
    )
    assert narrate(request(call(), result(), call("b"), result("b", "boom", error=True))) == (
        'I used lookup and got "found: 8080", but b failed (boom).'
    )
    assert narrate(request(call(), result(), call("ask_user"))) == (
        'I used lookup and got "found: 8080", and now I\'m waiting on ask_user.'
    )
    assert narrate(request(thought("Where is the port set?"))) == (
        'I\'m thinking: "Where is the port set?"'
    )
    assert narrate(request(text("The port is 8080."))) == 'I wrote "The port is 8080".'
    assert narrate(request(thought("Plan."), text("The answer."), final_status="completed")) == (
        'Done. I wrote "The answer".'
    ), "at the end, what it wrote, not what it thought on the way"


def test_it_waits_on_a_bare_call_unless_it_may_not() -> None:
    assert narrate(request(call())) == "..."
    assert narrate(request(call(), forced=True)) == "I'm calling lookup."
    assert (
        narrate(request(call(), final_status="cancelled")) == "I was stopped. I'm calling lookup."
    )


def test_the_closing_line_says_how_it_ended_and_repeats_are_marked() -> None:
    assert narrate(request(call(), result(), text("Done."), final_status="completed")) == (
        'Done. I used lookup and got "found: 8080", and wrote "Done".'
    )
    line = narrate(request(call(), result()))
    assert narrate(request(call(), result(), history=(line,))) == f"Still at it: {line}"


def test_long_details_are_cut_at_a_word() -> None:
    long = "the configuration file lists every port the service listens on"
    assert narrate(request(call(), result(detail=long))) == (
        'I used lookup and got "the configuration file lists every port…"'
    )


async def test_narrator_requests_leave_the_agents_script_alone() -> None:
    provider = ScriptedProvider(Script.for_all(Turn(text="Agent turn 1."), Turn(text="Turn 2.")))
    narrated = await _text(provider, request(call(), result()))
    assert narrated == 'I used lookup and got "found: 8080".'
    agent = ProviderRequest(
        model="scripted-1", instructions="", messages=[], agent_id="a1", agent_name="main"
    )
    assert await _text(provider, agent) == "Agent turn 1."
    assert await _text(provider, request(thought())) != "Turn 2."
    assert await _text(provider, agent) == "Turn 2."


async def _text(provider: ScriptedProvider, req: ProviderRequest) -> str:
    return "".join([e.text async for e in provider.stream(req) if isinstance(e, TextChunk)])


def test_a_quote_leaves_markdown_marks_out() -> None:
    assert narrate(request(text("## Plan\n\n**Result:** done"))) == 'I wrote "Plan Result: done".'


def test_it_narrates_what_the_request_declares_not_its_prose() -> None:
    declared = request(call(), result(), thought("Done?"), history=("Earlier.",), forced=True)
    subject = declared.narration
    assert subject is not None
    assert [(s.kind, s.tool, s.detail) for s in subject.steps] == [
        (StepKind.CALL, "lookup", '{"query": "port"}'),
        (StepKind.RESULT, "lookup", "found: 8080"),
        (StepKind.THOUGHT, "", "Done?"),
    ]
    assert (subject.earlier, subject.may_wait, subject.ended) == (("Earlier.",), False, None)
    # Prose that says something else entirely changes nothing: the line follows the data.
    reworded = replace(declared, messages=[user_text("[12:00:00] thought: something else")])
    assert narrate(reworded) == narrate(declared) == 'I used lookup and got "found: 8080".'


def test_the_declared_steps_are_cut_as_the_prompt_shows_them() -> None:
    long = "word " * 100
    (step,) = request(result(detail=long)).narration.steps  # type: ignore[union-attr]
    assert (
        step.detail.endswith("…") and step.detail in request(result(detail=long)).messages[0].text
    )


def test_an_empty_result_says_nothing_came_back() -> None:
    assert narrate(request(call(), result(detail=""))) == "I used lookup and got nothing back."
