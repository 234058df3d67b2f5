"""A directed scene as an agent: its root asks the person for each round and plays it.

    root_id = start_scene(runtime, load_scene("lighthouse", runtime.profiles))

The scene's root is a driven agent (this code runs it, not a model). Before each round it asks
the person what happens next, as a question they answer like any other (kind "scene"): their
words start the round, an empty answer lets the scene continue by itself, and declining (esc in
the app; the end of stdin in `agentui run`) ends the scene. Each round is a child agent
(rounds.py). The root's result is the scene as it was played (scene_text.py).

A resumed session's scene goes on under a new root (`continues` names the old one): its state
carries over from the old root's events, and a round the session's end cut short is played on.
Only a scene the session's end cut short goes on (a crash, or the app quitting): not one the
person ended or cancelled, nor one that failed (`unfinished_scene`).
"""

from __future__ import annotations

from agentui.core.agent.agent_run import AgentRun
from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.protocol.events import SHUTDOWN_REASON, SceneStarted
from agentui.core.runtime import Runtime
from agentui.core.scene.deletions import PersonDeletes
from agentui.core.scene.record import SceneRequest
from agentui.core.scene.round_prompts import next_round_question, round_task
from agentui.core.scene.round_question import QUESTION_KIND
from agentui.core.scene.rounds import RoundRunner
from agentui.core.scene.scene_loading import LoadedScene, resolve_scene
from agentui.core.scene.scene_state import SceneState, scenes_of
from agentui.core.scene.scene_text import scene_text
from agentui.core.scene.services import EnvelopeServices
from agentui.core.scene.settings import SceneSettings
from agentui.core.state import INTERRUPTED, RunState


class SceneDriver:
    kind = "scene"

    def __init__(
        self,
        runtime: Runtime,
        scene: LoadedScene,
        services: EnvelopeServices,
        *,
        previous: SceneState | None = None,
    ) -> None:
        self._runtime = runtime
        self._scene = scene
        self._services = services
        self._previous = previous
        self.state: SceneState | None = None

    async def drive(self, run: AgentRun) -> str:
        started = await run.emit(
            SceneStarted,
            scene=self._scene.file.model_dump(mode="json"),
            source=self._scene.source,
            continues=self._previous.scene_id if self._previous is not None else None,
        )
        state = self.state = SceneState.from_event(started, self._previous)
        deletes = PersonDeletes(self._runtime.subscribe())
        try:
            await self._play(run, state, deletes)
        finally:
            deletes.close()
        return scene_text(state)

    async def _play(self, run: AgentRun, state: SceneState, deletes: PersonDeletes) -> None:
        """Round after round, until the person declines the next one."""
        while True:
            open_round = state.round
            if open_round is not None:  # cut short by the session's end: it goes on
                start = {
                    "round": open_round.number,
                    "request": open_round.request.kind,
                    "text": open_round.request.text,
                    "resumed": True,
                }
                request = open_round.request
            else:
                number = state.next_round_number
                answer = await run.ask_user(
                    next_round_question(number, state.file.title), QUESTION_KIND
                )
                if answer is None:
                    break
                text = answer.strip()
                request = SceneRequest.user_input(text) if text else SceneRequest.continuation()
                start = {"round": number, "request": request.kind, "text": request.text}
            number = int(start["round"])
            round_id = self._runtime.start(
                round_task(number, request),
                name=f"round-{number}",
                parent_id=run.agent_id,
                driver=RoundRunner(
                    self._runtime, self._scene, state, self._services, start, deletes
                ),
            )
            await self._runtime.wait(round_id)


def start_scene(
    runtime: Runtime,
    scene: LoadedScene,
    *,
    settings: SceneSettings | None = None,
    previous: SceneState | None = None,
) -> str:
    """Start the scene's root agent; its id. `previous`: the scene a resumed session left."""
    services = EnvelopeServices(settings=settings if settings is not None else SceneSettings())
    driver = SceneDriver(runtime, scene, services, previous=previous)
    name = _root_name(scene) + ("-resumed" if previous is not None else "")
    return runtime.start(scene.file.title, name=name, driver=driver)


def unfinished_scene(state: RunState) -> SceneState | None:
    """The scene a resumed session left unfinished: its newest scene, when its root was still
    live as the log ended (a crash; a resume's plan cancels it as interrupted) or the runtime's
    shutdown stopped it (the app quit). One the person ended (declined, cancelled or deleted)
    or that failed stays ended."""
    scenes = scenes_of(state)
    if not scenes:
        return None
    root_id, scene = next(reversed(scenes.items()))
    root = state.agents.get(root_id)
    if root is None:
        return None
    if root.status.is_live:
        return scene
    stopped = root.status is AgentStatus.CANCELLED
    return scene if stopped and root.status_reason in (INTERRUPTED, SHUTDOWN_REASON) else None


def continue_scene(
    runtime: Runtime, previous: SceneState, *, settings: SceneSettings | None = None
) -> str:
    """Start a new root that goes on with `previous` (from a resumed session's events), its
    profiles looked up again in the runtime's catalog; its id. SceneFileError if a profile it
    names is gone."""
    scene = resolve_scene(previous.file, previous.source, runtime.profiles)
    return start_scene(runtime, scene, settings=settings, previous=previous)


def _root_name(scene: LoadedScene) -> str:
    """The shipped scene's name, or the file's stem: one word, as agents' names are."""
    stem = scene.source.rsplit("/", 1)[-1].removesuffix(".toml")
    word = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in stem).strip("-")
    return word or "scene"
