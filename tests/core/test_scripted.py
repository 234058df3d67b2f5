"""The scripted provider: script files, per-agent scripts, the demo, determinism, chunking."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest

from agentui.core.agent.tree import AgentStatus
from agentui.core.protocol.conversation import user_text
from agentui.core.protocol.events import Event, ExecutionCancelled, QueryRaised, TextDelta
from agentui.core.protocol.person_words import DECLINED
from agentui.core.providers.base import ProviderRequest
from agentui.core.providers.scripted.demo import demo_decision
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedError, ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock
from agentui.core.support.errors import ScriptError
from agentui.core.tools.ask_user import ASK_USER
from agentui.core.tools.registry import ToolRegistry
from agentui.core.tools.tool import tool

from .helpers import events_until, of_type, scripted_runtime


@tool
async def lookup(query: str) -> str:
    """Look something up."""
    return f"found: {query}"


async def run_to_end(runtime: Runtime, task: str, **start: Any) -> tuple[str, list[Event]]:
    """Start `task`, wait for its run to end, and return the agent id and every event."""
    subscription = runtime.subscribe(maxsize=None)
    agent_id = runtime.start(task, **start)
    with anyio.fail_after(5):
        await runtime.wait(agent_id)
    events = subscription.drain()
    subscription.close()
    return agent_id, events


def deltas(events: list[Event], agent_id: str | None = None) -> list[str]:
    return [
        e.delta
        for e in events
        if isinstance(e, TextDelta) and (agent_id is None or e.agent_id == agent_id)
    ]


# -- loading scripts -------------------------------------------------------------------------

TOML_SCRIPT = """
[[agents."*"]]
thinking = "Plan first."
text = "I'll look it up."
tool_calls = [{ name = "lookup", arguments = { query = "ports" } }]

[[agents."*"]]
text = "The port is 8080."

[[agents.main]]
text = "Hello from main."
stop_reason = "max_tokens"
usage = { input_tokens = 3, output_tokens = 4 }
"""


def test_load_toml(tmp_path: Path) -> None:
    path = tmp_path / "script.toml"
    path.write_text(TOML_SCRIPT, encoding="utf-8")
    script = Script.load(path)
    assert set(script.agents) == {"*", "main"}
    first, second = script.agents["*"]
    assert first.thinking == "Plan first."
    assert first.tool_calls == [ScriptedToolCall(name="lookup", arguments={"query": "ports"})]
    assert first.effective_stop_reason == "tool_use"
    assert second.effective_stop_reason == "end_turn"
    (main,) = script.agents["main"]
    assert main.effective_stop_reason == "max_tokens"
    assert main.usage is not None and main.usage.output_tokens == 4
    # An upper-case suffix is TOML all the same.
    upper = tmp_path / "SCRIPT.TOML"
    upper.write_text(TOML_SCRIPT, encoding="utf-8")
    assert Script.load(str(upper)) == script


def test_load_json(tmp_path: Path) -> None:
    data = {
        "agents": {
            "*": [
                {
                    "text": "calling",
                    "tool_calls": [{"name": "lookup", "raw_arguments": "{not json"}],
                },
                {"error": {"message": "overloaded", "retryable": True, "after_chunks": 2}},
                {"text": "stuck", "hang_after_chunks": 1},
            ]
        }
    }
    path = tmp_path / "script.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    script = Script.load(path)
    calling, failing, hanging = script.agents["*"]
    assert calling.tool_calls[0].raw_arguments == "{not json"
    assert failing.error is not None
    assert (failing.error.message, failing.error.retryable, failing.error.after_chunks) == (
        "overloaded",
        True,
        2,
    )
    assert hanging.hang_after_chunks == 1
    # Files without a .toml suffix are read as JSON.
    other = tmp_path / "script.txt"
    other.write_text(json.dumps(data), encoding="utf-8")
    assert Script.load(other) == script


def test_load_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.toml"
    with pytest.raises(ScriptError) as caught:
        Script.load(path)
    assert str(caught.value) == f"cannot read script {path}: No such file or directory"


def test_load_invalid_toml(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text('[[agents."*"]]\ntext = "unterminated\n', encoding="utf-8")
    with pytest.raises(ScriptError, match=r"script .*broken\.toml is not valid toml: "):
        Script.load(path)


def test_load_invalid_json(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"agents": ', encoding="utf-8")
    with pytest.raises(ScriptError, match=r"script .*broken\.json is not valid json: "):
        Script.load(path)


def test_load_unknown_keys(tmp_path: Path) -> None:
    path = tmp_path / "typo.toml"
    path.write_text('[[agents."*"]]\ntext = "hi"\ntool_call = []\n', encoding="utf-8")
    with pytest.raises(ScriptError) as caught:
        Script.load(path)
    message = str(caught.value)
    assert message.startswith(f"script {path} is invalid: ")
    assert "agents.*.0.tool_call: Extra inputs are not permitted" in message

    top = tmp_path / "top.json"
    top.write_text(json.dumps({"agents": {"*": [{}]}, "agnets": {}}), encoding="utf-8")
    with pytest.raises(ScriptError, match="agnets: Extra inputs are not permitted"):
        Script.load(top)


def test_load_empty_agents(tmp_path: Path) -> None:
    for name, text in (("empty.toml", ""), ("empty.json", '{"agents": {}}')):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        with pytest.raises(ScriptError) as caught:
            Script.load(path)
        message = str(caught.value)
        assert message.startswith(f"script {path} is invalid: ")
        assert "a script needs at least one agent entry" in message


def test_turn_fields_are_validated() -> None:
    with pytest.raises(ValueError, match="greater than or equal to 0"):
        Turn(hang_after_chunks=-1)
    with pytest.raises(ValueError, match="Extra inputs are not permitted"):
        Turn(txt="typo")  # type: ignore[call-arg]


# -- playing scripts -------------------------------------------------------------------------


@pytest.mark.anyio
async def test_running_out_of_turns_is_a_clear_provider_error() -> None:
    async with scripted_runtime(Turn(text="only one")) as runtime:
        agent_id, _ = await run_to_end(runtime, "first")
        assert runtime.node(agent_id).status is AgentStatus.COMPLETED
        runtime.send(agent_id, "again")
        with anyio.fail_after(5):
            node = await runtime.wait(agent_id)
    assert node.status is AgentStatus.ERROR
    assert node.error == (
        "the script ran out of turns for agent 'main' (it has 1, call 2 asked for another)"
    )


@pytest.mark.anyio
async def test_running_out_of_turns_emits_provider_failure() -> None:
    async with scripted_runtime(script=Script(agents={"*": []})) as runtime:
        _, events = await run_to_end(runtime, "task")
    (llm_error,) = of_type(events, "llm:error")
    assert "ran out of turns" in llm_error.error  # type: ignore[attr-defined]
    (failed,) = of_type(events, "execution:error")
    assert failed.kind == "provider"  # type: ignore[attr-defined]
    assert "(it has 0, call 1 asked for another)" in failed.error  # type: ignore[attr-defined]


@pytest.mark.anyio
async def test_per_agent_scripts_with_fallback() -> None:
    script = Script(
        agents={
            "main": [Turn(text="I am main.")],
            "helper": [Turn(text="I am the helper.")],
            "*": [Turn(text="I am anyone.")],
        }
    )
    async with scripted_runtime(script=script) as runtime:
        main_id, _ = await run_to_end(runtime, "one")
        helper_id, _ = await run_to_end(runtime, "two", name="helper")
        other_id, _ = await run_to_end(runtime, "three")
        assert runtime.node(other_id).name == "main-3"
        results = [runtime.node(i).result for i in (main_id, helper_id, other_id)]
    assert results == ["I am main.", "I am the helper.", "I am anyone."]


@pytest.mark.anyio
async def test_each_agent_walks_its_own_list() -> None:
    script = Script.for_all(Turn(text="first turn"), Turn(text="second turn"))
    async with scripted_runtime(script=script) as runtime:
        first_id, _ = await run_to_end(runtime, "a")
        second_id, _ = await run_to_end(runtime, "b")
        assert runtime.node(first_id).result == "first turn"
        assert runtime.node(second_id).result == "first turn"
        runtime.send(first_id, "more")
        with anyio.fail_after(5):
            node = await runtime.wait(first_id)
    assert node.result == "second turn"


@pytest.mark.anyio
async def test_no_script_for_the_agent_and_no_fallback() -> None:
    script = Script(agents={"main": [Turn(text="hi")]})
    async with scripted_runtime(script=script) as runtime:
        await run_to_end(runtime, "one")
        other_id, _ = await run_to_end(runtime, "two", name="stranger")
        node = runtime.node(other_id)
    assert node.status is AgentStatus.ERROR
    assert node.error == "the script has no turns for agent 'stranger' and no '*' entry"


# -- the demo --------------------------------------------------------------------------------


async def run_demo(answer: str | None) -> tuple[Runtime, ScriptedProvider, str, list[Event]]:
    provider = ScriptedProvider()
    runtime = Runtime(provider, clock=FrozenClock())
    async with runtime:
        subscription = runtime.subscribe(maxsize=None)
        agent_id = runtime.start("Plan a weekend in Lisbon")
        with anyio.fail_after(5):
            seen = await events_until(subscription, lambda e: isinstance(e, QueryRaised))
            query = seen[-1]
            assert isinstance(query, QueryRaised)
            assert query.kind == "question"
            assert (
                query.prompt == 'For "Plan a weekend in Lisbon": what should I focus on, or avoid?'
            )
            assert runtime.node(agent_id).status is AgentStatus.AWAITING_USER
            runtime.answer(query.query_id, answer)
            await runtime.wait(agent_id)
        events = seen + subscription.drain()
    return runtime, provider, agent_id, events


@pytest.mark.anyio
async def test_demo_asks_then_uses_the_answer() -> None:
    runtime, provider, agent_id, events = await run_demo("good food, no museums")
    node = runtime.node(agent_id)
    assert node.status is AgentStatus.COMPLETED
    assert node.result is not None
    assert node.result.startswith("## Plan a weekend in Lisbon")
    assert "You asked me to focus on: *good food, no museums*." in node.result
    assert len(of_type(events, "query:answered")) == 1
    # The second model call saw the person's answer as the ask_user result.
    results = [b for m in provider.requests[1].messages for b in m.tool_results]
    assert [(r.content, r.is_error) for r in results] == [("good food, no museums", False)]
    assert [e.iteration for e in of_type(events, "iteration:start")] == [1, 2]  # type: ignore[attr-defined]


@pytest.mark.anyio
async def test_demo_when_declined_says_so() -> None:
    runtime, provider, agent_id, events = await run_demo(None)
    node = runtime.node(agent_id)
    assert node.status is AgentStatus.COMPLETED
    assert node.result is not None
    assert "You left the focus to me" in node.result
    assert "You asked me to focus on" not in node.result
    assert len(of_type(events, "query:declined")) == 1
    results = [b for m in provider.requests[1].messages for b in m.tool_results]
    assert [r.content for r in results] == [DECLINED]


@pytest.mark.anyio
async def test_demo_calls_other_tools_with_valid_sample_arguments() -> None:
    provider = ScriptedProvider()
    runtime = Runtime(provider, tools=ToolRegistry([lookup]), clock=FrozenClock())
    async with runtime:
        agent_id, events = await run_to_end(runtime, "Find the port")
    assert runtime.node(agent_id).status is AgentStatus.COMPLETED
    (completed,) = of_type(events, "tool:complete")
    assert completed.result == "found: example query"  # type: ignore[attr-defined]
    assert of_type(events, "tool:error") == []
    assert "You left the focus to me" in (runtime.node(agent_id).result or "")


def decision_request(decision: str, schema: dict[str, Any]) -> ProviderRequest:
    return ProviderRequest(
        model="scripted-1",
        instructions="",
        messages=[user_text("Plan a weekend in Lisbon")],
        agent_id="a1",
        agent_name="main",
        purpose="decision",
        decision=decision,
        response_schema=schema,
    )


def test_demo_decisions_come_from_the_declared_name_and_schema() -> None:
    """Yes to "clarify" and "subquestions", in whatever shape their schema asks; no to others."""
    ask = {
        "type": "object",
        "properties": {
            "unclear": {"type": "boolean", "default": False},
            "ask": {"anyOf": [{"type": "string", "minLength": 1}, {"type": "null"}]},
        },
    }
    assert json.loads(demo_decision(decision_request("clarify", ask)).text) == {
        "unclear": True,
        "ask": 'For "Plan a weekend in Lisbon": what should I focus on, or avoid?',
    }
    split = {
        "type": "object",
        "properties": {"parts": {"type": "array", "items": {"type": "string"}, "maxItems": 1}},
        "required": ["parts"],
    }
    assert json.loads(demo_decision(decision_request("subquestions", split)).text) == {
        "parts": ['What matters most for "Plan a weekend in Lisbon"?']  # within maxItems
    }
    other = {
        "type": "object",
        "properties": {"uncertain": {"type": "boolean"}, "why": {"type": "string"}},
        "required": ["uncertain"],
    }
    assert json.loads(demo_decision(decision_request("resolution", other)).text) == {
        "uncertain": False
    }


# -- determinism and chunking ----------------------------------------------------------------

RICH_SCRIPT = Script.for_all(
    Turn(
        thinking="Let me think about which tool to use before answering the question.",
        text="I will look that up for you right away, one moment please.",
        tool_calls=[ScriptedToolCall(name="lookup", arguments={"query": "ports"})],
    ),
    Turn(text="The answer is port 8080, which the lookup confirmed without any doubt at all."),
)


async def rich_run() -> list[Event]:
    runtime = scripted_runtime(script=RICH_SCRIPT, tools=ToolRegistry([lookup]))
    async with runtime:
        _, events = await run_to_end(runtime, "Which port?")
    return events


@pytest.mark.anyio
async def test_two_runs_give_identical_event_sequences() -> None:
    first = await rich_run()
    second = await rich_run()
    assert [(e.type, getattr(e, "delta", None)) for e in first] == [
        (e.type, getattr(e, "delta", None)) for e in second
    ]
    # With a frozen clock even seq, timestamps and durations agree.
    assert [e.model_dump() for e in first] == [e.model_dump() for e in second]
    assert of_type(first, "text:delta") and of_type(first, "thinking:delta")


@pytest.mark.anyio
async def test_chunks_are_three_to_eight_characters() -> None:
    events = await rich_run()
    for kind, turn_texts in (
        ("text:delta", [t.text for t in RICH_SCRIPT.agents["*"]]),
        ("thinking:delta", [RICH_SCRIPT.agents["*"][0].thinking]),
    ):
        pieces = of_type(events, kind)
        by_iteration: dict[int, list[str]] = {}
        for piece in pieces:
            by_iteration.setdefault(piece.iteration, []).append(piece.delta)  # type: ignore[attr-defined]
        assert ["".join(p) for p in by_iteration.values()] == turn_texts
        for chunk_list in by_iteration.values():
            assert len(chunk_list) > 1
            assert all(3 <= len(c) <= 8 for c in chunk_list[:-1])
            assert 1 <= len(chunk_list[-1]) <= 8  # the last piece holds whatever is left
    sizes = {len(e.delta) for e in of_type(events, "text:delta")}  # type: ignore[attr-defined]
    assert len(sizes) > 1  # sizes vary between chunks


def test_chunk_chars_must_be_sensible() -> None:
    with pytest.raises(ValueError, match="chunk_chars"):
        ScriptedProvider(chunk_chars=(0, 4))
    with pytest.raises(ValueError, match="chunk_chars"):
        ScriptedProvider(chunk_chars=(5, 4))


@pytest.mark.anyio
async def test_hang_after_chunks_holds_the_stream() -> None:
    text = "abcdefghijklmnopqrstuvwxyz0123456789"
    script = Script(
        agents={
            "main": [Turn(text=text, hang_after_chunks=2)],
            "*": [Turn(text="The other agent streams its whole answer meanwhile.")],
        }
    )
    provider = ScriptedProvider(script)
    runtime = Runtime(provider, clock=FrozenClock(), tools=ToolRegistry())
    async with runtime:
        subscription = runtime.subscribe(maxsize=None)
        hung_id = runtime.start("hang")
        with anyio.fail_after(5):
            seen: list[Event] = []
            while len(deltas(seen, hung_id)) < 2:
                seen.append(await subscription.get())
            # Another agent runs a whole answer while the first one stays held.
            other_id = runtime.start("meanwhile")
            await runtime.wait(other_id)
        seen += subscription.drain()
        assert runtime.node(other_id).status is AgentStatus.COMPLETED
        assert runtime.node(hung_id).status is AgentStatus.RUNNING
        held = [e for e in seen if e.agent_id == hung_id]
        assert len(deltas(held)) == 2
        assert of_type(held, "llm:response") == []
        runtime.cancel(hung_id)
        with anyio.fail_after(5):
            node = await runtime.wait(hung_id)
        seen += subscription.drain()
    partial = "".join(deltas(seen, hung_id))
    assert text.startswith(partial) and partial
    (cancelled,) = [e for e in seen if isinstance(e, ExecutionCancelled)]
    assert cancelled.partial_text == partial
    assert node.status is AgentStatus.CANCELLED
    assert provider.closed_early == 1
    last = node.conversation.messages[-1]
    assert (last.role, last.text, last.interrupted) == ("assistant", partial, True)


@pytest.mark.anyio
async def test_hang_after_zero_chunks_holds_before_any_text() -> None:
    provider = ScriptedProvider(Script.for_all(Turn(text="never shown", hang_after_chunks=0)))
    runtime = Runtime(provider, clock=FrozenClock(), tools=ToolRegistry())
    async with runtime:
        subscription = runtime.subscribe(maxsize=None)
        agent_id = runtime.start("hang")
        with anyio.fail_after(5):
            await events_until(subscription, lambda e: e.type == "llm:request")
        assert len(provider.requests) == 1
        runtime.cancel(agent_id)
        with anyio.fail_after(5):
            node = await runtime.wait(agent_id)
        events = subscription.drain()
    assert deltas(events) == []
    assert node.status is AgentStatus.CANCELLED
    assert provider.closed_early == 1
    (cancelled,) = of_type(events, "execution:cancelled")
    assert cancelled.partial_text == ""  # type: ignore[attr-defined]


@pytest.mark.anyio
async def test_scripted_error_fires_even_when_the_text_has_fewer_chunks() -> None:
    # "short" streams as one or two chunks; the author cannot know how many in advance.
    turn = Turn(text="short", error=ScriptedError(message="boom", after_chunks=5))
    async with scripted_runtime(turn, tools=ToolRegistry()) as runtime:
        agent_id, _ = await run_to_end(runtime, "task")
        node = runtime.node(agent_id)
    assert node.status is AgentStatus.ERROR
    assert node.error == "boom"


@pytest.mark.anyio
async def test_hang_after_more_chunks_than_the_text_has_still_hangs() -> None:
    script = Script(
        agents={
            "main": [Turn(text="hi", hang_after_chunks=3)],
            "*": [Turn(text="The other agent streams its whole answer meanwhile.")],
        }
    )
    async with scripted_runtime(script=script, tools=ToolRegistry()) as runtime:
        hung_id = runtime.start("hang")
        other_id = runtime.start("meanwhile")
        with anyio.fail_after(5):
            await runtime.wait(other_id)
        status = runtime.node(hung_id).status
        if status.is_live:
            runtime.cancel(hung_id)
    assert status is AgentStatus.RUNNING


def test_ask_user_is_in_the_default_tools() -> None:
    runtime = Runtime(ScriptedProvider())
    assert runtime.tools.names() == [ASK_USER.name]
