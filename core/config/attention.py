"""The [attention] section of the settings file: how the app calls the person back when an
agent starts waiting for them (a question, an approval).

[attention]
nudge = "notify"       # off | bell (the default) | notify: a desktop notification through
                       # the terminal (OSC 9, or OSC 777 on foot and rxvt) while the terminal
                       # is not focused, else the bell
after_s = 120          # also nudge when one still waits this long (default: never)
command = ["notify-send", "agentui"]   # run at each nudge, the waiting's JSON on its stdin
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Nudge = Literal["off", "bell", "notify"]
DAY_S = 24 * 3600.0


class AttentionSettings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    nudge: Nudge = "bell"
    after_s: float | None = Field(None, gt=0, le=DAY_S, allow_inf_nan=False)
    # The person's own command (no shell): a program and its arguments.
    command: list[str] = Field(default_factory=list, max_length=64)
