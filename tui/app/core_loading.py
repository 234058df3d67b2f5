"""The runtime's modules, imported in a thread while the first frame is on screen.

Imported on the event loop (by the runtime factory) they would hold every key typed in that
moment: a letter typed at the first frame would show only once the import ended. In a thread the loop keeps
running between the import's GIL slices. A module left out of the list still loads, on the
loop, when the runtime needs it (tests/tui/test_start_loads_little.py keeps the list whole).
"""

from __future__ import annotations

import importlib

RUNTIME_MODULES = (
    "agentui.core.state",
    "agentui.core.runtime",
    "agentui.core.session.recording",
    "agentui.core.tools.builtin",
    "agentui.core.profiles.catalog",
    "agentui.core.workflow.six_step",
    "agentui.core.monologue.attach",
    "agentui.core.monologue.service",
    "agentui.core.attention.stall_watch",
)


def import_runtime_modules() -> None:
    for name in RUNTIME_MODULES:
        importlib.import_module(name)
