"""One prompt turn: the root agent's run for a prompt and the work it started, and how it ended
as ACP says it.

ACP ends a turn once no tool call of it is pending, and every subagent is a tool call: so the
turn ends when its root's run has ended and no agent under the root is live any more (a root
that started subagents and did not wait for them keeps the turn open until they end, or until
the client cancels it). The answer is the root's run's, or, for a prompt that answers a
question of an agent a root that had already ended left behind, that agent's run's (the root's
old end is no outcome of this prompt):

- completed: `end_turn`, or `max_tokens` when the model's last reply was cut at its limit;
- cancelled (the client's `session/cancel`) or deleted: `cancelled`; a turn the client
  cancelled is `cancelled` however it ended (ACP asks this of every cancelled turn);
- parked (a question the person chose to answer in their next prompt, where the client has no
  form for it): `end_turn` while its agents still live, so the client takes a prompt again;
- failed at its iteration or tool-call limit: `max_turn_requests`; on a model's refusal:
  `refusal`; any other failure (the provider, a tool, a contract) is a JSON-RPC error whose
  message is the agent's error, since ACP has no stop reason for it and `end_turn` would tell
  the client the turn went well.
"""

from __future__ import annotations

import anyio
from acp import RequestError
from acp.schema import PromptResponse, StopReason

from agentui.core.acp.tool_calls import META_KEY
from agentui.core.protocol import events as ev
from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.support.terminal_text import visible_controls

TURN_LIMITS = frozenset({"max_iterations", "max_tool_calls"})
# JSON-RPC's code for a server error with no more specific code (ACP uses it so).
INTERNAL_ERROR = -32603


class Turn:
    def __init__(self, root_id: str, *, runs: str | None = None) -> None:
        """`runs`: the agent whose run is the turn's outcome, if not the root (an agent the
        root left, which the turn's prompt answered)."""
        self.root_id = root_id
        self.agent_id = runs or root_id
        self.ended = anyio.Event()
        self.status: AgentStatus | None = None  # the agent's, once its run for this turn ended
        # Set by session/cancel: agents of the turn that are (or turn) live are cancelled.
        self.cancel_requested = False
        self.parked = False
        self._last_reply_stop: str | None = None
        self._completed_stop: str | None = None
        self._failure: ev.ExecutionFailed | None = None
        self._broken: RequestError | None = None

    @property
    def run_ended(self) -> bool:
        return self.status is not None

    def observe(self, event: ev.Event) -> None:
        """Follow the events of the agent whose run the turn is (only its)."""
        match event:
            case ev.LLMResponded(stop_reason=stop_reason):
                self._last_reply_stop = stop_reason
            case ev.ExecutionCompleted(stop_reason=stop_reason):
                self._completed_stop = stop_reason
            case ev.ExecutionFailed():
                self._failure = event
            # From live to final only: a continued agent is still `completed` from its last
            # run until this one starts.
            case ev.StatusChanged(old=old, new=new) if (
                AgentStatus(old).is_live and AgentStatus(new).is_final
            ):
                self.status = AgentStatus(new)

    def end(self) -> None:
        self.ended.set()

    def park(self) -> None:
        """End the turn for the person's next prompt, which answers a question of it."""
        self.parked = True
        self.ended.set()

    def fail(self, error: RequestError) -> None:
        """End the turn with `error` as the prompt's answer (the session itself ended)."""
        self._broken = error
        self.ended.set()

    def response(self) -> PromptResponse:
        """The prompt's answer once the turn ended; raises RequestError for a failure."""
        if self._broken is not None:
            raise self._broken
        status = "waiting for your answer" if self.parked else str(self.status)
        meta: dict[str, str] = {"rootId": self.root_id}
        if self.agent_id != self.root_id:
            meta["agentId"] = self.agent_id
        meta["status"] = status
        return PromptResponse(stop_reason=self.stop_reason(), field_meta={META_KEY: meta})

    def stop_reason(self) -> StopReason:
        if self.cancel_requested:
            return "cancelled"
        if self.parked:
            return "end_turn"
        if self.status is AgentStatus.COMPLETED:
            return "max_tokens" if self._completed_stop == "max_tokens" else "end_turn"
        if self.status is not AgentStatus.ERROR:
            return "cancelled"
        failure = self._failure
        if failure is not None and failure.kind in TURN_LIMITS:
            return "max_turn_requests"
        if self._last_reply_stop == "refusal":
            return "refusal"
        error = visible_controls(failure.error) if failure is not None else "the agent failed"
        kind = failure.kind if failure is not None else "internal"
        raise RequestError(INTERNAL_ERROR, error, {"agentId": self.agent_id, "kind": kind})
