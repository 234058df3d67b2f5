"""An app run in this terminal (`agentui`, `attach`, `replay`): started once what it reads
before the screen is good, and what is said on the shell once it ends."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from agentui.core.support.errors import AgentUIError
from agentui.tui.cli.early_keys import take_typed_keys, typed_lines
from agentui.tui.cli.options import fail

if TYPE_CHECKING:
    from agentui.tui.app.app import AgentUIApp


def run_app(build: Callable[[argparse.Namespace], AgentUIApp], args: argparse.Namespace) -> int:
    from agentui.tui.app.terminal_watch import served_to_a_browser
    from agentui.tui.cli.app_terminal import missing_terminal
    from agentui.tui.cli.terminal_size import use_the_terminals_own_size

    try:
        app = build(args)  # reads what is said before the screen: a bad one comes first
    except AgentUIError as exc:
        return _fail_keeping_words(str(exc), [])
    if (no_terminal := missing_terminal()) is not None:
        # Before anything starts; a bad setting (checked after the first frame) is said
        # instead, as it would have been first with a terminal.
        return fail(app.host.settings_problem() or no_terminal)
    if not served_to_a_browser():  # textual-serve's COLUMNS is the tab's size
        use_the_terminals_own_size()
    from agentui.core.support.termination import end_on_termination_signals
    from agentui.tui.app.terminal_watch import exit_when_the_app_is_cut_off

    # SIGTERM: quit in order, as the Quit dialog does; SIGHUP (the terminal is gone): exit.
    end_on_termination_signals(app.stop_in_order, exit_on_hangup=True)
    exit_when_the_app_is_cut_off()  # also when SIGHUP's handler cannot run, and under `web`
    app.run()
    start_error = app.start_failure.why or app.host.settings_problem()
    if start_error is not None:
        return _fail_keeping_words(start_error, unsent_words(app))
    say_where_the_session_is(app)
    return app.return_code or 0


def unsent_words(app: AgentUIApp) -> list[str]:
    """What was typed for the runtime that never started: tasks sent before it, then the
    prompt's words (not stripped: keys typed after the app ended may continue them)."""
    return [*app.host.unsent_words(), app.main.prompt_view.value]  # a paste whole


def _fail_keeping_words(message: str, unsent: list[str]) -> int:
    """The app could not start: `message`, then what the person typed for it, none of it run:
    `unsent` (the app's words) continued by keys it never read, taken from the terminal so
    that they do not run in the shell once agentui has ended."""
    later = typed_lines(take_typed_keys())
    if unsent:
        later[0] = unsent.pop() + later[0]
    words = [" ".join(line.split()) for line in [*unsent, *later]]
    return fail("\n".join([message, *(f"not sent: {line}" for line in words if line)]))


def say_where_the_session_is(app: AgentUIApp) -> None:
    """After the screen is gone: which session this was, and how to open it again."""
    from agentui.tui.app.runtime_host import AttachedHost

    if isinstance(app.host, AttachedHost):
        print(
            f"agentui: detached; the agents run on at {app.host.address} "
            f"(`agentui attach {app.host.address}` reopens them)",
            file=sys.stderr,
        )
        return
    from agentui.core.session.writer import SessionWriter  # loaded with the runtime already
    from agentui.tui.cli.session_outcome import what_was_saved

    session = getattr(app.host.runtime, "session", None)
    if isinstance(session, SessionWriter) and app.main.model.agents:
        said = what_was_saved(session)
        if said is not None:
            print(f"agentui: {said}", file=sys.stderr)
