"""A schema's patterns cannot freeze the app: an answer is checked against a schema with
`pattern` in a worker process, given up at `[profiles] check_timeout_s` with one message, while
the event loop goes on; a schema without patterns is checked at once, as before."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import anyio
import anyio.to_process
import pytest

from agentui.core.profiles import timed_check
from agentui.core.profiles.catalog import ProfileCatalog, builtin_profiles
from agentui.core.profiles.config import ProfilesConfig
from agentui.core.profiles.contract import JsonContract, uses_patterns
from agentui.core.profiles.loading import profile_from_data
from agentui.core.profiles.profile import ProfileOrigin
from agentui.core.profiles.timed_check import check_in_time, not_checked, too_slow
from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.protocol.events import AnswerValidated
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, Turn
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock
from agentui.core.tools.registry import ToolRegistry

from .helpers import Recorder

pytestmark = pytest.mark.anyio

# The probe's schema: `re` backtracks exponentially on a's followed by a b (28 of them took
# about 8 s; 40 would take hours).
BACKTRACKING: dict[str, Any] = {
    "type": "object",
    "properties": {"word": {"type": "string", "pattern": "^(a+)+$"}},
    "required": ["word"],
}
HOSTILE = json.dumps({"word": "a" * 40 + "b"})
SAFETY_S = 60  # long enough for a worker to start on a loaded machine; never a measurement


# What a loaded machine makes of a worker's start-up, at least: longer than the checks' limit.
SLOW_START_S = 2.0


@pytest.fixture
def slow_worker_start(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[float]]:
    """Each worker process the pool starts takes SLOW_START_S longer to start; the list says
    how many were started."""
    started: list[float] = []
    real_open_process = anyio.open_process  # what the pool calls, as anyio.to_process names it

    async def slow_open_process(*args: Any, **kwargs: Any) -> Any:
        started.append(SLOW_START_S)
        await anyio.sleep(SLOW_START_S)  # the start-up being simulated, not a wait
        return await real_open_process(*args, **kwargs)

    monkeypatch.setattr(anyio.to_process, "open_process", slow_open_process)
    yield started


@pytest.mark.parametrize(
    ("schema", "uses"),
    [
        (None, False),
        ({"type": "object", "properties": {"n": {"type": "integer"}}}, False),
        (BACKTRACKING, True),
        ({"patternProperties": {"^x-": {}}}, True),
        ({"items": [{"anyOf": [{"type": "string", "pattern": "x"}]}]}, True),
    ],
)
def test_a_schema_uses_patterns_when_any_of_its_parts_has_one(
    schema: dict[str, Any] | None, uses: bool
) -> None:
    assert uses_patterns(schema) is uses


async def test_a_backtracking_pattern_is_given_up_at_the_limit_and_the_loop_goes_on() -> None:
    contract = JsonContract("speller", BACKTRACKING)
    ok = await check_in_time(contract, '{"word": "aaa"}', SAFETY_S)  # starts the worker
    assert ok.payload == {"word": "aaa"}
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            await anyio.sleep(0.01)
            ticks += 1

    async with anyio.create_task_group() as group:
        group.start_soon(tick)
        slow = await check_in_time(contract, HOSTILE, 0.5)
        group.cancel_scope.cancel()
    assert slow.errors == (too_slow(0.5),) and slow.payload is None
    assert ticks > 0, "the event loop ran other tasks while the pattern backtracked"
    # The stuck worker was killed; the next check gets a new one.
    wrong = await check_in_time(contract, '{"word": "aab"}', SAFETY_S)
    assert wrong.errors == ("$.word: 'aab' does not match '^(a+)+$'",)


async def test_a_schema_without_patterns_is_checked_in_this_process() -> None:
    contract = JsonContract("plain", {"type": "object", "required": ["a"]})
    with anyio.fail_after(SAFETY_S):
        check = await check_in_time(contract, "{}", 0.000001)  # no worker: no time limit
    assert check.errors == ("$: 'a' is a required property",)


async def test_an_agent_whose_answer_is_too_slow_to_check_fails_with_one_clear_message() -> None:
    profile = profile_from_data(
        {
            "name": "speller",
            "instructions": "Spell it.",
            "tools": [],
            "expects_json": True,
            "json_mode": "schema",
            "json_schema": BACKTRACKING,
        },
        ProfileOrigin(source="scene", where="test scene"),
    )
    runtime = Runtime(
        ScriptedProvider(Script(agents={"*": [Turn(text=HOSTILE)]})),
        tools=ToolRegistry([]),
        clock=FrozenClock(),
        profiles=ProfileCatalog([*builtin_profiles(), profile]),
        profile_settings=ProfilesConfig(json_retries=0, check_timeout_s=0.5),
    )
    async with runtime:
        recorder = Recorder(runtime)
        agent_id = runtime.start("Spell a word", profile="speller")
        with anyio.fail_after(SAFETY_S):  # safety net only
            await runtime.wait(agent_id)
        recorder.sync()
    node = runtime.node(agent_id)
    assert node.status is AgentStatus.ERROR
    assert node.error == (
        "the answer is not valid for profile 'speller''s JSON contract after 1 attempt: "
        + too_slow(0.5)
    )
    (check,) = [e for e in recorder.events if isinstance(e, AnswerValidated)]
    assert check.errors == [too_slow(0.5)]


async def test_a_worker_s_start_up_does_not_count_against_the_limit(
    slow_worker_start: list[float],
) -> None:
    contract = JsonContract("speller", BACKTRACKING)

    check = await check_in_time(contract, '{"word": "aaa"}', SLOW_START_S / 2)

    assert slow_worker_start, "this check started a worker"
    assert check.errors == () and check.payload == {"word": "aaa"}


async def test_a_worker_that_does_not_start_is_said_apart(
    slow_worker_start: list[float], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(timed_check, "START_LIMIT_S", SLOW_START_S / 100)
    contract = JsonContract("speller", BACKTRACKING)

    check = await check_in_time(contract, '{"word": "aaa"}', SAFETY_S)

    assert check.errors == (not_checked("the checking process did not start in time"),)
