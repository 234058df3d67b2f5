"""The fold of a directed scene, as the run's fold (RunState) sees it: registered by core/scene.

A scene's state (its world, characters and rounds) is core/scene's business, and core/scene
sits above the state: it drives a runtime and reads the fold. So RunState does not import it;
scene_state.py registers its fold here when it is loaded. Until then RunState keeps the scene
events it meets, and folds them once a fold is registered (a log replayed before anything
loaded core/scene loses nothing).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from agentui.core.protocol import events as ev

# The events of a scene's rounds: each is its round's node's, and the scene is that node's
# parent (the scene's root).
SceneEvent = (
    ev.RoundStarted
    | ev.DirectorPassStarted
    | ev.DirectorPassCompleted
    | ev.CharacterStarted
    | ev.CharacterCompleted
    | ev.StateUpdated
    | ev.CharacterActivated
    | ev.CharacterDeactivated
    | ev.RoundCompleted
)


class SceneFold(Protocol):
    """One scene's state, changed by its rounds' events (core/scene/scene_state.SceneState)."""

    def apply(self, event: SceneEvent) -> None: ...


F = TypeVar("F", bound=SceneFold)

# What a `scene:start` begins: the scene's fold, given the fold of the scene it continues.
SceneFoldFactory = Callable[[ev.SceneStarted, Any], SceneFold]

_registered: SceneFoldFactory | None = None


def register_scene_fold(factory: Callable[[ev.SceneStarted, F | None], F]) -> None:
    """Fold every scene from now on with `factory` (core/scene registers SceneState's)."""
    global _registered
    _registered = factory


def scene_fold_factory() -> SceneFoldFactory | None:
    """The registered fold; None while core/scene is not loaded."""
    return _registered
