"""FastTest tests (RULES.md section 1, ENGINE.md "fasttest"): the test, odds, splits, opposed."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rolls.engine import fasttest as ft
from rolls.engine.core import MAX_DICE, OUTCOMES, EngineError
from rolls.engine.protocol import answer


def make(attribute=5, skills=(0,), **rest) -> ft.Params:
    return ft.Params(attribute, tuple(skills), **rest)


def run(params: ft.Params, d10, d6) -> ft.Result:
    return ft.resolve(params, ft.Faces(tuple(d10), tuple(d6)))


# --- Worked examples of RULES.md ---------------------------------------------------------------


def test_budowa_8_and_walka_plus_2_give_chance_9_and_one_bonus_die():
    params = ft.parse_params({"attribute": 8, "skills": [2], "bonus": 0, "penalty": 0})
    assert (params.chance_raw, params.chance) == (10, 9)
    assert (params.overflow_bonus, params.bonus_total, params.net) == (1, 1, 1)


def test_budowa_2_and_walka_minus_2_give_chance_1_and_one_penalty_die():
    params = ft.parse_params({"attribute": 2, "skills": [-2], "bonus": 0, "penalty": 0})
    assert (params.chance_raw, params.chance) == (0, 1)
    assert (params.overflow_penalty, params.penalty_total, params.net) == (1, 1, -1)


def test_fencer_4k_and_agile_2k_give_five_penalty_dice_against_a_sword_attack():
    assert ft.npc_penalty([4, 2]) == 5
    assert make(npc_traits=(4, 2)).penalty_total == 5


@pytest.mark.parametrize(("bonus", "left"), [(2, -3), (3, -2)])
def test_two_or_three_bonus_dice_against_the_fencer_leave_two_or_three_penalty_dice(bonus, left):
    assert make(bonus=bonus, npc_traits=(4, 2)).net == left


# --- Chance, pool and parts ----------------------------------------------------------------------


def test_several_skills_add_up_and_overflow_beyond_nine_becomes_bonus_dice():
    params = make(attribute=6, skills=(2, 2, 1))
    assert (params.chance_raw, params.chance, params.overflow_bonus) == (11, 9, 2)


def test_a_chance_far_below_one_becomes_that_many_penalty_dice():
    params = make(attribute=3, skills=(-2, -2, -2))
    assert (params.chance_raw, params.chance, params.overflow_penalty) == (-3, 1, 4)


def test_npc_traits_count_the_highest_plus_one_for_each_other():
    assert ft.npc_penalty([]) == 0
    assert ft.npc_penalty([1]) == 1
    assert ft.npc_penalty([2, 4, 3, 1]) == 7


def test_bonus_and_penalty_dice_cancel_one_for_one_whatever_their_source():
    params = make(bonus=4, penalty=1, npc_traits=(2,), wounds=1)
    assert (params.bonus_total, params.penalty_total, params.net) == (4, 4, 0)
    assert (params.d10_count, params.d6_count) == (1, 1)


def test_sources_name_every_part_of_the_bonus_and_penalty_dice():
    params = make(attribute=9, skills=(2,), bonus=1, penalty=2, npc_traits=(3, 1), wounds=2)
    assert params.sources() == {
        "bonus": {"given": 1, "overflow": 2, "total": 3},
        "penalty": {"given": 2, "overflow": 0, "npc_traits": 4, "wounds": 2, "total": 8},
    }


def test_a_result_carries_the_totals_and_sources_of_its_dice():
    result = run(make(bonus=1, wounds=3, extra_d10=0), [5], [1, 2, 3])
    assert (result.bonus_total, result.penalty_total, result.net) == (1, 3, -2)
    assert result.sources()["penalty"]["wounds"] == 3


def test_a_spent_experience_die_counts_as_a_bonus_die_cancelling_a_penalty_die():
    # Decision: spent once the pool is known, it then counts exactly like any bonus die.
    params = ft.parse_params({"attribute": 5, "skills": [0], "bonus": 1, "penalty": 1})
    assert (params.net, params.d10_count, params.d6_count) == (0, 1, 1)


def test_params_built_in_code_check_the_split_too():
    with pytest.raises(EngineError, match="'extra_d10' must be between 0 and 1, not 2."):
        make(bonus=1, extra_d10=2)


def test_extra_d10_defaults_to_every_extra_die_being_a_d10():
    params = ft.parse_params({"attribute": 5, "skills": [0], "penalty": 3})
    assert (params.extra_d10, params.d10_count, params.d6_count) == (3, 4, 1)


def test_a_split_sets_how_many_d10s_and_d6s_are_rolled():
    params = make(bonus=5, extra_d10=2)
    assert (params.d10_count, params.d6_count) == (3, 4)


# --- Keeping the pair (RULES.md step 7) ------------------------------------------------------


def test_without_extra_dice_the_only_pair_is_read():
    result = run(make(attribute=5, skills=(1,)), [6], [6])
    assert (result.kept_d10, result.kept_d6, result.success, result.outcome) == (
        6,
        6,
        True,
        "yes_and",
    )


@pytest.mark.parametrize(
    ("d10", "d6", "outcome"),
    [(5, 6, "yes_and"), (5, 4, "yes"), (5, 5, "yes"), (1, 3, "yes_but"), (6, 1, "no_but"),
     (6, 5, "no"), (10, 6, "no_and")],
)  # fmt: skip
def test_the_d10_decides_success_and_the_d6_the_degree(d10, d6, outcome):
    assert run(make(), [d10], [d6]).outcome == outcome


def test_bonus_dice_keep_the_highest_d10_at_or_below_the_chance():
    result = run(make(bonus=2), [2, 5, 8], [1])
    assert (result.kept_d10, result.success) == (5, True)


def test_bonus_dice_keep_the_highest_d10_when_all_fail():
    result = run(make(bonus=2), [6, 9, 7], [4])
    assert (result.kept_d10, result.outcome) == (9, "no")


def test_bonus_dice_keep_the_highest_d6_after_a_success():
    result = run(make(bonus=2, extra_d10=0), [3], [2, 6, 4])
    assert (result.kept_d6, result.outcome) == (6, "yes_and")


def test_bonus_dice_keep_the_highest_minor_d6_after_a_failure():
    result = run(make(bonus=3, extra_d10=0), [9], [6, 2, 3, 5])
    assert (result.kept_d6, result.outcome) == (3, "no_but")


def test_bonus_dice_keep_a_plain_d6_over_a_six_after_a_failure():
    result = run(make(bonus=2, extra_d10=0), [9], [6, 4, 5])
    assert (result.kept_d6, result.outcome) == (5, "no")


def test_bonus_dice_keep_the_six_only_when_every_d6_after_a_failure_is_a_six():
    assert run(make(bonus=1, extra_d10=0), [9], [6, 6]).outcome == "no_and"


def test_penalty_dice_fail_when_any_d10_fails_and_keep_the_lowest_failing_one():
    result = run(make(penalty=3), [2, 9, 7, 6], [4])
    assert (result.kept_d10, result.success, result.outcome) == (6, False, "no")


def test_penalty_dice_keep_the_lowest_d10_when_all_succeed():
    result = run(make(penalty=2), [4, 2, 5], [5])
    assert (result.kept_d10, result.outcome) == (2, "yes")


def test_penalty_dice_keep_the_lowest_minor_d6_after_a_success():
    result = run(make(penalty=2, extra_d10=0), [1], [3, 2, 6])
    assert (result.kept_d6, result.outcome) == (2, "yes_but")


def test_penalty_dice_keep_a_six_after_a_failure():
    result = run(make(penalty=2, extra_d10=0), [8], [1, 6, 4])
    assert (result.kept_d6, result.outcome) == (6, "no_and")


def test_penalty_dice_keep_the_lowest_plain_d6_after_a_failure_without_a_six():
    result = run(make(penalty=2, extra_d10=0), [8], [5, 1, 4])
    assert (result.kept_d6, result.outcome) == (4, "no")


def test_penalty_dice_keep_the_lowest_d6_when_all_are_minor_after_a_failure():
    result = run(make(penalty=2, extra_d10=0), [8], [3, 2, 3])
    assert (result.kept_d6, result.outcome) == (2, "no_but")


def test_the_chance_itself_is_a_success_and_one_above_a_failure():
    assert run(make(attribute=5), [5], [4]).success is True
    assert run(make(attribute=5), [6], [4]).success is False


def test_dice_list_every_die_with_the_kept_pair_marked_once():
    result = run(make(bonus=3, extra_d10=1), [4, 4], [6, 2, 6])
    assert [(d.sides, d.face, d.kept, d.group, d.why) for d in result.dice] == [
        (10, 4, True, "d10", "best"),
        (10, 4, False, "d10", "dropped"),
        (6, 6, True, "d6", "best"),
        (6, 2, False, "d6", "dropped"),
        (6, 6, False, "d6", "dropped"),
    ]


def test_dice_of_a_penalty_pool_say_the_worst_was_kept():
    result = run(make(penalty=1), [3, 7], [5])
    assert [d.why for d in result.dice] == ["dropped", "worst", "worst"]


def test_contract_holds_exactly_the_fields_of_engine_md():
    result = run(make(attribute=8, skills=(2,)), [10, 3], [2])
    assert result.contract() == {
        "chance_raw": 10, "chance": 9, "net": 1, "kept_d10": 3, "kept_d6": 2,
        "success": True, "outcome": "yes_but",
    }  # fmt: skip


def pair_rank(pair, chance):
    d10, d6 = pair
    if d10 <= chance:
        rank = 5 if d6 == 6 else 4 if d6 >= 4 else 3
    else:
        rank = 2 if d6 <= 3 else 1 if d6 <= 5 else 0
    return rank, d10


@settings(max_examples=150, deadline=None)
@given(
    chance=st.integers(1, 9),
    net=st.integers(-4, 4).filter(bool),
    d10=st.lists(st.integers(1, 10), min_size=1, max_size=4),
    d6=st.lists(st.integers(1, 6), min_size=1, max_size=4),
)
def test_the_kept_pair_is_the_most_or_least_favourable_of_all_pairs(chance, net, d10, d6):
    # Favourable = higher rank, then higher d10 (RULES.md step 7), checked against every pair.
    extra = len(d10) + len(d6) - 2
    sign = 1 if net > 0 else -1
    params = make(
        attribute=chance, bonus=extra if sign > 0 else 0, penalty=0 if sign > 0 else extra
    )
    params = replace(params, extra_d10=len(d10) - 1)
    if params.net == 0:
        return
    result = run(params, d10, d6)
    pairs = [pair_rank(pair, chance) for pair in itertools.product(d10, d6)]
    target = max(pairs) if params.net > 0 else min(pairs)
    assert (OUTCOMES.index(result.outcome), result.kept_d10) == target
    same_degree = [f for f in d6 if pair_rank((result.kept_d10, f), chance)[0] == target[0]]
    assert result.kept_d6 == (max(same_degree) if params.net > 0 else min(same_degree))


# --- Errors ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"skills": [0]}, "'attribute' is missing."),
        ({"attribute": 5, "luck": 1}, "Unknown field 'luck' in params."),
        ({"attribute": "5"}, "'attribute' must be a whole number, not '5'."),
        ({"attribute": 5.0}, "'attribute' must be a whole number, not 5.0."),
        ({"attribute": True}, "'attribute' must be a whole number, not True."),
        ({"attribute": 5, "skills": 1}, "'skills' must be a list of whole numbers."),
        ({"attribute": 5, "bonus": -1}, "'bonus' must be at least 0, not -1."),
        ({"attribute": 5, "penalty": -2}, "'penalty' must be at least 0, not -2."),
        ({"attribute": 5, "wounds": -1}, "'wounds' must be at least 0, not -1."),
        ({"attribute": 5, "npc_traits": [0]}, "'npc_traits[0]' must be at least 1, not 0."),
        ({"attribute": 5, "extra_d10": -1}, "'extra_d10' must be at least 0, not -1."),
        (
            {"attribute": 5, "bonus": 2, "extra_d10": 3},
            "'extra_d10' must be between 0 and 2, not 3.",
        ),
        ({"attribute": 5, "extra_d10": 1}, "'extra_d10' must be between 0 and 0, not 1."),
        ([], "The params must be a JSON object."),
    ],
)
def test_bad_params_are_refused_with_a_readable_sentence(raw, message):
    with pytest.raises(EngineError) as error:
        ft.parse_params(raw)
    assert str(error.value) == message


def test_a_test_needing_more_than_200_dice_is_refused():
    with pytest.raises(EngineError, match="needs 201 dice"):
        ft.parse_params({"attribute": 5, "skills": [0], "penalty": 199})


def test_an_overflowing_chance_counts_towards_the_dice_limit():
    with pytest.raises(EngineError, match="at most 200 dice"):
        ft.parse_params({"attribute": 208, "skills": [0]})


def test_exactly_200_dice_are_allowed():
    params = ft.parse_params({"attribute": 5, "skills": [0], "bonus": MAX_DICE - 2})
    assert params.d10_count + params.d6_count == MAX_DICE


@pytest.mark.parametrize(
    ("faces", "message"),
    [
        ({"d10": [1, 2]}, "The faces need the rolled 'd6' dice."),
        ({"d6": [1]}, "The faces need the rolled 'd10' dice."),
        ({"d10": [1], "d6": [1]}, "'d10' must hold exactly 2 dice, not 1."),
        ({"d10": [1, 2], "d6": [1, 2]}, "'d6' must hold exactly 1 dice, not 2."),
        ({"d10": [1, 11], "d6": [1]}, "'d10[1]' must be between 1 and 10, not 11."),
        ({"d10": [1, 2], "d6": [7]}, "'d6[0]' must be between 1 and 6, not 7."),
        ({"d10": [1, 2], "d6": [0]}, "'d6[0]' must be between 1 and 6, not 0."),
        ({"d10": [1, 2], "d6": [1], "d8": [1]}, "Unknown field 'd8' in faces."),
        ([1, 2, 3], "The faces must be a JSON object."),
    ],
)
def test_bad_faces_are_refused(faces, message):
    params = make(bonus=1)
    with pytest.raises(EngineError) as error:
        ft.parse_faces(params, faces)
    assert str(error.value) == message


# --- Odds ----------------------------------------------------------------------------------------


def brute_force(params: ft.Params) -> dict[str, float]:
    counts: Counter[str] = Counter()
    total = 0
    for d10 in itertools.product(range(1, 11), repeat=params.d10_count):
        for d6 in itertools.product(range(1, 7), repeat=params.d6_count):
            counts[ft.resolve(params, ft.Faces(d10, d6)).outcome] += 1
            total += 1
    return {key: counts[key] / total for key in OUTCOMES}


def test_odds_of_a_plain_test_are_chance_tenths_times_the_d6_degree():
    assert ft.odds(make(attribute=7))["odds"] == pytest.approx(
        {"yes_and": 0.7 / 6, "yes": 0.7 / 3, "yes_but": 0.35,
         "no_but": 0.15, "no": 0.1, "no_and": 0.05}, abs=1e-12,
    )  # fmt: skip


def test_odds_answer_has_every_outcome_key_even_when_impossible():
    result = ft.odds(make(attribute=9, skills=(0,), bonus=50))["odds"]
    assert set(result) == set(OUTCOMES)
    assert sum(result.values()) == pytest.approx(1.0, abs=1e-12)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    attribute=st.integers(-2, 12),
    bonus=st.integers(0, 3),
    penalty=st.integers(0, 3),
    data=st.data(),
)
def test_odds_equal_brute_force_enumeration_over_all_faces(attribute, bonus, penalty, data):
    params = make(attribute=attribute, skills=(), bonus=bonus, penalty=penalty)
    if params.d10_count + params.d6_count > 5:
        return
    params = replace(params, extra_d10=data.draw(st.integers(0, abs(params.net))))
    exact = ft.odds(params)["odds"]
    assert sum(exact.values()) == pytest.approx(1.0, abs=1e-9)
    assert exact == pytest.approx(brute_force(params), abs=1e-9)


def test_odds_use_the_requested_split():
    all_d10 = ft.odds(make(bonus=2, extra_d10=2))["odds"]
    all_d6 = ft.odds(make(bonus=2, extra_d10=0))["odds"]
    assert all_d10["no"] + all_d10["no_but"] + all_d10["no_and"] == pytest.approx(0.5**3)
    assert all_d6["yes_and"] == pytest.approx(0.5 * (1 - (5 / 6) ** 3))


def test_four_to_seven_penalty_d10s_cut_the_chance_of_winning_sharply():
    # The seed: 6-7 penalty dice lower the chance of winning by about 50-60% (with d10s).
    plain = 1 - sum(ft.odds(make(attribute=7))["odds"][k] for k in ("no", "no_but", "no_and"))
    hard = 1 - sum(
        ft.odds(make(attribute=7, penalty=6))["odds"][k] for k in ("no", "no_but", "no_and")
    )
    assert plain - hard > 0.5


# --- Splits --------------------------------------------------------------------------------------


def test_split_odds_give_the_odds_of_every_number_of_extra_d10s():
    splits = ft.split_odds(make(bonus=3, extra_d10=0))
    assert [split.extra_d10 for split in splits] == [0, 1, 2, 3]
    for split in splits:
        assert split.odds == ft.odds(make(bonus=3, extra_d10=split.extra_d10))["odds"]


def test_split_success_and_mean_rank_summarise_the_odds():
    split = ft.split_odds(make(attribute=4))[0]
    assert split.success == pytest.approx(0.4)
    # Success: ranks 5, 4, 3 with 1/6, 1/3, 1/2; failure: ranks 2, 1, 0 with 1/2, 1/3, 1/6.
    assert split.mean_rank == pytest.approx(0.4 * (5 / 6 + 4 / 3 + 3 / 2) + 0.6 * (1 + 1 / 3))


def test_best_split_with_bonus_dice_rolls_every_extra_die_as_a_d10():
    best = ft.best_split(make(bonus=4))
    assert best.extra_d10 == 4
    assert best.success == pytest.approx(1 - 0.5**5)


def test_best_split_with_penalty_dice_rolls_every_extra_die_as_a_d6():
    best = ft.best_split(make(penalty=4))
    assert best.extra_d10 == 0
    assert best.success == pytest.approx(0.5)


def test_best_split_breaks_success_ties_by_mean_rank_then_by_more_d10s():
    a = ft.Split(0, {}, 0.5, 2.0)
    b = ft.Split(1, {}, 0.5, 2.5)
    c = ft.Split(2, {}, 0.5, 2.5)
    assert ft.choose_split([a, b]) == b
    assert ft.choose_split([c, b, a]) == c
    assert ft.choose_split([b, c]) == c


def test_choosing_from_no_splits_is_an_error():
    with pytest.raises(EngineError):
        ft.choose_split([])


# --- Opposed -------------------------------------------------------------------------------------


def test_the_higher_rank_wins_by_the_difference_of_ranks():
    a = run(make(), [2], [6])  # yes_and
    b = run(make(), [9], [5])  # no
    outcome = ft.opposed(a, b)
    assert (outcome.winner, outcome.margin, outcome.label) == ("a", 4, "clear_win")


def test_equal_ranks_go_to_the_higher_chance_raw_as_a_minor_victory():
    a = run(make(attribute=4), [2], [4])
    b = run(make(attribute=6), [1], [5])
    outcome = ft.opposed(a, b)
    assert (outcome.winner, outcome.margin, outcome.decided_by, outcome.label) == (
        "b", 0, "chance_raw", "minor")  # fmt: skip


def test_chance_raw_beyond_nine_still_breaks_the_tie():
    a = run(make(attribute=9, skills=(2,), extra_d10=0), [3], [4, 1])
    b = run(make(attribute=9, bonus=2, extra_d10=0), [3], [4, 1, 2])
    assert ft.opposed(a, b).winner == "a"


def test_then_the_higher_kept_d10_wins():
    a = run(make(), [3], [4])
    b = run(make(), [5], [4])
    outcome = ft.opposed(a, b)
    assert (outcome.winner, outcome.margin, outcome.decided_by) == ("b", 0, "kept_d10")


def test_otherwise_the_opposed_test_is_a_draw():
    a = run(make(), [3], [4])
    b = run(make(), [3], [5])
    outcome = ft.opposed(a, b)
    assert (outcome.winner, outcome.margin, outcome.label) == (None, 0, "draw")


@pytest.mark.parametrize(
    ("winner", "margin", "label"),
    [(None, 0, "draw"), ("a", 0, "minor"), ("a", 1, "win"), ("b", 2, "win"),
     ("a", 3, "clear_win"), ("b", 4, "clear_win"), ("a", 5, "critical_win")],
)  # fmt: skip
def test_victory_labels_follow_the_decision_on_margins(winner, margin, label):
    assert ft.victory_label(winner, margin) == label


# --- Protocol ------------------------------------------------------------------------------------


def test_protocol_resolves_a_fasttest_request():
    reply = answer({"system": "fasttest", "op": "resolve",
                    "params": {"attribute": 2, "skills": [-2], "bonus": 0, "penalty": 0},
                    "faces": {"d10": [1, 4], "d6": [6]}})  # fmt: skip
    assert reply == {"chance_raw": 0, "chance": 1, "net": -1, "kept_d10": 4, "kept_d6": 6,
                     "success": False, "outcome": "no_and"}  # fmt: skip


def test_protocol_answers_exact_odds():
    reply = answer({"system": "fasttest", "op": "odds", "params": {"attribute": 5, "skills": [0]}})
    assert reply == {"odds": {"no_and": 0.5 / 6, "no": 0.5 / 3, "no_but": 0.25,
                              "yes_but": 0.25, "yes": 0.5 / 3, "yes_and": 0.5 / 6}}  # fmt: skip


def test_protocol_answers_an_opposed_test():
    side = {"params": {"attribute": 5, "skills": [1]}, "faces": {"d10": [3], "d6": [4]}}
    other = {"params": {"attribute": 5, "skills": [0]}, "faces": {"d10": [3], "d6": [5]}}
    reply = answer({"system": "fasttest", "op": "opposed", "a": side, "b": other})
    assert reply["winner"] == "a"
    assert reply["margin"] == 0
    assert reply["b"] == {"chance_raw": 5, "chance": 5, "net": 0, "kept_d10": 3, "kept_d6": 5,
                          "success": True, "outcome": "yes"}  # fmt: skip


def test_protocol_turns_bad_requests_into_error_answers():
    reply = answer({"system": "fasttest", "op": "resolve", "params": {"attribute": 5},
                    "faces": {"d10": [3, 4], "d6": [4]}})  # fmt: skip
    assert reply == {"error": "'d10' must hold exactly 1 dice, not 2."}


# --- Properties ----------------------------------------------------------------------------------

anything = st.one_of(
    st.none(), st.booleans(), st.integers(-300, 300), st.floats(allow_nan=False),
    st.text(max_size=3), st.lists(st.integers(-5, 12), max_size=4),
)  # fmt: skip
raw_params = st.dictionaries(
    st.sampled_from(list(ft.ALLOWED) + ["other"]), anything, max_size=8
) | st.fixed_dictionaries(
    {"attribute": st.integers(-5, 15), "skills": st.lists(st.integers(-3, 3), max_size=3),
     "bonus": st.integers(0, 6), "penalty": st.integers(0, 6),
     "npc_traits": st.lists(st.integers(0, 5), max_size=3), "wounds": st.integers(-1, 3),
     "extra_d10": st.integers(-1, 6)}
)  # fmt: skip
raw_faces = st.one_of(
    anything,
    st.dictionaries(st.sampled_from(["d10", "d6", "d8"]), anything, max_size=3),
    st.fixed_dictionaries({"d10": st.lists(st.integers(0, 11), max_size=8),
                           "d6": st.lists(st.integers(0, 7), max_size=8)}),
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(raw=raw_params, faces=raw_faces)
def test_any_request_resolves_or_raises_engine_error(raw, faces):
    try:
        params = ft.parse_params(raw)
        ft.odds(params)
        ft.best_split(params)
        ft.resolve(params, ft.parse_faces(params, faces)).contract()
    except EngineError:
        pass


class Recorder:
    """Wraps a random source and remembers each face it gives."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.faces: list[tuple[int, int]] = []

    def randint(self, a: int, b: int) -> int:
        face = self.rng.randint(a, b)
        self.faces.append((b, face))
        return face


@settings(max_examples=100, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    attribute=st.integers(-3, 13),
    bonus=st.integers(0, 5),
    penalty=st.integers(0, 5),
    data=st.data(),
)
def test_roll_equals_resolve_on_the_faces_it_drew(seed, attribute, bonus, penalty, data):
    params = make(attribute=attribute, skills=(), bonus=bonus, penalty=penalty)
    params = replace(params, extra_d10=data.draw(st.integers(0, abs(params.net))))
    rng = Recorder(seed)
    result = ft.roll(params, rng)
    d10 = tuple(face for sides, face in rng.faces if sides == 10)
    d6 = tuple(face for sides, face in rng.faces if sides == 6)
    assert len(rng.faces) == params.d10_count + params.d6_count
    assert result == ft.resolve(params, ft.Faces(d10, d6))
