"""SceneError: a scene asked for something it does not hold."""

from __future__ import annotations

from agentui.core.support.errors import AgentUIError


class SceneError(AgentUIError):
    """A scene request that cannot be served (an unknown character, say); the message names it."""


class SceneFileError(SceneError):
    """A scene file (or a shipped scene's name) that cannot be used; one message naming the
    file, the field and the path."""
