"""`agentui run` and the other commands start without Textual or the anthropic SDK: they load
only when a screen opens or Claude is asked."""

from __future__ import annotations

import subprocess
import sys

IMPORT_COMMAND_LINE = """
import sys
import agentui.tui.cli.assemble, agentui.tui.cli.main, agentui.tui.headless.run
heavy = sorted({m.split(".")[0] for m in sys.modules} & {"textual", "anthropic"})
print(" ".join(heavy))
"""


def test_the_command_line_and_headless_mode_load_neither_textual_nor_the_sdk() -> None:
    done = subprocess.run(
        [sys.executable, "-c", IMPORT_COMMAND_LINE], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""
