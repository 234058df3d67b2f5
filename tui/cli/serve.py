"""`agentui serve`: run agents with no screen behind the HTTP + SSE API (core/remote).

    agentui serve [--host H] [--port N] [--token-file FILE] [--new-token] [--allow-remote]
                  [--resume [ID]] [--no-monologue] [provider options as `agentui run` has]

It prints one line once it listens (`agentui serve: listening on URL (token in FILE)`) and the
`agentui attach` command to use, then serves until SIGINT, SIGTERM or SIGHUP: the runtime stops
first (its agents are cancelled, the session records their ends), then the server; exit 0. A
second signal does not wait: the sandboxes are killed and the process exits at once.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
from collections.abc import AsyncIterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import anyio

from agentui.core.providers.scripted.defaults import default_pace
from agentui.core.remote.client import DEFAULT_PORT
from agentui.core.support.errors import AgentUIError
from agentui.tui.cli.options import (
    add_provider_options,
    add_resume_option,
    assembly_from,
    fail,
    port_number,
    positive_seconds,
    warn,
)

if TYPE_CHECKING:
    from agentui.core.providers.base import Provider
    from agentui.core.remote.serving import Listener
    from agentui.core.remote.token_file import ServerToken
    from agentui.core.session.resume import ResumePlan
    from agentui.tui.cli.assemble import Assembly

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="agentui serve",
        description="Run agents with no screen behind an HTTP + SSE API (`agentui attach URL` "
        "opens the app on it). Every request needs the token the server writes to its token "
        "file. Stop it with Ctrl+C (or SIGTERM): the agents are cancelled and the session "
        "records it.",
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default 127.0.0.1; anything but loopback needs "
        "--allow-remote)",
    )
    parser.add_argument(
        "--port",
        type=port_number,
        default=DEFAULT_PORT,
        help=f"the port (default {DEFAULT_PORT}; 0 picks a free one, printed at start)",
    )
    add_token_options(parser, clients="screens attached")
    parser.add_argument(
        "--allow-remote",
        action="store_true",
        help="allow a --host other than loopback: whoever reaches it with the token drives "
        "your agents",
    )
    add_resume_option(parser, "continue")
    parser.add_argument(
        "--no-monologue",
        action="store_true",
        help="do not narrate the agents' work (the narrator runs server-side for every viewer)",
    )
    parser.add_argument(
        "--heartbeat",
        type=positive_seconds,
        default=15.0,
        metavar="SECONDS",
        help="send an SSE comment on idle event streams this often (default 15)",
    )
    add_provider_options(parser, default_pace=default_pace())
    return parser


def main(argv: Sequence[str]) -> int:
    args = _parser().parse_args(argv)
    from agentui.core.remote.auth import is_loopback
    from agentui.core.remote.serving import listen
    from agentui.core.remote.token_file import server_token
    from agentui.tui.cli.assemble import build_provider

    if not is_loopback(args.host) and not args.allow_remote:
        return fail(
            f"--host {args.host} is not loopback: anyone who can reach it could try the API. "
            "Give --allow-remote to serve it anyway (the token still guards every request)"
        )
    _quiet_disconnects()
    try:
        assembly = assembly_from(args)
        plan = None
        if args.resume is not None:
            from agentui.core.session.resume import open_for_resume
            from agentui.tui.cli.resume_notice import resume_outcome

            plan = open_for_resume(args.resume)
            warn(plan.log.warnings)
            outcome = resume_outcome(plan, inbox_hint=" (GET /inbox)")
            outcome = f", {outcome}" if outcome else ""
            print(f"agentui serve: resuming session {plan.log.id}{outcome}", file=sys.stderr)
        assembly = replace(assembly, resume=plan)
        provider = build_provider(assembly)  # fails fast on a bad script or option
        token_file = Path(args.token_file).expanduser() if args.token_file else None
        token = server_token(token_file, new=args.new_token)
        if not is_loopback(args.host):
            warn([
                f"serving on {args.host}, beyond this machine: whoever reaches it with the "
                f"token in {token.path} drives these agents (the traffic is not encrypted)"
            ])  # fmt: skip
        listener = listen(args.host, args.port)
        token.save()  # only now: a server that could not listen leaves the file as it was
    except AgentUIError as exc:
        return fail(str(exc))
    tell_of_token(token, "agentui serve")
    if assembly.notice:
        print(f"agentui: {assembly.notice}", file=sys.stderr)
    try:
        return anyio.run(
            _serve, assembly, provider, plan, listener, token.token, token.path, args.heartbeat
        )
    except (AgentUIError, BaseExceptionGroup) as exc:
        problem = _refusal_in(exc)
        if problem is None:
            raise
        return fail(str(problem))
    except KeyboardInterrupt:  # before the loop took the signals over
        return 130


def tell_of_token(token: ServerToken, command: str) -> None:
    """Where the token came from, when that is news: a file's token replaced, or reused."""
    if token.replaced_because is not None:
        warn([f"a new token replaces the one in {token.path}: {token.replaced_because}"])
    elif token.reused:
        print(
            f"{command}: reusing the token in {token.path} (--new-token makes a new one)",
            file=sys.stderr,
        )


def add_token_options(parser: argparse.ArgumentParser, *, clients: str) -> None:
    """--token-file and --new-token, as `agentui serve` and `agentui web` take them."""
    parser.add_argument(
        "--token-file",
        metavar="FILE",
        help="read the token from FILE when it exists (refused when others may read it), "
        "else write a new one there (0600); default: the state directory's serve/token, "
        "whose token is used again at every start",
    )
    parser.add_argument(
        "--new-token",
        action="store_true",
        help=f"make a new token and write it to the token file ({clients} with the old one "
        "are refused); `agentui serve` and `agentui web` share the default file, so this "
        "replaces the other's token too",
    )


def _refusal_in(exc: BaseException) -> AgentUIError | None:
    """The AgentUIError that ended the run (the task groups wrap it), or None when anything
    else took part: that is a bug to show whole."""
    if isinstance(exc, AgentUIError):
        return exc
    if isinstance(exc, BaseExceptionGroup):
        refusals, others = exc.split(AgentUIError)
        if refusals is not None and others is None:
            return _refusal_in(refusals.exceptions[0])
    return None


async def _serve(
    assembly: Assembly,
    provider: Provider,
    plan: ResumePlan | None,
    listener: Listener,
    token: str,
    token_path: Path,
    heartbeat_s: float,
) -> int:
    from agentui.core.monologue.attach import attach_monologue
    from agentui.core.remote.server import ServerOptions
    from agentui.core.remote.serving import served
    from agentui.core.remote.token_file import default_token_path
    from agentui.core.session.recording import RecordingRuntime
    from agentui.tui.cli.assemble import build_runtime, monologue_config

    narrate = assembly.loaded.config.monologue.enabled
    runtime = build_runtime(assembly, provider)  # adopts a resumed session's agents
    for problem in runtime.profiles.problems:
        warn([f"profile skipped: {problem}"])
    options = ServerOptions(token=token, narrator=narrate, heartbeat_s=heartbeat_s)
    stop = anyio.Event()
    with anyio.open_signal_receiver(*STOP_SIGNALS) as signals:
        async with anyio.create_task_group() as watching:
            watching.start_soon(_stop_on_signals, signals, stop)
            history = plan.history if plan is not None else ()
            async with served(runtime, listener, options, history=history):
                if narrate:
                    config = monologue_config(assembly, enabled=True)
                    attach_monologue(runtime, runtime.provider, config)
                print(
                    f"agentui serve: listening on {listener.url} (token in {token_path})",
                    flush=True,
                )
                # The command to copy: it must find this token where it is.
                own_file = (
                    "" if token_path == default_token_path() else f" --token-file {token_path}"
                )
                print(
                    f"agentui serve: open it with: agentui attach {listener.url}{own_file}",
                    flush=True,
                )
                await stop.wait()
                print("agentui serve: stopping the agents, then the server", file=sys.stderr)
            watching.cancel_scope.cancel()
    if isinstance(runtime, RecordingRuntime):
        from agentui.tui.cli.session_outcome import what_was_saved

        # Said as the app says it: not saved, or saved only up to a time (never "saved"
        # after a write failed).
        news = what_was_saved(runtime.session, "agentui serve --resume", "continues")
        if news is not None:
            print(f"agentui serve: {news}", file=sys.stderr)
    return 0


class _DisconnectNoise(logging.Filter):
    """asyncio's note that it wrote to a socket already closed: a viewer that went away
    while a batch of events was on its way to it, which is normal here."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.getMessage() != "socket.send() raised exception."


def _quiet_disconnects() -> None:
    logging.getLogger("asyncio").addFilter(_DisconnectNoise())


async def _stop_on_signals(signals: AsyncIterator[signal.Signals], stop: anyio.Event) -> None:
    """The first signal stops in order; a second does not wait (as core/support/termination.py)."""
    from agentui.core.support.process_guard import stop_every_sandbox

    async for signum in signals:
        stop_every_sandbox()  # the python tools' processes go at once, whatever comes next
        if stop.is_set():
            os._exit(128 + signum)
        stop.set()
