"""SceneSettings: how much context an agent call in a scene gets, and how it is divided.

In config.toml (core/config/settings.py's Config reads it; `agentui config show` shows it):

    [scene]
    max_context_tokens = 16000        # the envelope's budgeted sections share this many tokens
    history_window_rounds = 1         # finished rounds kept word for word beside the current one
    summarize_after_messages = 10     # past this many messages, older rounds become bullets
    memory_top_k = 5                  # memories retrieved per character
    memory_max_chars = 1200           # characters of memories per character

    [scene.split]                     # percent of max_context_tokens per section (sum <= 100)
    history = 30
    summaries = 10
    lore = 15
    memories = 20
    notes = 10
    director_guidance = 5
    character_guidance = 10

    [scene.caps]                      # hard ceilings in tokens, whatever the percentages give
    history = 6000                    # (none by default)

The split is the seed's. World state, character states, round metadata, the request and the
persona are small, structured and always needed: they are sent whole, outside the budget.
"""

from __future__ import annotations

from typing import Annotated, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, model_validator

# The budgeted sections of an envelope: the names of BudgetSplit's fields and of the caps.
Section = Literal[
    "history",
    "summaries",
    "lore",
    "memories",
    "notes",
    "director_guidance",
    "character_guidance",
]
SECTIONS: tuple[Section, ...] = get_args(Section)

Percent = Annotated[float, Field(ge=0, le=100, allow_inf_nan=False)]
TokenCount = Annotated[int, Field(ge=0)]


class BudgetSplit(BaseModel):
    """Each section's share of `max_context_tokens`, in percent; together at most 100.

    A section with nothing to send this call gives its share to the others, in proportion
    to theirs (budget.py).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    history: Percent = Field(30, description="Share of the rounds shown word for word.")
    summaries: Percent = Field(10, description="Share of the summaries of older rounds.")
    lore: Percent = Field(15, description="Share of the lore entries.")
    memories: Percent = Field(20, description="Share of the characters' recalled memories.")
    notes: Percent = Field(10, description="Share of the scenario and author notes, every level.")
    director_guidance: Percent = Field(
        5, description="Share of the director's guidance for everyone."
    )
    character_guidance: Percent = Field(
        10, description="Share of the director's guidance for one character."
    )

    @model_validator(mode="after")
    def _at_most_everything(self) -> BudgetSplit:
        total = sum(self.share(section) for section in SECTIONS)
        if total > 100:
            raise ValueError(f"the shares add up to {total:g} percent; at most 100")
        return self

    def share(self, section: Section) -> float:
        return float(getattr(self, section))


class SceneSettings(BaseModel):
    """The `[scene]` table. Every key is optional; the defaults are documented beside each."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    # Not the model's whole window: the agent's own instructions, the unbudgeted sections and
    # its answer need room too, and a round makes many calls, so a modest envelope keeps a
    # round cheap.
    max_context_tokens: int = Field(
        16_000, ge=0, description="The tokens the budgeted sections of a call share."
    )
    split: BudgetSplit = Field(default_factory=BudgetSplit)
    # Tokens a cap takes away are left unused, not handed to other sections: a cap is there
    # to keep calls cheap.
    caps: dict[Section, TokenCount] = Field(
        default_factory=dict,
        description="A hard ceiling in tokens per section, whatever its share gives; a section "
        "not named has none.",
    )
    # The seed: "always include last round messages".
    history_window_rounds: int = Field(
        1,
        ge=0,
        description="Finished rounds shown word for word besides the round being played.",
    )
    # The seed: "mirror current >10 behaviour".
    summarize_after_messages: int = Field(
        10,
        ge=0,
        description="While a scene holds at most this many messages (the person's inputs "
        "count) every round is shown word for word; past it, rounds older than the window are "
        "summarised into bullets.",
    )
    memory_top_k: int = Field(5, ge=0, description="Memories retrieved per character.")
    memory_max_chars: int = Field(
        1200,
        ge=0,
        description="Characters one character's memories may fill together (the last one kept "
        "is cut at a sentence or word).",
    )
