"""`--max-iterations` and `--tool-timeout` say in `agentui --help` what they limit, with the
defaults the limits really have."""

from __future__ import annotations

import pytest

from agentui.core.agent.limits import Limits
from agentui.tui.cli.main import main


@pytest.mark.parametrize("command", [[], ["run"]])
def test_the_limit_options_are_explained(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main([*command, "--help"])
    text = " ".join(capsys.readouterr().out.split())  # argparse wraps at the terminal's width
    limits = Limits()
    assert (
        "--max-iterations N model calls an agent may make while it keeps calling tools "
        f"(default {limits.max_iterations})"
    ) in text
    assert (
        "--tool-timeout SECONDS how long one tool call may run before it is stopped "
        f"(default {limits.tool_timeout_s:g})"
    ) in text
