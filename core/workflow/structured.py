"""Structured decisions: ask the agent's model for one JSON object, validate it, retry.

The request is marked `purpose="decision"` and declares the decision's name and JSON Schema
(`response_schema`), so a provider that has structured output can hold the model to it (Claude:
`output_config.format`); the instructions also say to answer with the JSON object only, for a
provider that has not. An answer that does not parse or validate is sent back with the error, at
most `limits.decision_retries` times. If the model still gives no valid answer, the workflow goes
on with the decision's neutral answer (not ambiguous, no questions, no subquestions, nothing left
to ask) and says so in an `llm:error` event, which the transcript and headless mode show: a
decision is a judgement the agent can do without, unlike its answer. Decision calls stream no
deltas and keep nothing in the conversation: only the parsed value matters, reported as a
`workflow:decision` event. Each attempt begins with a `workflow:deciding` event, so a screen can
say the agent is at work while the answer streams unseen. Before each, the pause:check hooks
run, as before an iteration of the loop.
"""

from __future__ import annotations

import json
import re
from typing import TypeVar

from pydantic import ValidationError

from agentui.core.agent.hooks import HookContext, HookPoint, PauseDecision
from agentui.core.agent.loop import AgenticLoop, LoopHost
from agentui.core.agent.turn import AssistantTurn
from agentui.core.protocol.conversation import Message, TextBlock, sliding_window, user_text
from agentui.core.protocol.events import DecisionMade, DecisionStarted, HookFailed, LLMFailed
from agentui.core.providers.base import ProviderRequest
from agentui.core.support.errors import DecisionError
from agentui.core.support.validation import describe_errors
from agentui.core.workflow import prompts
from agentui.core.workflow.decisions import Decision

D = TypeVar("D", bound=Decision)

DECISION_MAX_TOKENS = 1024  # a decision is a few short strings
_FENCE = re.compile(r"^```[a-zA-Z]*\s*|\s*```$")


class InvalidDecision(ValueError):
    """The model's reply is not a valid answer; the message says why, for the model to fix."""


def parse_decision(cls: type[D], text: str) -> D:
    """The decision in `text`: a JSON object, alone or in a code fence, valid for `cls`."""
    body = _FENCE.sub("", text.strip())
    start, end = body.find("{"), body.rfind("}")
    if start < 0 or end < start:
        raise InvalidDecision("the reply holds no JSON object")
    try:
        data = json.loads(body[start : end + 1])
    except json.JSONDecodeError as exc:
        raise InvalidDecision(
            f"the JSON does not parse ({exc.msg} at position {exc.pos})"
        ) from None
    try:
        return cls.model_validate(data)
    except ValidationError as exc:
        raise InvalidDecision(describe_errors(exc, "(object)")) from None


def _with_prompt(messages: list[Message], prompt: str) -> list[Message]:
    """The messages with `prompt` as the person's last words (joined to a trailing user turn)."""
    if messages and messages[-1].role == "user":
        last = messages[-1]
        joined = Message(role="user", content=[*last.content, TextBlock(text=prompt)])
        return [*messages[:-1], joined]
    return [*messages, user_text(prompt)]


class DecisionMaker:
    """Asks one agent's model for decisions, from that agent's conversation."""

    def __init__(self, host: LoopHost, loop: AgenticLoop) -> None:
        self._host = host
        self._loop = loop
        self.fallbacks: list[str] = []  # decisions that went on with their neutral answer

    def _request(self, cls: type[Decision], prompt: str, retry: list[Message]) -> ProviderRequest:
        loop, conversation = self._loop, self._loop.conversation
        schema = cls.model_json_schema()
        messages = sliding_window(conversation.messages, loop.limits.max_messages)
        return ProviderRequest(
            model=loop.model,
            instructions=conversation.instructions
            + prompts.JSON_RULES.format(schema=prompts.schema_text(schema)),
            messages=[*_with_prompt(messages, prompt), *retry],
            tools=[],
            max_tokens=DECISION_MAX_TOKENS,
            thinking_budget=0,  # a quick judgement; the real work thinks in the loop
            agent_id=self._host.agent_id,
            agent_name=self._host.agent_name,
            iteration=loop.iteration,
            purpose="decision",
            decision=cls.name,
            response_schema=schema,
        )

    async def decide(self, cls: type[D], prompt: str) -> D:
        attempts = self._loop.limits.decision_retries + 1
        retry: list[Message] = []  # the invalid replies so far, each with its error
        error = ""
        for attempt in range(1, attempts + 1):
            turn = await self._answer(cls, prompt, retry, attempt)
            try:
                value = parse_decision(cls, turn.text)
            except InvalidDecision as exc:
                error = str(exc)
                await self._host.emit(
                    DecisionMade, decision=cls.name, attempt=attempt, ok=False, error=error
                )
                retry += [
                    Message(role="assistant", content=[TextBlock(text=turn.text or "(empty)")]),
                    user_text(prompts.INVALID.format(error=error)),
                ]
                continue
            await self._host.emit(
                DecisionMade,
                decision=cls.name,
                attempt=attempt,
                ok=True,
                value=value.model_dump(mode="json"),
            )
            return value
        return await self._fall_back(cls, attempts, error)

    async def _answer(
        self, cls: type[Decision], prompt: str, retry: list[Message], attempt: int
    ) -> AssistantTurn:
        """The model's reply to one attempt, to the task as it stands when the reply ends: an
        answer that was streaming when the person modified the task (or instructions) is for
        the old one, so the decision is asked again (it is unseen and acted on at once: a
        subagent for the old task would be started). Not an attempt of its own."""
        while True:
            await self._pause_check()
            # Interventions land here too: a comment or a modify counts for this decision.
            self._host.apply_interventions(self._loop.conversation)
            await self._host.emit(DecisionStarted, decision=cls.name, attempt=attempt)
            turn = await self._loop.complete(self._request(cls, prompt, retry), visible=False)
            await self._host.add_usage(turn.usage)
            if not self._host.modification_pending():
                return turn

    async def _pause_check(self) -> None:
        """The pause:check point before a decision's model call, as before each iteration's
        (loop.py): a hook may pause the agent here, and what a hook gives the agent here (a
        re-run's steer: core/session/rerun_player.py) is read by this decision."""
        loop = self._loop
        if not loop.hooks.has(HookPoint.PAUSE_CHECK):
            return
        context = HookContext(
            point=HookPoint.PAUSE_CHECK,
            agent_id=self._host.agent_id,
            iteration=loop.iteration,
            instructions=loop.conversation.instructions,
        )

        async def report(point: HookPoint, error: str) -> None:
            await self._host.emit(HookFailed, hook=point.value, error=error)

        for decision in await loop.hooks.call(context, report):
            assert isinstance(decision, PauseDecision)
            if decision.pause:
                self._host.request_pause(decision.reason or "pause:check hook")
                await self._host.checkpoint()
                return

    async def _fall_back(self, cls: type[D], attempts: int, error: str) -> D:
        """The neutral answer, with a notice that says why and what it means."""
        failure = DecisionError(cls.name, attempts, error)
        self.fallbacks.append(cls.name)
        await self._host.emit(
            LLMFailed,
            iteration=self._loop.iteration,
            error=f"{failure}. Going on with the neutral answer: {cls.neutral_meaning}.",
            retryable=False,
            streamed=False,  # a hidden call: no shown text is cut
        )
        return cls()
