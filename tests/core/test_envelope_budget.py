"""The envelope's token budgets, the fitting of text to them, and the usage record."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from agentui.core.scene.budget import resolve_budgets
from agentui.core.scene.settings import SECTIONS, BudgetSplit, SceneSettings
from agentui.core.scene.tokens import CharacterCounter, EstimatedTokenCounter
from agentui.core.scene.truncation import CUT_MARK, Piece, cut_text, fit_pieces
from agentui.core.scene.usage import USAGE_HISTORY, SectionUsage, SectionUsageLog

# -- budgets -------------------------------------------------------------------------------------


def test_the_seed_split_resolves_to_counts_rounded_down() -> None:
    budgets = resolve_budgets(SceneSettings(max_context_tokens=999), SECTIONS)
    assert budgets == {
        "history": 299,  # 299.7
        "summaries": 99,  # 99.9
        "lore": 149,  # 149.85
        "memories": 199,  # 199.8
        "notes": 99,
        "director_guidance": 49,  # 49.95
        "character_guidance": 99,
    }


def test_an_absent_sections_share_goes_to_the_others_in_proportion() -> None:
    present = [s for s in SECTIONS if s not in ("memories", "director_guidance")]
    budgets = resolve_budgets(SceneSettings(max_context_tokens=1000), present)
    # 25 percent freed; the 75 left grow by 100/75: history 30 -> 40, lore 15 -> 20.
    assert budgets["memories"] == budgets["director_guidance"] == 0
    assert budgets["history"] == 400
    assert budgets["lore"] == 200
    assert budgets["summaries"] == budgets["notes"] == budgets["character_guidance"] == 133
    assert sum(budgets.values()) <= 1000


def test_a_hard_cap_is_a_ceiling_and_what_it_frees_stays_unused() -> None:
    capped = SceneSettings(max_context_tokens=10_000, caps={"history": 500})
    budgets = resolve_budgets(capped, SECTIONS)
    assert budgets["history"] == 500
    assert budgets["lore"] == 1500  # not grown by the 2500 the cap took
    assert (
        resolve_budgets(capped.model_copy(update={"max_context_tokens": 1000}), SECTIONS)["history"]
        == 300
    )  # under the cap, the share decides


def test_nothing_present_gets_nothing() -> None:
    assert set(resolve_budgets(SceneSettings(), []).values()) == {0}
    zero_history = SceneSettings(split=BudgetSplit(history=0))
    assert resolve_budgets(zero_history, ["history"])["history"] == 0


def test_a_cap_must_name_a_section() -> None:
    with pytest.raises(ValidationError, match=r"caps\.histroy"):
        SceneSettings(caps={"histroy": 10})  # type: ignore[dict-item]


def test_a_split_over_100_percent_is_refused_naming_the_total() -> None:
    with pytest.raises(ValidationError, match="add up to 110 percent"):
        BudgetSplit(history=40)
    with pytest.raises(ValidationError):
        BudgetSplit(lore=-1)


@st.composite
def split_shares(draw: st.DrawFn) -> list[int]:
    """Seven shares that add up to at most 100 percent, each drawn within what the others left
    (filtering free draws threw away 99% of them: the test ran 15 examples, not 100)."""
    left = 100
    shares = []
    for _ in SECTIONS:
        share = draw(st.integers(min_value=0, max_value=left))
        shares.append(share)
        left -= share
    return draw(st.permutations(shares))  # the last sections are not always the small ones


@given(
    shares=split_shares(),
    total=st.integers(min_value=0, max_value=2_000_000),
    present=st.sets(st.sampled_from(SECTIONS)),
    caps=st.lists(st.none() | st.integers(min_value=0, max_value=50_000), min_size=7, max_size=7),
)
def test_budgets_never_exceed_the_total_and_reallocation_keeps_the_whole_split(
    shares: list[int], total: int, present: set[str], caps: list[int | None]
) -> None:
    split = BudgetSplit(**dict(zip(SECTIONS, shares, strict=True)))
    uncapped = SceneSettings(max_context_tokens=total, split=split)
    budgets = resolve_budgets(uncapped, present)
    whole = sum(shares)
    assert sum(budgets.values()) <= total * whole / 100
    assert all(budgets[s] == 0 for s in SECTIONS if s not in present)
    present_share = sum(shares[SECTIONS.index(s)] for s in present)
    if present_share:
        # Each present section's share, scaled up to the whole split, rounded down: together
        # they fall short of the whole split by less than a token a section.
        for s in present:
            exact = Fraction(total * shares[SECTIONS.index(s)] * whole, present_share * 100)
            assert budgets[s] == math.floor(exact)
        assert Fraction(total * whole, 100) - sum(budgets.values()) < len(present)
    capped = resolve_budgets(
        SceneSettings(
            max_context_tokens=total,
            split=split,
            caps={s: cap for s, cap in zip(SECTIONS, caps, strict=True) if cap is not None},
        ),
        present,
    )
    for s, cap in zip(SECTIONS, caps, strict=True):
        assert capped[s] == (budgets[s] if cap is None else min(budgets[s], cap))


# -- fitting text --------------------------------------------------------------------------------

COUNTER = EstimatedTokenCounter()


def test_the_estimate_is_four_characters_a_token_rounded_up() -> None:
    assert [COUNTER.count(t) for t in ("", "a", "abcd", "abcde")] == [0, 1, 1, 2]


def test_text_that_fits_is_kept_whole() -> None:
    assert cut_text("One. Two.", 100, COUNTER) == "One. Two."


def test_text_is_cut_between_sentences_and_marked() -> None:
    text = "The door creaks. Rain hammers the roof! Who is there? Nobody answers."
    cut = cut_text(text, 44, CharacterCounter())
    assert cut == f"The door creaks. Rain hammers the roof! {CUT_MARK}"
    end = cut_text(text, 44, CharacterCounter(), keep="end")
    assert end == f"{CUT_MARK} Who is there? Nobody answers."


def test_without_a_sentence_that_fits_text_is_cut_between_words() -> None:
    text = "one two three four five six seven eight nine ten"
    assert cut_text(text, 20, CharacterCounter()) == f"one two three {CUT_MARK}"
    assert cut_text("unbreakable", 5, CharacterCounter()) is None


def test_a_head_counts_against_the_budget_and_stays_whole() -> None:
    cut = cut_text("First. Second.", 16, CharacterCounter(), head="Ada: ")
    assert cut == f"First. {CUT_MARK}"


@given(
    text=st.text(alphabet=st.sampled_from("ab .!?\n"), max_size=300),
    budget=st.integers(min_value=0, max_value=120),
    keep=st.sampled_from(["start", "end"]),
)
def test_a_cut_always_fits_its_budget(text: str, budget: int, keep: str) -> None:
    cut = cut_text(text, budget, COUNTER, keep=keep)  # type: ignore[arg-type]
    if cut is not None:
        assert COUNTER.count(cut) <= budget
        assert cut == text or CUT_MARK in cut


def test_pieces_keep_the_newest_when_kept_from_the_last() -> None:
    pieces = [Piece(f"m{i}: ", "word " * 10) for i in range(10)]  # 54 characters each
    fitted = fit_pieces(pieces, 150, CharacterCounter(), keep="last")
    kept = [index for index, _ in fitted.kept]
    assert kept == [7, 8, 9]  # the oldest of them cut from its start, newest whole
    assert fitted.cut == 7 and fitted.kept[0][1].startswith(CUT_MARK)
    assert fitted.left_out == 7
    assert fitted.used <= 150


def test_pieces_keep_the_first_and_stop_at_the_one_that_does_not_fit() -> None:
    pieces = [Piece("", "Short."), Piece("", "A much longer piece. It goes on."), Piece("", "x")]
    fitted = fit_pieces(pieces, 30, CharacterCounter())
    assert fitted.kept == [(0, "Short."), (1, f"A much longer piece. {CUT_MARK}")]
    assert (fitted.cut, fitted.left_out, fitted.used) == (1, 1, 30)  # "x" is never tried
    nothing_fits = fit_pieces(pieces, 9, CharacterCounter())
    assert (nothing_fits.kept, nothing_fits.cut, nothing_fits.left_out) == (
        [(0, "Short.")],
        None,
        2,
    )


# -- usage ---------------------------------------------------------------------------------------


def test_the_usage_record_keeps_the_last_500_calls() -> None:
    log = SectionUsageLog()
    for call in range(USAGE_HISTORY + 20):
        log.record(SectionUsage("Ada", call, {"history": 10}, {"history": call}))
    assert len(log) == USAGE_HISTORY == 500
    rounds = [entry.round_number for entry in log]
    assert rounds[0] == 20 and rounds[-1] == 519
    assert log.mean_used()["history"] == sum(range(20, 520)) / 500
    assert log.mean_used()["lore"] == 0
    assert SectionUsageLog().mean_used()["history"] == 0.0
