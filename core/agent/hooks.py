"""Hook points of the agentic loop, what each hook may decide, and the manager that calls them.

| point              | when                           | a hook may return                          |
|--------------------|--------------------------------|--------------------------------------------|
| before:execution   | before the first iteration     | ExecutionStartChange (new instructions)    |
| after:execution    | after the last iteration       | ExecutionResultChange (new result)         |
| before:llm         | before each model call         | LLMCallDecision (new request, or skip)     |
| after:llm          | after each model response      | nothing (observe only)                     |
| before:tool        | before each tool call          | ToolCallDecision (new args, skip, mock)    |
| after:tool         | after each tool call           | ToolResultChange (new result)              |
| approve:tool       | before each tool call          | ApprovalDecision (reject with a reason)    |
| pause:check        | at the top of each iteration   | PauseDecision (pause with a reason)        |

A hook that raises, or returns the wrong kind of answer, is reported as a `hook:error` event and
treated as if it returned nothing: a broken hook never kills a run.

approve:tool ends with the person: when no hook rejected the call and the tool is marked
`needs_approval`, the loop asks its host, and the runtime raises an approval query (allow once,
always allow the tool for the run, or reject with a reason) unless approvals are off. A hook's
rejection comes first, so a policy hook can refuse without bothering anyone.
"""

from __future__ import annotations

import inspect
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from agentui.core.agent.turn import AssistantTurn, ToolCall
from agentui.core.providers.base import ProviderRequest


class HookPoint(StrEnum):
    BEFORE_EXECUTION = "before:execution"
    AFTER_EXECUTION = "after:execution"
    BEFORE_LLM = "before:llm"
    AFTER_LLM = "after:llm"
    BEFORE_TOOL = "before:tool"
    AFTER_TOOL = "after:tool"
    APPROVE_TOOL = "approve:tool"
    PAUSE_CHECK = "pause:check"


@dataclass(slots=True)
class HookContext:
    point: HookPoint
    agent_id: str
    iteration: int
    task: str = ""
    instructions: str = ""
    request: ProviderRequest | None = None  # before:llm
    response: AssistantTurn | None = None  # after:llm
    call: ToolCall | None = None  # before:tool, approve:tool, after:tool
    result: str | None = None  # after:tool, after:execution
    is_error: bool = False  # after:tool: the result is an error message


@dataclass(frozen=True, slots=True)
class ExecutionStartChange:
    instructions: str


@dataclass(frozen=True, slots=True)
class ExecutionResultChange:
    result: str


@dataclass(frozen=True, slots=True)
class LLMCallDecision:
    request: ProviderRequest | None = None
    skip: bool = False
    response: AssistantTurn | None = None  # what to use instead of the model when skipping


@dataclass(frozen=True, slots=True)
class ToolCallDecision:
    arguments: dict[str, Any] | None = None
    skip: bool = False
    mock_result: str | None = None


@dataclass(frozen=True, slots=True)
class ToolResultChange:
    result: str


@dataclass(frozen=True, slots=True)
class ApprovalDecision:
    approved: bool
    reason: str = ""


@dataclass(frozen=True, slots=True)
class PauseDecision:
    pause: bool
    reason: str = ""


RESULT_TYPES: dict[HookPoint, tuple[type, ...]] = {
    HookPoint.BEFORE_EXECUTION: (ExecutionStartChange,),
    HookPoint.AFTER_EXECUTION: (ExecutionResultChange,),
    HookPoint.BEFORE_LLM: (LLMCallDecision,),
    HookPoint.AFTER_LLM: (),
    HookPoint.BEFORE_TOOL: (ToolCallDecision,),
    HookPoint.AFTER_TOOL: (ToolResultChange,),
    HookPoint.APPROVE_TOOL: (ApprovalDecision,),
    HookPoint.PAUSE_CHECK: (PauseDecision,),
}

Hook = Callable[[HookContext], Any | Awaitable[Any]]
HookErrorReporter = Callable[[HookPoint, str], Awaitable[None]]


class HookManager:
    def __init__(self) -> None:
        self._hooks: defaultdict[HookPoint, list[Hook]] = defaultdict(list)

    def add(self, point: HookPoint | str, hook: Hook) -> Callable[[], None]:
        """Register a hook; returns a function that removes it again."""
        point = HookPoint(point)
        self._hooks[point].append(hook)
        return lambda: self._hooks[point].remove(hook)

    def has(self, point: HookPoint) -> bool:
        return bool(self._hooks.get(point))

    async def call(self, context: HookContext, report_error: HookErrorReporter) -> list[Any]:
        """Call every hook of the point in order; return their (valid, non-None) answers."""
        answers: list[Any] = []
        allowed = RESULT_TYPES[context.point]
        for hook in list(self._hooks.get(context.point, ())):
            try:
                answer = hook(context)
                if inspect.isawaitable(answer):
                    answer = await answer
            except Exception as exc:
                await report_error(context.point, f"{type(exc).__name__}: {exc}")
                continue
            if answer is None:
                continue
            if not isinstance(answer, allowed):
                expected = " or ".join(t.__name__ for t in allowed) or "None"
                await report_error(
                    context.point,
                    f"hook returned {type(answer).__name__}, expected {expected}",
                )
                continue
            answers.append(answer)
        return answers
