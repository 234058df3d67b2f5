"""`agentui replay [ID|last]`: a saved session played back in the app, read-only, at its
recorded pace (or faster)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from agentui.core.session.naming import LAST
from agentui.tui.cli.app_keys import key_map_from
from agentui.tui.cli.app_run import run_app
from agentui.tui.cli.options import (
    add_theme_option,
    positive_seconds,
    positive_whole_number,
    setting_flags,
)

if TYPE_CHECKING:
    from agentui.tui.app.app import AgentUIApp


def replay_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="agentui replay",
        description="Play a saved session back in the app, read-only, at its recorded pace.",
    )
    parser.add_argument("session", nargs="?", default=LAST, help="id, start of one, or last")
    parser.add_argument(
        "--speed",
        type=positive_seconds,
        default=1.0,
        metavar="X",
        help="how many times faster than recorded (default 1; long pauses are shortened)",
    )
    parser.add_argument(
        "--from",
        dest="start_seq",
        type=positive_whole_number,
        metavar="SEQ",
        help="start at event SEQ (what came before shows at once), as agentui search names it",
    )
    add_theme_option(parser)
    return parser


def main(argv: Sequence[str]) -> int:
    return run_app(build_replay, replay_parser().parse_args(argv))


def build_replay(args: argparse.Namespace) -> AgentUIApp:
    from agentui.core.config.settings import load_config
    from agentui.tui.cli.sessions import load_session

    loaded = load_config(setting_flags(args))
    log = load_session(args.session)
    from agentui.tui.app.app import AgentUIApp
    from agentui.tui.app.replay_feed import ReplayFeed
    from agentui.tui.cli.theme_setting import add_theme

    options: dict[str, Any] = {}
    add_theme(options, AgentUIApp, loaded)
    key_map = key_map_from(loaded.config.keys, loaded.origin("keys"))
    feed = ReplayFeed(log.events, args.speed, start_seq=args.start_seq)
    return AgentUIApp(replay=feed, key_map=key_map, **options)
