"""The monologue: a narrator that turns each agent's events into short first-person summaries.

    from agentui.core.monologue import MonologueConfig, attach_monologue

Names are loaded on first use, so reading one piece (say the config) does not load the service
and the runtime it attaches to. NarrativeEntry lives in core/protocol/narrative.py, beside the events
that carry it; it is exported here too.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agentui.core.monologue.action import Action, ActionKind
    from agentui.core.monologue.attach import AttachedMonologue, attach_monologue
    from agentui.core.monologue.callbacks import AgentCallbacks
    from agentui.core.monologue.config import MonologueConfig, MonologueConfigError
    from agentui.core.monologue.decorator import monologue
    from agentui.core.monologue.entry import NarrativeEntry, NarrativeMetadata
    from agentui.core.monologue.narrator import Narration, NarrationAsk, Narrator, NarratorError
    from agentui.core.monologue.service import MonologueService
    from agentui.core.providers.anthropic.defaults import MODEL_ALIASES  # config's, by _EXPORTS

_EXPORTS = {
    "Action": "action",
    "ActionKind": "action",
    "AgentCallbacks": "callbacks",
    "AttachedMonologue": "attach",
    "MODEL_ALIASES": "config",
    "MonologueConfig": "config",
    "MonologueConfigError": "config",
    "MonologueService": "service",
    "Narration": "narrator",
    "NarrationAsk": "narrator",
    "NarrativeEntry": "entry",
    "NarrativeMetadata": "entry",
    "Narrator": "narrator",
    "NarratorError": "narrator",
    "attach_monologue": "attach",
    "monologue": "decorator",
}

__all__ = [
    "MODEL_ALIASES",
    "Action",
    "ActionKind",
    "AgentCallbacks",
    "AttachedMonologue",
    "MonologueConfig",
    "MonologueConfigError",
    "MonologueService",
    "Narration",
    "NarrationAsk",
    "NarrativeEntry",
    "NarrativeMetadata",
    "Narrator",
    "NarratorError",
    "attach_monologue",
    "monologue",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{module}", __name__), name)
