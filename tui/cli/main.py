"""The `agentui` command.

    agentui [TASK]                     open the app (asks for a task when none is given)
    agentui --scene NAME|FILE          play a directed scene in the app (round by round)
    agentui --resume [ID|last] [TASK]  reopen a saved session in the app
    agentui run [--json] TASK          run headless; one JSON event per line with --json
    agentui run --scene NAME|FILE      play a directed scene headless (stdin: each round's input)
    agentui sessions [--json]          list saved sessions
    agentui replay [ID|last] [--speed X]       play a session back, read-only
    agentui export [ID|last] --format md|json|rounds [-o FILE]
    agentui steps [ID|last] [AGENT]    an agent's steps, numbered (AGENT@STEP names one)
    agentui run --resume ID --rewind AGENT@STEP   go on, headless, from an agent's step
    agentui fork ID AGENT@STEP         a new session from an agent's step, run headless
    agentui rerun ID [--model M]       the task again, the person's steers and answers at the same steps
    agentui diff A B [--json]          two runs (or SESSION:AGENT) aligned by step, where they part
    agentui search TEXT [--json]       find TEXT in every saved session's transcripts
    agentui config path|show           where the config file is; every effective setting
    agentui profiles                   the agent profiles, where each came from, bad files
    agentui scenes                     the directed scenes agentui ships
    agentui serve [--port N]           run agents with no screen behind an HTTP + SSE API
    agentui attach URL                 the app on a runtime `agentui serve` runs elsewhere
    agentui web                        the app in a browser (textual-serve), on loopback
    agentui mcp list                   the configured MCP servers, their state and tools
    agentui acp                        agentui as an ACP agent on stdio (Zed, Toad)
    agentui --version

Settings come from the config file, then AGENTUI_* environment variables, then flags (see
core/config/settings.py). Without --provider, the first API key set picks the provider (Anthropic,
OpenAI, Google), else the offline scripted model runs. The app and `run` record a session unless
`--no-session`.

This module reads the command's name and hands the rest to the module of that command (one per
command, in this directory), imported only then: Textual, the runtime and the network doors
load only for the commands that use them, so headless runs and listings start fast.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence

from agentui.tui.cli.early_keys import release_typed_keys
from agentui.tui.cli.gc_policy import start_collecting

# Each command's module is imported by its entry below, when that command runs.


def _run(argv: Sequence[str]) -> int:
    from agentui.tui.cli.run import main as run

    return run(argv)


def _sessions(argv: Sequence[str]) -> int:
    from agentui.tui.cli.sessions import main as sessions

    return sessions(argv)


def _replay(argv: Sequence[str]) -> int:
    from agentui.tui.cli.replay import main as replay

    return replay(argv)


def _export(argv: Sequence[str]) -> int:
    from agentui.tui.cli.export import main as export

    return export(argv)


def _steps(argv: Sequence[str]) -> int:
    from agentui.tui.cli.steps import main as steps

    return steps(argv)


def _fork(argv: Sequence[str]) -> int:
    from agentui.tui.cli.fork import main as fork

    return fork(argv)


def _rerun(argv: Sequence[str]) -> int:
    from agentui.tui.cli.rerun import main as rerun

    return rerun(argv)


def _diff(argv: Sequence[str]) -> int:
    from agentui.tui.cli.diff import main as diff

    return diff(argv)


def _search(argv: Sequence[str]) -> int:
    from agentui.tui.cli.search import main as search

    return search(argv)


def _config(argv: Sequence[str]) -> int:
    from agentui.tui.cli.config import main as config

    return config(argv)


def _profiles(argv: Sequence[str]) -> int:
    from agentui.tui.cli.profiles import main as profiles

    return profiles(argv)


def _scenes(argv: Sequence[str]) -> int:
    from agentui.tui.cli.scenes import main as scenes

    return scenes(argv)


def _serve(argv: Sequence[str]) -> int:
    from agentui.tui.cli.serve import main as serve

    return serve(argv)


def _attach(argv: Sequence[str]) -> int:
    from agentui.tui.cli.attach import main as attach

    return attach(argv)


def _web(argv: Sequence[str]) -> int:
    from agentui.tui.cli.web import main as web

    return web(argv)


def _mcp(argv: Sequence[str]) -> int:
    from agentui.tui.cli.mcp import main as mcp

    return mcp(argv)


def _acp(argv: Sequence[str]) -> int:
    from agentui.tui.cli.acp import main as acp

    return acp(argv)


COMMANDS: dict[str, Callable[[Sequence[str]], int]] = {
    "run": _run,
    "sessions": _sessions,
    "replay": _replay,
    "export": _export,
    "steps": _steps,
    "fork": _fork,
    "rerun": _rerun,
    "diff": _diff,
    "search": _search,
    "config": _config,
    "profiles": _profiles,
    "scenes": _scenes,
    "serve": _serve,
    "attach": _attach,
    "web": _web,
    "mcp": _mcp,
    "acp": _acp,
}
# Commands that open a screen in this terminal.
_SCREEN_COMMANDS = frozenset({"attach", "replay"})


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command = COMMANDS.get(argv[0]) if argv else None
    if command is None:
        from agentui.tui.cli.app_command import main as app

        return app(argv, list(COMMANDS))
    if argv[0] != "attach":  # the app turns the collector on once its runtime runs
        start_collecting()
    if argv[0] not in _SCREEN_COMMANDS:
        release_typed_keys()  # echo back: `run` may read the person's answers
    try:
        return command(argv[1:])
    except BrokenPipeError:
        # The reader went away (`agentui sessions | head -1`): stop quietly, and keep
        # Python from failing again when it flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
