"""The fold of a directed scene, as the run's fold (RunState) sees it: registered by core/scene.

A scene's state (its world, characters and rounds) is core/scene's business, and core/scene
sits above the state: it drives a runtime and reads the fold. So RunState does not import it;
scene_state.py registers its fold here when it is loaded. Until then RunState keeps the scene
events it meets, and folds them once a fold is registered (a log replayed before anything
loaded core/scene loses nothing).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from agentui.core.protocol.events_on_use import events_on_first_use

if TYPE_CHECKING:
    from agentui.core.protocol import events as ev
    from agentui.core.protocol.events import SceneEvent
else:
    ev = events_on_first_use(globals())  # the fold's functions load it


class SceneFold(Protocol):
    """One scene's state, changed by its rounds' events (core/scene/scene_state.SceneState)."""

    def apply(self, event: SceneEvent) -> None: ...


F = TypeVar("F", bound=SceneFold)

# What a `scene:start` begins: the scene's fold, given the fold of the scene it continues.
SceneFoldFactory = Callable[["ev.SceneStarted", Any], SceneFold]

_registered: SceneFoldFactory | None = None


def register_scene_fold(factory: Callable[[ev.SceneStarted, F | None], F]) -> None:
    """Fold every scene from now on with `factory` (core/scene registers SceneState's)."""
    global _registered
    _registered = factory


def scene_fold_factory() -> SceneFoldFactory | None:
    """The registered fold; None while core/scene is not loaded."""
    return _registered
