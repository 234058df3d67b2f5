"""The options and settings the commands share: model, workflow, limits, scripted model,
sessions; and how a command reports a failure or a warning."""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from agentui.core.config.sources import Flag, GatheredSettings, gather_settings
from agentui.core.providers.anthropic.defaults import (
    DEFAULT_MODEL,
    DEFAULT_NARRATOR_MODEL,
    DEFAULT_THINKING_BUDGET,
    DEFAULT_TIMEOUT_S,
    MIN_THINKING_BUDGET,
)
from agentui.core.providers.openai.defaults import DEFAULT_MODEL as OPENAI_DEFAULT_MODEL
from agentui.core.providers.scripted.defaults import PACE_VARIABLE
from agentui.core.session.naming import LAST, sessions_dir
from agentui.core.support.terminal_text import visible_controls

if TYPE_CHECKING:
    from agentui.tui.cli.assemble import Assembly


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


def _budget(text: str) -> dict[str, float]:
    """--budget's LIMITS, checked as the config's [budget] is (argparse says what is wrong)."""
    from agentui.core.agent.budget import Budget  # pydantic: not before the first frame

    try:
        return dict(Budget.parse(text).items())
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def positive_whole_number(text: str) -> int:
    """A count or an event's number: 1 or more."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"at least 1 (got {value})")
    return value


def positive_seconds(text: str) -> float:
    return _seconds_given(text, positive=True)


def _seconds(text: str) -> float:
    return _seconds_given(text, positive=False)


def _seconds_given(text: str, *, positive: bool) -> float:
    """Checked as the settings' numbers are: finite and in range (core/config/settings.py, loaded
    only when such an option is given: it loads pydantic)."""
    from agentui.core.config.settings import PositiveSeconds, Seconds, checked_number

    try:
        return float(checked_number(text, PositiveSeconds if positive else Seconds))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_setting_options(parser: argparse.ArgumentParser) -> None:
    """Options that override a setting of the config file (and its environment variable)."""
    model = parser.add_argument_group("model (override the config file and AGENTUI_* variables)")
    model.add_argument(
        "--provider",
        metavar="NAME",
        help="scripted, anthropic, openai, google, or replay:DIR (default: the provider of "
        "the first key set: ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY or "
        "GOOGLE_API_KEY; else scripted)",
    )
    model.add_argument(
        "--base-url",
        metavar="URL",
        help="the provider's endpoint, e.g. a local OpenAI-compatible server "
        "(http://localhost:11434/v1 for Ollama); default: OPENAI_BASE_URL, "
        "ANTHROPIC_BASE_URL or GOOGLE_GEMINI_BASE_URL, else the public API",
    )
    model.add_argument(
        "--model",
        metavar="ID",
        help=f"model id, or haiku / sonnet / opus (default on Claude: {DEFAULT_MODEL}; on "
        f"OpenAI: {OPENAI_DEFAULT_MODEL}; a local server's model must be named)",
    )
    model.add_argument(
        "--narrator-model",
        metavar="ID",
        help=f"model that writes the monologue (default on Claude: {DEFAULT_NARRATOR_MODEL})",
    )
    steering = parser.add_argument_group("workflow and approvals")
    steering.add_argument(
        "--workflow",
        choices=("six-step", "plain"),
        help="six-step: clarify, ask, split into subagents, work, resolve (default); "
        "plain: the bare agentic loop",
    )
    steering.add_argument(
        "--yes",
        action="store_const",
        const="yes",
        dest="approval_policy",
        help="run tools that need approval (the python tool) without asking",
    )
    parser.add_argument(
        "--budget",
        type=_budget,
        metavar="LIMITS",
        help="what each root agent's subtree may spend before it pauses, e.g. "
        "tokens=50000,usd=2,minutes=30 (also tool_calls, model_calls, children); "
        "overrides the config file's [budget]",
    )
    limits = parser.add_argument_group("limits (override the config file's [limits])")
    limits.add_argument(
        "--max-iterations",
        type=int,
        metavar="N",
        help="model calls an agent may make while it keeps calling tools (default 25)",
    )
    limits.add_argument(
        "--tool-timeout",
        type=positive_seconds,
        metavar="SECONDS",
        help="how long one tool call may run before it is stopped (default 30)",
    )


def _pace_shown(default_pace: float | str) -> str:
    if isinstance(default_pace, str):
        return f"{default_pace}; {PACE_VARIABLE} sets it"
    return f"{default_pace:g}"


def _plain_seconds(text: str) -> float | str:
    """A default that is a plain number of seconds, as a number: argparse checks a text default
    with the option's type, which loads the settings' models (pydantic) before the first frame.
    Anything else stays text, for that check to say what is wrong with it."""
    try:
        value = float(text)
    except ValueError:
        return text
    return value if math.isfinite(value) and value >= 0 else text


def add_provider_options(parser: argparse.ArgumentParser, *, default_pace: float | str) -> None:
    """`default_pace` given as text (`scripted.defaults.default_pace()`, which AGENTUI_PACE
    sets) is checked as `--pace` is when the option is not given."""
    add_setting_options(parser)
    claude = parser.add_argument_group("network models (Claude, OpenAI, Gemini)")
    claude.add_argument(
        "--thinking-budget",
        type=_thinking_budget,
        default=DEFAULT_THINKING_BUDGET,
        metavar="TOKENS",
        help="tokens for thinking, 0 for none: on Claude the budget of models before 4.6, "
        "room on top of the answer's for later ones; on Gemini its budget, its thoughts shown "
        "(0: the least its model takes); on OpenAI room for reasoning "
        f"(default {DEFAULT_THINKING_BUDGET})",
    )
    claude.add_argument(
        "--timeout",
        type=positive_seconds,
        default=DEFAULT_TIMEOUT_S,
        metavar="SECONDS",
        help=f"longest wait for the API to send more before a request fails "
        f"(default {DEFAULT_TIMEOUT_S:g})",
    )
    claude.add_argument(
        "--record",
        metavar="DIR",
        help="save every model exchange as a JSON file in DIR (play back: --provider replay:DIR)",
    )
    scripted = parser.add_argument_group("offline scripted model")
    scripted.add_argument("--script", metavar="FILE", help="play this JSON/TOML script")
    scripted.add_argument(
        "--pace",
        type=_seconds,
        default=_plain_seconds(default_pace) if isinstance(default_pace, str) else default_pace,
        metavar="SECONDS",
        help=f"seconds between streamed chunks (default {_pace_shown(default_pace)})",
    )
    parser.add_argument(
        "--no-session",
        action="store_true",
        help=f"do not record this run as a session (they are kept in {sessions_dir()})",
    )


def add_resume_option(parser: argparse.ArgumentParser, verb: str) -> None:
    """`--resume [ID]`: the app reopens a saved session, `serve` continues it."""
    parser.add_argument(
        "--resume",
        nargs="?",
        const=LAST,
        metavar="ID",
        help=f"{verb} a saved session: `last` (the default), an id or the start of one",
    )


def add_theme_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--theme", metavar="NAME", help="the theme to draw with (default: the last one picked)"
    )


def add_scene_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--scene",
        metavar="NAME|FILE",
        help="play a directed scene instead of a task: a shipped one (`agentui scenes` lists "
        "them) or the path of a .toml scene file",
    )


def add_profile_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--profile",
        metavar="NAME",
        help="the agent profile the task's agent runs with (`agentui profiles` lists them)",
    )


def _dest(option: str) -> str:
    return {"--yes": "approval_policy"}.get(option, option[2:].replace("-", "_"))


def setting_flags(args: argparse.Namespace) -> dict[str, Flag]:
    """The settings the person gave as options (absent ones are None and left out)."""
    options = {
        "provider": "--provider",
        "model": "--model",
        "base_url": "--base-url",
        "narrator_model": "--narrator-model",
        "theme": "--theme",
        "limits.max_iterations": "--max-iterations",
        "limits.tool_timeout_s": "--tool-timeout",
        "workflow": "--workflow",
        "approval.policy": "--yes",
    }
    flags = {
        key: Flag(option, getattr(args, _dest(option), None)) for key, option in options.items()
    }
    if getattr(args, "no_monologue", False):
        flags["monologue.enabled"] = Flag("--no-monologue", False)
    for measure, limit in (getattr(args, "budget", None) or {}).items():
        flags[f"budget.{measure}"] = Flag("--budget", limit)
    return {key: flag for key, flag in flags.items() if flag.value is not None}


def assembly_from(args: argparse.Namespace, gathered: GatheredSettings | None = None) -> Assembly:
    """The settings (config file, AGENTUI_* variables, options, or those `gathered` from them)
    validated, and this run's own options, settled on a provider. Raises ConfigError for a bad
    setting."""
    from agentui.core.config.settings import validate_settings
    from agentui.tui.cli.assemble import RunOptions, settle

    options = RunOptions(
        script=args.script,
        pace_s=args.pace,
        thinking_budget=args.thinking_budget,
        timeout_s=args.timeout,
        record=args.record,
        keep_session=not args.no_session,
    )
    return settle(validate_settings(gathered or gather_settings(setting_flags(args))), options)


def fail(message: str, code: int = 2) -> int:
    for line in message.splitlines():  # a message may quote a file or a model
        print(f"agentui: {visible_controls(line)}", file=sys.stderr)
    return code


def warn(warnings: Sequence[str]) -> None:
    for warning in warnings:
        print(f"agentui: warning: {visible_controls(warning)}", file=sys.stderr)


def port_number(text: str) -> int:
    """A TCP port; 0 asks the system for a free one."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535 (got {port})")
    return port
