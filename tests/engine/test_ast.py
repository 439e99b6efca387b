"""Alternative Test System (RULES.md section 2, ENGINE.md ``ast``)."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rolls.engine import ast
from rolls.engine.core import MAX_DICE, OUTCOMES, EngineError
from rolls.engine.protocol import answer


def test_the_module_is_the_engine_s_not_the_standard_library_s():
    assert ast.__name__ == "rolls.engine.ast"
    assert hasattr(ast, "resolve")


def check(white, black, faces, level_mod=0, choice=None):
    params = ast.parse_params({"white": white, "level_mod": level_mod, "choice": choice})
    return ast.resolve(params, ast.parse_faces(params, {"black": black, "white": faces}))


# --- worked examples of RULES.md ------------------------------------------------------------


def test_example_1_olaf_with_five_white_dice_against_a_black_4_is_eased_and_reads_the_6():
    result = check(5, 4, [3, 3, 6, 4, 1])
    assert result.contract() == {
        "level": 4,
        "mode": "eased",
        "read": "white",
        "face": 6,
        "outcome": "yes_and",
        "extra_and": 0,
        "funt_gained": 0,
    }


def test_example_1a_tired_olaf_is_even_and_reads_the_black_4_as_a_plain_yes():
    result = check(5, 4, [3, 3, 6, 4, 1], level_mod=1)
    assert (result.level, result.mode, result.read) == (5, "even", "black")
    assert (result.face, result.outcome, result.extra_and, result.funt_gained) == (4, "yes", 0, 0)


def test_example_1b_tired_and_wounded_olaf_is_hindered_and_the_gm_reads_the_1():
    result = check(5, 4, [3, 3, 6, 4, 1], level_mod=2)
    assert (result.level, result.mode, result.read, result.face) == (6, "hindered", "white", 1)
    assert result.outcome == "no_and"


def test_example_2_a_funt_die_makes_six_white_dice_even_with_level_6_and_reads_black_yes():
    result = check(6, 4, [2, 2, 6, 4, 1, 5], level_mod=2)
    assert (result.level, result.mode, result.read, result.outcome) == (6, "even", "black", "yes")
    # A white 4 beside the black 4 is no multiple, and the doubled 2 is not read.
    assert (result.extra_and, result.funt_gained) == (0, 0)


def test_example_2a_re_rolling_the_1_into_a_5_leaves_the_test_hindered_and_reads_the_5():
    first = check(5, 4, [2, 2, 6, 4, 1], level_mod=2)
    assert (first.mode, first.outcome) == ("hindered", "no_and")
    second = ast.reroll(first, [4], [5])
    assert second.white == (2, 2, 6, 4, 5)
    assert (second.mode, second.face, second.outcome, second.extra_and) == (
        "hindered",
        5,
        "no_but",
        0,
    )
    assert second.previous is first
    assert (second.rerolled, second.funt_spent) == ((4,), 1)


def test_example_3_the_gm_reads_the_doubled_2_for_yes_but_one_and_and_one_funt():
    result = check(5, 4, [2, 2, 6, 4, 6], level_mod=2)
    assert (result.mode, result.face, result.outcome) == ("hindered", 2, "yes_but")
    assert (result.extra_and, result.funt_gained) == (1, 1)


def test_example_4_a_hindered_5_5_4_reads_the_doubled_5_for_no_but_and_one_funt():
    result = check(3, 4, [5, 5, 4])
    assert (result.mode, result.outcome, result.extra_and, result.funt_gained) == (
        "hindered",
        "no_but",
        1,
        1,
    )


def test_example_5_an_eased_player_may_read_the_doubled_2_for_yes_but_and_and_a_funt():
    result = check(3, 1, [2, 2, 4], choice=1)
    assert (result.mode, result.outcome, result.extra_and, result.funt_gained) == (
        "eased",
        "yes_but",
        1,
        1,
    )


def test_example_5_the_same_player_may_read_the_4_for_a_plain_yes_and_no_funt():
    result = check(3, 1, [2, 2, 4], choice=2)
    assert (result.outcome, result.extra_and, result.funt_gained) == ("yes", 0, 0)


def test_example_5_by_default_the_best_face_4_is_read_not_the_doubled_2():
    assert check(3, 1, [2, 2, 4]).outcome == "yes"


# --- rules and decisions ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("face", "outcome"),
    [(1, "no_and"), (2, "yes_but"), (3, "no"), (4, "yes"), (5, "no_but"), (6, "yes_and")],
)
def test_each_face_of_the_black_die_answers_its_outcome(face, outcome):
    result = check(face, face, [1] * face)  # as many white dice as the level: even
    assert (result.mode, result.read, result.outcome) == ("even", "black", outcome)


def test_faces_from_best_to_worst_are_6_4_2_5_3_1():
    assert ast.BEST_TO_WORST == (6, 4, 2, 5, 3, 1)


def test_eased_reads_the_best_face_by_that_order_not_the_highest_number():
    assert check(3, 1, [5, 2, 3]).face == 2


def test_hindered_reads_the_worst_face_by_that_order_not_the_lowest_number():
    assert check(2, 6, [2, 3]).face == 3


def test_more_white_dice_than_the_level_is_eased_fewer_hindered_equal_even():
    assert ast.mode_for(5, 4) == "eased"
    assert ast.mode_for(3, 4) == "hindered"
    assert ast.mode_for(4, 4) == "even"


def test_level_is_the_black_die_plus_the_fixed_modifiers():
    assert check(2, 3, [6, 6], level_mod=4).level == 7


def test_without_white_dice_two_are_rolled_and_the_test_is_hindered():
    result = check(0, 1, [6, 4])
    assert (result.mode, result.read, result.face, result.outcome) == (
        "hindered",
        "white",
        4,
        "yes",
    )


def test_without_white_dice_the_faces_need_exactly_two_white_dice():
    params = ast.parse_params({"white": 0})
    with pytest.raises(EngineError, match="exactly 2 dice"):
        ast.parse_faces(params, {"black": 3, "white": []})


def test_without_white_dice_a_double_still_counts_as_a_multiple():
    result = check(0, 2, [3, 3])
    assert (result.outcome, result.extra_and, result.funt_gained) == ("no", 1, 1)


def test_a_triple_gives_two_extra_ands_but_only_one_funt():
    result = check(4, 1, [6, 6, 6, 2])
    assert (result.outcome, result.extra_and, result.funt_gained) == ("yes_and", 2, 1)


def test_white_dice_matching_the_black_die_read_give_no_multiple():
    result = check(3, 3, [3, 3, 3])
    assert (result.read, result.extra_and, result.funt_gained) == ("black", 0, 0)


def test_choice_is_ignored_when_the_black_die_is_read():
    assert check(3, 3, [6, 6, 1], choice=2).contract() == check(3, 3, [6, 6, 1]).contract()


def test_the_gm_s_choice_on_a_hindered_test_is_honoured():
    result = check(2, 6, [1, 6], choice=1)
    assert (result.mode, result.outcome, result.read_index) == ("hindered", "yes_and", 1)


def test_a_choice_past_the_white_dice_is_an_error_even_if_the_black_die_would_be_read():
    with pytest.raises(EngineError, match="'choice' must be between 0 and 2"):
        ast.parse_params({"white": 3, "choice": 3})


def test_a_negative_choice_is_an_error():
    with pytest.raises(EngineError, match="'choice'"):
        ast.parse_params({"white": 3, "choice": -1})


def test_the_dice_of_the_log_mark_the_read_die_and_its_matches():
    dice = check(3, 1, [2, 4, 2], choice=2).dice
    assert [(d.group, d.face, d.kept, d.why) for d in dice] == [
        ("black", 1, False, ""),
        ("white", 2, True, "match"),
        ("white", 4, False, ""),
        ("white", 2, True, "read"),
    ]


def test_the_dice_of_the_log_mark_the_black_die_when_it_is_read():
    dice = check(2, 2, [5, 6]).dice
    assert [(d.group, d.kept, d.why) for d in dice] == [
        ("black", True, "read"),
        ("white", False, ""),
        ("white", False, ""),
    ]


def test_challenge_points_are_one_per_player_without_the_gm():
    assert ast.challenge_points(5) == 5
    assert ast.challenge_points(0) == 0


@pytest.mark.parametrize("players", [-1, True, 2.0, "3"])
def test_challenge_points_refuse_anything_but_a_count(players):
    with pytest.raises(EngineError):
        ast.challenge_points(players)


# --- params and faces errors --------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({}, "'white' is missing"),
        ({"white": -1}, "'white' must be at least 0"),
        ({"white": 2, "level_mod": -1}, "'level_mod' must be at least 0"),
        ({"white": True}, "whole number"),
        ({"white": 3.0}, "whole number"),
        ({"white": 2, "level_mod": "1"}, "whole number"),
        ({"white": 2, "chioce": 1}, "Unknown field 'chioce'"),
        ({"white": MAX_DICE}, "201 dice"),
        ([], "JSON object"),
    ],
)
def test_bad_params_are_refused_with_a_sentence(raw, message):
    with pytest.raises(EngineError, match=message):
        ast.parse_params(raw)


def test_level_mod_defaults_to_0_and_choice_to_the_default_reading():
    assert ast.parse_params({"white": 2}) == ast.Params(2, 0, None)


def test_199_white_dice_and_the_black_one_are_the_most_a_test_may_roll():
    params = ast.parse_params({"white": MAX_DICE - 1})
    faces = ast.parse_faces(params, {"black": 6, "white": [4] * (MAX_DICE - 1)})
    assert ast.resolve(params, faces).mode == "eased"


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"black": 0, "white": [1, 2]}, "'black' must be between 1 and 6"),
        ({"black": 7, "white": [1, 2]}, "'black' must be between 1 and 6"),
        ({"white": [1, 2]}, "'black' is missing"),
        ({"black": 3}, "'white' is missing"),
        ({"black": 3, "white": [1]}, "exactly 2 dice, not 1"),
        ({"black": 3, "white": [1, 2, 3]}, "exactly 2 dice, not 3"),
        ({"black": 3, "white": [1, 7]}, r"'white\[1\]' must be between 1 and 6"),
        ({"black": 3, "white": "12"}, "list of whole numbers"),
        ({"black": 3, "white": [1, 2], "red": 1}, "Unknown field 'red' in faces"),
        ([3, 1, 2], "faces must be a JSON object"),
    ],
)
def test_bad_faces_are_refused_with_a_sentence(raw, message):
    with pytest.raises(EngineError, match=message):
        ast.parse_faces(ast.parse_params({"white": 2}), raw)


# --- the FUNT re-roll -----------------------------------------------------------------------


def test_a_re_roll_keeps_the_level_and_the_mode_and_chooses_the_read_die_anew():
    first = check(3, 4, [1, 6, 6])  # hindered: the 1
    second = ast.reroll(first, [0, 2], [6, 2])
    assert (second.level, second.mode, second.white) == (4, "hindered", (6, 6, 2))
    assert (second.outcome, second.extra_and) == ("yes_but", 0)


def test_a_re_roll_can_take_the_player_s_choice_of_die():
    first = check(4, 1, [1, 1, 3, 5])  # eased
    second = ast.reroll(first, [0, 1], [2, 2], choice=0)
    assert (second.outcome, second.extra_and, second.funt_gained) == ("yes_but", 1, 1)
    assert second.params.choice == 0


def test_a_test_can_be_re_rolled_only_once():
    second = ast.reroll(check(3, 4, [1, 6, 6]), [0], [6])
    with pytest.raises(EngineError, match="only once"):
        ast.reroll(second, [1], [2])


def test_a_re_roll_cannot_take_more_dice_than_were_rolled():
    with pytest.raises(EngineError, match="Only 3 white dice were rolled; 4 cannot"):
        ast.reroll(check(3, 4, [1, 6, 6]), [0, 1, 2, 0], [1, 1, 1, 1])


def test_a_re_roll_names_each_die_once():
    with pytest.raises(EngineError, match="named twice"):
        ast.reroll(check(3, 4, [1, 6, 6]), [0, 0], [2, 2])


def test_a_re_roll_needs_at_least_one_die():
    with pytest.raises(EngineError, match="at least one white die"):
        ast.reroll(check(3, 4, [1, 6, 6]), [], [])


def test_a_re_roll_refuses_an_index_past_the_white_dice():
    with pytest.raises(EngineError, match=r"'indices\[0\]' must be between 0 and 2"):
        ast.reroll(check(3, 4, [1, 6, 6]), [3], [2])


def test_a_re_roll_needs_one_new_face_per_die():
    with pytest.raises(EngineError, match="exactly 2 dice, not 1"):
        ast.reroll(check(3, 4, [1, 6, 6]), [0, 1], [2])


def test_a_re_roll_refuses_a_choice_past_the_white_dice():
    with pytest.raises(EngineError, match="'choice' must be between 0 and 2"):
        ast.reroll(check(3, 1, [1, 6, 6]), [0], [2], choice=5)


def test_a_drawn_re_roll_replaces_exactly_the_named_dice():
    first = check(5, 1, [1, 2, 3, 4, 5])
    second = ast.roll_reroll(first, [1, 3], random.Random(7))
    assert [second.white[i] for i in (0, 2, 4)] == [1, 3, 5]
    assert second.previous is first


def test_a_drawn_re_roll_checks_the_dice_before_drawing():
    class NoDice:
        def randint(self, a, b):
            raise AssertionError("drew a die")

    with pytest.raises(EngineError, match="named twice"):
        ast.roll_reroll(check(3, 4, [1, 6, 6]), [1, 1], NoDice())


# --- odds ---------------------------------------------------------------------------------


def brute_force_odds(params):
    counts = Counter()
    n = params.rolled_white
    for black, *white in itertools.product(range(1, 7), repeat=n + 1):
        counts[ast.resolve(params, ast.Faces(black, tuple(white))).outcome] += 1
    return {outcome: counts[outcome] / 6 ** (n + 1) for outcome in OUTCOMES}


@pytest.mark.parametrize("white", [0, 1, 2, 3, 4])
@pytest.mark.parametrize("level_mod", [0, 1, 2, 4, 7])
def test_odds_equal_brute_force_over_every_face(white, level_mod):
    params = ast.parse_params({"white": white, "level_mod": level_mod})
    exact = ast.odds(params)["odds"]
    assert list(exact) == list(OUTCOMES)
    assert sum(exact.values()) == pytest.approx(1, abs=1e-12)
    brute = brute_force_odds(params)
    for outcome in OUTCOMES:
        assert exact[outcome] == pytest.approx(brute[outcome], abs=1e-12)


def test_odds_without_white_dice_are_those_of_the_worst_of_two():
    exact = ast.odds(ast.parse_params({"white": 0}))["odds"]
    assert exact["no_and"] == pytest.approx(11 / 36, abs=1e-12)
    assert exact["yes_and"] == pytest.approx(1 / 36, abs=1e-12)


def test_odds_ignore_the_choice_and_use_the_default_readings():
    with_choice = ast.odds(ast.parse_params({"white": 3, "choice": 0}))
    assert with_choice == ast.odds(ast.parse_params({"white": 3}))


def test_odds_with_a_high_level_are_always_hindered():
    exact = ast.odds(ast.parse_params({"white": 2, "level_mod": 2}))["odds"]
    # the black die is at least 1, so the level is at least 3 > 2 white dice
    assert exact["no_and"] == pytest.approx(11 / 36, abs=1e-12)


# --- properties -----------------------------------------------------------------------------

ANYTHING = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 12),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(max_size=3),
    st.lists(st.integers(-1, 8), max_size=9),
)
PARAMS = st.one_of(
    st.dictionaries(st.sampled_from(["white", "level_mod", "choice", "colour"]), ANYTHING),
    ANYTHING,
)
FACES = st.one_of(
    st.fixed_dictionaries(
        {"black": st.integers(0, 7), "white": st.lists(st.integers(0, 7), max_size=9)}
    ),
    st.dictionaries(st.sampled_from(["black", "white", "red"]), ANYTHING),
    ANYTHING,
)


@settings(max_examples=300, deadline=None)
@given(raw_params=PARAMS, raw_faces=FACES)
def test_any_request_resolves_or_is_refused_with_an_engine_error(raw_params, raw_faces):
    try:
        params = ast.parse_params(raw_params)
        result = ast.resolve(params, ast.parse_faces(params, raw_faces))
    except EngineError:
        return
    assert result.outcome in OUTCOMES


@settings(max_examples=200, deadline=None)
@given(raw_params=PARAMS)
def test_any_odds_request_sums_to_1_or_is_refused_with_an_engine_error(raw_params):
    try:
        params = ast.parse_params(raw_params)
    except EngineError:
        return
    assert sum(ast.odds(params)["odds"].values()) == pytest.approx(1, abs=1e-9)


class RecordingRandom:
    """random.Random that remembers every face it gives out."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.drawn = []

    def randint(self, a, b):
        face = self.rng.randint(a, b)
        self.drawn.append(face)
        return face


@settings(max_examples=100, deadline=None)
@given(
    white=st.integers(0, 12),
    level_mod=st.integers(0, 8),
    seed=st.integers(0, 2**32),
    data=st.data(),
)
def test_a_roll_equals_the_resolution_of_the_faces_it_drew(white, level_mod, seed, data):
    rolled = white or 2
    choice = data.draw(st.one_of(st.none(), st.integers(0, rolled - 1)))
    params = ast.Params(white, level_mod, choice)
    rng = RecordingRandom(seed)
    result = ast.roll(params, rng)
    black, *faces = rng.drawn
    assert len(faces) == rolled
    assert result == ast.resolve(params, ast.parse_faces(params, {"black": black, "white": faces}))


# --- through the protocol -------------------------------------------------------------------


def test_the_protocol_answers_a_resolve_with_the_exact_contract():
    reply = answer(
        {
            "system": "ast",
            "op": "resolve",
            "params": {"white": 5, "level_mod": 2, "choice": None},
            "faces": {"black": 4, "white": [2, 2, 6, 4, 6]},
        }
    )
    assert reply == {
        "level": 6,
        "mode": "hindered",
        "read": "white",
        "face": 2,
        "outcome": "yes_but",
        "extra_and": 1,
        "funt_gained": 1,
    }


def test_the_protocol_answers_odds_with_the_six_outcome_keys():
    reply = answer({"system": "ast", "op": "odds", "params": {"white": 0, "level_mod": 0}})
    assert set(reply) == {"odds"}
    assert list(reply["odds"]) == list(OUTCOMES)


def test_the_protocol_refuses_faces_of_the_wrong_count():
    reply = answer(
        {
            "system": "ast",
            "op": "resolve",
            "params": {"white": 3},
            "faces": {"black": 4, "white": [1, 2]},
        }
    )
    assert reply == {"error": "'white' must hold exactly 3 dice, not 2."}


def test_the_protocol_has_no_opposed_test_for_ast():
    reply = answer({"system": "ast", "op": "opposed", "a": {}, "b": {}})
    assert reply == {"error": "The ast system has no opposed tests."}
