"""What every `agentui` command loads before doing anything: the cli module and its parser only.

The runtime and its assembly, sessions' resume and export, the headless printer, the app and
Textual, and the Claude SDK are loaded by the command that uses them. A fresh interpreter is
asked, so nothing loaded by other tests counts.
"""

from __future__ import annotations

import json
import subprocess
import sys

LOADED_BY_THEIR_COMMAND = (
    "agentui.core.runtime",
    "agentui.tui.assemble",
    "agentui.core.session.resume",
    "agentui.core.session.export",
    "agentui.core.session.writer",
    "agentui.tui.headless",
    "agentui.tui.app",
    "agentui.core.monologue.service",
    "agentui.core.tools.builtin",
    "textual",
    "anthropic",
)

PROBE = """
import json, sys
from agentui.tui import cli
cli._app_parser().parse_args(["--no-session", "a task"])
cli._run_parser().parse_args(["a task"])
print(json.dumps(sorted(sys.modules)))
"""


def test_the_cli_and_its_parsers_load_no_command_of_their_own() -> None:
    out = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=60
    )
    loaded = set(json.loads(out.stdout))
    assert "agentui.tui.cli" in loaded
    assert [name for name in LOADED_BY_THEIR_COMMAND if name in loaded] == []


def test_importing_one_session_module_does_not_load_the_others() -> None:
    probe = "import json, sys; import agentui.core.session.errors; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    loaded = set(json.loads(out.stdout))
    session = sorted(m for m in loaded if m.startswith("agentui.core.session."))
    assert session == ["agentui.core.session.errors"]
