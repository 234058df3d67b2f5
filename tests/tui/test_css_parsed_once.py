"""The app's CSS is parsed at its first start and kept (tui/app/parsed_css_cache.py): the file
is written before the first frame (a terminal closed at any time after it leaves no time to
write), and the next start parses none of it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

PARSES_BEFORE_THE_FIRST_FRAME = """
import json
import sys
from textual.css.stylesheet import Stylesheet

parse = Stylesheet._parse_rules
parsed = []

def counted(self, *args, **options):
    parsed.append(args[0])
    return parse(self, *args, **options)

Stylesheet._parse_rules = counted
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.runtime_host import LocalHost

def at_the_first_frame(self):
    print(json.dumps(len(parsed)))
    self.app.exit()

LocalHost.start = at_the_first_frame
run = AgentUIApp.run
AgentUIApp.run = lambda self, **options: run(self, headless=True)
from agentui.tui.cli import main as cli
cli.main(["--no-session", *sys.argv[1:]])
"""


def _parses(home: Path, *options: str) -> int:
    """How many CSS sources the app parsed before its first frame, run headless in a fresh
    interpreter with its directories (its cache too) under `home`."""
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")} | {
        "AGENTUI_CONFIG_DIR": str(home / "config"),
        "AGENTUI_DATA_DIR": str(home / "data"),
        "AGENTUI_STATE_DIR": str(home / "state"),
        "AGENTUI_CACHE_DIR": str(home / "cache"),
        "TEXTUAL_DRIVER": "textual.drivers.headless_driver:HeadlessDriver",
    }
    out = subprocess.run(
        [sys.executable, "-c", PARSES_BEFORE_THE_FIRST_FRAME, *options],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        env=env,
    )
    parses: int = json.loads(out.stdout.strip().splitlines()[-1])
    return parses


def test_the_first_start_keeps_its_parsed_css_and_the_next_parses_none(tmp_path: Path) -> None:
    assert _parses(tmp_path) > 10
    kept = tmp_path / "cache" / "parsed-css.pickle"
    assert kept.is_file()
    written = kept.stat().st_mtime_ns
    assert _parses(tmp_path) == 0
    assert kept.stat().st_mtime_ns == written  # nothing new parsed: not written again


def test_another_theme_is_parsed_anew(tmp_path: Path) -> None:
    """The theme's variables are part of what the rules were parsed with."""
    assert _parses(tmp_path) > 10
    assert _parses(tmp_path, "--theme", "agentui-light") > 10
    assert _parses(tmp_path, "--theme", "agentui-light") == 0
