"""Narrator: asks a model for the next line of an agent's monologue and reads its answer.

Any Provider will do. Its request is marked `purpose="narrator"` and uses the config's narrator
model (a cheap one by default), so a provider can tell it from the agent's own calls; it
declares what it asks to have narrated as data too (`narration`), beside the prose.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import anyio

from agentui.core.agent.turn import TurnBuilder
from agentui.core.monologue.action import Action
from agentui.core.monologue.config import MonologueConfig
from agentui.core.monologue.prompts import WAIT_SIGNAL, subject, system_prompt, user_prompt
from agentui.core.protocol.conversation import user_text
from agentui.core.protocol.usage import Usage
from agentui.core.providers.base import Provider, ProviderRequest
from agentui.core.providers.model_aliases import model_on
from agentui.core.support.clock import Clock, SystemClock
from agentui.core.support.errors import AgentUIError, ProviderError

# Answers that mean "not yet": the wait signal, its one-character form, or nothing at all.
_WAIT_ANSWERS = {"", WAIT_SIGNAL, "…"}
_QUOTES = ('"', "'", "“”", "‘’")


class NarratorError(AgentUIError):
    """The narrator failed or ran out of time. The agent it narrates is never affected."""


@dataclass(frozen=True, slots=True)
class NarrationAsk:
    """What the service wants narrated."""

    agent_id: str
    agent_name: str
    actions: Sequence[Action]
    history: Sequence[str]  # earlier narratives to re-inject, oldest first
    forced: bool = False  # the buffer is full: the narrator may not wait
    final_status: str | None = None  # the agent ended so: the closing line, no waiting

    @property
    def may_wait(self) -> bool:
        return not self.forced and self.final_status is None


@dataclass(frozen=True, slots=True)
class Narration:
    text: str | None  # None when the narrator chose to wait
    raw: str  # the model's answer as it came
    usage: Usage
    model: str
    latency_ms: float


def extract_text(raw: str) -> str | None:
    """The narrative in a model's answer, or None for the wait signal (or an empty answer)."""
    text = " ".join(raw.split())
    for quote in _QUOTES:
        opening, closing = quote[0], quote[-1]
        if len(text) >= 2 and text[0] == opening and text[-1] == closing:
            text = text[1:-1].strip()
            break
    return None if text in _WAIT_ANSWERS else text


class Narrator:
    def __init__(
        self, provider: Provider, config: MonologueConfig, *, clock: Clock | None = None
    ) -> None:
        self.provider = provider
        self.config = config
        self.clock: Clock = clock if clock is not None else SystemClock()

    @property
    def model(self) -> str:
        """The config's model (through its own aliases), as its provider names it: `flash`
        is a Gemini model on Gemini."""
        return model_on(self.provider, self.config.resolved_model)

    def build_request(self, ask: NarrationAsk) -> ProviderRequest:
        forced = not ask.may_wait
        instructions = system_prompt(
            self.config,
            agent_name=ask.agent_name,
            actions=ask.actions,
            history=ask.history,
            forced=forced,
            final_status=ask.final_status,
        )
        prompt = user_prompt(ask.actions, ask.history, forced=forced, final_status=ask.final_status)
        return ProviderRequest(
            model=self.model,
            instructions=instructions,
            messages=[user_text(prompt)],
            max_tokens=self.config.max_tokens,
            thinking_budget=0,  # a few sentences of summary: the provider's budget is for agents
            agent_id=ask.agent_id,
            agent_name=ask.agent_name,
            purpose="narrator",
            narration=subject(
                ask.actions, ask.history, forced=forced, final_status=ask.final_status
            ),
        )

    async def narrate(self, ask: NarrationAsk) -> Narration:
        """Ask once. Raises NarratorError on any failure, including no answer in time."""
        request = self.build_request(ask)
        started = self.clock.monotonic()
        builder = TurnBuilder()
        timeout = self.config.timeout_s
        try:
            with anyio.fail_after(timeout):
                stream = self.provider.stream(request)
                try:
                    async for event in stream:
                        builder.feed(event)
                finally:
                    close = getattr(stream, "aclose", None)
                    if close is not None:
                        with anyio.CancelScope(shield=True):
                            await close()
        except TimeoutError:
            raise NarratorError(f"the narrator did not answer within {timeout:g} s") from None
        except ProviderError as exc:
            raise NarratorError(f"the narrator failed: {exc}") from exc
        except Exception as exc:  # a provider's own bug must not escape into the runtime
            raise NarratorError(f"the narrator failed: {type(exc).__name__}: {exc}") from exc
        turn = builder.finish()
        latency_ms = round((self.clock.monotonic() - started) * 1000, 3)
        return Narration(extract_text(turn.text), turn.text, turn.usage, self.model, latency_ms)
