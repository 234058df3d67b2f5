"""@monologue(...): narrate an async method that reports its work through AgentCallbacks.

    class Coder:
        name = "coder"

        def __init__(self, provider: Provider) -> None:
            self.provider = provider  # also the narrator's, unless `provider=` says otherwise

        @monologue(min_buffer=2, max_buffer=8)
        async def execute(self, task: str, callbacks: AgentCallbacks | None = None) -> str: ...

    await coder.execute("...", callbacks=AgentCallbacks(on_monologue=show))

Opt-in twice over: only decorated methods, and only calls whose callbacks set `on_monologue`;
any other call runs the method untouched. The same MonologueService as the runtime's does the
work, so thresholds, waiting, history and the final flush behave the same. Narrator calls run
beside the method and never hold up its callbacks; the method returns once its closing
narrative is out (bounded by `timeout_s`).
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import json
from collections.abc import Awaitable, Callable
from typing import Any, Concatenate, ParamSpec, TypeVar

import anyio

from agentui.core.monologue.action import Action, ActionKind
from agentui.core.monologue.callbacks import AgentCallbacks
from agentui.core.monologue.config import MonologueConfig
from agentui.core.monologue.narrator import Narrator
from agentui.core.monologue.service import MonologueService
from agentui.core.providers.base import Provider
from agentui.core.support.clock import Clock, SystemClock

S = TypeVar("S")
P = ParamSpec("P")
R = TypeVar("R")

ProviderSource = Provider | Callable[[Any], Provider]


def monologue(
    config: MonologueConfig | None = None,
    *,
    provider: ProviderSource | None = None,
    clock: Clock | None = None,
    callbacks_arg: str = "callbacks",
    **settings: Any,
) -> Callable[
    [Callable[Concatenate[S, P], Awaitable[R]]], Callable[Concatenate[S, P], Awaitable[R]]
]:
    """Decorate an async method whose `callbacks_arg` parameter takes AgentCallbacks.

    `settings` are MonologueConfig fields (checked now, at decoration). `provider` is the
    narrator's backend, or a function of the instance giving it; by default the instance's
    `narrator_provider` or `provider` attribute. The agent's name is its `name` attribute (else
    the class name), its id its `agent_id` attribute (else the name).
    """
    base = config.model_dump() if config is not None else {}
    resolved = MonologueConfig.model_validate({**base, **settings})
    when = clock if clock is not None else SystemClock()

    def decorate(
        method: Callable[Concatenate[S, P], Awaitable[R]],
    ) -> Callable[Concatenate[S, P], Awaitable[R]]:
        signature = inspect.signature(method)
        if callbacks_arg not in signature.parameters:
            raise TypeError(f"@monologue: {method.__qualname__} has no {callbacks_arg!r} parameter")

        # `self` positional-only, as Concatenate has it: P may hold a keyword named "self".
        @functools.wraps(method)
        async def wrapper(self: S, /, *args: P.args, **kwargs: P.kwargs) -> R:
            bound = signature.bind(self, *args, **kwargs)
            callbacks = bound.arguments.get(callbacks_arg)
            if (
                not resolved.enabled
                or not isinstance(callbacks, AgentCallbacks)
                or callbacks.on_monologue is None
            ):
                return await method(self, *args, **kwargs)
            narrator = Narrator(_provider_of(self, provider), resolved, clock=when)
            name = str(getattr(self, "name", None) or type(self).__name__)
            agent_id = str(getattr(self, "agent_id", None) or name)
            failure: Exception | None = None
            async with anyio.create_task_group() as group:
                on_monologue = callbacks.on_monologue
                service = MonologueService(
                    agent_id=agent_id,
                    agent_name=name,
                    narrator=narrator,
                    config=resolved,
                    spawn=group.start_soon,
                    on_entry=lambda entry, _usage: on_monologue(entry),
                    on_failure=callbacks.on_monologue_error or (lambda _error: None),
                )
                feed = _CallbackFeed(service, when)
                bound.arguments[callbacks_arg] = feed.wrap(callbacks)
                try:
                    result = await method(*bound.args, **bound.kwargs)
                except Exception as exc:
                    # Leave the task group normally, so the closing narrative is still written.
                    failure = exc
                    feed.flush_text()
                    service.finish("error")
                else:
                    feed.flush_text()
                    service.finish("completed")
            if failure is not None:
                raise failure
            return result

        return wrapper

    return decorate


def _provider_of(instance: Any, source: ProviderSource | None) -> Provider:
    if source is None:
        # Taken to be a Provider, as monologue()'s docstring asks of these attributes
        found: Provider | None = getattr(instance, "narrator_provider", None) or getattr(
            instance, "provider", None
        )
        if found is None:
            raise TypeError(
                "@monologue needs a narrator provider: pass provider=..., or give the instance "
                "a `provider` (or `narrator_provider`) attribute"
            )
        return found
    if isinstance(source, Provider):
        return source
    return source(instance)


class _CallbackFeed:
    """Turns callback calls into actions; text pieces join into one action per stretch."""

    def __init__(self, service: MonologueService, clock: Clock) -> None:
        self._service = service
        self._clock = clock
        self._text: list[str] = []
        self._text_ts = 0.0

    def wrap(self, callbacks: AgentCallbacks) -> AgentCallbacks:
        def on_tool_call(tool: str, arguments: dict[str, Any]) -> None:
            detail = json.dumps(arguments, ensure_ascii=False, sort_keys=True, default=str)
            self._add(Action(ActionKind.TOOL_CALL, self._clock.now(), detail, tool))
            if callbacks.on_tool_call is not None:
                callbacks.on_tool_call(tool, arguments)

        def on_tool_result(tool: str, result: str, is_error: bool) -> None:
            now = self._clock.now()
            self._add(Action(ActionKind.TOOL_RESULT, now, str(result), tool, is_error=is_error))
            if callbacks.on_tool_result is not None:
                callbacks.on_tool_result(tool, result, is_error)

        def on_thinking(thought: str) -> None:
            self._add(Action(ActionKind.THINKING, self._clock.now(), thought))
            if callbacks.on_thinking is not None:
                callbacks.on_thinking(thought)

        def on_text(text: str) -> None:
            if not self._text:
                self._text_ts = self._clock.now()
            self._text.append(text)
            if callbacks.on_text is not None:
                callbacks.on_text(text)

        return dataclasses.replace(
            callbacks,
            on_tool_call=on_tool_call,
            on_tool_result=on_tool_result,
            on_thinking=on_thinking,
            on_text=on_text,
        )

    def _add(self, action: Action) -> None:
        self.flush_text()
        self._service.add(action)

    def flush_text(self) -> None:
        text, self._text = "".join(self._text), []
        if text.strip():
            self._service.add(Action(ActionKind.TEXT, self._text_ts, text))
