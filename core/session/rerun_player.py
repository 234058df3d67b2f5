"""A re-run's person: gives a live runtime the steers, modifies, cancels and deletes of a
RerunPlan at their moments, and answers its agents' questions and approvals as they were
answered (core/session/rerun_plan.py says how moments and answers are matched).

    player = RerunPlayer(runtime, plan)
    remove = player.attach()                  # before the root starts
    root = player.start()                     # the task, as the old run started it
    ...
    if not player.answer(query, agent_name):  # per query:raised: None when none was recorded
        ask the person
    player.ended(agent_id)                    # per agent that ended: a follow-up sent again?
    player.start_due_roots()                  # per batch of events: later roots whose moment came
    player.roots                              # the ids of the roots it started, the first first
    player.unplayed(names)                    # what never found its moment, in words

Interventions are given from a pause:check hook, the point at the top of each iteration just
before the model is called: an intervention due "after main@3" is given at main's first model
call once it has a step 3, and the model reads it in that call. A follow-up message to an
ended agent is sent when the agent of its name ends. A root after the first is started as an
intervention is given: at the first model call of the agent its moment names once that agent
has the step (the same hook), or, when that agent makes no call, as its status changes (it
waits on the person, or ended: the caller calls `start_due_roots` per status event). Nothing
waits on wall time.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from agentui.core.agent.hooks import HookContext, HookPoint
from agentui.core.agent.steps import ForkOrigin
from agentui.core.protocol.events import QueryRaised
from agentui.core.session.rerun_plan import (
    PlannedIntervention,
    PlannedRoot,
    RecordedAnswer,
    RerunPlan,
)
from agentui.core.support.errors import AgentUIError

if TYPE_CHECKING:
    from agentui.core.runtime import Runtime
    from agentui.core.scene.settings import SceneSettings


@dataclass(frozen=True, slots=True)
class Played:
    """An intervention given in the new run, and the step its agent had then."""

    intervention: PlannedIntervention
    at_step: int

    def describe(self) -> str:
        agent = self.intervention.moment.agent
        if self.intervention.kind == "follow-up":
            return f"{self.intervention.describe()}: sent when {agent} ended at step {self.at_step}"
        return f"{self.intervention.describe()}: given at {agent}'s model call after step " \
               f"{self.at_step}"  # fmt: skip


@dataclass(slots=True)
class RerunPlayer:
    runtime: Runtime
    plan: RerunPlan
    played: list[Played] = field(default_factory=list)
    answered: list[RecordedAnswer] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # the runtime refused it, in words
    roots: list[str] = field(default_factory=list)  # the roots it started, in order
    started: list[str] = field(default_factory=list)  # later roots started, in words
    _pending: list[PlannedIntervention] = field(default_factory=list)
    _pending_roots: list[PlannedRoot] = field(default_factory=list)
    _answers: dict[tuple[str, bool], deque[RecordedAnswer]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._pending = list(self.plan.interventions)
        self._pending_roots = list(self.plan.roots)
        for answer in self.plan.answers:
            self._answers.setdefault((answer.agent, answer.approval), deque()).append(answer)

    def start(
        self, instructions: str | None = None, scene_settings: SceneSettings | None = None
    ) -> str:
        """Start the plan's root as the old run started it (a fork's copy again, when it was
        one: it is named as it was, main~1; a scene from the file it recorded, under
        `scene_settings`); `instructions` replace the recorded ones. Its id."""
        root = self._start_first(instructions, scene_settings)
        self.roots.append(root)
        return root

    def _start_first(self, instructions: str | None, scene_settings: SceneSettings | None) -> str:
        plan, runtime = self.plan, self.runtime
        if plan.scene is not None:
            from agentui.core.scene.scene_file import SceneFile
            from agentui.core.scene.scene_loading import resolve_scene
            from agentui.core.scene.scene_run import start_scene

            file = SceneFile.model_validate(plan.scene.scene)
            scene = resolve_scene(file, plan.scene.source, runtime.profiles)
            return start_scene(runtime, scene, settings=scene_settings)
        if plan.forked is not None:
            forked = plan.forked
            origin = ForkOrigin(forked.origin_id, forked.origin_name, forked.step, forked.session)
            return runtime.start_from(
                plan.task, instructions or plan.instructions, plan.messages, origin=origin
            )
        if plan.profile is not None and instructions is None:
            return runtime.start(plan.task, profile=plan.profile)
        return runtime.start(plan.task, instructions=instructions or plan.instructions or None)

    def attach(self) -> Callable[[], None]:
        """Give interventions at their moments from now on; returns what stops it."""
        return self.runtime.hooks.add(HookPoint.PAUSE_CHECK, self._before_model_call)

    @property
    def roots_to_come(self) -> bool:
        """Later roots whose moment has not come yet."""
        return bool(self._pending_roots)

    def start_due_roots(self) -> list[str]:
        """Start the later roots whose moment has come; their ids."""
        started: list[str] = []
        for root in list(self._pending_roots):
            reached = self._reached(root.moment.agent)
            if reached is None or reached < root.moment.step:
                continue
            self._pending_roots.remove(root)
            try:
                agent_id = self._start_later(root)
            except AgentUIError as exc:
                self.refused.append(f"{root.describe()}: {exc}")
                continue
            self.roots.append(agent_id)
            started.append(agent_id)
            self.started.append(
                f"{root.describe()}: started when {root.moment.agent} had step {reached}"
            )
        return started

    def _reached(self, name: str) -> int | None:
        """The last step of the new run's agent of that name; None when there is none yet."""
        for node in self.runtime.nodes():
            if node.name == name:
                steps = self.runtime.steps(node.id)
                return steps[-1].number if steps else 0
        return None

    def _start_later(self, root: PlannedRoot) -> str:
        runtime = self.runtime
        if root.forked is not None:
            forked = root.forked
            origin = ForkOrigin(forked.origin_id, forked.origin_name, forked.step, forked.session)
            return runtime.start_from(
                root.task, root.instructions, list(root.messages), origin=origin,
                profile=root.profile,
            )  # fmt: skip
        if root.profile is not None:
            return runtime.start(root.task, profile=root.profile)
        return runtime.start(root.task, instructions=root.instructions or None)

    def _before_model_call(self, context: HookContext) -> None:
        if self._pending_roots:
            self.start_due_roots()
        if not self._pending:
            return
        name = self.runtime.node(context.agent_id).name
        steps = self.runtime.steps(context.agent_id)
        reached = steps[-1].number if steps else 0
        due = [i for i in self._due(name, reached) if i.kind != "follow-up"]
        for intervention in due:
            self._pending.remove(intervention)
            try:
                self._give(context.agent_id, intervention)
            except AgentUIError as exc:
                self.refused.append(f"{intervention.describe()}: {exc}")
                continue
            self.played.append(Played(intervention, reached))

    def ended(self, agent_id: str) -> bool:
        """The agent has ended: send it the follow-up message due now, if any (it runs again
        on it: True). Call it for each agent whose status became an end."""
        if self._pending_roots:
            self.start_due_roots()
        name = self.runtime.node(agent_id).name
        steps = self.runtime.steps(agent_id)
        reached = steps[-1].number if steps else 0
        for intervention in self._due(name, reached):
            if intervention.kind != "follow-up":
                continue
            self._pending.remove(intervention)
            try:
                self.runtime.send(agent_id, intervention.text)
            except AgentUIError as exc:
                self.refused.append(f"{intervention.describe()}: {exc}")
                continue
            self.played.append(Played(intervention, reached))
            return True
        return False

    def _due(self, name: str, reached: int) -> list[PlannedIntervention]:
        return [i for i in self._pending if i.moment.agent == name and i.moment.step <= reached]

    def _give(self, agent_id: str, intervention: PlannedIntervention) -> None:
        runtime = self.runtime
        if intervention.kind == "steer":
            runtime.steer(agent_id, intervention.text)
        elif intervention.kind == "modify":
            runtime.modify(
                agent_id, instructions=intervention.instructions, content=intervention.content
            )
        elif intervention.kind == "cancel":
            runtime.cancel(agent_id, "cancelled by the person (re-run)")
        else:
            runtime.delete(agent_id)

    def answer(self, query: QueryRaised, agent_name: str) -> RecordedAnswer | None:
        """Answer the query as the agent's next recorded answer of its kind; that answer, or
        None when none is left (the person is asked instead)."""
        approval = query.kind == "approval"
        waiting = self._answers.get((agent_name, approval))
        if not waiting:
            return None
        recorded = waiting.popleft()
        try:
            if approval:
                decision = recorded.decision or "reject"
                self.runtime.approve(query.query_id, decision, recorded.reason or None)
            else:
                self.runtime.answer(query.query_id, recorded.text)
        except AgentUIError as exc:
            self.refused.append(f"answer {recorded.describe()!r} to {agent_name}: {exc}")
            return None
        self.answered.append(recorded)
        return recorded

    def unplayed(self, names: Mapping[str, str]) -> list[str]:
        """What of the plan the new run never came to, one line each: `names` maps each agent
        of the new run's name to its id."""
        lines: list[str] = []

        def last_step(agent: str) -> int | None:
            """The last step of the new run's agent of that name; None: it has none."""
            agent_id = names.get(agent)
            if agent_id is None:
                return None
            steps = self.runtime.steps(agent_id)
            return steps[-1].number if steps else 0

        for root in self._pending_roots:
            agent, step = root.moment.agent, root.moment.step
            last = last_step(agent)
            why = (
                f"no agent {agent} in the new run"
                if last is None
                else f"{agent} never had step {step} (its last step: {last})"
            )
            lines.append(f"{root.describe()}: not started: {why}")
        for intervention in self._pending:
            agent, step = intervention.moment.agent, intervention.moment.step
            last = last_step(agent)
            after = "ended" if intervention.kind == "follow-up" else "made no model call"
            why = (
                f"no agent {agent} in the new run"
                if last is None
                else f"{agent} {after} after step {step} (its last step: {last})"
            )
            lines.append(f"{intervention.describe()}: not given: {why}")
        for (agent, approval), left in self._answers.items():
            for recorded in left:
                what = "approval" if approval else "answer"
                lines.append(f"{what} {recorded.describe()!r} of {agent} "
                             f"({recorded.prompt!r}): never asked for")  # fmt: skip
        return lines
