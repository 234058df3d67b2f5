"""The kinds of the person's interventions and the parts of an agent a modify changes, as the
events (core/protocol/events.py) and the agents' pending interventions name them."""

from __future__ import annotations

from typing import Literal

# "comment" is what sessions written before steer existed call a steer.
InterventionKind = Literal["pause", "resume", "cancel", "delete", "modify", "steer", "comment"]
ModifiedPart = Literal["instructions", "task"]
