"""The `agentui` command.

    agentui [TASK]                     open the app (asks for a task when none is given)
    agentui run [--json] TASK          run headless; one JSON event per line with --json
    agentui --version

Textual is imported only when the app opens, so headless runs start fast.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import anyio
from agentui.core import __version__
from agentui.core.errors import AgentUIError
from agentui.core.headless import run_headless
from agentui.core.limits import Limits
from agentui.core.providers.factory import PROVIDER_NAMES, make_provider
from agentui.core.runtime import Runtime


def _add_provider_options(parser: argparse.ArgumentParser, *, default_pace: float) -> None:
    parser.add_argument(
        "--provider",
        default="scripted",
        choices=PROVIDER_NAMES,
        help="model backend (default: scripted, offline)",
    )
    parser.add_argument("--model", help="model id for the provider")
    parser.add_argument(
        "--script", metavar="FILE", help="scripted provider: play this JSON/TOML script"
    )
    parser.add_argument(
        "--pace",
        type=float,
        default=default_pace,
        metavar="SECONDS",
        help=f"scripted provider: seconds between streamed chunks (default {default_pace:g})",
    )
    parser.add_argument("--max-iterations", type=int, default=Limits().max_iterations, metavar="N")
    parser.add_argument(
        "--tool-timeout", type=float, default=Limits().tool_timeout_s, metavar="SECONDS"
    )


def _app_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="agentui",
        description="Run and steer trees of LLM agents in your terminal. "
        "`agentui run --help` for the headless mode.",
    )
    parser.add_argument("task", nargs="?", help="the task to start with (asked for when omitted)")
    parser.add_argument("--version", action="version", version=f"agentui {__version__}")
    _add_provider_options(parser, default_pace=0.02)
    return parser


def _run_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="agentui run",
        description="Run one task without the app. Exit status 0 when the root agent completed.",
    )
    parser.add_argument("task", help="the task")
    parser.add_argument("--json", action="store_true", help="print one JSON event per line")
    parser.add_argument(
        "--answer",
        action="append",
        default=[],
        metavar="TEXT",
        help="answer to the next question an agent asks (repeatable); then stdin is read",
    )
    _add_provider_options(parser, default_pace=0.0)
    return parser


def _runtime_factory(args: argparse.Namespace) -> Runtime:
    provider = make_provider(args.provider, model=args.model, script=args.script, pace_s=args.pace)
    limits = Limits(max_iterations=args.max_iterations, tool_timeout_s=args.tool_timeout)
    return Runtime(provider, limits=limits)


def _run(argv: Sequence[str]) -> int:
    args = _run_parser().parse_args(argv)
    try:
        _runtime_factory(args)  # fail fast on a bad script or option, before anything prints
        return anyio.run(
            lambda: run_headless(
                lambda: _runtime_factory(args),
                args.task,
                json_output=args.json,
                answers=args.answer,
                stdin=sys.stdin,
                stdout=sys.stdout,
                stderr=sys.stderr,
            )
        )
    except AgentUIError as exc:
        print(f"agentui: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("agentui: interrupted", file=sys.stderr)
        return 130


def _app(argv: Sequence[str]) -> int:
    args = _app_parser().parse_args(argv)
    try:
        _runtime_factory(args)
    except AgentUIError as exc:
        print(f"agentui: {exc}", file=sys.stderr)
        return 2
    from .app import AgentUIApp  # Textual loads only for the app

    app = AgentUIApp(runtime_factory=lambda: _runtime_factory(args), initial_task=args.task)
    app.run()
    return app.return_code or 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "run":
        return _run(argv[1:])
    return _app(argv)


if __name__ == "__main__":
    sys.exit(main())
