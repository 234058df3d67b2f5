"""One prompt turn: the root agent's run for a prompt, and how it ended as ACP says it.

The turn ends when its root agent does (its status turns final); subagents a plain root left
running go on and are shown, but the answer is the root's. How it ended:

- completed: `end_turn`, or `max_tokens` when the model's last reply was cut at its limit;
- cancelled (the client's `session/cancel`) or deleted: `cancelled`;
- failed at its iteration or tool-call limit: `max_turn_requests`; on a model's refusal:
  `refusal`; any other failure (the provider, a tool, a contract) is a JSON-RPC error whose
  message is the agent's error, since ACP has no stop reason for it and `end_turn` would tell
  the client the turn went well.
"""

from __future__ import annotations

import anyio
from acp import RequestError
from acp.schema import PromptResponse, StopReason

from .. import events as ev
from ..tree import AgentStatus
from .tool_calls import META_KEY

TURN_LIMITS = frozenset({"max_iterations", "max_tool_calls"})
# JSON-RPC's code for a server error with no more specific code (ACP uses it so).
INTERNAL_ERROR = -32603


class Turn:
    def __init__(self, root_id: str) -> None:
        self.root_id = root_id
        self.ended = anyio.Event()
        self.status: AgentStatus | None = None
        self._last_reply_stop: str | None = None
        self._completed_stop: str | None = None
        self._failure: ev.ExecutionFailed | None = None

    def observe(self, event: ev.Event) -> None:
        """Follow the root's events (only the root's)."""
        match event:
            case ev.LLMResponded(stop_reason=stop_reason):
                self._last_reply_stop = stop_reason
            case ev.ExecutionCompleted(stop_reason=stop_reason):
                self._completed_stop = stop_reason
            case ev.ExecutionFailed():
                self._failure = event
            case ev.StatusChanged(new=new) if AgentStatus(new).is_final:
                self.status = AgentStatus(new)
                self.ended.set()

    def response(self) -> PromptResponse:
        """The prompt's answer once the turn ended; raises RequestError for a failure."""
        meta = {META_KEY: {"rootId": self.root_id, "status": str(self.status)}}
        return PromptResponse(stop_reason=self.stop_reason(), field_meta=meta)

    def stop_reason(self) -> StopReason:
        if self.status is AgentStatus.COMPLETED:
            return "max_tokens" if self._completed_stop == "max_tokens" else "end_turn"
        if self.status is not AgentStatus.ERROR:
            return "cancelled"
        failure = self._failure
        if failure is not None and failure.kind in TURN_LIMITS:
            return "max_turn_requests"
        if self._last_reply_stop == "refusal":
            return "refusal"
        error = failure.error if failure is not None else "the agent failed"
        kind = failure.kind if failure is not None else "internal"
        raise RequestError(INTERNAL_ERROR, error, {"agentId": self.root_id, "kind": kind})
