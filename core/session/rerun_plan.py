"""What `agentui rerun` replays of a saved session: its task, and what the person did and said,
each tied to a moment counted in steps (core/agent/steps.py), never in wall time.

    plan = rerun_plan(log.events)
    plan.task, plan.interventions, plan.answers, plan.not_replayed

A moment is "after agent NAME's step N": the agent is named as the tree names it (main, main.1,
main~1), so the new run's agent of the same name is the one it applies to. An intervention
(a steer, a modify, a cancel, a delete) is tied to the step the agent had reached when its
model read it: the last step before the one that took it into the conversation.
One the model never read is tied to the step the agent had reached when it was given. In the
new run it is given at the agent's first model call (its pause:check) once it has a step N,
whatever its steps hold; the model reads a steer or a modify in that very call, as the old
run's model did. A follow-up message to an agent that had ended after step N is sent when the
new run's agent of that name ends having a step N. An intervention whose agent never appears,
or never gets that far, is reported (RerunPlayer.unplayed), never dropped in silence.

Answers are not tied to steps: each agent's questions and approvals are answered in the order
the old run answered them (`RecordedAnswer`), whatever steps came before. A directed scene is
played again from the scene it recorded (`scene:start`), each round's input being the answer
its root was given, and the round the person declined ends it as it ended.

Roots after the first (tasks the person typed later in the app, forks) are started again at
the moment they were started relative to the others: after the step the run had last made
then, by whichever agent (`PlannedRoot.moment`); in the new run, like an intervention, at
that agent's first model call once it has the step (or when it waits or ends).

Pause and resume change nothing a model reads; they are listed in `not_replayed`, as is what
the plan cannot replay (a rewind, a directed scene started after the first root).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from agentui.core.agent.steps import StepLog
from agentui.core.protocol import events as ev
from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.protocol.conversation import Message
from agentui.core.session.errors import SessionError

# follow-up: the person's message to an agent that had ended, which runs it again (`send`)
InterventionKind = Literal["steer", "modify", "cancel", "delete", "follow-up"]
PERSON_DECLINED = ev.PERSON_DECLINED_REASON  # the person's own; AGENT_STOPPED_REASON is not


@dataclass(frozen=True, slots=True)
class Moment:
    """After agent `agent`'s step `step` (its name, as the tree names it)."""

    agent: str
    step: int

    def __str__(self) -> str:
        return f"after {self.agent}@{self.step}"


@dataclass(frozen=True, slots=True)
class PlannedIntervention:
    kind: InterventionKind
    moment: Moment
    text: str = ""  # a steer's words
    instructions: str | None = None  # a modify's
    content: str | None = None  # a modify's new task
    read: bool = True  # the old run's model read it (else: given after its last model call)

    def describe(self) -> str:
        if self.kind in ("steer", "follow-up"):
            what = f"{self.kind} {self.text!r}"
        elif self.kind == "modify":
            parts = [p for p, v in (("instructions", self.instructions), ("task", self.content))
                     if v is not None]  # fmt: skip
            what = f"modify ({' and '.join(parts)})"
        else:
            what = self.kind
        unread = "" if self.read else " (its model never read it in the old run)"
        return f"{what} {self.moment}{unread}"


@dataclass(frozen=True, slots=True)
class RecordedAnswer:
    """One answer the person gave an agent: to a question (`text`, None: declined), or to an
    approval (`decision` once/always/reject, and a rejection's `reason`)."""

    agent: str
    prompt: str
    approval: bool
    text: str | None = None
    decision: Literal["once", "always", "reject"] | None = None
    reason: str = ""

    def describe(self) -> str:
        if self.approval:
            said = self.decision or "reject"
            return f"{said}: {self.reason}" if self.reason else said
        return "(declined)" if self.text is None else self.text


@dataclass(frozen=True, slots=True)
class PlannedRoot:
    """A root after the first, started again once `moment` has come (its agent has the step)."""

    name: str
    task: str
    moment: Moment
    profile: str | None = None
    instructions: str = ""
    messages: tuple[Message, ...] = ()  # its conversation at step 0
    forked: ev.AgentForked | None = None  # a fork (`agentui fork`, a fork from a step)

    def describe(self) -> str:
        return f"root {self.name} ({self.task!r}) {self.moment}"


@dataclass(slots=True)
class RerunPlan:
    session: str
    task: str
    root: str  # the first root's name
    profile: str | None
    instructions: str
    messages: list[Message]  # its conversation at step 0 (a fork's copy: more than the task)
    forked: ev.AgentForked | None  # the first root is a fork (`agentui fork`): its origin
    six_step: bool  # the old run went through the six-step workflow
    scene: ev.SceneStarted | None = None  # the first root plays a directed scene: which
    interventions: list[PlannedIntervention] = field(default_factory=list)
    answers: list[RecordedAnswer] = field(default_factory=list)
    not_replayed: list[str] = field(default_factory=list)  # said to the person, in words
    roots: list[PlannedRoot] = field(default_factory=list)  # the roots after the first


@dataclass(slots=True)
class _Given:
    """An intervention given and not yet read by the model."""

    kind: InterventionKind
    agent_id: str
    step: int  # the agent's last step when it was given
    index: int  # its place in the plan's order
    text: str = ""
    instructions: str | None = None
    content: str | None = None


def rerun_plan(events: Iterable[ev.Event], session: str = "") -> RerunPlan:
    """The plan of a saved session's events; raises SessionError when it has nothing to run."""
    names: dict[str, str] = {}  # agent id -> name
    ended: set[str] = set()  # agents whose latest status is an end
    steps: dict[str, StepLog] = {}
    roots: list[ev.AgentSpawned] = []
    forked: dict[str, ev.AgentForked] = {}
    first_change: dict[str, ev.ConversationChanged] = {}
    notes: dict[str, _Given] = {}  # note id -> the steer it carries
    modifies: dict[str, list[_Given]] = {}  # agent id -> modifies its model has not read
    given: list[tuple[int, PlannedIntervention]] = []
    queries: dict[str, ev.QueryRaised] = {}
    answered: list[tuple[int, RecordedAnswer]] = []  # (seq, answer): in the order given
    not_replayed: list[str] = []
    scenes: dict[str, ev.SceneStarted] = {}  # scene root id -> what it played
    started_after: dict[str, Moment] = {}  # a later root's id -> the last step made before it
    last_made: Moment | None = None  # the last step any agent made so far
    six_step = False

    def last_step(agent_id: str) -> int:
        log = steps.get(agent_id)
        return log.steps[-1].number if log is not None and log.steps else 0

    def step_before_delivery(agent_id: str) -> int:
        """The step the model had reached when a note:delivered came: the delivered words
        are already the last step (the conversation changes before the event says so)."""
        log = steps.get(agent_id)
        earlier = [s for s in (log.steps[:-1] if log is not None else []) if not s.set_aside]
        return earlier[-1].number if earlier else 0

    def planned(item: _Given, step: int, *, read: bool) -> None:
        moment = Moment(names.get(item.agent_id, item.agent_id), step)
        intervention = PlannedIntervention(
            item.kind, moment, item.text, item.instructions, item.content, read=read
        )
        given.append((item.index, intervention))

    order = 0
    for event in events:
        agent_id = event.agent_id
        if isinstance(event, ev.AgentSpawned):
            names[agent_id] = event.name
            steps[agent_id] = StepLog(event.name)
            if event.parent_id is None:
                roots.append(event)
                if last_made is not None:
                    started_after[agent_id] = last_made
            elif event.parent_id in steps:
                steps[event.parent_id].child_started(agent_id)
        elif isinstance(event, ev.AgentForked):
            forked[agent_id] = event
        elif isinstance(event, ev.ConversationChanged | ev.AgentRewound):
            if isinstance(event, ev.ConversationChanged):
                first_change.setdefault(agent_id, event)
            if isinstance(event, ev.AgentRewound):
                not_replayed.append(f"{names.get(agent_id, agent_id)} was rewound to step "
                                    f"{event.step}: a re-run goes forward only")  # fmt: skip
            log = steps.get(agent_id)
            if log is None:
                continue
            before = len(log.steps)
            log.apply(event)
            if len(log.steps) > before:
                last_made = Moment(log.agent_name, log.steps[-1].number)
            if agent_id in ended and len(log.steps) > before and log.steps[-1].kind == "steer":
                # The person wrote to an agent that had ended: it runs again on the words.
                order += 1
                words = event.append[-1].text if isinstance(event, ev.ConversationChanged) else ""
                follow_up = _Given("follow-up", agent_id, 0, order, text=words)
                planned(follow_up, step_before_delivery(agent_id), read=True)
        elif isinstance(event, ev.StatusChanged):
            if AgentStatus(event.new).is_final:
                ended.add(agent_id)
            else:
                ended.discard(agent_id)
        elif isinstance(event, ev.WorkflowStepStarted):
            six_step = True
        elif isinstance(event, ev.SceneStarted):
            scenes.setdefault(agent_id, event)
        elif isinstance(event, ev.NoteQueued) and event.from_person:
            order += 1
            notes[event.note_id] = _Given(
                "steer", agent_id, last_step(agent_id), order, text=event.text
            )
        elif isinstance(event, ev.InterventionApplied):
            order += 1
            kind = event.kind  # a steer's words come with its note:queued
            if kind == "modify":
                modifies.setdefault(agent_id, []).append(
                    _Given("modify", agent_id, last_step(agent_id), order,
                           instructions=event.instructions, content=event.content)
                )  # fmt: skip
            elif kind in ("cancel", "delete"):
                stopped = _Given(kind, agent_id, last_step(agent_id), order)
                planned(stopped, stopped.step, read=True)
            elif kind in ("pause", "resume"):
                not_replayed.append(
                    f"{kind} of {names.get(agent_id, agent_id)}: it changes nothing a model reads"
                )
        elif isinstance(event, ev.NotesDelivered):
            step = step_before_delivery(agent_id)
            for note_id in event.note_ids:
                steer = notes.pop(note_id, None)
                if steer is not None:
                    planned(steer, step, read=True)
            if event.modified:
                for item in modifies.pop(agent_id, []):
                    planned(item, step, read=True)
        elif isinstance(event, ev.QueryRaised):
            queries[event.query_id] = event
        elif isinstance(event, ev.QueryAnswered | ev.QueryDeclined | ev.ApprovalDecided):
            answer = _answer(event, queries, names)
            if answer is not None:
                answered.append((event.seq, answer))
    for item in [*notes.values(), *(m for ms in modifies.values() for m in ms)]:
        planned(item, item.step, read=False)  # given after its agent's last model call

    if not roots:
        raise SessionError(f"session {session or '?'} has no task to run again")
    root = roots[0]
    scene = scenes.get(root.agent_id)
    if root.driver is not None and (scene is None or scene.continues is not None):
        raise SessionError(
            f"session {session or '?'} goes on with a scene an earlier session began: play "
            "it again with agentui run --scene, and compare the two with agentui diff"
        )
    later: list[PlannedRoot] = []
    for other in roots[1:]:
        moment = started_after.get(other.agent_id, Moment(root.name, 0))
        if other.driver is not None:
            not_replayed.append(f"{other.name}: a directed scene started after {root.name} "
                                "is not played again (agentui run --scene plays it)")  # fmt: skip
            continue
        first = first_change.get(other.agent_id)
        later.append(PlannedRoot(
            other.name, other.task, moment, other.profile,
            (first.instructions or "") if first is not None else "",
            tuple(first.append) if first is not None else (), forked.get(other.agent_id),
        ))  # fmt: skip
    change = first_change.get(root.agent_id)
    given.sort(key=lambda pair: pair[0])
    return RerunPlan(
        session=session,
        task=root.task,
        root=root.name,
        profile=root.profile,
        instructions=(change.instructions or "") if change is not None else "",
        messages=list(change.append) if change is not None else [],
        forked=forked.get(root.agent_id),
        six_step=six_step,
        scene=scene,
        interventions=[intervention for _, intervention in given],
        answers=[answer for _, answer in sorted(answered, key=lambda pair: pair[0])],
        not_replayed=not_replayed,
        roots=later,
    )


def _answer(
    event: ev.QueryAnswered | ev.QueryDeclined | ev.ApprovalDecided,
    queries: dict[str, ev.QueryRaised],
    names: dict[str, str],
) -> RecordedAnswer | None:
    """The person's answer an event records, or None (the runtime's own: a withdrawn question,
    an approval remembered or given by policy; or the answer half of an approval, which its
    approval:decided records)."""
    if isinstance(event, ev.ApprovalDecided):
        if event.source != "person" or event.query_id is None:
            return None
        query = queries.get(event.query_id)
        prompt = query.prompt if query is not None else event.tool
        return RecordedAnswer(names.get(event.agent_id, event.agent_id), prompt, True,
                              decision=event.decision, reason=event.reason)  # fmt: skip
    query = queries.get(event.query_id)
    if query is None or query.kind == "approval":  # its approval:decided says it
        return None
    name = names.get(event.agent_id, event.agent_id)
    if isinstance(event, ev.QueryDeclined):
        if event.reason != PERSON_DECLINED:
            return None
        return RecordedAnswer(name, query.prompt, False, text=None)
    return RecordedAnswer(name, query.prompt, False, text=event.answer)
