"""How an agent that a resumed session gives back live goes on (core/session/resume.py decides).

Apart from agent_run.py because a resume plan holds one for each agent that waited on the
person, and a resumed session's first frame unpickles the plan: the run's module (the loop, the
events' models, the steps) loads after it, with the runtime.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agentui.core.agent.workflow_trail import TakeUp


@dataclass(frozen=True, slots=True)
class Reopening:
    """How an agent that a resumed session gives back live goes on (core/session/resume.py
    decides it): its run starts from its saved conversation when the runtime runs, waiting
    again on the question or approval it waited on (`query_id`, its words, its tool call), or
    held paused (its node says so) until the person resumes it or lifts its budget's stop.
    `outcomes`: the results of its last answer's tool calls that finished (content, is_error),
    not run again; `started`: the call that waits on the question (an ask_user). `take_up`: an
    agent that was in its six-step workflow goes on in it (workflow_trail.py), a question of
    the workflow among what it may wait on again. `task`: the task of the run it was in, which
    goes on (None: its task)."""

    query_id: str | None = None
    prompt: str = ""
    kind: str = ""
    tool: str | None = None
    arguments: dict[str, Any] | None = None
    call_id: str | None = None
    outcomes: Mapping[str, tuple[str, bool]] = field(default_factory=dict)
    started: frozenset[str] = frozenset()
    take_up: TakeUp | None = None
    task: str | None = None
