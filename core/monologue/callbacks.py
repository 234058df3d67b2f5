"""AgentCallbacks: what an agent method built on callbacks reports as it works.

A method that takes an `AgentCallbacks` can be decorated with `@monologue(...)`; the decorator
listens to these and calls `on_monologue` with each narrative.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agentui.core.protocol.narrative import NarrativeEntry


@dataclass(slots=True)
class AgentCallbacks:
    on_tool_call: Callable[[str, dict[str, Any]], None] | None = None  # (tool, arguments)
    on_tool_result: Callable[[str, str, bool], None] | None = None  # (tool, result, is_error)
    on_thinking: Callable[[str], None] | None = None  # one whole thought
    on_text: Callable[[str], None] | None = None  # text as it streams; pieces join up
    # Set it to get a monologue (the method must be decorated with @monologue).
    on_monologue: Callable[[NarrativeEntry], None] | None = None
    on_monologue_error: Callable[[str], None] | None = None
