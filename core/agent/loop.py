"""AgenticLoop: model -> tools -> model until the model stops calling tools.

One core serves streaming and non-streaming runs: both consume the provider's stream and number
iterations from 1 at the start of each iteration; only the emission of deltas differs.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any, Literal, Protocol

import anyio

from agentui.core.agent.hooks import (
    ApprovalDecision,
    ExecutionResultChange,
    ExecutionStartChange,
    HookContext,
    HookManager,
    HookPoint,
    LLMCallDecision,
    PauseDecision,
    ToolCallDecision,
    ToolResultChange,
)
from agentui.core.agent.limits import Limits
from agentui.core.agent.turn import AssistantTurn, ToolCall, TurnBuilder
from agentui.core.protocol.conversation import (
    Conversation,
    Message,
    TextBlock,
    ToolResultBlock,
    sliding_window,
)
from agentui.core.protocol.events import (
    E,
    HookFailed,
    IterationCompleted,
    IterationStarted,
    LLMAbandoned,
    LLMFailed,
    LLMRequested,
    LLMResponded,
    TextDelta,
    ThinkingDelta,
    ThinkingRedacted,
    ToolCallInfo,
    ToolCompleted,
    ToolDetected,
    ToolFailed,
    ToolStarted,
    ToolTimedOut,
)
from agentui.core.protocol.usage import Usage
from agentui.core.providers.base import (
    Provider,
    ProviderRequest,
    RedactedThinking,
    TextChunk,
    ThinkingChunk,
    holds_connection,
)
from agentui.core.providers.scene_cue import SceneCue
from agentui.core.support.errors import LimitExceededError, ProviderError, ToolFailedError
from agentui.core.tools.active_deadline import ActiveDeadline
from agentui.core.tools.registry import ToolOutcome, ToolRegistry
from agentui.core.tools.tool import AgentServices, ToolArgumentError, ToolContext


class LoopHost(AgentServices, Protocol):
    """What the loop needs from the agent it runs for (its AgentRun). The same object serves
    the loop's tools (ToolContext.services)."""

    agent_id: str
    agent_name: str

    async def emit(self, cls: type[E], **fields: Any) -> E:
        """Emit an event of this agent, first waiting while the agent is paused; the event."""
        ...

    async def checkpoint(self) -> None:
        """Wait here while the agent is paused."""
        ...

    def request_pause(self, reason: str) -> None: ...

    def apply_interventions(self, conversation: Conversation) -> bool:
        """Fold pending modify/comment interventions into the conversation before a model call;
        True when there was any."""
        ...

    def modification_pending(self) -> bool:
        """A modify (new task or instructions) came that no model call has read yet."""
        ...

    def interventions_given(self) -> int:
        """How many steers, notes and modifies have come for this agent so far."""
        ...

    def active_seconds(self) -> float:
        """Time this run has been active (not paused, not waiting for the person)."""
        ...

    async def add_usage(self, usage: Usage) -> None:
        """Count a response's usage (emitted like any event: not while paused)."""
        ...

    def count_usage_now(self, usage: Usage) -> None:
        """Count usage at once, past the pause gate: for an attempt being cancelled, whose
        tokens were billed all the same."""
        ...

    async def approve(self, call: ToolCall) -> ApprovalDecision:
        """Ask whether a call of a tool marked `needs_approval` may run (the person decides)."""
        ...

    async def spend_gate(self, step: Literal["model", "tool"]) -> None:
        """Before a model or tool call: wait while a budget up the chain is spent (the agent
        is paused by it), then count the call against the budgets."""
        ...

    async def approve_fork(self, call: ToolCall) -> str | None:
        """Before the fork tool runs: None when it may, else why not (a forecast past what a
        budget has left, which the person did not allow)."""
        ...

    def take_saved_calls(self) -> SavedCalls | None:
        """Once, for an agent a resumed session gave back: its last answer's tool calls as
        the session left them (None for any other run)."""
        ...


@dataclass(frozen=True, slots=True)
class SavedCalls:
    """The tool calls of an agent's last answer as its session left them, for the agent a
    resume gives back (core/session/resume.py): those that finished, with their results, are
    not run again; those that `started` (an ask_user waiting for its answer) run on without a
    second tool:start (their start and step are in the log already); the rest run as usual."""

    outcomes: dict[str, ToolOutcome]
    started: frozenset[str] = frozenset()


@dataclass(slots=True)
class LoopResult:
    text: str
    iterations: int
    stop_reason: str | None


ABANDONED_ON_PAUSE = "paused mid-response, so the stream was closed"
# A steer or a modify: "the person's words" covers both.
ABANDONED_FOR_STEER = (
    "you spoke to it while it was paused, so the response is asked for again with your words"
)

# The result a tool call gets when its agent is stopped before the call ran or finished.
NOT_RUN_STOPPED = "not run: the agent was stopped"

# Stop reasons that end a run with an error on the node rather than a result.
FAILING_STOP_REASONS = {
    "refusal": "the model refused to continue",
    "model_context_window_exceeded": "the conversation no longer fits the model's context window",
}


class AgenticLoop:
    def __init__(
        self,
        host: LoopHost,
        provider: Provider,
        tools: ToolRegistry,
        hooks: HookManager,
        limits: Limits,
        conversation: Conversation,
        *,
        streaming: bool = True,
        max_tokens: int = 4096,
        thinking_budget: int | None = None,
        model: str | None = None,
        response_schema: dict[str, Any] | None = None,
        response_example: Any = None,
        scene_cue: SceneCue | None = None,
        sleep: Callable[[float], Awaitable[None]] = anyio.sleep,
    ) -> None:
        """`model`: asked of the provider instead of its own (an agent profile's).
        `response_schema` / `response_example`: what the answer's JSON must be (a JSON
        profile's contract), declared on every request so a provider with structured output
        can hold the model to it. `scene_cue`: the agent's place in a directed scene, declared
        on every request for a provider that answers from data."""
        self.host = host
        self.provider = provider
        self.model = model if model is not None else provider.model
        self.response_schema = response_schema
        self.response_example = response_example
        self.scene_cue = scene_cue
        self.tools = tools
        self.hooks = hooks
        self.limits = limits
        self.conversation = conversation
        self.streaming = streaming
        self.max_tokens = max_tokens
        self.thinking_budget = thinking_budget
        self._sleep = sleep
        self.iteration = 0
        self.tool_calls_made = 0
        self._builder: TurnBuilder | None = None  # the response being streamed, if any

    # -- hooks ---------------------------------------------------------------------------

    async def _report_hook_error(self, point: HookPoint, error: str) -> None:
        await self.host.emit(HookFailed, hook=point.value, error=error)

    async def _hook(self, point: HookPoint, **fields: Any) -> list[Any]:
        if not self.hooks.has(point):
            return []
        context = HookContext(
            point=point,
            agent_id=self.host.agent_id,
            iteration=self.iteration,
            instructions=self.conversation.instructions,
            **fields,
        )
        return await self.hooks.call(context, self._report_hook_error)

    # -- the loop ------------------------------------------------------------------------

    async def run(self, task: str) -> LoopResult:
        await self.begin(task)
        result = await self.iterate()
        return LoopResult(await self.finish(result.text), result.iterations, result.stop_reason)

    async def begin(self, task: str) -> None:
        """Start an execution: the before:execution hooks may change the instructions."""
        for change in await self._hook(HookPoint.BEFORE_EXECUTION, task=task):
            assert isinstance(change, ExecutionStartChange)
            self.conversation.set_instructions(change.instructions)

    async def finish(self, result: str) -> str:
        """End an execution: the after:execution hooks may change the result."""
        for change in await self._hook(HookPoint.AFTER_EXECUTION, result=result):
            assert isinstance(change, ExecutionResultChange)
            result = change.result
        return result

    async def iterate(self) -> LoopResult:
        """Model -> tools -> model from the conversation as it stands, until the model stops.

        The workflow calls it more than once per execution; iterations keep counting.
        """
        stop_reason: str | None = None
        pending = self._unanswered_calls()
        saved = self.host.take_saved_calls()
        if pending:
            # Rewound (or forked) to a model call's answer: its tool calls run anew first. A
            # resumed session's were detected before it ended (and some ran): they go on.
            if saved is None:
                await self.host.emit(
                    ToolDetected,
                    iteration=self.iteration,
                    calls=[
                        ToolCallInfo(id=c.id, name=c.name, arguments=c.arguments) for c in pending
                    ],
                )
            await self._run_tools(pending, saved)
        while True:
            await self._iteration_gate()
            self.iteration += 1
            await self.host.emit(IterationStarted, iteration=self.iteration)
            turn = await self._call_llm()
            self.conversation.append(turn.to_message())
            stop_reason = turn.stop_reason
            if stop_reason in FAILING_STOP_REASONS:
                raise ProviderError(FAILING_STOP_REASONS[stop_reason])
            if not turn.tool_calls:
                await self.host.emit(IterationCompleted, iteration=self.iteration, tool_calls=0)
                if stop_reason == "pause_turn":  # the server paused a long turn: send it back
                    continue
                result = turn.text
                break
            await self.host.emit(
                ToolDetected,
                iteration=self.iteration,
                calls=[
                    ToolCallInfo(id=c.id, name=c.name, arguments=c.arguments)
                    for c in turn.tool_calls
                ],
            )
            await self._run_tools(turn.tool_calls)
            await self.host.emit(
                IterationCompleted, iteration=self.iteration, tool_calls=len(turn.tool_calls)
            )
        return LoopResult(result, self.iteration, stop_reason)

    def _unanswered_calls(self) -> list[ToolCall]:
        """The tool calls of the conversation's last message, when it is a model's answer
        whose calls have no results yet (a conversation taken back to that step)."""
        messages = self.conversation.messages
        last = messages[-1] if messages else None
        if last is None or last.role != "assistant" or last.interrupted:
            return []
        return [ToolCall(use.id, use.name, dict(use.input)) for use in last.tool_uses]

    async def _iteration_gate(self) -> None:
        await self.host.checkpoint()
        for decision in await self._hook(HookPoint.PAUSE_CHECK):
            assert isinstance(decision, PauseDecision)
            if decision.pause:
                self.host.request_pause(decision.reason or "pause:check hook")
                await self.host.checkpoint()
                break
        self._check_duration()
        if self.iteration >= self.limits.max_iterations:
            raise LimitExceededError(
                "max_iterations",
                f"reached the limit of {self.limits.max_iterations} iterations "
                "while the model was still calling tools",
            )

    def _check_duration(self) -> None:
        limit = self.limits.max_duration_s
        if limit is not None and self.host.active_seconds() > limit:
            raise LimitExceededError("max_duration", f"ran longer than {limit:g} s")

    # -- the model -----------------------------------------------------------------------

    def _build_request(self) -> ProviderRequest:
        return ProviderRequest(
            model=self.model,
            instructions=self.conversation.instructions,
            messages=sliding_window(self.conversation.messages, self.limits.max_messages),
            tools=self.tools.specs(),
            max_tokens=self.max_tokens,
            thinking_budget=self.thinking_budget,
            agent_id=self.host.agent_id,
            agent_name=self.host.agent_name,
            iteration=self.iteration,
            response_schema=self.response_schema,
            response_example=self.response_example,
            scene=self.scene_cue,
        )

    async def _call_llm(self) -> AssistantTurn:
        self.host.apply_interventions(self.conversation)
        request = self._build_request()
        for decision in await self._hook(HookPoint.BEFORE_LLM, request=request):
            assert isinstance(decision, LLMCallDecision)
            if decision.request is not None:
                request = decision.request
            if decision.skip:
                turn = decision.response or AssistantTurn(stop_reason="end_turn")
                await self._responded(turn, 0.0, skipped=True)
                return turn
        turn, duration = await self._complete(request, visible=True)
        await self._responded(turn, duration)
        return turn

    async def complete(self, request: ProviderRequest, *, visible: bool = True) -> AssistantTurn:
        """One response to `request`, retrying retryable provider errors.

        `visible=False` is for the workflow's structured decisions: no llm:request and no
        deltas (their JSON is not the agent's text), and nothing is kept when cut off.
        """
        turn, _ = await self._complete(request, visible=visible)
        return turn

    async def _complete(
        self, request: ProviderRequest, *, visible: bool
    ) -> tuple[AssistantTurn, float]:
        """The response and how long its successful attempt took.

        Every attempt's tokens count, the failed and abandoned ones' too (they were billed).
        A stream a pause closed is sent again on resume and is not a retry.
        """
        attempt = 0
        while True:
            # Every attempt is a model call paid for: a spent budget stops it before it goes.
            await self.host.spend_gate("model")
            if visible:
                # A steer or modify given while paused before this attempt (or while its
                # predecessor was cut off or failed) is read by it, not left for a later call
                # that an agent making one call never makes.
                await self.host.checkpoint()
                if self.host.apply_interventions(self.conversation):
                    # The conversation and instructions the person changed; the rest as a
                    # BEFORE_LLM hook may have set it (its model, tools, limits).
                    fresh = self._build_request()
                    request = replace(
                        request, instructions=fresh.instructions, messages=fresh.messages
                    )
                await self.host.emit(
                    LLMRequested,
                    iteration=self.iteration,
                    model=request.model,
                    message_count=len(request.messages),
                    tool_names=[t.name for t in request.tools],
                )
            started = self.host.active_seconds()
            builder = TurnBuilder()
            if visible:
                self._builder = builder
            try:
                given_up = await self._attempt(request, builder, visible=visible)
                if isinstance(given_up, str):
                    await self._abandoned(builder, given_up, visible=visible)  # after resume
                    # Sent again, with what the person said while it was paused.
                    request = replace(request, sent_again=True)
                    continue
                turn = given_up
            except ProviderError as exc:
                await self._count_partial_usage(builder)
                retry = exc.retryable and attempt < self.limits.llm_retries
                await self.host.emit(
                    LLMFailed,
                    iteration=self.iteration,
                    error=str(exc),
                    retryable=retry,
                    streamed=visible,
                )
                if visible:
                    self._builder = None  # the failed attempt's text is not kept anywhere
                if not retry:
                    raise
                # The failed attempt's partial output stays in the events, marked by the
                # llm:error above; it never enters the conversation.
                await self._sleep(self.limits.retry_backoff_s * 2**attempt)
                attempt += 1
                request = replace(request, sent_again=False)  # a retry is a new response
                continue
            except anyio.get_cancelled_exc_class():
                if builder.usage.total_tokens and not builder.usage_counted:
                    self.host.count_usage_now(builder.usage)
                # Cancelled or deleted: what was streamed is kept, marked interrupted.
                partial = builder.partial_text() if visible else ""
                if partial:
                    self.conversation.append(
                        Message(
                            role="assistant", content=[TextBlock(text=partial)], interrupted=True
                        )
                    )
                raise
            if visible:
                self._builder = None
            return turn, self.host.active_seconds() - started

    async def _attempt(
        self, request: ProviderRequest, builder: TurnBuilder, *, visible: bool
    ) -> AssistantTurn | str:
        """One attempt, or why it was given up to be sent again: a pause closed its stream
        (see `holds_connection`), or the person steered or modified the agent while it was
        paused mid-response (a held stream would go on without their words; the call sent
        again reads them)."""
        connected = holds_connection(self.provider)
        if not connected and not visible:
            return await self._stream(request, builder, visible=visible)
        if connected:
            await self.host.checkpoint()
        reason = ABANDONED_ON_PAUSE if connected else ABANDONED_FOR_STEER
        given_before_pause = self.host.interventions_given()
        with anyio.CancelScope() as given_up:
            # Called from the pause or resume command itself, so a silent stream is given up
            # at once too, not at its next chunk.
            def give_up(paused: bool) -> None:
                nonlocal given_before_pause
                if connected:
                    if paused:
                        given_up.cancel()
                elif paused:
                    given_before_pause = self.host.interventions_given()
                elif self.host.interventions_given() > given_before_pause:
                    given_up.cancel()

            unwatch = self.host.watch_pause(give_up)
            try:
                return await self._stream(request, builder, visible=visible)
            finally:
                unwatch()
        return reason

    async def _abandoned(self, builder: TurnBuilder, reason: str, *, visible: bool) -> None:
        """Report an attempt given up to be sent again (once resumed: reports wait at the
        pause gate)."""
        await self._count_partial_usage(builder)
        if visible:
            await self.host.emit(
                LLMAbandoned,
                iteration=self.iteration,
                reason=reason,
                partial_text=builder.partial_text(),
            )
            self._builder = None

    async def _count_partial_usage(self, builder: TurnBuilder) -> None:
        """Count a cut attempt's tokens, once. Reported like any event (after a pause); a
        cancel that lands while this waits at the pause gate counts them at once instead."""
        if builder.usage_counted or not builder.usage.total_tokens:
            return
        builder.usage_counted = True
        try:
            await self.host.add_usage(builder.usage)
        except anyio.get_cancelled_exc_class():
            self.host.count_usage_now(builder.usage)
            raise

    @property
    def partial_text(self) -> str:
        """Text of the response being streamed: what is kept as interrupted if we are cut off."""
        return self._builder.partial_text() if self._builder is not None else ""

    async def _stream(
        self, request: ProviderRequest, builder: TurnBuilder, *, visible: bool
    ) -> AssistantTurn:
        stream = self.provider.stream(request)
        emit, checkpoint = self.host.emit, self.host.checkpoint
        streaming = self.streaming and visible
        try:
            async for chunk in stream:
                if streaming and type(chunk) is TextChunk:
                    # The stream's bulk. emit waits while the agent is paused, so the pause
                    # lands between chunks here too; the chunk is fed once it is out.
                    await emit(TextDelta, iteration=self.iteration, delta=chunk.text)
                    builder.feed(chunk)
                    continue
                await checkpoint()  # pause lands between chunks
                builder.feed(chunk)
                if not streaming:
                    continue
                if isinstance(chunk, TextChunk):
                    await emit(TextDelta, iteration=self.iteration, delta=chunk.text)
                elif isinstance(chunk, ThinkingChunk) and chunk.text:
                    await emit(ThinkingDelta, iteration=self.iteration, delta=chunk.text)
                elif isinstance(chunk, RedactedThinking):
                    await emit(ThinkingRedacted, iteration=self.iteration)
        finally:
            close = getattr(stream, "aclose", None)
            if close is not None:
                with anyio.CancelScope(shield=True):
                    await close()
        return builder.finish()

    async def _responded(
        self, turn: AssistantTurn, duration: float, *, skipped: bool = False
    ) -> None:
        await self.host.add_usage(turn.usage)
        await self.host.emit(
            LLMResponded,
            iteration=self.iteration,
            text=turn.text,
            stop_reason=turn.stop_reason,
            tool_calls=[
                ToolCallInfo(id=c.id, name=c.name, arguments=c.arguments) for c in turn.tool_calls
            ],
            usage=turn.usage,
            duration_s=duration,
            skipped=skipped,
        )
        await self._hook(HookPoint.AFTER_LLM, response=turn)

    # -- tools ---------------------------------------------------------------------------

    async def _run_tools(self, calls: list[ToolCall], saved: SavedCalls | None = None) -> None:
        results: list[ToolResultBlock] = []
        try:
            for call in calls:
                known = saved.outcomes.get(call.id) if saved is not None else None
                if known is not None:
                    results.append(
                        ToolResultBlock(
                            tool_use_id=call.id, content=known.content, is_error=known.is_error
                        )
                    )
                    continue
                started_before = saved is not None and call.id in saved.started
                try:
                    outcome = await self._run_tool(call, started_before=started_before)
                except ToolFailedError as exc:  # failure mode "fail": keep the real error
                    results.append(
                        ToolResultBlock(tool_use_id=call.id, content=exc.error, is_error=True)
                    )
                    raise
                results.append(
                    ToolResultBlock(
                        tool_use_id=call.id, content=outcome.content, is_error=outcome.is_error
                    )
                )
        finally:
            # Every tool_use gets its result, even when we are cut off, so the conversation
            # stays valid for a later run.
            done = {r.tool_use_id for r in results}
            for call in calls:
                if call.id not in done:
                    results.append(
                        ToolResultBlock(
                            tool_use_id=call.id,
                            content=NOT_RUN_STOPPED,
                            is_error=True,
                        )
                    )
            self.conversation.append(Message(role="user", content=list(results)))

    async def _run_tool(self, call: ToolCall, *, started_before: bool = False) -> ToolOutcome:
        """`started_before`: the call began before its session ended (its step counted, its
        tool:start in the log): it runs on without either again."""
        await self.host.checkpoint()
        self._check_duration()
        if not started_before:
            await self.host.spend_gate("tool")
        self.tool_calls_made += 1
        if self.tool_calls_made > self.limits.max_tool_calls:
            raise LimitExceededError(
                "max_tool_calls", f"reached the limit of {self.limits.max_tool_calls} tool calls"
            )
        arguments = call.arguments
        mock: str | None = None
        skipped = False
        for decision in await self._hook(HookPoint.BEFORE_TOOL, call=call):
            assert isinstance(decision, ToolCallDecision)
            if decision.arguments is not None:
                arguments = decision.arguments
                call = ToolCall(call.id, call.name, arguments, None)
            if decision.mock_result is not None:
                mock = decision.mock_result
            skipped = skipped or decision.skip
        for approval in await self._hook(HookPoint.APPROVE_TOOL, call=call):
            assert isinstance(approval, ApprovalDecision)
            if not approval.approved:
                reason = approval.reason or "no reason given"
                return await self._tool_failed(call, f"the call was rejected: {reason}")
        item = self.tools.get(call.name)
        will_run = mock is None and not skipped and call.argument_error is None
        if will_run and item is not None and item.needs_approval:
            # A call that cannot run is not put to the person: the model reads why at once.
            try:
                item.parse(arguments)
            except ToolArgumentError as exc:
                return await self._tool_failed(call, str(exc))
            # After the hooks (which may veto without bothering anyone), the person decides.
            approval = await self.host.approve(call)
            if not approval.approved:
                reason = approval.reason or "no reason given"
                return await self._tool_failed(call, f"the person rejected the call: {reason}")
        if will_run and call.name == "fork":
            # A fork whose likely spend goes past what a budget has left asks the person first.
            refused = await self.host.approve_fork(call)
            if refused is not None:
                return await self._tool_failed(call, refused)
        info = ToolCallInfo(id=call.id, name=call.name, arguments=arguments)
        if not started_before:
            await self.host.emit(ToolStarted, iteration=self.iteration, call=info)
        started = self.host.active_seconds()
        if mock is not None or skipped:
            outcome = ToolOutcome(mock if mock is not None else "skipped by a before:tool hook")
        elif call.argument_error is not None:
            outcome = ToolOutcome(call.argument_error, True)
        else:
            finished = await self._execute_with_timeout(call, arguments)
            if finished is None:
                return await self._tool_timed_out(call)
            outcome = finished
        for change in await self._hook(
            HookPoint.AFTER_TOOL, call=call, result=outcome.content, is_error=outcome.is_error
        ):
            assert isinstance(change, ToolResultChange)
            outcome = ToolOutcome(change.result, outcome.is_error)
        if outcome.is_error:
            return await self._tool_failed(call, outcome.content)
        await self.host.emit(
            ToolCompleted,
            iteration=self.iteration,
            call_id=call.id,
            name=call.name,
            result=outcome.content,
            mocked=mock is not None or skipped,
            duration_s=self.host.active_seconds() - started,
        )
        return outcome

    async def _execute_with_timeout(
        self, call: ToolCall, arguments: dict[str, Any]
    ) -> ToolOutcome | None:
        """The outcome, or None when the call ran out of time. Time paused does not count."""
        item = self.tools.get(call.name)
        timeout: float | None = self.limits.tool_timeout_s
        if item is not None:
            timeout = None if item.no_timeout else (item.timeout_s or timeout)
        context = ToolContext(self.host.agent_id, call.id, self.iteration, self.host)
        if timeout is None:
            return await self.tools.execute(call.name, arguments, context)
        deadline = ActiveDeadline(timeout, self.host.active_seconds)
        unwatch = self.host.watch_pause(deadline.on_pause)
        try:
            with deadline.scope:
                return await self.tools.execute(call.name, arguments, context)
        finally:
            unwatch()
        return None

    async def _tool_timed_out(self, call: ToolCall) -> ToolOutcome:
        item = self.tools.get(call.name)
        timeout = (item.timeout_s if item else None) or self.limits.tool_timeout_s
        await self.host.emit(
            ToolTimedOut,
            iteration=self.iteration,
            call_id=call.id,
            name=call.name,
            timeout_s=timeout,
        )
        return await self._tool_failed(call, f"{call.name} timed out after {timeout:g} s")

    async def _tool_failed(self, call: ToolCall, error: str) -> ToolOutcome:
        await self.host.emit(
            ToolFailed, iteration=self.iteration, call_id=call.id, name=call.name, error=error
        )
        if self.limits.tool_failure_mode == "fail":
            raise ToolFailedError(call.name, error)
        return ToolOutcome(error, True)
