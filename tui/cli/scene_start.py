"""What starts a directed scene in the app or `agentui run` (`--scene NAME|FILE`), or goes on
with the scene a resumed session left unfinished.

The scene is loaded (and every profile it names checked) before anything opens, so a bad
scene is one message and exit status 2; what it returns is called with the runtime once it
runs and gives the scene root's id.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agentui.core.runtime import Runtime
    from agentui.core.scene.settings import SceneSettings
    from agentui.core.state import RunState

SceneStarter = Callable[["Runtime"], str]


def new_scene(reference: str, settings: SceneSettings) -> SceneStarter:
    """Start the scene `reference` names (a shipped scene or a .toml file). Raises
    SceneFileError (an AgentUIError) for a scene that cannot be played."""
    from agentui.core.profiles.catalog import load_catalog
    from agentui.core.scene.scene_loading import load_scene
    from agentui.core.scene.scene_run import start_scene

    scene = load_scene(reference, load_catalog())
    return lambda runtime: start_scene(runtime, scene, settings=settings)


def unfinished_scene_of(state: RunState, settings: SceneSettings) -> SceneStarter | None:
    """Go on with the scene a resumed session left unfinished, if it left one."""
    from agentui.core.scene.scene_run import continue_scene, unfinished_scene

    previous = unfinished_scene(state)
    if previous is None:
        return None
    return lambda runtime: continue_scene(runtime, previous, settings=settings)
