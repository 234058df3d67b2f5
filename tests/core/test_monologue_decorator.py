"""@monologue(...): the seed's decorator pattern, on the same MonologueService."""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from pydantic import ValidationError

from agentui.core.monologue import AgentCallbacks, MonologueConfig, NarrativeEntry, monologue
from agentui.core.providers.base import Provider
from agentui.core.support.clock import FrozenClock

from .test_monologue_fakes import FakeNarrator, Gate

pytestmark = pytest.mark.anyio


class Coder:
    """An agent built on callbacks, as in the seed."""

    name = "coder"

    def __init__(self, provider: Provider, steps: int = 2, fail: bool = False) -> None:
        self.provider = provider
        self.steps = steps
        self.fail = fail
        self.received: AgentCallbacks | None = None

    @monologue(min_buffer=1, max_buffer=10, clock=FrozenClock())
    async def execute(self, task: str, callbacks: AgentCallbacks | None = None) -> str:
        self.received = callbacks
        cb = callbacks or AgentCallbacks()
        for n in range(self.steps):
            if cb.on_thinking:
                cb.on_thinking(f"Step {n} of {task}.")
            if cb.on_tool_call:
                cb.on_tool_call("read_file", {"path": f"part{n}.py"})
            if cb.on_tool_result:
                cb.on_tool_result("read_file", f"contents of part{n}", False)
            await anyio.lowlevel.checkpoint()
        if self.fail:
            if cb.on_thinking:
                cb.on_thinking("The build broke; I have to stop.")
            raise ValueError("the build broke")
        if cb.on_text:
            for piece in ("All ", "parts ", "read."):
                cb.on_text(piece)
        return "done"


async def test_the_decorator_narrates_through_on_monologue() -> None:
    narrator = FakeNarrator(["I read part 0.", "I read part 1.", "I'm done reading."])
    entries: list[NarrativeEntry] = []
    calls: list[tuple[str, dict[str, Any]]] = []
    callbacks = AgentCallbacks(
        on_monologue=entries.append, on_tool_call=lambda name, args: calls.append((name, args))
    )
    with anyio.fail_after(5):
        result = await Coder(narrator).execute("the refactor", callbacks=callbacks)
    assert result == "done"
    assert calls == [("read_file", {"path": "part0.py"}), ("read_file", {"path": "part1.py"})]
    assert [e.text for e in entries] == ["I read part 0.", "I read part 1.", "I'm done reading."]
    assert [e.metadata.is_final for e in entries] == [False, False, True]
    assert all(e.agent_name == "coder" and e.task_id == "coder" for e in entries)
    final_prompt = narrator.user_prompt(2)
    assert "wrote: All parts read." in final_prompt, "text pieces join into one action"
    assert "the run has ended (completed)" in final_prompt
    assert "1. I read part 0.\n2. I read part 1." in final_prompt


async def test_without_on_monologue_the_method_runs_untouched() -> None:
    narrator = FakeNarrator()
    coder = Coder(narrator)
    plain = AgentCallbacks(on_text=lambda _text: None)
    assert await coder.execute("x", callbacks=plain) == "done"
    assert coder.received is plain
    assert await coder.execute("x") == "done"
    assert narrator.requests == []


async def test_a_failing_method_still_gets_its_closing_line_then_raises() -> None:
    narrator = FakeNarrator(default="Something broke.")
    entries: list[NarrativeEntry] = []
    with pytest.raises(ValueError, match="the build broke"), anyio.fail_after(5):
        await Coder(narrator, steps=1, fail=True).execute(
            "x", callbacks=AgentCallbacks(on_monologue=entries.append)
        )
    assert entries and entries[-1].metadata.is_final
    assert "stopped working (error)" in narrator.requests[-1].instructions


async def test_narrator_failures_go_to_on_monologue_error_and_never_to_the_caller() -> None:
    narrator = FakeNarrator(default=RuntimeError("no narrator today"))
    errors: list[str] = []
    callbacks = AgentCallbacks(on_monologue=lambda _e: None, on_monologue_error=errors.append)
    with anyio.fail_after(5):
        assert await Coder(narrator).execute("x", callbacks=callbacks) == "done"
    assert errors and all("no narrator today" in e for e in errors)


async def test_callbacks_never_wait_for_the_narrator() -> None:
    gate = Gate("finally")
    narrator = FakeNarrator([gate], default="closing")
    seen: list[str] = []

    class Quick:
        name = "quick"
        provider = narrator

        @monologue()
        async def run(self, callbacks: AgentCallbacks) -> int:
            for n in range(5):
                callbacks.on_tool_call and callbacks.on_tool_call("t", {"n": n})
                callbacks.on_tool_result and callbacks.on_tool_result("t", str(n), False)
                seen.append(f"step {n}")
            await gate.entered.wait()
            assert len(narrator.requests) == 1, "one call in flight; the method went on"
            gate.open()
            return len(seen)

    with anyio.fail_after(5):
        assert await Quick().run(AgentCallbacks(on_monologue=lambda _e: None)) == 5
    assert len(narrator.requests) == 2


async def test_the_provider_and_config_can_be_given() -> None:
    narrator = FakeNarrator(default="Terse.")
    entries: list[NarrativeEntry] = []

    class Agent:
        def __init__(self) -> None:
            self.narrator_source = narrator

        @monologue(
            MonologueConfig(preset="terse", history_size=1),
            provider=lambda agent: agent.narrator_source,
            callbacks_arg="hooks",
        )
        async def go(self, *, hooks: AgentCallbacks) -> None:
            hooks.on_thinking and hooks.on_thinking("Hmm.")

    with anyio.fail_after(5):
        await Agent().go(hooks=AgentCallbacks(on_monologue=entries.append))
    assert [e.agent_name for e in entries] == ["Agent"]
    assert narrator.requests[0].instructions.startswith("You are the inner voice of Agent.")


def test_bad_settings_and_signatures_fail_at_decoration() -> None:
    with pytest.raises(ValidationError, match="min_buffer"):
        monologue(min_buffer=0)
    with pytest.raises(TypeError, match="no 'callbacks' parameter"):

        @monologue()
        async def no_callbacks(self: object) -> None: ...
