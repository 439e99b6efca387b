"""Caerbannog 2026 (RULES.md section 4): one roller's test, its odds and the JSON contract."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rolls.engine import caerbannog as cb
from rolls.engine.core import EngineError
from rolls.engine.protocol import answer


def rolled(dice, faces, **fields):
    """Resolve ``faces`` for a test with ``dice`` and the given params fields."""
    params = cb.parse_params({"dice": list(dice), **fields})
    return cb.resolve(params, cb.parse_faces(params, list(faces)))


# --- Worked examples of RULES.md section 4 ------------------------------------------------------


def test_julio_dociekliwosc_ii_5_7_4_against_2_reads_5_for_3_successes():
    result = rolled([8, 8, 8], [5, 7, 4], difficulty=2)
    assert result.kept == 5
    assert result.result == 3
    assert result.success
    assert result.outcome == "success"


def test_julio_with_8_8_3_drops_the_3_and_one_8_and_reads_the_other_8():
    result = rolled([8, 8, 8], [8, 8, 3], difficulty=2)
    assert result.kept == 8
    assert result.result == 6
    assert result.przebicia == 2
    assert [die.why for die in result.dice] == ["kept", "higher", "lower"]


def test_percepcja_against_2_reading_2_is_zero_successes_a_failure():
    result = rolled([8, 8, 8], [1, 2, 5], difficulty=2)
    assert result.result == 0
    assert not result.success
    assert result.outcome == "failure"


def test_percepcja_against_2_reading_3_is_one_success():
    result = rolled([8, 8, 8], [3, 3, 7], difficulty=2)
    assert result.result == 1
    assert result.outcome == "success"


def test_eased_zastraszanie_7_3_2_against_3_reads_the_7_for_4():
    result = rolled([8, 8, 8], [7, 3, 2], difficulty=3, ease=1)
    assert result.kept == 7
    assert result.result == 4
    assert result.mode == "eased"


def test_hindered_1_8_8_reads_the_1_for_minus_3_at_difficulty_4():
    result = rolled([8, 8, 8], [1, 8, 8], difficulty=4, ease=-1)
    assert result.kept == 1
    assert result.result == -3
    assert result.rozmach_gained == 2  # dropped dice still generate Rozmach


def test_3d4_at_difficulty_3_succeeds_exactly_when_two_dice_show_4():
    for faces in itertools.product(range(1, 5), repeat=3):
        result = rolled([4, 4, 4], faces, difficulty=3)
        assert result.success == (faces.count(4) >= 2), faces


def test_3d4_at_difficulty_3_succeeds_with_odds_10_in_64():
    odds = cb.odds(cb.parse_params({"dice": [4, 4, 4], "difficulty": 3}))
    assert odds["odds"]["success"] == pytest.approx(10 / 64, abs=1e-12)


def test_rozmach_3d4_showing_1_4_4_gains_2():
    assert rolled([4, 4, 4], [1, 4, 4], difficulty=3).rozmach_gained == 2


def test_rozmach_d6_d8_d10_all_showing_6_gains_1_for_the_d6_only():
    result = rolled([6, 8, 10], [6, 6, 6], difficulty=3)
    assert result.rozmach_gained == 1
    assert result.rozmach == 1


def test_critical_failure_1_1_1_against_3_counts_as_0_not_minus_2():
    result = rolled([6, 6, 6], [1, 1, 1], difficulty=3)
    assert result.critical_failure
    assert result.outcome == "critical_failure"
    assert (result.kept, result.base, result.result) == (1, -2, 0)
    assert not result.success


def test_charyzma_0_4_4_1_against_5_is_minus_1_and_gains_2_rozmach():
    result = rolled([4, 4, 4], [4, 4, 1], difficulty=5)
    assert (result.kept, result.result, result.rozmach_gained, result.rozmach) == (4, -1, 2, 2)


def test_charyzma_boost_with_bonus_3_paid_from_the_fresh_rozmach_gives_2():
    result = rolled([4, 4, 4], [4, 4, 1], difficulty=5, bonus=3, boost=True, rozmach=0)
    assert result.result == 2
    assert result.boosted
    assert result.rozmach == 1  # 0 + 2 gained - 1 spent
    assert result.outcome == "success"


def test_combined_opanowanie_ukrycie_percepcja_6_4_8_against_5_gives_1_success():
    result = rolled([6, 8, 10], [6, 4, 8], difficulty=5)
    assert result.kept == 6
    assert result.result == 1


def test_3d8_plus_1d6_showing_8_6_3_1_reads_the_more_favourable_6_for_2():
    result = rolled([8, 8, 8, 6], [8, 6, 3, 1], difficulty=4)
    assert result.kept == 6
    assert result.result == 2


def test_heroic_effort_at_minus_4_costs_5_and_gives_exactly_1_success():
    result = rolled([6, 6, 6], [1, 2, 5], difficulty=6, heroic=True)
    assert result.base == -4
    assert result.heroic_cost == 5
    assert result.result == 1
    assert result.przebicia == 0


# --- Reading the die ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("faces", "kept"),
    [
        ([5], 5),
        ([2, 7], 7),
        ([1, 4, 8], 4),
        ([8, 1, 3, 6], 6),
        ([1, 2, 3, 4, 5], 3),
        ([6, 5, 4, 3, 2, 1], 4),
    ],
)
def test_a_plain_test_reads_the_middle_die_or_the_higher_of_the_two_middle_dice(faces, kept):
    assert rolled([8] * len(faces), faces, difficulty=0).kept == kept


def test_eased_reads_the_highest_and_hindered_the_lowest_with_any_number_of_dice():
    faces = [3, 8, 1, 5, 6]
    assert rolled([8] * 5, faces, difficulty=0, ease=2).kept == 8
    assert rolled([8] * 5, faces, difficulty=0, ease=-3).kept == 1


def test_exactly_one_die_is_marked_kept_and_the_others_lower_or_higher():
    result = rolled([6, 6, 6, 6, 6], [4, 4, 4, 1, 6], difficulty=0)
    assert [die.why for die in result.dice].count("kept") == 1
    assert sorted(die.why for die in result.dice) == ["higher", "higher", "kept", "lower", "lower"]
    assert [die.kept for die in result.dice] == [die.why == "kept" for die in result.dice]


def test_net_ease_lets_the_more_frequent_side_win_and_equal_counts_cancel():
    assert cb.net_ease(2, 1) == 1
    assert cb.net_ease(1, 3) == -1
    assert cb.net_ease(2, 2) == 0


def test_difficulty_names_are_the_four_of_the_text():
    assert cb.DIFFICULTIES == {"łatwy": 2, "przeciętny": 3, "wymagający": 4, "trudny": 5}


def test_a_lowered_difficulty_never_goes_below_0():
    assert cb.reduce_difficulty(3, 1) == 2
    assert cb.reduce_difficulty(2, 5) == 0


def test_modifier_is_added_before_the_difficulty_is_taken():
    assert rolled([6, 6, 6], [2, 3, 4], difficulty=4, modifier=2).result == 1


def test_przebicia_count_every_full_3_successes():
    assert [rolled([12] * 3, [n] * 3, difficulty=0).przebicia for n in (2, 3, 5, 6, 9)] == [
        0,
        1,
        1,
        2,
        3,
    ]


# --- Rozmach and boosts --------------------------------------------------------------------


def test_rozmach_is_added_then_capped_at_10_then_the_boost_is_paid():
    result = rolled([4, 4, 4], [4, 4, 4], difficulty=3, rozmach=9, boost=True, bonus=1)
    assert result.rozmach_gained == 3
    assert result.rozmach == 9  # min(10, 9 + 3) - 1


def test_a_boost_with_an_empty_pool_and_no_fresh_rozmach_is_refused():
    with pytest.raises(EngineError, match="pool is empty"):
        rolled([6, 6, 6], [2, 3, 4], difficulty=3, boost=True, bonus=2)


def test_a_boost_on_a_success_still_adds_the_bonus():
    result = rolled([6, 6, 6], [5, 5, 5], difficulty=3, boost=True, bonus=2, rozmach=3)
    assert (result.result, result.rozmach) == (4, 2)


def test_a_critical_failure_cannot_be_boosted():
    with pytest.raises(EngineError, match="critical failure cannot be boosted"):
        rolled([4, 4, 4], [1, 1, 1], difficulty=3, boost=True, rozmach=5)


def test_a_critical_failure_keeps_the_pool_as_it_was():
    assert rolled([4, 4, 4], [1, 1, 1], difficulty=3, rozmach=5).rozmach == 5


def test_heroic_effort_after_a_critical_failure_is_refused():
    with pytest.raises(EngineError, match="not possible after a critical failure"):
        rolled([4, 4, 4], [1, 1, 1], difficulty=3, heroic=True)


def test_heroic_effort_on_a_success_is_refused():
    with pytest.raises(EngineError, match="only possible after a failure"):
        rolled([8, 8, 8], [5, 7, 4], difficulty=2, heroic=True)


def test_heroic_effort_after_a_boost_pays_for_the_boosted_failure():
    result = rolled([6, 6, 6], [1, 2, 5], difficulty=6, boost=True, bonus=2, rozmach=1, heroic=True)
    assert (result.result, result.heroic_cost, result.rozmach) == (1, 3, 0)


def test_heroic_effort_at_exactly_0_costs_1():
    assert rolled([6, 6, 6], [3, 3, 3], difficulty=3, heroic=True).heroic_cost == 1


def test_a_critical_failure_counts_as_0_even_with_a_large_modifier():
    result = rolled([4], [1], difficulty=0, modifier=5)
    assert (result.result, result.success, result.outcome) == (0, False, "critical_failure")


# --- Params and faces errors ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ([], "must be a JSON object"),
        ({"difficulty": 3}, "'dice' is missing"),
        ({"dice": [8, 8, 8]}, "'difficulty' is missing"),
        ({"dice": [], "difficulty": 3}, "at least one die"),
        ({"dice": [8, 7, 8], "difficulty": 3}, "entry 2 is 7"),
        ({"dice": [8, True], "difficulty": 3}, "whole numbers only"),
        ({"dice": "888", "difficulty": 3}, "must be a list"),
        ({"dice": [8] * 201, "difficulty": 3}, "at most 200"),
        ({"dice": [8], "difficulty": -1}, "at least 0"),
        ({"dice": [8], "difficulty": 3.0}, "whole number"),
        ({"dice": [8], "difficulty": 3, "rozmach": 11}, "between 0 and 10"),
        ({"dice": [8], "difficulty": 3, "rozmach": -1}, "between 0 and 10"),
        ({"dice": [8], "difficulty": 3, "boost": 1}, "true or false"),
        ({"dice": [8], "difficulty": 3, "heroic": "yes"}, "true or false"),
        ({"dice": [8], "difficulty": 3, "ease": None}, "whole number"),
        ({"dice": [8], "difficulty": 3, "bonus": 1.5}, "whole number"),
        ({"dice": [8], "difficulty": 3, "modifier": False}, "whole number"),
        ({"dice": [8], "difficulty": 3, "faces": [1]}, "Unknown field 'faces'"),
    ],
)
def test_bad_params_are_refused_with_a_readable_sentence(raw, message):
    with pytest.raises(EngineError, match=message):
        cb.parse_params(raw)


def test_params_defaults_are_plain_no_modifier_no_bonus_no_boost_empty_pool_no_heroic():
    assert cb.parse_params({"dice": [6, 6, 6], "difficulty": 3}) == cb.Params(
        (6, 6, 6), 3, ease=0, modifier=0, bonus=0, boost=False, rozmach=0, heroic=False
    )


@pytest.mark.parametrize(
    ("faces", "message"),
    [
        ([5, 7], "exactly 3 dice, not 2"),
        ([5, 7, 4, 1], "exactly 3 dice, not 4"),
        ([5, 9, 4], "Die 2 of 'faces' is a d8"),
        ([0, 7, 4], "between 1 and 8, not 0"),
        ([5, 7.0, 4], "whole numbers only"),
        ({"d8": [5, 7, 4]}, "must be a list"),
        (None, "must be a list"),
    ],
)
def test_bad_faces_are_refused(faces, message):
    params = cb.parse_params({"dice": [8, 8, 8], "difficulty": 2})
    with pytest.raises(EngineError, match=message):
        cb.parse_faces(params, faces)


def test_faces_of_mixed_dice_are_checked_against_each_die():
    params = cb.parse_params({"dice": [4, 12], "difficulty": 2})
    assert cb.parse_faces(params, [4, 12]) == (4, 12)
    with pytest.raises(EngineError, match="Die 1 of 'faces' is a d4"):
        cb.parse_faces(params, [5, 12])


# --- Odds -----------------------------------------------------------------------------------


def brute_force(params: cb.Params) -> dict:
    """Odds by resolving every face combination, as exact fractions."""
    outcome: dict[str, Fraction] = {}
    results: dict[str, Fraction] = {}
    pools = Fraction(0)
    combinations = list(itertools.product(*(range(1, s + 1) for s in params.dice)))
    weight = Fraction(1, len(combinations))
    for faces in combinations:
        result = cb.resolve(params, faces)
        outcome[result.outcome] = outcome.get(result.outcome, 0) + weight
        key = str(result.result)
        results[key] = results.get(key, 0) + weight
        pools += weight * result.rozmach
    return {"odds": outcome, "result_odds": results, "rozmach_mean": pools}


def assert_odds_match(params: cb.Params) -> None:
    exact = cb.odds(params)
    expected = brute_force(params)
    assert set(exact["odds"]) == {"success", "failure", "critical_failure"}
    for key, p in exact["odds"].items():
        assert p == pytest.approx(float(expected["odds"].get(key, 0)), abs=1e-12)
    assert set(exact["result_odds"]) == set(expected["result_odds"])
    for key, p in exact["result_odds"].items():
        assert p == pytest.approx(float(expected["result_odds"][key]), abs=1e-12)
    assert exact["rozmach_mean"] == pytest.approx(float(expected["rozmach_mean"]), abs=1e-12)
    assert sum(exact["odds"].values()) == pytest.approx(1, abs=1e-12)
    assert sum(exact["result_odds"].values()) == pytest.approx(1, abs=1e-12)


def test_odds_of_julios_3d8_against_2_match_every_face_combination():
    assert_odds_match(cb.parse_params({"dice": [8, 8, 8], "difficulty": 2}))


def test_odds_of_a_critical_failure_at_difficulty_0_leave_success_out():
    params = cb.parse_params({"dice": [4, 6], "difficulty": 0})
    odds = cb.odds(params)
    assert odds["odds"]["critical_failure"] == pytest.approx(1 / 24)
    assert odds["odds"]["failure"] == pytest.approx(0.0)
    assert odds["result_odds"]["0"] == pytest.approx(1 / 24)
    assert_odds_match(params)


def test_odds_list_every_outcome_even_when_impossible():
    odds = cb.odds(cb.parse_params({"dice": [12], "difficulty": 20}))
    assert odds["odds"] == {
        "success": 0.0,
        "failure": pytest.approx(11 / 12),
        "critical_failure": pytest.approx(1 / 12),
    }


def test_rozmach_mean_is_the_expected_pool_after_the_roll_capped_at_10():
    def mean(rozmach):
        params = cb.parse_params({"dice": [4, 4, 4], "difficulty": 3, "rozmach": rozmach})
        return cb.odds(params)["rozmach_mean"]

    assert mean(0) == pytest.approx(0.75)
    assert mean(9) == pytest.approx(10 - 27 / 64)
    assert mean(10) == 10.0


def test_odds_refuse_boost_and_heroic_effort():
    for field in ("boost", "heroic"):
        params = cb.parse_params({"dice": [8, 8, 8], "difficulty": 2, field: True})
        with pytest.raises(EngineError, match="decided after the roll"):
            cb.odds(params)


def test_odds_of_200_mixed_dice_are_exact():
    # 200 dice have 10^170 rolls: odds that enumerated them would never end. How fast they are
    # is bench/odds.py's to print (the house times nothing in a test: the machines are noisy).
    dice = [4, 6, 8, 10, 12] * 40
    for ease in (-1, 0, 1):
        params = cb.parse_params({"dice": dice, "difficulty": 7, "ease": ease})
        odds = cb.odds(params)
        assert sum(odds["result_odds"].values()) == pytest.approx(1, abs=1e-9)
        assert 9.99 < odds["rozmach_mean"] < 10


# --- Properties -----------------------------------------------------------------------------

sizes = st.sampled_from([4, 6, 8, 10, 12])
anything = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-20, 20),
    st.floats(allow_nan=False),
    st.text(max_size=3),
    st.lists(st.integers(-2, 14), max_size=6),
)
raw_params = st.one_of(
    st.fixed_dictionaries(
        {"dice": st.lists(sizes, min_size=1, max_size=5), "difficulty": st.integers(0, 12)},
        optional={
            "ease": st.integers(-2, 2),
            "modifier": st.integers(-3, 3),
            "bonus": st.integers(-1, 4),
            "boost": st.booleans(),
            "rozmach": st.integers(0, 10),
            "heroic": st.booleans(),
        },
    ),
    st.dictionaries(
        st.sampled_from([*cb.ALLOWED, "junk"]),
        anything,
        max_size=9,
    ),
    anything,
)


@settings(max_examples=300, deadline=None)
@given(raw=raw_params, faces=st.one_of(st.lists(st.integers(-1, 13), max_size=6), anything))
def test_any_request_resolves_or_raises_an_engine_error(raw, faces):
    try:
        params = cb.parse_params(raw)
        result = cb.resolve(params, cb.parse_faces(params, faces))
    except EngineError:
        return
    assert set(result.contract()) == {
        "kept",
        "result",
        "success",
        "critical_failure",
        "rozmach_gained",
        "rozmach",
        "boosted",
        "heroic_cost",
        "przebicia",
        "outcome",
    }


@settings(max_examples=200, deadline=None)
@given(raw=raw_params)
def test_any_odds_request_answers_or_raises_an_engine_error(raw):
    try:
        odds = cb.odds(cb.parse_params(raw))
    except EngineError:
        return
    assert sum(odds["odds"].values()) == pytest.approx(1, abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(
    dice=st.lists(sizes, min_size=1, max_size=4).filter(lambda dice: math.prod(dice) <= 2000),
    difficulty=st.integers(0, 13),
    ease=st.integers(-1, 1),
    modifier=st.integers(-2, 2),
    rozmach=st.integers(0, 10),
)
def test_odds_equal_brute_force_over_every_face_combination(
    dice, difficulty, ease, modifier, rozmach
):
    raw = {"dice": dice, "difficulty": difficulty, "ease": ease, "modifier": modifier}
    assert_odds_match(cb.parse_params({**raw, "rozmach": rozmach}))


class Recorder:
    """A random source that remembers what it drew."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.drawn: list[int] = []

    def randint(self, a: int, b: int) -> int:
        value = self.rng.randint(a, b)
        self.drawn.append(value)
        return value


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32), dice=st.lists(sizes, min_size=1, max_size=7))
def test_roll_equals_resolve_on_the_faces_it_drew(seed, dice):
    params = cb.parse_params({"dice": dice, "difficulty": 3, "rozmach": 2})
    rng = Recorder(seed)
    result = cb.roll(params, rng)
    assert result == cb.resolve(params, tuple(rng.drawn))
    assert [die.face for die in result.dice] == rng.drawn
    assert all(1 <= die.face <= die.sides for die in result.dice)


def test_roll_draws_each_die_with_its_own_size():
    params = cb.parse_params({"dice": [4, 12, 12, 6], "difficulty": 3})
    rng = Recorder(7)
    cb.roll(params, rng)
    assert len(rng.drawn) == 4
    assert rng.drawn[0] <= 4
    assert rng.drawn[3] <= 6


# --- The JSON contract ----------------------------------------------------------------------


def test_protocol_resolve_answers_exactly_the_engine_md_fields():
    request = {
        "system": "caerbannog",
        "op": "resolve",
        "params": {"dice": [4, 4, 4], "difficulty": 5, "bonus": 3, "boost": True},
        "faces": [4, 4, 1],
    }
    assert answer(request) == {
        "kept": 4,
        "result": 2,
        "success": True,
        "critical_failure": False,
        "rozmach_gained": 2,
        "rozmach": 1,
        "boosted": True,
        "heroic_cost": 0,
        "przebicia": 0,
        "outcome": "success",
    }


def test_protocol_resolve_of_a_critical_failure():
    request = {
        "system": "caerbannog",
        "op": "resolve",
        "params": {"dice": [6, 8, 10], "difficulty": 3},
        "faces": [1, 1, 1],
    }
    assert answer(request) == {
        "kept": 1,
        "result": 0,
        "success": False,
        "critical_failure": True,
        "rozmach_gained": 0,
        "rozmach": 0,
        "boosted": False,
        "heroic_cost": 0,
        "przebicia": 0,
        "outcome": "critical_failure",
    }


def test_protocol_odds_answer_the_engine_md_shape_with_string_keys():
    reply = answer(
        {"system": "caerbannog", "op": "odds", "params": {"dice": [4, 4, 4], "difficulty": 3}}
    )
    assert set(reply) == {"odds", "result_odds", "rozmach_mean"}
    assert reply["result_odds"] == {
        "-2": pytest.approx(9 / 64),
        "-1": pytest.approx(22 / 64),
        "0": pytest.approx(23 / 64),
        "1": pytest.approx(10 / 64),
    }
    assert reply["odds"] == {
        "success": pytest.approx(10 / 64),
        "failure": pytest.approx(53 / 64),
        "critical_failure": pytest.approx(1 / 64),
    }


def test_protocol_errors_are_sentences():
    assert answer(
        {
            "system": "caerbannog",
            "op": "resolve",
            "params": {"dice": [6], "difficulty": 3, "boost": True},
            "faces": [2],
        }
    ) == {"error": "A boost costs 1 Rozmach, and the Rozmach pool is empty."}
    odds = {"system": "caerbannog", "op": "odds"}
    assert answer({**odds, "params": {"dice": [6]}}) == {"error": "'difficulty' is missing."}
    reply = answer({**odds, "params": {"dice": [6], "difficulty": 3, "heroic": True}})
    assert "decided after the roll" in reply["error"]


def test_protocol_has_no_opposed_op_for_caerbannog():
    reply = answer({"system": "caerbannog", "op": "opposed", "a": {}, "b": {}})
    assert reply == {"error": "The caerbannog system has no opposed tests."}
