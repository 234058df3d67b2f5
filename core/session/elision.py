"""Text a session line leaves out because the lines before it already hold it (format 2).

Left whole, a model's answer is in the file four times: its deltas, the `llm:response` that ends
it, the agent's conversation record and, for an agent's last answer, `execution:complete`. From
format 2 the writer leaves out:

- an `llm:response`'s `text` when it is exactly the text its agent streamed for that iteration
  since its last `llm:request` (or failed or abandoned attempt); the line says `"text_streamed": N` instead (its length);
- an `execution:complete`'s `result` when it is exactly the agent's last response text; the
  line says `"result_is_response": true` instead.

The reader puts both back from the lines before them (`Elision.restore`), so whoever reads a
session gets whole events. A damaged delta line shortens the text put back by what it held,
and the length says so.
"""

from __future__ import annotations

from typing import Any

from agentui.core.protocol.events import (
    Event,
    ExecutionCompleted,
    LLMAbandoned,
    LLMFailed,
    LLMRequested,
    LLMResponded,
    TextDelta,
)
from agentui.core.support.utf8 import json_text, model_json

TEXT_STREAMED = "text_streamed"
RESULT_IS_RESPONSE = "result_is_response"

_NEW_ATTEMPT = (LLMRequested, LLMFailed, LLMAbandoned)


class Elision:
    """Follows the events in file order: what each agent streamed and last answered.

    The writer and the reader keep one each and show it the same events, so what one leaves
    out the other puts back.
    """

    def __init__(self) -> None:
        self._streamed: dict[str, tuple[int, list[str]]] = {}  # agent -> (iteration, pieces)
        self._answered: dict[str, str] = {}  # agent -> its last response text

    def observe(self, event: Event) -> None:
        agent_id = event.agent_id
        if isinstance(event, TextDelta):
            streamed = self._streamed.get(agent_id)
            if streamed is None or streamed[0] != event.iteration:
                # (not only after an llm:request: one lost to damage must not cost the text)
                streamed = self._streamed[agent_id] = (event.iteration, [])
            streamed[1].append(event.delta)
        elif isinstance(event, _NEW_ATTEMPT):
            self._streamed.pop(agent_id, None)  # a new attempt: what came before is not in it
        elif isinstance(event, LLMResponded):
            self._streamed.pop(agent_id, None)
            self._answered[agent_id] = event.text
        elif isinstance(event, ExecutionCompleted):
            self._answered.pop(agent_id, None)

    def _streamed_text(self, agent_id: str, iteration: int) -> str | None:
        streamed = self._streamed.get(agent_id)
        if streamed is None or streamed[0] != iteration:
            return None
        return "".join(streamed[1])

    # -- the writer's side ---------------------------------------------------------------

    def line(self, event: Event) -> str:
        """The event's line, without what the lines before it hold; observes the event."""
        line = self._compact(event)
        self.observe(event)
        return line

    def _compact(self, event: Event) -> str:
        if isinstance(event, LLMResponded) and event.text:
            if self._streamed_text(event.agent_id, event.iteration) == event.text:
                return _without(event, "text", TEXT_STREAMED, len(event.text))
        elif (
            isinstance(event, ExecutionCompleted)
            and event.result
            and self._answered.get(event.agent_id) == event.result
        ):
            return _without(event, "result", RESULT_IS_RESPONSE, True)
        return model_json(event) + "\n"

    # -- the reader's side ---------------------------------------------------------------

    def restore(self, value: dict[str, Any]) -> str | None:
        """Put back into a parsed line what its writer left out (before it is validated).

        Returns what is missing when the lines before it no longer hold all of it.
        """
        agent_id = value.get("agent_id")
        if not isinstance(agent_id, str):
            return None
        length = value.pop(TEXT_STREAMED, None)
        if isinstance(length, int) and "text" not in value:
            iteration = value.get("iteration")
            if isinstance(iteration, int):
                text = value["text"] = self._streamed_text(agent_id, iteration) or ""
                if len(text) < length:
                    return (
                        f"the response text of agent {agent_id!r} misses {length - len(text)} "
                        "of its characters (they were in a damaged line)"
                    )
        if value.pop(RESULT_IS_RESPONSE, None) is True and "result" not in value:
            value["result"] = self._answered.get(agent_id, "")
        return None


def _without(event: Event, name: str, marker: str, said: object) -> str:
    data = event.model_dump(mode="json")
    del data[name]
    data[marker] = said
    return json_text(data, separators=(",", ":")) + "\n"
