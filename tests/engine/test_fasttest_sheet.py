"""FastTest magic die, spells and development (RULES.md section 1, "Magic", "Development")."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rolls.engine import fasttest_sheet as fs
from rolls.engine.core import EngineError, draw

DICE = (None, *fs.MAGIC_DICE)

# --- Worked examples of RULES.md ----------------------------------------------------------------


def test_duch_7_gives_a_d6():
    assert fs.starting_magic_die(7, 0) == 6


def test_duch_3_gives_no_magic_die():
    assert fs.starting_magic_die(3, 0) is None


def test_duch_5_with_czarodziej_and_magia_ognia_gives_a_d8():
    assert fs.starting_magic_die(5, 2) == 8


def test_trait_levels_2_2_1_1_make_the_next_trait_cost_6_xp():
    assert fs.development_cost([2, 2, 1, 1]) == 6


# --- The starting die ----------------------------------------------------------------------------


@pytest.mark.parametrize(("duch", "die"), [(1, None), (4, 4), (5, 4), (6, 6), (8, 8), (11, 10)])
def test_the_starting_die_is_the_largest_not_above_duch(duch, die):
    assert fs.starting_magic_die(duch, 0) == die


def test_no_die_plus_one_magic_trait_is_a_d4():
    assert fs.starting_magic_die(3, 1) == 4


def test_the_starting_die_is_at_most_a_d12():
    assert fs.starting_magic_die(7, 5) == 12


def test_a_negative_number_of_magic_traits_is_refused():
    with pytest.raises(EngineError, match="magic traits"):
        fs.starting_magic_die(5, -1)


@pytest.mark.parametrize(
    ("die", "steps", "after"),
    [(None, 1, 4), (4, -1, None), (6, 2, 10), (12, 1, 12), (None, -1, None), (8, -9, None)],
)
def test_stepping_the_magic_die_is_clamped(die, steps, after):
    assert fs.step_magic_die(die, steps) == after


def test_a_die_that_is_no_magic_die_is_refused():
    with pytest.raises(EngineError, match="not d20"):
        fs.step_magic_die(20, 1)


# --- The magic-die roll --------------------------------------------------------------------------


@pytest.mark.parametrize("face", [1, 2])
def test_a_1_or_2_drops_the_die_a_step(face):
    result = fs.magic_die_roll(8, face, duch=6)
    assert (result.die_after, result.dropped, result.unconscious) == (6, True, False)


def test_a_3_or_more_keeps_the_die():
    result = fs.magic_die_roll(8, 3, duch=6)
    assert (result.die_after, result.dropped) == (8, False)


def test_dropping_from_a_d4_leaves_no_die_and_an_unconscious_caster():
    result = fs.magic_die_roll(4, 2, duch=5)
    assert (result.die_after, result.dropped, result.unconscious) == (None, True, True)


def test_a_face_above_duch_is_an_emanation_when_that_rule_is_on():
    assert fs.magic_die_roll(10, 8, duch=7, emanation_rule=True).emanation is True
    assert fs.magic_die_roll(10, 7, duch=7, emanation_rule=True).emanation is False


def test_without_the_emanation_rule_there_is_no_emanation():
    assert fs.magic_die_roll(10, 8, duch=7).emanation is False


def test_a_face_the_die_cannot_show_is_refused():
    with pytest.raises(EngineError, match="A d6 shows 1 to 6, not 7."):
        fs.magic_die_roll(6, 7, duch=5)


def test_a_character_without_a_magic_die_cannot_roll_it():
    with pytest.raises(EngineError, match="without a magic die"):
        fs.magic_die_roll(None, 1, duch=3)
    with pytest.raises(EngineError, match="without a magic die"):
        fs.roll_magic_die(None, 3, random.Random(1))


def test_an_automatic_drop_without_a_die_is_refused():
    with pytest.raises(EngineError, match="no magic die left"):
        fs.drop_magic_die(None)


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32), die=st.sampled_from(fs.MAGIC_DICE), duch=st.integers(3, 7))
def test_rolling_the_magic_die_reads_the_face_it_drew(seed, die, duch):
    result = fs.roll_magic_die(die, duch, random.Random(seed), emanation_rule=True)
    (face,) = draw(random.Random(seed), die, 1)
    assert result == fs.magic_die_roll(die, face, duch, emanation_rule=True)


# --- Rest ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("current", "starting", "after"),
    [(4, 8, 6), (None, 6, 4), (8, 8, 8), (6, 6, 6), (None, None, None), (10, 8, 10)],
)
def test_a_nights_rest_raises_the_die_a_step_never_above_the_starting_die(current, starting, after):
    assert fs.rest_magic_die(current, starting) == after


@settings(max_examples=50, deadline=None)
@given(current=st.sampled_from(DICE), starting=st.sampled_from(DICE))
def test_rest_never_lowers_the_die_and_never_raises_it_past_the_start(current, starting):
    index = DICE.index
    after = fs.rest_magic_die(current, starting)
    assert index(after) >= index(current)
    assert index(after) <= max(index(current), index(starting))


# --- Spells --------------------------------------------------------------------------------------


def test_a_spell_has_two_penalty_dice_by_default():
    assert fs.spell_penalty() == 2


def test_each_earlier_similar_spell_adds_a_penalty_die():
    assert fs.spell_penalty(3, earlier_similar=2) == 5


def test_a_negative_spell_difficulty_is_refused():
    with pytest.raises(EngineError):
        fs.spell_penalty(-1)


# --- Development and experience dice -------------------------------------------------------------


def test_the_first_development_after_creation_costs_3_xp():
    assert fs.development_cost([2, 1]) == 3


def test_a_trait_level_below_1_is_refused():
    with pytest.raises(EngineError, match="at least 1"):
        fs.development_cost([2, 0])


def test_buying_a_development_spends_its_cost():
    assert fs.spend_development(8, [2, 2, 1, 1]) == 2


def test_buying_without_enough_xp_is_refused():
    with pytest.raises(EngineError, match="costs 6 XP; only 5"):
        fs.spend_development(5, [2, 2, 1, 1])


def test_experience_dice_kept_to_the_session_end_become_1_xp_each():
    assert fs.end_session_xp(4, 3) == (7, 0)


def test_negative_experience_dice_are_refused():
    with pytest.raises(EngineError):
        fs.end_session_xp(4, -1)
