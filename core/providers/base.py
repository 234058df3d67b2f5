"""The Provider protocol: what the loop asks a model backend, and the neutral events it streams."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

from agentui.core.protocol.conversation import Message
from agentui.core.protocol.usage import Usage
from agentui.core.providers.narration_subject import NarrationSubject
from agentui.core.providers.scene_cue import SceneCue


@dataclass(frozen=True, slots=True)
class ToolSpec:
    name: str
    description: str
    input_schema: dict[str, Any]


@dataclass(slots=True)
class ProviderRequest:
    model: str
    instructions: str
    messages: list[Message]
    tools: list[ToolSpec] = field(default_factory=list)
    max_tokens: int = 4096
    thinking_budget: int | None = None
    # Who is asking: providers may use it (the scripted one picks a script per agent name).
    agent_id: str = ""
    agent_name: str = ""
    iteration: int = 0
    # "narrator": the monologue's narrator asks for a summary of agent `agent_id`'s recent
    # events; the agent itself is not calling. Providers may answer it differently (the scripted
    # one narrates instead of playing the agent's script, and never consumes a scripted turn).
    # "decision": the workflow asks the agent's model for one structured decision, named in
    # `decision` (the scripted provider plays these from its own lists, apart from the agent's
    # turns).
    purpose: Literal["agent", "narrator", "decision"] = "agent"
    decision: str = ""
    # The JSON Schema the response's text must be an instance of (None: free text). A provider
    # with structured output holds the model to it (Claude: `output_config.format`); the text
    # is then the JSON object alone. The scripted model answers from it what no script says.
    response_schema: dict[str, Any] | None = None
    # An example of the JSON the response's text should be (an agent profile's example): the
    # model reads it in the instructions; the scripted model answers with it.
    response_example: Any = None
    # A narrator request's subject as data (the same steps its messages tell in prose), for a
    # provider that answers from data rather than by reading prose (the scripted model).
    narration: NarrationSubject | None = None
    # A director's or character's place in a directed scene as data (the same context its
    # messages give in prose), for a provider that answers from data (the scripted model).
    scene: SceneCue | None = None
    # The call given up mid-response (a pause closed its stream, or the person steered the
    # paused agent) and sent again, with any words they gave meanwhile: not a new turn of the
    # conversation, so a provider playing a script plays the same turn again.
    sent_again: bool = False


# Neutral stream events. A stream yields any number of deltas, then exactly one StreamEnd.
# A failure is raised as errors.ProviderError (retryable or not), never yielded.


@dataclass(frozen=True, slots=True)
class TextChunk:
    text: str


@dataclass(frozen=True, slots=True)
class ThinkingChunk:
    text: str
    signature: str | None = None  # set on the chunk that closes a signed thinking block


@dataclass(frozen=True, slots=True)
class RedactedThinking:
    """A thinking block the API encrypted: opaque, shown as redacted, sent back verbatim."""

    data: str


@dataclass(frozen=True, slots=True)
class ToolUseStart:
    id: str
    name: str


@dataclass(frozen=True, slots=True)
class ToolArgsDelta:
    id: str
    partial_json: str


@dataclass(frozen=True, slots=True)
class ToolUseStop:
    id: str


@dataclass(frozen=True, slots=True)
class UsageReport:
    # Cumulative for this response. May come more than once (the newest counts), so a response
    # cut short still tells what its tokens so far cost.
    usage: Usage


@dataclass(frozen=True, slots=True)
class StreamEnd:
    stop_reason: str  # end_turn, tool_use, max_tokens, stop_sequence, pause_turn, refusal, ...


StreamEvent = (
    TextChunk
    | ThinkingChunk
    | RedactedThinking
    | ToolUseStart
    | ToolArgsDelta
    | ToolUseStop
    | UsageReport
    | StreamEnd
)


@runtime_checkable
class Provider(Protocol):
    """A model backend.

    Optional capability, read with `holds_connection(provider)` (not a member here, so providers
    without it still match): a provider whose stream holds a network connection open sets the
    class attribute `holds_connection = True`. Pausing its agent then closes the stream at once
    and the request is sent again on resume (a server would not wait for a paused reader).
    Without it, a paused stream is held where it is and resumes with nothing lost (the scripted
    provider, a replay).
    """

    # Read-only here: a wrapper (the recorder) forwards its inner provider's as properties.
    @property
    def name(self) -> str: ...

    @property
    def model(self) -> str: ...

    def stream(self, request: ProviderRequest) -> AsyncIterator[StreamEvent]:
        """Stream one response. Closing the iterator early must close the underlying stream."""
        ...

    async def aclose(self) -> None:
        """Release what the provider holds (an HTTP client). The Runtime given the provider
        calls it once, when it shuts down; a provider holding nothing does nothing."""
        ...


def holds_connection(provider: object) -> bool:
    """Whether the provider's streams hold a network connection (see Provider)."""
    return bool(getattr(provider, "holds_connection", False))
