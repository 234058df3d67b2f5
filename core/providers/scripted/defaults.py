"""The offline model's defaults, apart from its player so the app's first frame can name it
without loading the demo and its scripts."""

from __future__ import annotations

DEFAULT_MODEL = "scripted-1"  # its name when none is given
