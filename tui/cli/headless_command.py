"""What every headless command (`agentui run`, its `--rewind`, `fork`, `rerun`) does around its
run: the provider built first (a bad script or option fails fast, before anything runs), its
notice said, each runtime made a recorded one, SIGTERM and SIGHUP ending the run as Ctrl+C does,
an interruption said, and at the end the session's id, or a warning that it could not be
written.
"""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

import anyio

from agentui.core.support.errors import AgentUIError
from agentui.tui.cli.options import fail, warn

if TYPE_CHECKING:
    from agentui.core.runtime import Runtime
    from agentui.tui.cli.assemble import Assembly

RuntimeFactory = Callable[[], "Runtime"]
# The command's own part: its assembly, and its run given a factory of runtimes.
Prepared = tuple["Assembly", Callable[[RuntimeFactory], Awaitable[int]]]


def run_headless_command(prepare: Callable[[], Prepared]) -> int:
    """`prepare()` reads what the command needs (a session, a scene, ...; AgentUIError: said,
    exit 2) and gives its assembly and its run; the exit status is the run's."""
    from agentui.core.session.recording import RecordingRuntime
    from agentui.core.support.termination import end_on_termination_signals, termination_received
    from agentui.tui.cli.assemble import build_provider, build_runtime
    from agentui.tui.cli.session_outcome import what_was_saved

    made: list[Runtime] = []
    try:
        assembly, run = prepare()
        provider = build_provider(assembly)
        if assembly.notice:
            print(f"agentui: {assembly.notice}", file=sys.stderr)

        def make_runtime() -> Runtime:
            runtime = build_runtime(assembly, provider)  # it closes the provider at its end
            made.append(runtime)
            return runtime

        end_on_termination_signals()
        code = anyio.run(run, make_runtime)
    except AgentUIError as exc:
        return fail(str(exc))
    except KeyboardInterrupt:
        print("agentui: interrupted", file=sys.stderr)
        code = 130
    else:
        if termination_received() is not None:
            # The signal killed the python tool's process, and the run ended on that before
            # the interruption reached it: still an interrupted run, as the person asked.
            print("agentui: interrupted", file=sys.stderr)
            code = 130
    # Interrupted too: that is when the id for `--resume` matters most.
    for runtime in made:
        if not isinstance(runtime, RecordingRuntime):
            continue
        if runtime.session.error:
            warn([runtime.session.error])
        elif (news := what_was_saved(runtime.session)) is not None:
            print(f"agentui: {news}", file=sys.stderr)  # as the app says it when it closes
    return code


def read_instructions(path: str) -> str:
    """`--instructions FILE`'s text, or one clear error."""
    try:
        return Path(path).expanduser().read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise AgentUIError(f"cannot read the instructions in {path}: {exc}") from None
