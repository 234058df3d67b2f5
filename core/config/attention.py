"""The [attention] section of the settings file: how the app calls the person back when an
agent starts waiting for them (a question, an approval, a budget's stop, an agent stalled).

[attention]
nudge = "notify"       # off | bell (the default) | notify: a desktop notification through
                       # the terminal (OSC 9, or OSC 777 on foot and rxvt) while the terminal
                       # is not focused, else the bell
after_s = 120          # also nudge when one still waits this long (default: never)
command = ["notify-send", "agentui"]   # run at each nudge, the waiting's JSON on its stdin
stalled_after_s = 300  # a running agent silent this long is listed in the inbox as stalled
                       # (core/attention/stall_watch.py); 0 turns it off
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

Nudge = Literal["off", "bell", "notify"]
DAY_S = 24 * 3600.0
STALLED_AFTER_S = 300.0  # five minutes without a word from a running agent


class AttentionSettings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    nudge: Nudge = Field(
        "bell",
        description="How an agent that starts waiting calls you: off, bell, or notify (a "
        "desktop notification through the terminal, OSC 9 or OSC 777, while it is not focused, "
        "else the bell).",
    )
    after_s: float | None = Field(
        None,
        gt=0,
        le=DAY_S,
        allow_inf_nan=False,
        description="Nudge again for one still waiting this long, in seconds (default: never).",
    )
    command: list[str] = Field(
        default_factory=list,
        max_length=64,
        description="Your own program and its arguments (no shell), run at each nudge with "
        "the waiting's JSON on its stdin.",
    )
    stalled_after_s: float = Field(
        STALLED_AFTER_S,
        description="A running agent silent this long, in seconds, is an inbox row (stalled); "
        "0: never.",
    )

    @field_validator("stalled_after_s", mode="before")
    @classmethod
    def _seconds_or_off(cls, value: object) -> object:
        # One sentence for every wrong value (a word, a negative, nan, a week), naming it.
        fits = (
            isinstance(value, int | float)
            and not isinstance(value, bool)
            and math.isfinite(value)
            and 0 <= value <= DAY_S
        )
        if not fits:
            raise ValueError(
                f"must be a number of seconds from 0 (off) to {DAY_S:g} (got {value!r})"
            )
        return value

    @property
    def stall_watch_on(self) -> bool:
        return self.stalled_after_s > 0
