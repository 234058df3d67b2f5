"""`agentui config path|show`: where the config file is, and every effective setting with
where it came from."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from agentui.core.config.sources import ConfigError
from agentui.core.support.terminal_text import visible_controls
from agentui.tui.cli.options import add_setting_options, add_theme_option, fail, setting_flags


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="agentui config", description="Where the config file is, and what is in effect."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="path|show")
    commands.add_parser("path", help="print the config file's path")
    show = commands.add_parser(
        "show",
        help="every effective setting and where it came from",
        description="Every effective setting as TOML, with its source: default, file, "
        "env VARIABLE or flag --option. Options given here show their effect.",
    )
    add_setting_options(show)
    add_theme_option(show)
    show.add_argument("--no-monologue", action="store_true")
    args = parser.parse_args(argv)
    from agentui.core.config.settings import config_path, format_settings, load_config

    if args.command == "path":
        print(config_path())
        return 0
    try:
        loaded = load_config(setting_flags(args))
    except ConfigError as exc:
        return fail(str(exc))
    sys.stdout.write(visible_controls(format_settings(loaded)))  # values from a file
    from agentui.core.tools.sandbox_mode import choose_sandbox

    print(visible_controls("\n".join(f"# {x}" for x in choose_sandbox().describe().splitlines())))
    return 0
