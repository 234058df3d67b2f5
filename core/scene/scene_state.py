"""SceneState: a directed scene as its events tell it, folded one event at a time.

The round workflow changes a scene only by emitting events and folding them here, and every
front end (through RunState) folds the same events: so the app's state view, the export and a
resumed scene all see exactly the state the round played against. Besides the SceneRecord the
envelope is built from, it keeps each round's progress (director passes, the turns each made,
who has acted, entered and left) and the round's events, its timeline.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import cast

from agentui.core.protocol import events as ev
from agentui.core.protocol.director_payloads import PlannedTurn
from agentui.core.scene.guidance import DirectorGuidance
from agentui.core.scene.record import RoundRecord, SceneMessage, SceneRecord, SceneRequest
from agentui.core.scene.scene_file import SceneFile
from agentui.core.scene.settings import Section
from agentui.core.scene.usage import SectionUsage, SectionUsageLog
from agentui.core.state.run_state import RunState
from agentui.core.state.scene_fold import register_scene_fold


@dataclass(frozen=True, slots=True)
class CharacterFlags:
    """Where a character stands in the round being played (the seed's round flags)."""

    has_acted_this_round: bool
    entered_this_round: bool
    exited_this_round: bool


@dataclass(slots=True)
class PassProgress:
    number: int
    director_id: str
    answered: bool = False  # the director's pass completed (with a decision or without)
    decision_made: bool = False
    turns: list[PlannedTurn] = field(default_factory=list)
    done: list[str] = field(default_factory=list)  # who has had their turn, however it ended
    # What the pass decided to apply before anyone acts and no event has applied yet (a crash
    # can come between the decision and them): name -> changes, the world's, name -> entry.
    unapplied_state: dict[str, dict[str, str]] = field(default_factory=dict)
    unapplied_world: dict[str, str] = field(default_factory=dict)
    unapplied_entries: dict[str, str] = field(default_factory=dict)

    def remaining(self) -> list[PlannedTurn]:
        """The turns not played yet, in order (a name may act once per pass)."""
        return [turn for turn in self.turns if turn.name not in self.done]


@dataclass(slots=True)
class RoundProgress:
    number: int
    request: SceneRequest
    round_id: str  # the round's agent
    passes: list[PassProgress] = field(default_factory=list)
    acted: list[str] = field(default_factory=list)  # had a turn (not skipped), in order
    entered: list[str] = field(default_factory=list)
    exited: list[str] = field(default_factory=list)
    leaving: dict[str, str] = field(default_factory=dict)  # deactivated, leaving after a turn
    director_set: dict[str, set[str]] = field(default_factory=dict)  # fields set this round
    events: list[ev.Event] = field(default_factory=list)  # the round's timeline
    ended: ev.RoundEnd | None = None

    @property
    def current_pass(self) -> PassProgress | None:
        return self.passes[-1] if self.passes else None

    def flags(self, name: str) -> CharacterFlags:
        return CharacterFlags(
            has_acted_this_round=name in self.acted,
            entered_this_round=name in self.entered,
            exited_this_round=name in self.exited,
        )


class SceneState:
    """One scene (one scene root agent): its file, its record and its rounds."""

    def __init__(self, scene_id: str, file: SceneFile, source: str) -> None:
        self.scene_id = scene_id
        self.file = file
        self.source = source
        self.record: SceneRecord = file.record(scene_id)
        self.rounds: list[RoundProgress] = []  # every round, oldest first; the last may be open
        self.character_agents: dict[str, str] = {}  # every character turn's agent -> its name
        self.context_usage = SectionUsageLog()  # the envelopes' tokens per section, rolling

    @classmethod
    def from_event(cls, event: ev.SceneStarted, previous: SceneState | None) -> SceneState:
        """The state a `scene:start` begins: fresh, or the scene it continues, carried over."""
        state = cls(event.agent_id, SceneFile.model_validate(event.scene), event.source)
        if previous is not None:
            state.record = previous.record.model_copy(deep=True)
            state.rounds = copy.deepcopy(previous.rounds)
            state.character_agents = dict(previous.character_agents)
            state.context_usage = copy.deepcopy(previous.context_usage)
        return state

    @property
    def round(self) -> RoundProgress | None:
        """The round being played (or cut short by the session's end), if any."""
        if self.rounds and self.rounds[-1].ended is None:
            return self.rounds[-1]
        return None

    @property
    def next_round_number(self) -> int:
        return len(self.record.rounds) + 1

    def apply(self, event: ev.SceneEvent) -> None:
        if isinstance(event, ev.RoundStarted):
            self._round_started(event)
            return
        progress = self.round
        if progress is None or event.round != progress.number:
            return  # not of the round being played: nothing here to change
        progress.events.append(event)
        record = self.record.current_round
        assert record is not None  # an open round always has its record
        match event:
            case ev.DirectorPassStarted(director_pass=number, director_id=director_id):
                # A pass that never answered (the session ended) is played again.
                progress.passes = [p for p in progress.passes if p.number < number]
                progress.passes.append(PassProgress(number, director_id))
                self._record_context("director", event.round, event.context)
            case ev.DirectorPassCompleted(
                decision=decision, turns=turns, leaving=leaving, director_pass=number
            ):
                current = progress.current_pass
                if current is None or current.number != number:
                    return
                current.answered = True
                current.decision_made = decision is not None
                current.turns = list(turns)
                current.unapplied_state = {k: dict(v) for k, v in event.state_changes.items()}
                current.unapplied_world = dict(event.world_changes)
                current.unapplied_entries = dict(event.entering)
                progress.leaving.update(leaving)
                # The seed keeps no guidance between passes: each pass rebuilds it.
                record.guidance = DirectorGuidance(
                    overall=decision.open_guidance if decision is not None else "",
                    per_character={turn.name: turn.guidance for turn in turns},
                )
            case ev.CharacterCompleted(name=name, ended=ended, text=text, character_id=agent):
                current = progress.current_pass
                if current is not None and name not in current.done:
                    current.done.append(name)
                # A skipped turn ran no agent (older logs say "cancelled"): it is no turn had.
                if agent and name not in progress.acted:
                    progress.acted.append(name)
                if ended == "completed" and text.strip():
                    record.messages.append(SceneMessage(speaker=name, text=text))
            case ev.StateUpdated(character=None, changes=changes):
                self.record.world.facts.update(changes)
                if (applied := _applying(progress, event)) is not None:
                    _drop(applied.unapplied_world, changes)
            case ev.StateUpdated(character=name, changes=changes, source=source) if name:
                state = self.record.character(name)
                if state is not None:
                    for key, value in changes.items():
                        setattr(state, key, value)
                if source == "director":
                    progress.director_set.setdefault(name, set()).update(changes)
                if (applied := _applying(progress, event)) is not None:
                    left = applied.unapplied_state.get(name, {})
                    _drop(left, changes)
                    if not left:
                        applied.unapplied_state.pop(name, None)
            case ev.CharacterActivated(name=name, director_pass=number):
                state = self.record.character(name)
                if state is not None:
                    state.active = True
                current = progress.current_pass
                if current is not None and current.number == number:
                    current.unapplied_entries.pop(name, None)
                if name not in progress.entered:
                    progress.entered.append(name)
            case ev.CharacterDeactivated(name=name):
                state = self.record.character(name)
                if state is not None:
                    state.active = False
                progress.leaving.pop(name, None)
                if name not in progress.exited:
                    progress.exited.append(name)
            case ev.RoundCompleted(ended=ended, running_summary=summary):
                progress.ended = ended
                record.closed = True
                self.record.running_summary = summary
            case ev.CharacterStarted(name=name, character_id=agent, context=context):
                self.character_agents[agent] = name  # the turn itself is known from the pass
                self._record_context(name, event.round, context)
            case _:
                pass  # round:start: handled above

    def _record_context(self, recipient: str, number: int, context: ev.ContextUsage) -> None:
        if context:  # older logs carry none
            # The events name the sections as the envelope did (settings.Section).
            sections = cast("dict[Section, tuple[int, int]]", context)
            budgets = {section: given for section, (given, _) in sections.items()}
            used = {section: spent for section, (_, spent) in sections.items()}
            self.context_usage.record(SectionUsage(recipient, number, budgets, used))

    def _round_started(self, event: ev.RoundStarted) -> None:
        open_round = self.round
        if event.resumed and open_round is not None and open_round.number == event.round:
            open_round.round_id = event.agent_id  # the same round goes on under a new agent
            open_round.events.append(event)
            return
        if event.request == "user_input":
            request = SceneRequest.user_input(event.text)
        else:
            request = SceneRequest.continuation()
        progress = RoundProgress(event.round, request, event.agent_id, events=[event])
        self.rounds.append(progress)
        self.record.rounds.append(RoundRecord(number=event.round, request=request))


def _applying(progress: RoundProgress, event: ev.StateUpdated) -> PassProgress | None:
    """The pass whose decision a director's state update applies, if it is the current one."""
    current = progress.current_pass
    if event.source == "director" and current is not None:
        return current if current.number == event.director_pass else None
    return None


def _drop(unapplied: dict[str, str], changes: dict[str, str]) -> None:
    """Take what `changes` applied out of what is left to apply."""
    for key, value in changes.items():
        if unapplied.get(key) == value:
            del unapplied[key]


def scenes_of(state: RunState) -> dict[str, SceneState]:
    """The run's directed scenes by their root agent, as this module folds them."""
    return cast(dict[str, SceneState], state.scenes)  # every one began with from_event


# Every RunState folds scenes with SceneState from the moment this module is loaded (the state
# sits below core/scene and does not import it; see core/state/scene_fold.py).
register_scene_fold(SceneState.from_event)
