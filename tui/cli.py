"""The `agentui` command.

    agentui [TASK]                     open the app (asks for a task when none is given)
    agentui run [--json] TASK          run headless; one JSON event per line with --json
    agentui --version

The model is Claude when ANTHROPIC_API_KEY is set, else the offline scripted model;
`--provider` chooses. Textual is imported only when the app opens, so headless runs start fast.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

import anyio
from agentui.core import __version__
from agentui.core.errors import AgentUIError
from agentui.core.headless import run_headless
from agentui.core.limits import Limits
from agentui.core.monologue.config import MonologueConfig
from agentui.core.providers.claude_defaults import (
    DEFAULT_MODEL,
    DEFAULT_NARRATOR_MODEL,
    DEFAULT_THINKING_BUDGET,
    DEFAULT_TIMEOUT_S,
    MIN_THINKING_BUDGET,
    resolve_model,
)
from agentui.core.providers.factory import default_provider_name, make_provider
from agentui.core.runtime import Runtime

NO_KEY_NOTICE = "ANTHROPIC_API_KEY is not set: running on the offline scripted model"


def _thinking_budget(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value != 0 and value < MIN_THINKING_BUDGET:
        raise argparse.ArgumentTypeError(
            f"at least {MIN_THINKING_BUDGET} tokens, or 0 for no thinking (got {value})"
        )
    return value


def _positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be more than 0 (got {text})")
    return value


def _add_provider_options(parser: argparse.ArgumentParser, *, default_pace: float) -> None:
    model = parser.add_argument_group("model")
    model.add_argument(
        "--provider",
        metavar="NAME",
        help="scripted, anthropic, or replay:DIR "
        "(default: anthropic when ANTHROPIC_API_KEY is set, else scripted)",
    )
    model.add_argument(
        "--model",
        metavar="ID",
        help=f"model id, or haiku / sonnet / opus (default on Claude: {DEFAULT_MODEL})",
    )
    model.add_argument(
        "--narrator-model",
        metavar="ID",
        help=f"model that writes the monologue (default on Claude: {DEFAULT_NARRATOR_MODEL})",
    )
    model.add_argument(
        "--thinking-budget",
        type=_thinking_budget,
        default=DEFAULT_THINKING_BUDGET,
        metavar="TOKENS",
        help="Claude: tokens for thinking, 0 for none: the budget of models before 4.6, "
        f"room on top of the answer's for later ones (default {DEFAULT_THINKING_BUDGET})",
    )
    model.add_argument(
        "--timeout",
        type=_positive_seconds,
        default=DEFAULT_TIMEOUT_S,
        metavar="SECONDS",
        help=f"Claude: longest wait for the API to send more before a request fails "
        f"(default {DEFAULT_TIMEOUT_S:g})",
    )
    model.add_argument(
        "--record",
        metavar="DIR",
        help="save every model exchange as a JSON file in DIR (play back: --provider replay:DIR)",
    )
    scripted = parser.add_argument_group("offline scripted model")
    scripted.add_argument("--script", metavar="FILE", help="play this JSON/TOML script")
    scripted.add_argument(
        "--pace",
        type=float,
        default=default_pace,
        metavar="SECONDS",
        help=f"seconds between streamed chunks (default {default_pace:g})",
    )
    limits = parser.add_argument_group("limits")
    limits.add_argument("--max-iterations", type=int, default=Limits().max_iterations, metavar="N")
    limits.add_argument(
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
    parser.add_argument(
        "--no-monologue",
        action="store_true",
        help="do not narrate the agents' work in the sidebar (it is on by default)",
    )
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
    parser.add_argument(
        "--monologue",
        action="store_true",
        help="also narrate the agents' work (monologue events; on stderr without --json)",
    )
    _add_provider_options(parser, default_pace=0.0)
    return parser


def _settle_provider(args: argparse.Namespace) -> str | None:
    """Fill in the provider and narrator model the options left open; return a notice to show.

    A script file means the scripted model. The narrator model is only stored here: the
    monologue service reads it from `args.narrator_model`.
    """
    notice = None
    if args.provider is None:
        args.provider = "scripted" if args.script else default_provider_name(os.environ)
        if args.provider == "scripted" and not args.script:
            notice = NO_KEY_NOTICE
    if args.narrator_model is not None:
        args.narrator_model = resolve_model(args.narrator_model)
    elif args.provider == "anthropic":
        args.narrator_model = DEFAULT_NARRATOR_MODEL
    return notice


def _runtime_factory(args: argparse.Namespace) -> Runtime:
    provider = make_provider(
        args.provider,
        model=args.model,
        script=args.script,
        pace_s=args.pace,
        thinking_budget=args.thinking_budget,
        timeout_s=args.timeout,
        record=args.record,
    )
    limits = Limits(max_iterations=args.max_iterations, tool_timeout_s=args.tool_timeout)
    return Runtime(provider, limits=limits)


def _monologue_config(args: argparse.Namespace, *, enabled: bool) -> MonologueConfig:
    if args.narrator_model is None:
        return MonologueConfig(enabled=enabled)
    return MonologueConfig(enabled=enabled, model=args.narrator_model)


def _run(argv: Sequence[str]) -> int:
    args = _run_parser().parse_args(argv)
    notice = _settle_provider(args)
    try:
        _runtime_factory(args)  # fail fast on a bad script or option, before anything prints
        if notice:
            print(f"agentui: {notice}", file=sys.stderr)
        return anyio.run(
            lambda: run_headless(
                lambda: _runtime_factory(args),
                args.task,
                json_output=args.json,
                answers=args.answer,
                monologue=_monologue_config(args, enabled=args.monologue),
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
    notice = _settle_provider(args)  # the status bar says when the offline model runs
    try:
        _runtime_factory(args)
    except AgentUIError as exc:
        print(f"agentui: {exc}", file=sys.stderr)
        return 2
    from .app import AgentUIApp  # Textual loads only for the app

    app = AgentUIApp(
        runtime_factory=lambda: _runtime_factory(args),
        initial_task=args.task,
        notice="offline scripted model (no ANTHROPIC_API_KEY)" if notice else "",
        monologue=_monologue_config(args, enabled=not args.no_monologue),
    )
    app.run()
    return app.return_code or 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "run":
        return _run(argv[1:])
    return _app(argv)


if __name__ == "__main__":
    sys.exit(main())
