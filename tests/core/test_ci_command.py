"""CI runs the README's test command, exactly: a change to one is made to the other."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_ci_runs_the_readme_s_test_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Run the tests", 1)[1].split("\n## ", 1)[0]
    (shown,) = re.findall(r"^(\.venv/bin/python -m pytest\b.*)$", section, re.MULTILINE)
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    (ran,) = re.findall(r"^(\.venv/bin/python -m pytest\b.*?)(?: \|\|.*)?$", ci, re.MULTILINE)
    assert ran == shown
    assert "-n " in shown, "the suite runs on pytest-xdist's workers"
