"""Each agent's steps as the screen knows them, and where each one ends in its transcript.

The steps are folded from the events the screen draws by core's own StepLog
(core/agent/steps.py), the class the runtime keeps per agent, fed the same events: the numbers
on screen are the ones `rewind` and `fork_from` take, locally, attached or in a replay.

A step ends at the transcript entry that was the agent's last when its `conversation:changed`
came (a model's answer, a tool's result, a steer's line): that entry's block carries the step's
marker. The batch is folded in pieces cut at those events, so that "last" is exact; the pieces
cost nothing more than the one fold (a Change is merged, never copied). Adding a step marks one
block; nothing here grows with the agents or the entries.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from agentui.core.agent.steps import Step, StepLog
from agentui.core.protocol import events as ev
from agentui.core.support.errors import CommandRefusedError

if TYPE_CHECKING:
    from agentui.core.state import Change, RunState


class StepBook:
    """Every agent's StepLog, and for each step the uid of the entry it ends at."""

    def __init__(self) -> None:
        self._logs: dict[str, StepLog] = {}
        self._ends: dict[str, list[int | None]] = {}  # agent -> step number -> entry uid
        self._at_entry: dict[int, list[int]] = {}  # entry uid -> the steps that end there
        # The agents whose start the book saw: only their logs are whole. A resumed session's
        # agents were drawn from its state, before any event: a log begun midway would number
        # their steps from 0 again (their steps are the local runtime's, which recalled them).
        self._born: set[str] = set()
        # Agent -> the step a rewind took it back to, until it runs again (the tree says it).
        self._rewound_to: dict[str, int] = {}

    def fold(self, model: RunState, batch: Sequence[ev.Event]) -> tuple[Change, set[str]]:
        """Fold `batch` into `model` as `model.apply_all` does, and the steps with it. Returns
        the change and the agents whose steps changed (a new step, a rewind)."""
        stepped: set[str] = set()
        change: Change | None = None
        start = 0
        for index, event in enumerate(batch):
            if isinstance(event, ev.AgentSpawned):
                self._born.add(event.agent_id)
                parent = self._logs.get(event.parent_id or "")
                if parent is not None:  # the order of children among steps: set aside by a rewind
                    parent.child_started(event.agent_id)
            if isinstance(event, ev.StatusChanged) and event.new == "running":
                self._rewound_to.pop(event.agent_id, None)
            elif isinstance(event, ev.AgentRewound):  # a resumed session's agents too
                self._rewound_to[event.agent_id] = event.step
            if not isinstance(event, ev.ConversationChanged | ev.AgentRewound):
                continue
            part = model.apply_all(batch[start : index + 1])
            change = part if change is None else change.merge(part)
            start = index + 1
            if self._step(model, event):
                stepped.add(event.agent_id)
        if change is None or start < len(batch):
            rest = model.apply_all(batch[start:])
            change = rest if change is None else change.merge(rest)
        return change, stepped

    def _step(self, model: RunState, event: ev.ConversationChanged | ev.AgentRewound) -> bool:
        agent = model.agents.get(event.agent_id)
        log = self._logs.get(event.agent_id)
        if log is None:
            if event.agent_id not in self._born:
                return False
            log = self._logs[event.agent_id] = StepLog(agent.name if agent is not None else "")
        before = len(log.steps)
        log.apply(event)
        if isinstance(event, ev.AgentRewound):
            return True  # the steps after it are set aside: their markers say so
        if len(log.steps) == before:
            return False
        entries = agent.entries if agent is not None else []
        uid = entries[-1].uid if entries else None
        self._ends.setdefault(event.agent_id, []).append(uid)
        if uid is not None:
            self._at_entry.setdefault(uid, []).append(log.steps[-1].number)
        return True

    # -- reading -------------------------------------------------------------------------

    def rewound_to(self, agent_id: str) -> int | None:
        """The step a rewind took the agent back to, while it waits there (None: it has run
        since, or was never rewound)."""
        return self._rewound_to.get(agent_id)

    def knows(self, agent_id: str) -> bool:
        return agent_id in self._logs

    def steps(self, agent_id: str) -> list[Step]:
        """The agent's steps, in order (those a rewind set aside among them)."""
        log = self._logs.get(agent_id)
        return list(log.steps) if log is not None else []

    def started_after(self, agent_id: str, number: int) -> list[str]:
        """The subagents a rewind to the step would set aside ([] when unknown)."""
        log = self._logs.get(agent_id)
        if log is None:
            return []
        try:
            return log.started_after(number)
        except CommandRefusedError:  # no such step here: the runtime says so when asked
            return []

    def mark(self, agent_id: str, uid: int) -> str | None:
        """What the block of entry `uid` says of the steps that end there: `#4`, `#3 #4`, or
        `#5 set aside` (None: no step ends there)."""
        numbers = self._at_entry.get(uid)
        log = self._logs.get(agent_id)
        if not numbers or log is None:
            return None
        steps = log.steps
        parts = []
        for number in numbers:
            step = steps[number] if number < len(steps) else None
            aside = step is not None and step.set_aside
            parts.append(f"#{number} set aside" if aside else f"#{number}")
        return " ".join(parts)

    def step_at(self, agent_id: str, uids: Sequence[int], uid: int | None) -> int | None:
        """The step the entry `uid` belongs to: the first that ends at it or after it, in the
        agent's entries `uids` (oldest first). Without an entry, or none known: the last step
        not set aside. None when the agent has no step."""
        steps = self.steps(agent_id)
        if not steps:
            return None
        latest = next((s.number for s in reversed(steps) if not s.set_aside), steps[-1].number)
        if uid is None:
            return latest
        place = {entry: index for index, entry in enumerate(uids)}
        at = place.get(uid)
        if at is None:
            return latest
        for number, end in enumerate(self._ends.get(agent_id, [])):
            if end is not None and place.get(end, -1) >= at:
                return number
        return latest
