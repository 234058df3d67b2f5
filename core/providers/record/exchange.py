"""One provider exchange as a JSON file: the request we sent and what came back.

Provider-neutral: the events are the neutral stream events, so a recording of Claude replays
through the same runtime as it ran, offline. Exchanges are numbered per agent name (an agent's
calls are ordered; agents running in parallel are not ordered against each other), and apart
for each purpose: a narrator's calls about an agent run beside the agent's own.
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from agentui.core.protocol.usage import Usage
from agentui.core.providers.base import (
    ProviderRequest,
    RedactedThinking,
    StreamEnd,
    StreamEvent,
    TextChunk,
    ThinkingChunk,
    ToolArgsDelta,
    ToolUseStart,
    ToolUseStop,
    UsageReport,
)

FORMAT = 1

_EVENT_TYPES: dict[str, type[Any]] = {
    "text": TextChunk,
    "thinking": ThinkingChunk,
    "redacted_thinking": RedactedThinking,
    "tool_use_start": ToolUseStart,
    "tool_args": ToolArgsDelta,
    "tool_use_stop": ToolUseStop,
    "usage": UsageReport,
    "end": StreamEnd,
}
_EVENT_NAMES = {cls: name for name, cls in _EVENT_TYPES.items()}


def event_to_json(event: StreamEvent) -> dict[str, Any]:
    data: dict[str, Any] = {"type": _EVENT_NAMES[type(event)]}
    for field in dataclasses.fields(event):
        value = getattr(event, field.name)
        data[field.name] = value.model_dump() if isinstance(value, Usage) else value
    return data


def event_from_json(data: dict[str, Any]) -> StreamEvent:
    fields = dict(data)
    cls = _EVENT_TYPES[fields.pop("type")]
    if cls is UsageReport:
        fields["usage"] = Usage.model_validate(fields["usage"])
    event: StreamEvent = cls(**fields)
    return event


def request_to_json(request: ProviderRequest) -> dict[str, Any]:
    """What identifies a request, as plain JSON; ids and iteration numbers are left out."""
    data = {
        "agent": request.agent_name,
        "purpose": request.purpose,
        "model": request.model,
        "instructions": request.instructions,
        "messages": [m.model_dump(mode="json") for m in request.messages],
        "tools": [dataclasses.asdict(t) for t in request.tools],
        "max_tokens": request.max_tokens,
        "thinking_budget": request.thinking_budget,
    }
    # Through JSON and back, so it compares equal to its recorded copy (tuples become lists).
    normalized: dict[str, Any] = json.loads(json.dumps(data, default=str))
    return normalized


class RecordedError(BaseModel):
    message: str
    retryable: bool = False


class Exchange(BaseModel):
    model_config = ConfigDict(extra="forbid")

    format: int = FORMAT
    agent: str
    purpose: str = "agent"
    index: int  # this agent's exchanges (for this purpose) count from 0
    request: dict[str, Any]
    events: list[dict[str, Any]]
    # complete: the stream ended normally; error: it failed after `events`; closed: we closed
    # it early after `events` (cancel, delete), so a replay waits there to be closed too.
    outcome: Literal["complete", "error", "closed"]
    error: RecordedError | None = None

    @property
    def file_name(self) -> str:
        safe = re.sub(r"[^A-Za-z0-9._-]", "_", self.agent) or "_"
        purpose = "" if self.purpose == "agent" else f"-{self.purpose}"
        return f"{safe}{purpose}-{self.index:04d}.json"

    @property
    def key(self) -> tuple[str, str]:
        return (self.agent, self.purpose)


def exchange_key(request: ProviderRequest) -> tuple[str, str]:
    """Whose sequence of exchanges a request belongs to."""
    return (request.agent_name, request.purpose)


@dataclasses.dataclass(frozen=True, slots=True)
class Difference:
    path: str  # like `messages[2].content[0].text`
    recorded: Any
    sent: Any


_MISSING = "(missing)"


def first_difference(recorded: Any, sent: Any, path: str = "") -> Difference | None:
    """Where two JSON values first differ, and what each holds there."""
    if isinstance(recorded, dict) and isinstance(sent, dict):
        for key in [*recorded, *(k for k in sent if k not in recorded)]:
            where = f"{path}.{key}" if path else str(key)
            if key not in recorded or key not in sent:
                return Difference(where, recorded.get(key, _MISSING), sent.get(key, _MISSING))
            found = first_difference(recorded[key], sent[key], where)
            if found is not None:
                return found
        return None
    if isinstance(recorded, list) and isinstance(sent, list):
        for index, (a, b) in enumerate(zip(recorded, sent, strict=False)):
            found = first_difference(a, b, f"{path}[{index}]")
            if found is not None:
                return found
        if len(recorded) != len(sent):
            return Difference(f"{path} (length)", len(recorded), len(sent))
        return None
    return None if recorded == sent else Difference(path or "(the request)", recorded, sent)
