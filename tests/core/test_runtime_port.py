"""A local `Runtime` and an attached `RemoteRuntime` are what RuntimePort says front ends
drive (and the attached one what AttachedPort adds): every member is there, and every method
takes the port's parameters as the port names them. mypy checks the same statically (a
TYPE_CHECKING assignment at the end of core/runtime.py and core/remote/remote_runtime.py); this
test says it without mypy."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from agentui.core.protocol.commands import AttachedPort, EventStream, RuntimePort
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.remote.client import RemoteClient
from agentui.core.remote.remote_runtime import RemoteProvider, RemoteRuntime
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock

from .helpers import scripted_runtime


def _members(port: type) -> dict[str, Any]:
    """The port's own members (its Protocol machinery left out)."""
    names = {
        name
        for klass in port.__mro__
        if klass.__module__ == RuntimePort.__module__
        for name in vars(klass)
        if not name.startswith("_") or name in ("__aenter__", "__aexit__")
    }
    return {name: inspect.getattr_static(port, name) for name in names}


P = inspect.Parameter
# How a method's parameter may be declared where the port's is of a kind: a caller that passes
# a keyword-only one by its name can also pass it so to a positional-or-keyword one.
_TAKES: dict[Any, set[Any]] = {
    P.POSITIONAL_ONLY: {P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD},
    P.POSITIONAL_OR_KEYWORD: {P.POSITIONAL_OR_KEYWORD},
    P.KEYWORD_ONLY: {P.KEYWORD_ONLY, P.POSITIONAL_OR_KEYWORD},
}


def _takes_the_ports_parameters(port_method: Any, method: Any) -> list[str]:
    """What `method` lacks of what a caller of `port_method` may pass: each parameter by its
    name and kind, defaulted where the port's is; its own extra ones all defaulted."""
    wanted = inspect.signature(port_method).parameters
    given = inspect.signature(method).parameters
    problems = []
    takes_any_keyword = any(p.kind is p.VAR_KEYWORD for p in given.values())
    for name, parameter in wanted.items():
        if parameter.kind is parameter.VAR_POSITIONAL:
            if not any(p.kind is p.VAR_POSITIONAL for p in given.values()):
                problems.append(f"*{name}")
            continue
        mine = given.get(name)
        if mine is None:
            if not takes_any_keyword:
                problems.append(f"{name} is missing")
            continue
        if mine.kind not in _TAKES[parameter.kind]:
            problems.append(f"{name} is {mine.kind.description}, not {parameter.kind.description}")
        if parameter.default is not parameter.empty and mine.default is mine.empty:
            problems.append(f"{name} has no default")
    for name, mine in given.items():
        if (
            name not in wanted
            and mine.default is mine.empty
            and mine.kind
            not in (
                mine.VAR_POSITIONAL,
                mine.VAR_KEYWORD,
            )
        ):
            problems.append(f"{name} is required and the port does not pass it")
    return problems


def _mismatches(port: type, implementation: object) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for name, member in _members(port).items():
        if not hasattr(implementation, name):
            found[name] = ["missing"]
        elif inspect.isfunction(member):
            mine = getattr(type(implementation), name)  # unbound: `self` as the port's
            if inspect.iscoroutinefunction(member) != inspect.iscoroutinefunction(mine):
                found[name] = ["async where the port is not, or not where it is"]
                continue
            problems = _takes_the_ports_parameters(member, mine)
            if problems:
                found[name] = problems
    return found


def _remote() -> RemoteRuntime:
    client = RemoteClient("http://127.0.0.1:9", "token")
    return RemoteRuntime(client, RemoteProvider("scripted", "scripted"))


def test_the_port_names_every_command_and_subscribe() -> None:
    commands = {"start", "send", "pause", "resume", "cancel", "delete", "modify", "steer"}
    assert {*commands, "answer", "approve", "subscribe"} <= set(_members(RuntimePort))


def test_a_local_runtime_is_a_runtime_port() -> None:
    runtime = Runtime(ScriptedProvider(None), clock=FrozenClock())
    assert _mismatches(RuntimePort, runtime) == {}


def test_an_attached_runtime_is_an_attached_port() -> None:
    assert _mismatches(AttachedPort, _remote()) == {}


def test_the_check_finds_what_is_missing_or_taken_otherwise() -> None:
    class Partial:
        def steer(self, agent_id: str) -> None: ...
        def pause(self, agent_id: str, *, subtree: bool) -> None: ...
        def resume(self, *, agent_id: str, subtree: bool = False) -> None: ...

    found = _mismatches(RuntimePort, Partial())
    assert found["steer"] == ["text is missing"]
    assert found["pause"] == ["subtree has no default"]
    assert found["resume"] == ["agent_id is keyword-only, not positional or keyword"]
    assert found["start"] == ["missing"]


@pytest.mark.anyio
async def test_a_subscription_is_an_event_stream() -> None:
    async with scripted_runtime() as runtime:
        subscription = runtime.subscribe()
        assert _mismatches(EventStream, subscription) == {}
        subscription.close()
