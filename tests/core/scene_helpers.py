"""Helpers for the directed-scene tests: a scene file, a runtime, and playing answers."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import anyio

from agentui.core.agent.tree import AgentStatus
from agentui.core.profiles.catalog import ProfileCatalog, builtin_profiles
from agentui.core.protocol.events import Event, QueryRaised
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script
from agentui.core.runtime import Runtime
from agentui.core.scene.scene_loading import LoadedScene, resolve_scene, scene_from_text
from agentui.core.scene.scene_run import start_scene
from agentui.core.support.clock import FrozenClock

SAFETY_NET_S = 10  # bounds a hung test; nothing here waits for time to pass

HARBOUR = """
title = "Harbour"
scenario = "A harbour at dusk."

[world]
weather = "fog"

[[characters]]
name = "Mara"
persona = "The harbour master."
location = "the quay"
mood = "calm"
intentions = "close the harbour"

[[characters]]
name = "Tomas"
persona = "A fisherman."
location = "the boat"
mood = "tired"
intentions = "sell the catch"

[[characters]]
name = "Ines"
persona = "A stranger."
location = "the road"
intentions = "find a ship"
active = false
"""


def harbour(extra: str = "", catalog: ProfileCatalog | None = None) -> LoadedScene:
    """The test scene (three characters, Ines waiting), with `extra` TOML appended."""
    file = scene_from_text(HARBOUR + extra, "harbour.toml")
    return resolve_scene(file, "harbour.toml", catalog or ProfileCatalog(builtin_profiles()))


def scene_runtime(script: Script | None = None, **options: Any) -> Runtime:
    """A runtime on the scripted model (its scene demo without a script), frozen clock."""
    options.setdefault("clock", FrozenClock())
    return Runtime(ScriptedProvider(script), **options)


def decision(**parts: Any) -> str:
    """A director's answer: every list empty unless given."""
    value = {
        "acting_characters": [],
        "activations": [],
        "deactivations": [],
        "state_updates": [],
        "world_updates": [],
        "open_guidance": "",
    }
    value.update(parts)
    return json.dumps(value)


def acting(*names: str) -> list[dict[str, Any]]:
    return [{"name": n, "guidance": f"{n}, speak.", "priority": i} for i, n in enumerate(names, 1)]


async def play(
    runtime: Runtime,
    scene: LoadedScene,
    answers: Sequence[str | None],
    react: Callable[[Event], None] | None = None,
) -> tuple[str, list[Event]]:
    """Start the scene and answer its questions in order (None declines: the scene ends);
    the root's id, and every event until the root has ended (each seen by `react` too)."""
    events = runtime.subscribe(maxsize=None)
    root = start_scene(runtime, scene)
    pending = list(answers)
    seen: list[Event] = []
    with anyio.fail_after(SAFETY_NET_S):
        async for event in events:
            seen.append(event)
            if react is not None:
                react(event)
            if isinstance(event, QueryRaised) and event.agent_id == root:
                runtime.answer(event.query_id, pending.pop(0) if pending else None)
            ended = event.type == "agent:status" and AgentStatus(event.new).is_final  # type: ignore[attr-defined]
            if ended and event.agent_id == root:
                break
    return root, seen


def of(events: Sequence[Event], *types: str) -> list[Any]:
    return [e for e in events if e.type in types]
