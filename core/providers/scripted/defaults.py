"""The offline model's defaults, apart from its player so the app's first frame can name it
without loading the demo and its scripts."""

from __future__ import annotations

import os
from collections.abc import Mapping

DEFAULT_MODEL = "scripted-1"  # its name when none is given

# Seconds between streamed chunks of 3-8 characters: about 20 tokens a second, like a real
# model, so a newcomer can pause, steer or modify an agent of the demo before it ends.
DEFAULT_PACE_S = 0.08
# Sets the default instead (tests and scripts set 0: as fast as the event loop allows).
PACE_VARIABLE = "AGENTUI_PACE"


def default_pace(environ: Mapping[str, str] = os.environ) -> str:
    """`--pace`'s default as text, checked like the option itself: AGENTUI_PACE when set, else
    DEFAULT_PACE_S."""
    return environ.get(PACE_VARIABLE, "").strip() or f"{DEFAULT_PACE_S:g}"
