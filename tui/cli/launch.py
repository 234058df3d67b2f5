"""The `agentui` executable's first code: what must happen before anything else is imported.

The garbage collector waits until start-up is over. Starting makes ~300k objects that live as
long as the process (modules, classes, pydantic's validators, Textual's styles and widgets), and
the collector walked them again and again while they were made: ~55 ms of a 0.32 s start to the
app's first frame. It comes back once the command has started (the app: once its runtime runs),
with what start-up made frozen out of its way (see gc_policy.py).

Keys typed meanwhile are not echoed onto the shell's screen (see early_keys.py): importing the
settings alone takes ~90 ms after the person pressed enter.
"""

from __future__ import annotations

import gc
import sys

from agentui.tui.cli.early_keys import hold_typed_keys, release_typed_keys


def main() -> int:
    gc.disable()
    hold_typed_keys()
    try:
        from agentui.tui.cli.main import main as run_command

        return run_command()
    finally:
        release_typed_keys()


if (
    __name__ == "__main__"
):  # `python -m agentui.tui.cli.launch`: how `agentui web` starts each tab's app
    sys.exit(main())
