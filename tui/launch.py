"""The `agentui` executable's first code: the garbage collector waits until start-up is over.

Starting makes ~300k objects that live as long as the process (modules, classes, pydantic's
validators, Textual's styles and widgets), and the collector walked them again and again while
they were made: ~55 ms of a 0.32 s start to the app's first frame. It is paused here, before
anything else is imported, and comes back once the command has started (the app: once its
runtime runs), with what start-up made frozen out of its way (see gc_policy.py).
"""

from __future__ import annotations

import gc


def main() -> int:
    gc.disable()
    from .cli import main as run_command

    return run_command()
