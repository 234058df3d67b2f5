"""The `agentui` executable's first code: what must happen before anything else is imported.

The garbage collector waits until start-up is over. Starting makes hundreds of thousands of
objects that live as long as the process (modules, classes, pydantic's validators, Textual's
styles and widgets), and the collector would walk them again and again while they are made, a
good part of the time to the app's first frame. It comes back once the command has started (the app: once its runtime runs),
with what start-up made frozen out of its way (see gc_policy.py).

Keys typed meanwhile are not echoed onto the shell's screen (see early_keys.py): importing the
settings alone takes long enough for a fast typist.

Threads hand the interpreter over after 1 ms instead of CPython's 5: Textual writes each frame
from its own thread (three writes: the synchronized-output start, the frame, its end), and each
write waits for the event loop to let go of the GIL, up to the switch interval while it goes on
working (another flush, the footer asking its keys again). The shorter interval brings a frame to
the terminal sooner when many agents are live (tests/bench/pty_bench.py --tree-keys measures it,
its `delivery`).
"""

from __future__ import annotations

import gc
import sys

from agentui.tui.cli.early_keys import hold_typed_keys, release_typed_keys

FRAME_HANDOFF_S = 0.001  # the GIL's switch interval (CPython's default is 5 ms)


def main() -> int:
    gc.disable()
    sys.setswitchinterval(FRAME_HANDOFF_S)
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
