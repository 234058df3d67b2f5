"""One round of a directed scene: Director -> Characters -> Director.

    the person's input (or a continuation)
    -> director pass 1: who acts (guidance, priority), who enters or leaves, state updates
    -> the updates and activations applied (the director wins; a resumed round applies what
       a crash left unapplied)
    -> the characters act in the director's order, each with its guidance and the envelope;
       state changes inferred from each turn; who has acted, entered and left is tracked
    -> director pass 2 (reconciliation), when an active character has not acted yet: who still
       acts, who enters; its turns are played (options.max_director_passes: 2 at most)
    -> the world agent, when the scene turns it on
    -> the round closes: the running summary is updated

The round is an agent of its own (a driven one: this code runs it), a child of the scene's
root; the director and the characters are real agents under it, so the person can pause,
steer, modify or delete each (deleting a character's agent, in its turn or later, takes the
character out of the scene: deletions.py), or rewind it until the round has recorded its turn
(the round then takes its next run's line; once recorded, the round keeps the line and a
rewind is refused in words: a fork from the step runs beside the scene). The round
changes the scene only through events (SceneState folds them, as every front end does), so a
round cut short by the session's end goes on from its events when the session is resumed.
"""

from __future__ import annotations

from typing import Any, TypeVar

import anyio
from pydantic import ValidationError

from agentui.core.agent.agent_run import AgentRun
from agentui.core.agent.tree import AgentNode
from agentui.core.protocol import events as ev
from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.protocol.director_payloads import DirectorDecision, PlannedTurn, WorldUpdate
from agentui.core.runtime import Runtime
from agentui.core.scene.builder import build_envelope
from agentui.core.scene.cue import scene_cue
from agentui.core.scene.deletions import PersonDeletes
from agentui.core.scene.envelope import Persona, Recipient
from agentui.core.scene.inference import infer_changes
from agentui.core.scene.reconciliation import inferred_changes
from agentui.core.scene.render import render_envelope
from agentui.core.scene.round_prompts import character_task, director_task, world_task
from agentui.core.scene.running_summary import updated_summary
from agentui.core.scene.scene_loading import LoadedScene
from agentui.core.scene.scene_state import PassProgress, RoundProgress, SceneState
from agentui.core.scene.services import EnvelopeServices
from agentui.core.scene.vetting import vet_decision
from agentui.core.support.errors import DriverError

STOPPED = (AgentStatus.CANCELLED, AgentStatus.DELETED)
# An event a round emits: the scene's state folds each (SceneState.apply).
S = TypeVar("S", bound=ev.SceneEvent)


class RoundRunner:
    """Plays one round; the driver of the round's agent."""

    kind = "round"

    def __init__(
        self,
        runtime: Runtime,
        scene: LoadedScene,
        state: SceneState,
        services: EnvelopeServices,
        start: dict[str, Any],
        deletes: PersonDeletes,
    ) -> None:
        """`start`: the round:start fields (round, request, text, resumed) it opens with;
        `deletes`: the person's deletes of the scene's character agents, as they come."""
        self._runtime = runtime
        self._scene = scene
        self._state = state
        self._services = services
        self._start = start
        self._deletes = deletes
        self._run: AgentRun | None = None
        self._names: set[str] = set()
        # The characters whose turn it has recorded (agent id: name, round): a rewind of one
        # is refused from then on (rewind_refused).
        self._recorded: dict[str, tuple[str, int]] = {}

    # -- the round ---------------------------------------------------------------------------

    async def drive(self, run: AgentRun) -> str:
        self._run = run
        await self._emit(ev.RoundStarted, **self._start)
        progress = self._progress()
        try:
            ended, error = await self._play(progress)
        except anyio.get_cancelled_exc_class():
            # Stopped by the person (the round or the scene): the round closes as it is. At
            # shutdown it stays open, and a resumed session plays it on.
            if not self._runtime.closing:
                reason = run.stop.reason if run.stop is not None else "stopped"
                with anyio.CancelScope(shield=True):
                    await self._close(progress, "stopped", reason, now=True)
            raise
        except Exception as exc:  # a bug: the round closes, so the scene can go on
            with anyio.CancelScope(shield=True):
                await self._close(progress, "failed", f"{type(exc).__name__}: {exc}", now=True)
            raise
        await self._close(progress, ended, error)
        if ended == "failed":
            raise DriverError("director", f"round {progress.number}: {error}")
        return _outcome(progress)

    def rewind_refused(self, agent_id: str) -> str | None:
        """A character whose turn this round has recorded keeps its line in the round: a
        rewind would run it on outside the round, so it is refused (steps.KeepsResults)."""
        recorded = self._recorded.get(agent_id)
        if recorded is None:
            return None
        name, number = recorded
        return (
            f"{name}'s turn is recorded in round {number}, which keeps its line: a rewound "
            f"{name} would run on outside the round. Fork from the step instead: it runs "
            "beside the scene"
        )

    def _progress(self) -> RoundProgress:
        progress = self._state.round
        assert progress is not None  # round:start opened it
        return progress

    async def _play(self, progress: RoundProgress) -> tuple[ev.RoundEnd, str | None]:
        limit = self._scene.file.options.max_director_passes
        while True:
            await self._take_out_deleted()
            current = progress.current_pass
            if current is not None and current.answered and current.decision_made:
                await self._apply_decision(current)
                for turn in current.remaining():
                    await self._act(turn, current.number)
                number = current.number + 1
            else:  # no pass yet, or one the session's end cut short: (re)play it
                number = current.number if current is not None else 1
            if number > limit or (number > 1 and not self._someone_has_not_acted(progress)):
                break
            outcome = await self._director_pass(number)
            if outcome is not None:
                return outcome
        if self._scene.world is not None:
            await self._world_pass(progress)
        return "closed", None

    def _someone_has_not_acted(self, progress: RoundProgress) -> bool:
        """The seed's condition for reconciling: an active character has not acted yet."""
        return any(c.active and c.name not in progress.acted for c in self._state.record.characters)

    # -- the director ------------------------------------------------------------------------

    async def _director_pass(self, number: int) -> tuple[ev.RoundEnd, str] | None:
        """Run the director's pass and apply its decision; the round's end if it gave none."""
        state, progress = self._state, self._progress()
        envelope, context = await self._envelope(Recipient.director())
        director_id = self._start_agent(
            director_task(progress.number, number, envelope),
            "director" if number == 1 else f"director-{number}",
            self._scene.director,
            scene_cue(state, "director", director_pass=number),
        )
        await self._emit(
            ev.DirectorPassStarted, round=progress.number, director_pass=number,
            director_id=director_id, context=context,
        )  # fmt: skip
        node = await self._ended(director_id)
        decision, error = self._decision_of(node)
        if decision is None:
            await self._emit(
                ev.DirectorPassCompleted, round=progress.number, director_pass=number,
                director_id=director_id, error=error,
            )  # fmt: skip
            stopped = node.status in STOPPED
            return ("stopped" if stopped else "failed"), f"director pass {number}: {error}"
        vetted = vet_decision(decision, state.record)
        await self._emit(
            ev.DirectorPassCompleted, round=progress.number, director_pass=number,
            director_id=director_id, decision=decision, turns=vetted.turns,
            leaving=vetted.deactivations, ignored=vetted.ignored,
            state_changes=vetted.state_changes, world_changes=vetted.world_changes,
            entering=vetted.activations,
        )  # fmt: skip
        return None  # _play applies the decision, then plays its turns

    async def _apply_decision(self, current: PassProgress) -> None:
        """The director wins: its updates and entries apply before anyone acts. What the pass
        decided is in its director:complete; the fold drops each part as its event applies it,
        so a round resumed after a crash in between applies only what is left."""
        round_number = self._progress().number
        for name, changes in list(current.unapplied_state.items()):
            await self._emit(
                ev.StateUpdated, round=round_number, character=name, changes=dict(changes),
                source="director", director_pass=current.number,
            )  # fmt: skip
        if current.unapplied_world:
            await self._emit(
                ev.StateUpdated, round=round_number, character=None,
                changes=dict(current.unapplied_world), source="director",
                director_pass=current.number,
            )  # fmt: skip
        for name, entry in list(current.unapplied_entries.items()):
            await self._emit(
                ev.CharacterActivated, round=round_number, director_pass=current.number,
                name=name, entry_guidance=entry,
            )  # fmt: skip

    def _decision_of(self, node: AgentNode) -> tuple[DirectorDecision | None, str]:
        if node.status is not AgentStatus.COMPLETED:
            what = "stopped by the person" if node.status in STOPPED else "failed"
            return None, f"the director {what}: {node.error or node.status.value}"
        try:
            return DirectorDecision.model_validate(self._runtime.payload(node.id)), ""
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or "$"
            return (
                None,
                f"the director's answer is not a director's decision: {where}: {first['msg']}",
            )

    # -- the characters ----------------------------------------------------------------------

    async def _act(self, turn: PlannedTurn, director_pass: int) -> None:
        await self._take_out_deleted()
        state, progress, name = self._state, self._progress(), turn.name
        character = state.record.character(name)
        if character is None or not character.active:
            # Taken out of the scene since the director planned the turn (the person deleted it).
            await self._emit(
                ev.CharacterCompleted, round=progress.number, director_pass=director_pass,
                name=name, character_id="", ended="skipped", error="no longer in the scene",
            )  # fmt: skip
            return
        entry = state.file.entry(name)
        envelope, context = await self._envelope(
            Recipient.for_character(name), Persona(name=name, description=entry.persona)
        )
        character_id = self._start_agent(
            character_task(name, progress.number, turn.guidance, envelope),
            name,
            self._scene.characters[name],
            scene_cue(
                state, "character", speaker=name, persona=entry.persona, guidance=turn.guidance
            ),
        )
        await self._emit(
            ev.CharacterStarted, round=progress.number, director_pass=director_pass, name=name,
            character_id=character_id, guidance=turn.guidance, context=context,
        )  # fmt: skip
        node = await self._ended(character_id)
        self._recorded[character_id] = (name, progress.number)  # before any await: recorded
        ended = _turn_end(node.status)
        text = (node.result or "") if ended == "completed" else ""
        await self._emit(
            ev.CharacterCompleted, round=progress.number, director_pass=director_pass,
            name=name, character_id=character_id, ended=ended, text=text, error=node.error,
        )  # fmt: skip
        if text:
            changes = inferred_changes(
                infer_changes(text), character, progress.director_set.get(name, set())
            )
            if changes:
                await self._emit(
                    ev.StateUpdated, round=progress.number, character=name, changes=changes,
                    source="inferred",
                )  # fmt: skip
        if ended == "deleted":
            await self._emit(
                ev.CharacterDeactivated, round=progress.number, director_pass=director_pass,
                name=name, by="person",
            )  # fmt: skip
        elif name in progress.leaving:
            await self._emit(
                ev.CharacterDeactivated, round=progress.number, director_pass=director_pass,
                name=name, exit_guidance=progress.leaving[name],
            )  # fmt: skip

    async def _take_out_deleted(self) -> None:
        """Deleting a character's agent takes the character out of the scene, whenever the
        person did it (one in its own turn is taken out as its turn ends)."""
        progress = self._progress()
        current = progress.current_pass
        for name in self._deletes.characters_taken_out(self._state):
            await self._emit(
                ev.CharacterDeactivated, round=progress.number,
                director_pass=current.number if current is not None else 0, name=name,
                by="person",
            )  # fmt: skip

    # -- the world ---------------------------------------------------------------------------

    async def _world_pass(self, progress: RoundProgress) -> None:
        profile = self._scene.world
        assert profile is not None
        envelope, _ = await self._envelope(Recipient.world())  # no event records its usage
        world_id = self._start_agent(
            world_task(progress.number, envelope), "world", profile, scene_cue(self._state, "world")
        )
        node = await self._ended(world_id)
        if node.status is not AgentStatus.COMPLETED:
            return  # its node shows why; the world stays as the director left it
        payload = self._runtime.payload(world_id)
        raw = payload.get("world_updates", []) if isinstance(payload, dict) else []
        facts = self._state.record.world.facts
        changes: dict[str, str] = {}
        for item in raw:
            try:
                update = WorldUpdate.model_validate(item)
            except ValidationError:
                continue  # a scene's own world schema may list other things
            change = update.change()
            if change is not None and facts.get(change[0]) != change[1]:
                changes[change[0]] = change[1]
        if changes:
            await self._emit(
                ev.StateUpdated, round=progress.number, character=None, changes=changes,
                source="world",
            )  # fmt: skip

    # -- closing -----------------------------------------------------------------------------

    async def _close(
        self, progress: RoundProgress, ended: ev.RoundEnd, error: str | None, *, now: bool = False
    ) -> None:
        record = self._state.record.current_round
        assert record is not None
        summary = await updated_summary(
            self._state.record.running_summary, record, self._services.summariser
        )
        fields = {
            "round": progress.number,
            "ended": ended,
            "director_passes": len(progress.passes),
            "acted": list(progress.acted),
            "entered": list(progress.entered),
            "exited": list(progress.exited),
            "running_summary": summary,
            "error": error,
        }
        if now:  # stopping: past the pause gate, as a cancelled agent's last events are
            assert self._run is not None
            event = self._run.shared.bus.emit(ev.RoundCompleted, self._run.agent_id, **fields)
            self._state.apply(event)
        else:
            await self._emit(ev.RoundCompleted, **fields)

    # -- helpers -----------------------------------------------------------------------------

    async def _emit(self, cls: type[S], **fields: Any) -> S:
        assert self._run is not None
        event = await self._run.emit(cls, **fields)
        self._state.apply(event)
        return event

    async def _ended(self, agent_id: str) -> AgentNode:
        """The agent once its run has ended, as the round records it. A paused round waits
        at its gate before it records: the person may have rewound or continued the agent
        meanwhile, so its next run's outcome is the one to take, not the one set aside."""
        assert self._run is not None
        while True:
            node = await self._runtime.wait(agent_id)
            await self._run.checkpoint()
            if not node.status.is_live:  # no await from here to the round's next event
                return node

    async def _envelope(
        self, recipient: Recipient, persona: Persona | None = None
    ) -> tuple[str, ev.ContextUsage]:
        """The envelope as the agent receives it, and its usage per section."""
        progress = self._progress()
        envelope = await build_envelope(
            self._state.record,
            for_agent=recipient,
            request=progress.request,
            services=self._services,
            persona=persona,
        )
        return render_envelope(envelope), envelope.context_usage()

    def _start_agent(self, task: str, role: str, profile: Any, cue: Any) -> str:
        assert self._run is not None
        base = f"{self._run.node.name}.{role}"
        name, count = base, 1
        while name in self._names:
            count += 1
            name = f"{base}-{count}"
        self._names.add(name)
        return self._runtime.start(
            task, name=name, parent_id=self._run.agent_id, profile=profile, cue=cue
        )


def _turn_end(status: AgentStatus) -> ev.CharacterTurnEnd:
    if status is AgentStatus.COMPLETED:
        return "completed"
    if status is AgentStatus.DELETED:
        return "deleted"
    if status is AgentStatus.CANCELLED:
        return "cancelled"
    return "error"


def _outcome(progress: RoundProgress) -> str:
    """The round's result, as its node shows it."""
    parts = [f"acted: {', '.join(progress.acted)}" if progress.acted else "no one acted"]
    if progress.entered:
        parts.append(f"entered: {', '.join(progress.entered)}")
    if progress.exited:
        parts.append(f"left: {', '.join(progress.exited)}")
    return f"Round {progress.number} {progress.ended or 'closed'}; " + "; ".join(parts)
