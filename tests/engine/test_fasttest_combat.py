"""FastTest combat and wounds (RULES.md section 1, "Combat and wounds", "Test" step 4)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rolls.engine import fasttest as ft
from rolls.engine import fasttest_combat as fc
from rolls.engine.core import OUTCOMES, EngineError

# --- The wound ladder ----------------------------------------------------------------------------


def test_severities_run_from_scratch_to_deadly():
    assert fc.SEVERITIES == ("scratch", "light", "heavy", "deadly")


@pytest.mark.parametrize(
    ("severity", "steps", "after"),
    [("light", 1, "heavy"), ("heavy", -1, "light"), ("deadly", 1, "deadly"),
     ("scratch", -1, "scratch"), ("light", -5, "scratch"), ("scratch", 3, "deadly")],
)  # fmt: skip
def test_shifting_a_severity_is_clamped_at_both_ends(severity, steps, after):
    assert fc.shift_severity(severity, steps) == after


@pytest.mark.parametrize(
    ("weapon", "wound"), [("light", "light"), ("hand", "heavy"), ("heavy", "deadly")]
)
def test_each_weapon_class_deals_its_wound_on_a_plain_result(weapon, wound):
    assert fc.weapon_wound(weapon, "yes") == wound
    assert fc.WEAPON_WOUNDS[weapon] == wound


def test_a_hand_weapon_deals_deadly_on_yes_and_and_light_on_yes_but():
    # The seed: a sword "standardowo ciężką, przy poważnym sukcesie śmiertelną", minor: light.
    assert fc.weapon_wound("hand", "yes_and") == "deadly"
    assert fc.weapon_wound("hand", "yes_but") == "light"


def test_a_light_weapon_on_a_minor_result_only_scratches():
    assert fc.weapon_wound("light", "yes_but") == "scratch"


def test_a_heavy_weapon_on_a_critical_result_stays_deadly():
    assert fc.weapon_wound("heavy", "yes_and") == "deadly"


# --- Who takes the wound -------------------------------------------------------------------------


def test_a_winning_player_wounds_the_enemy_with_the_players_weapon():
    assert fc.combat_wound("yes", "hand", "heavy") == fc.CombatWound("enemy", "heavy")


def test_a_critical_win_wounds_the_enemy_one_step_worse():
    assert fc.combat_wound("yes_and", "light", "heavy") == fc.CombatWound("enemy", "heavy")


def test_a_losing_player_takes_the_enemy_weapons_wound():
    assert fc.combat_wound("no", "hand", "light") == fc.CombatWound("player", "light")


def test_no_and_moves_the_players_wound_one_step_up():
    assert fc.combat_wound("no_and", "heavy", "hand") == fc.CombatWound("player", "deadly")


def test_no_but_moves_the_players_wound_one_step_down():
    assert fc.combat_wound("no_but", "heavy", "hand") == fc.CombatWound("player", "light")


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: fc.combat_wound("yes", "spear", "hand"), "Unknown weapon class 'spear'"),
        (lambda: fc.combat_wound("maybe", "hand", "hand"), "Unknown outcome 'maybe'"),
        (lambda: fc.shift_severity("fatal", 1), "Unknown wound severity 'fatal'"),
    ],
)
def test_unknown_keys_are_refused(call, message):
    with pytest.raises(EngineError, match=message):
        call()


# --- The wound test ------------------------------------------------------------------------------


def test_a_heavy_wound_is_tested_on_budowa_counting_the_new_wound_and_armor():
    params = fc.wound_test_params(budowa=6, wounds_before=1, severity="heavy", armor=2)
    assert params == ft.Params(6, (), bonus=2, wounds=2)
    assert (params.net, params.chance) == (0, 6)


def test_a_deadly_wound_without_armor_is_still_tested():
    params = fc.wound_test_params(budowa=5, wounds_before=0, severity="deadly")
    assert params is not None
    assert params.net == -1


def test_a_light_wound_or_a_scratch_without_armor_is_not_tested():
    assert fc.wound_test_params(5, 0, "light") is None
    assert fc.wound_test_params(5, 0, "scratch", armor=0) is None


def test_a_light_wound_with_armor_is_tested():
    assert fc.needs_wound_test("light", 1) is True
    assert fc.wound_test_params(5, 0, "scratch", armor=1) == ft.Params(5, (), bonus=1, wounds=1)


def test_wound_test_params_pass_on_extra_modifiers_and_the_split():
    params = fc.wound_test_params(5, 2, "heavy", 1, skills=(1,), bonus=1, penalty=1, extra_d10=0)
    assert params == ft.Params(5, (1,), bonus=2, penalty=1, wounds=3, extra_d10=0)


@pytest.mark.parametrize(
    ("outcome", "conscious"),
    [("yes_and", True), ("yes", True), ("yes_but", True), ("no_but", False), ("no", False),
     ("no_and", False)],
)  # fmt: skip
def test_a_heavy_wound_leaves_the_character_conscious_only_on_a_success(outcome, conscious):
    assert fc.wound_test_outcome("heavy", 0, outcome) == fc.WoundTestResult(True, conscious, False)


@pytest.mark.parametrize(
    ("outcome", "alive", "conscious"),
    [("yes_and", True, True), ("yes", True, False), ("yes_but", True, False),
     ("no_but", False, False), ("no", False, False), ("no_and", False, False)],
)  # fmt: skip
def test_a_deadly_wound_kills_on_failure_and_keeps_consciousness_only_on_yes_and(
    outcome, alive, conscious
):
    result = fc.wound_test_outcome("deadly", 0, outcome)
    assert (result.alive, result.conscious, result.wound_removed) == (alive, conscious, False)


@pytest.mark.parametrize("severity", fc.SEVERITIES)
def test_armor_and_yes_and_remove_the_new_wound(severity):
    result = fc.wound_test_outcome(severity, 1, "yes_and")
    assert result == fc.WoundTestResult(alive=True, conscious=True, wound_removed=True)


def test_yes_and_without_armor_keeps_the_wound():
    assert fc.wound_test_outcome("heavy", 0, "yes_and").wound_removed is False


def test_an_armored_light_wound_never_costs_consciousness():
    assert fc.wound_test_outcome("light", 2, "no_and") == fc.WoundTestResult(True, True, False)


def test_an_untested_light_wound_leaves_the_character_as_they_were():
    assert fc.wound_test_outcome("light", 0, None) == fc.WoundTestResult(True, True, False)


def test_a_wound_test_that_is_due_needs_its_outcome():
    with pytest.raises(EngineError, match="needs a wound test"):
        fc.wound_test_outcome("heavy", 0, None)


def test_an_outcome_for_a_wound_test_that_is_not_rolled_is_refused():
    with pytest.raises(EngineError, match="not tested"):
        fc.wound_test_outcome("scratch", 0, "yes")


def test_negative_armor_or_wounds_are_refused():
    with pytest.raises(EngineError, match="Armor points"):
        fc.needs_wound_test("heavy", -1)
    with pytest.raises(EngineError, match="wounds before"):
        fc.wound_test_params(5, -1, "heavy")


@settings(max_examples=50, deadline=None)
@given(
    severity=st.sampled_from(fc.SEVERITIES),
    armor=st.integers(0, 3),
    outcome=st.sampled_from(OUTCOMES),
)
def test_the_dead_are_never_conscious_and_a_removed_wound_never_harms(severity, armor, outcome):
    if not fc.needs_wound_test(severity, armor):
        outcome = None
    result = fc.wound_test_outcome(severity, armor, outcome)
    assert result.alive or not result.conscious
    assert not result.wound_removed or (result.alive and result.conscious)


# --- Wounds counted, and ignoring them -----------------------------------------------------------

WOUNDS = (
    fc.Wound("light", bandaged=True, label="rozcięte ramię"),
    fc.Wound("heavy"),
    fc.Wound("scratch", bandaged=True),
)


@pytest.mark.parametrize(("attribute", "count"), [("budowa", 3), ("zrecznosc", 3)])
def test_budowa_and_zrecznosc_tests_count_every_wound(attribute, count):
    assert fc.wounds_for_test(attribute, WOUNDS) == count


@pytest.mark.parametrize(("attribute", "count"), [("umysl", 1), ("duch", 1)])
def test_umysl_and_duch_tests_count_only_unbandaged_wounds(attribute, count):
    assert fc.wounds_for_test(attribute, WOUNDS) == count


def test_counting_wounds_for_an_unknown_attribute_is_refused():
    with pytest.raises(EngineError, match="Unknown attribute 'sila'"):
        fc.wounds_for_test("sila", WOUNDS)


def test_ignoring_wounds_adds_a_wound_as_severe_as_the_worst_one():
    assert fc.ignored_wounds_added(WOUNDS) == "heavy"


def test_ignoring_no_wounds_adds_nothing():
    assert fc.ignored_wounds_added([]) is None


def test_the_consciousness_test_after_ignoring_wounds_is_always_rolled():
    added = fc.ignored_wounds_added([fc.Wound("light")])
    params = fc.wound_test_params(6, 2, added, consciousness=True)
    assert params == ft.Params(6, (), wounds=3)
    result = fc.wound_test_outcome(added, 0, "no", consciousness=True)
    assert result == fc.WoundTestResult(alive=True, conscious=False, wound_removed=False)


def test_a_deadly_wound_added_by_ignoring_wounds_can_kill():
    assert fc.wound_test_outcome("deadly", 0, "no", consciousness=True).alive is False
