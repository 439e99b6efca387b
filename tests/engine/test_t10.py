"""T10 pool, Moorcrest (RULES.md section 3, ENGINE.md ``t10``)."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rolls.engine import t10
from rolls.engine.core import MAX_DICE, EngineError
from rolls.engine.protocol import answer


def check(pool, faces, difficulty=7):
    params = t10.parse_params({"pool": pool, "difficulty": difficulty})
    return t10.resolve(params, t10.parse_faces(params, faces))


def flags(result):
    return [(d.group, d.face, d.kept, d.why) for d in result.dice]


# --- the rules ------------------------------------------------------------------------------


def test_three_dice_at_or_above_the_usual_difficulty_7_are_a_plain_success():
    result = check(4, [7, 9, 8, 6])
    assert result.contract() == {
        "result": 3,
        "outcome": "success",
        "severity": 0,
        "extra_options": 0,
        "dice_rolled": 4,
        "automatic": False,
    }


def test_difficulty_defaults_to_7():
    assert t10.parse_params({"pool": 3}) == t10.Params(3, 7)


def test_a_die_equal_to_the_difficulty_succeeds_and_one_below_fails():
    assert check(2, [5, 4], difficulty=5).result == 1


def test_at_difficulty_4_a_4_succeeds():
    assert check(3, [4, 3, 2], difficulty=4).result == 1


def test_at_difficulty_10_only_10s_succeed():
    assert check(3, [9, 9, 10, 4], difficulty=10).result == 1


def test_a_1_cancels_the_highest_success_first_so_a_10_does_not_explode():
    result = check(3, [8, 10, 1])
    assert (result.result, result.dice_rolled, result.batches) == (1, 3, (3,))
    assert flags(result) == [
        ("batch 1", 8, True, "success"),
        ("batch 1", 10, False, "cancelled"),
        ("batch 1", 1, True, "setback"),
    ]


def test_among_equal_faces_the_first_rolled_is_cancelled():
    result = check(3, [9, 9, 1])
    assert [d.why for d in result.dice] == ["cancelled", "success", "setback"]


def test_a_1_without_successes_still_costs_one_point():
    result = check(3, [1, 1, 8])
    assert (result.result, result.outcome, result.severity) == (-1, "catastrophe", 1)


def test_an_uncancelled_10_explodes_into_one_new_die():
    result = check(2, [10, 5, 8])
    assert (result.result, result.dice_rolled, result.batches) == (2, 3, (2, 1))
    assert flags(result) == [
        ("batch 1", 10, True, "exploded"),
        ("batch 1", 5, False, ""),
        ("batch 2", 8, True, "success"),
    ]


def test_two_10s_and_a_1_leave_one_explosion():
    result = check(3, [10, 1, 10, 3])
    assert (result.result, result.batches) == (1, (3, 1))


def test_explosion_dice_keep_exploding_and_suffer_setbacks_batch_by_batch():
    # 1 from the 10, then 1 more from the exploded 10, then the third die's 1 costs a point.
    result = check(1, [10, 10, 1])
    assert (result.result, result.outcome, result.batches) == (1, "fail_but", (1, 1, 1))
    assert [d.group for d in result.dice] == ["batch 1", "batch 2", "batch 3"]


def test_a_1_in_an_explosion_batch_cancels_only_that_batch_s_successes():
    # batch 1: three 10s (+3, three new dice); batch 2: the 1 cancels the 10 there, not earlier.
    result = check(3, [10, 10, 10, 10, 1, 4])
    assert (result.result, result.batches) == (3, (3, 3))
    assert [d.why for d in result.dice][:3] == ["exploded"] * 3
    assert [d.why for d in result.dice][3:] == ["cancelled", "setback", ""]


@pytest.mark.parametrize(
    ("result", "outcome", "severity", "extra"),
    [
        (-3, "catastrophe", 3, 0),
        (-1, "catastrophe", 1, 0),
        (0, "fail", 0, 0),
        (1, "fail_but", 0, 0),
        (2, "success_but", 0, 0),
        (3, "success", 0, 0),
        (4, "impressive", 0, 1),
        (7, "impressive", 0, 4),
    ],
)
def test_each_net_result_gives_its_outcome_severity_and_extra_options(
    result, outcome, severity, extra
):
    faces = [1] * -result if result < 0 else [8] * result + [5] * (7 - result)
    resolved = check(len(faces), faces)
    assert (resolved.result, resolved.outcome) == (result, outcome)
    assert (resolved.severity, resolved.extra_options) == (severity, extra)


def test_a_pool_of_0_is_an_automatic_fail_with_no_dice():
    assert check(0, []).contract() == {
        "result": 0,
        "outcome": "fail",
        "severity": 0,
        "extra_options": 0,
        "dice_rolled": 0,
        "automatic": True,
    }


def test_a_negative_pool_is_an_automatic_fail_too():
    result = check(-3, [])
    assert (result.outcome, result.automatic, result.dice) == ("fail", True, ())


def test_a_negative_pool_rolls_nothing():
    class NoDice:
        def randint(self, a, b):
            raise AssertionError("drew a die")

    assert t10.roll(t10.Params(-2, 7), NoDice()).automatic


# --- params and faces errors --------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({}, "'pool' is missing"),
        ({"pool": 3, "difficulty": 3}, "'difficulty' must be between 4 and 10, not 3"),
        ({"pool": 3, "difficulty": 11}, "'difficulty' must be between 4 and 10, not 11"),
        ({"pool": True}, "whole number"),
        ({"pool": 3.0}, "whole number"),
        ({"pool": 3, "difficulty": "7"}, "whole number"),
        ({"pool": 3, "again": True}, "Unknown field 'again'"),
        ({"pool": MAX_DICE + 1}, "201 dice"),
        ("pool", "JSON object"),
    ],
)
def test_bad_params_are_refused_with_a_sentence(raw, message):
    with pytest.raises(EngineError, match=message):
        t10.parse_params(raw)


@pytest.mark.parametrize(
    ("pool", "faces", "message"),
    [
        (3, [5, 5], "Too few faces: batch 1 needs 3 dice but only 2"),
        (2, [10, 5], "Too few faces: batch 2 needs 1 dice but only 0"),
        (2, [10, 10, 10], "Too few faces: batch 2 needs 2 dice but only 1"),
        (2, [5, 5, 5], "Too many faces: this roll has 2 dice, not 3"),
        (2, [10, 1, 5], "Too many faces"),
        (2, [0, 5], r"'faces\[0\]' must be between 1 and 10"),
        (2, [5, 11], r"'faces\[1\]' must be between 1 and 10"),
        (2, [5, True], "whole numbers only"),
        (2, {"a": 1}, "list of whole numbers"),
        (0, [5], "rolls no dice"),
        (-1, [5, 5], "rolls no dice"),
    ],
)
def test_bad_faces_are_refused_with_a_sentence(pool, faces, message):
    with pytest.raises(EngineError, match=message):
        t10.parse_faces(t10.parse_params({"pool": pool}), faces)


def test_a_pool_of_200_without_explosions_resolves():
    assert check(MAX_DICE, [5] * MAX_DICE).dice_rolled == MAX_DICE


def test_faces_whose_explosions_pass_200_dice_are_refused():
    with pytest.raises(EngineError, match="at least 201 dice; at most 200"):
        check(MAX_DICE, [10] + [5] * (MAX_DICE - 1))


def test_more_than_200_faces_are_refused():
    with pytest.raises(EngineError, match="at most 200"):
        check(3, [10] * 3 + [5] * 198)


class Scripted:
    """A random source that hands out the given faces in order."""

    def __init__(self, faces):
        self.faces = iter(faces)

    def randint(self, a, b):
        return next(self.faces)


def test_a_roll_whose_explosions_pass_200_dice_is_refused():
    with pytest.raises(EngineError, match="would need 201 dice"):
        t10.roll(t10.Params(MAX_DICE, 7), Scripted([10] + [5] * (MAX_DICE - 1)))


def test_a_roll_draws_each_explosion_batch_after_the_last():
    result = t10.roll(t10.Params(2, 7), Scripted([10, 10, 10, 5, 3]))
    assert (result.batches, result.result) == ((2, 2, 1), 3)


# --- odds -----------------------------------------------------------------------------------


def brute_force(pool, difficulty, depth):
    """The law of the result over every roll of at most ``depth`` batches, face by face.

    Returns (probability of each result, mass of the rolls that go on past ``depth`` batches).
    """
    params = t10.Params(pool, difficulty)
    law = Counter()
    unexplored = 0.0
    stack = [((), pool, 1.0, 1)]
    while stack:
        prefix, size, p, batches = stack.pop()
        q = p * 0.1**size
        for batch in itertools.product(range(1, 11), repeat=size):
            faces = prefix + batch
            explosions = max(0, batch.count(10) - batch.count(1))
            if not explosions:
                law[t10.resolve(params, t10.parse_faces(params, list(faces))).result] += q
            elif batches == depth:
                unexplored += q
            else:
                stack.append((faces, explosions, q, batches + 1))
    return law, unexplored


@pytest.mark.parametrize(("pool", "depth"), [(1, 14), (2, 11), (3, 3)])
@pytest.mark.parametrize("difficulty", range(4, 11))
def test_odds_agree_with_brute_force_over_every_face_up_to_the_unexplored_tail(
    pool, depth, difficulty
):
    law, unexplored = brute_force(pool, difficulty, depth)
    assert sum(law.values()) + unexplored == pytest.approx(1, abs=1e-12)
    exact = t10.odds(t10.Params(pool, difficulty))
    results = {int(key): p for key, p in exact["result_odds"].items()}
    # Rolls past the depth can only add probability: brute <= exact <= brute + unexplored.
    for result in set(results) | set(law):
        assert law[result] - 1e-12 <= results.get(result, 0.0) <= law[result] + unexplored + 1e-12
    by_outcome = Counter()
    for result, p in law.items():
        by_outcome[t10.outcome_for(result)] += p
    for outcome, p in exact["odds"].items():
        assert by_outcome[outcome] - 1e-12 <= p <= by_outcome[outcome] + unexplored + 1e-12


def forward_dp(pool, difficulty):
    """An independent DP over batches: state (running result, next batch size), die by die."""
    one, ten = 0.1, 0.1
    success = (10 - difficulty) / 10
    other = 1 - one - ten - success
    moves = [(-1, -1, one), (1, 1, ten), (1, 0, success), (0, 0, other)]
    batch_laws = {}

    def batch_law(size):
        if size not in batch_laws:
            law = {(0, 0): 1.0}
            for _ in range(size):
                step = Counter()
                for (net, u), p in law.items():
                    for dn, du, q in moves:
                        step[net + dn, u + du] += p * q
                law = step
            batch_laws[size] = law
        return batch_laws[size]

    final = Counter()
    frontier = {(0, pool): 1.0}
    while sum(frontier.values()) > 1e-15:
        step = Counter()
        for (result, size), p in frontier.items():
            for (net, u), q in batch_law(size).items():
                if u > 0:
                    step[result + net, u] += p * q
                else:
                    final[result + net] += p * q
        frontier = step
    return final


@pytest.mark.parametrize("pool", [4, 6, 9])
@pytest.mark.parametrize("difficulty", [4, 7, 10])
def test_odds_agree_with_an_independent_forward_dp_within_1e_9(pool, difficulty):
    oracle = forward_dp(pool, difficulty)
    exact = {int(k): p for k, p in t10.odds(t10.Params(pool, difficulty))["result_odds"].items()}
    for result in set(oracle) | set(exact):
        assert exact.get(result, 0.0) == pytest.approx(oracle[result], abs=1e-9)


def test_odds_of_a_single_die_follow_the_closed_form_of_its_chain():
    exact = t10.odds(t10.Params(1, 10))["result_odds"]
    assert exact["-1"] == pytest.approx(0.1, abs=1e-15)
    for r in range(0, 15):
        # at difficulty 10: r tens in a row then a 2..9, or r + 1 tens then a 1
        assert exact[str(r)] == pytest.approx(0.1**r * 0.8 + 0.1 ** (r + 1) * 0.1, abs=1e-15)


@pytest.mark.parametrize(("pool", "difficulty"), [(1, 7), (5, 4), (15, 4), (15, 10), (40, 7)])
def test_odds_have_every_outcome_key_and_sum_to_1(pool, difficulty):
    exact = t10.odds(t10.Params(pool, difficulty))
    assert list(exact["odds"]) == list(t10.OUTCOME_KEYS)
    # the left-out tail is below 1e-13 by construction; the rest is rounding
    assert abs(math.fsum(exact["odds"].values()) - 1) < 1e-13
    assert abs(math.fsum(exact["result_odds"].values()) - 1) < 1e-13
    assert all(isinstance(key, str) and int(key) == int(key) for key in exact["result_odds"])


def test_odds_of_a_pool_of_0_or_less_are_a_certain_automatic_fail():
    exact = t10.odds(t10.Params(0, 7))
    assert exact["odds"]["fail"] == 1.0
    assert sum(exact["odds"].values()) == 1.0
    assert exact["result_odds"] == {"0": 1.0}


def test_odds_stop_at_the_largest_pool_that_cannot_realistically_pass_200_dice():
    bounds = t10._cap_risk_bounds()
    limit = t10.odds_max_pool()
    assert limit == 148
    assert bounds[limit] <= 1e-10 < bounds[limit + 1]
    assert bounds[15] < 1e-100


def test_odds_of_a_pool_that_may_explode_past_200_dice_are_refused():
    with pytest.raises(EngineError, match="pools up to 148"):
        t10.odds(t10.Params(149, 7))


# --- properties -----------------------------------------------------------------------------

ANYTHING = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 12),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(max_size=3),
    st.lists(st.integers(0, 11), max_size=8),
)
PARAMS = st.one_of(
    st.fixed_dictionaries({"pool": st.integers(-3, 8), "difficulty": st.integers(2, 12)}),
    st.dictionaries(st.sampled_from(["pool", "difficulty", "again"]), ANYTHING),
    ANYTHING,
)


@st.composite
def valid_faces(draw, pool):
    """Faces for ``pool`` dice drawn batch by batch, so their explosions are complete."""
    faces = []
    size = max(pool, 0)
    while size and len(faces) + size <= MAX_DICE:
        batch = draw(st.lists(st.integers(1, 10), min_size=size, max_size=size))
        faces.extend(batch)
        size = max(0, batch.count(10) - batch.count(1))
    return faces


@st.composite
def any_request(draw):
    raw_params = draw(PARAMS)
    pool = raw_params.get("pool") if isinstance(raw_params, dict) else None
    if isinstance(pool, int) and -3 <= pool <= 8 and draw(st.booleans()):
        faces = draw(valid_faces(pool))
        if draw(st.booleans()) and faces:  # then maybe spoil them
            faces = draw(st.sampled_from([faces[:-1], faces + [5], faces[1:] + [0]]))
    else:
        faces = draw(ANYTHING)
    return raw_params, faces


@settings(max_examples=300, deadline=None)
@given(request=any_request())
def test_any_request_resolves_or_is_refused_with_an_engine_error(request):
    raw_params, raw_faces = request
    try:
        params = t10.parse_params(raw_params)
        result = t10.resolve(params, t10.parse_faces(params, raw_faces))
    except EngineError:
        return
    assert result.outcome in t10.OUTCOME_KEYS
    assert result.dice_rolled == len(raw_faces)


@settings(max_examples=100, deadline=None)
@given(
    raw_params=st.one_of(
        st.fixed_dictionaries(
            {
                "pool": st.one_of(st.integers(-5, 40), st.sampled_from([149, 200, 201])),
                "difficulty": st.integers(3, 11),
            }
        ),
        PARAMS,
    )
)
def test_any_odds_request_sums_to_1_or_is_refused_with_an_engine_error(raw_params):
    try:
        params = t10.parse_params(raw_params)
        exact = t10.odds(params)
    except EngineError:
        return
    assert abs(sum(exact["odds"].values()) - 1) < 1e-12


class RecordingRandom:
    """random.Random that remembers every face it gives out."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.drawn = []

    def randint(self, a, b):
        face = self.rng.randint(a, b)
        self.drawn.append(face)
        return face


@settings(max_examples=150, deadline=None)
@given(pool=st.integers(-2, 30), difficulty=st.integers(4, 10), seed=st.integers(0, 2**32))
def test_a_roll_equals_the_resolution_of_the_faces_it_drew(pool, difficulty, seed):
    params = t10.Params(pool, difficulty)
    rng = RecordingRandom(seed)
    result = t10.roll(params, rng)
    assert result == t10.resolve(params, t10.parse_faces(params, rng.drawn))


def test_rolls_with_10s_explode_as_resolve_says():
    # Difficulty is irrelevant to explosions; seed 0..200 gives many chains at pool 10.
    for seed in range(200):
        rng = RecordingRandom(seed)
        result = t10.roll(t10.Params(10, 7), rng)
        assert result.dice_rolled == len(rng.drawn) == sum(result.batches)


# --- through the protocol -------------------------------------------------------------------


def test_the_protocol_answers_a_resolve_with_the_exact_contract():
    reply = answer(
        {"system": "t10", "op": "resolve", "params": {"pool": 3}, "faces": [10, 9, 2, 8]}
    )
    assert reply == {
        "result": 3,
        "outcome": "success",
        "severity": 0,
        "extra_options": 0,
        "dice_rolled": 4,
        "automatic": False,
    }


def test_the_protocol_answers_an_automatic_fail():
    reply = answer({"system": "t10", "op": "resolve", "params": {"pool": 0}, "faces": []})
    assert reply["automatic"] is True
    assert reply["outcome"] == "fail"


def test_the_protocol_answers_odds_with_outcomes_and_result_odds():
    reply = answer({"system": "t10", "op": "odds", "params": {"pool": 2, "difficulty": 10}})
    assert set(reply) == {"odds", "result_odds"}
    assert set(reply["odds"]) == set(t10.OUTCOME_KEYS)
    assert reply["result_odds"]["-2"] == pytest.approx(0.01, abs=1e-15)


def test_the_protocol_refuses_faces_of_the_wrong_count():
    reply = answer({"system": "t10", "op": "resolve", "params": {"pool": 2}, "faces": [10, 4]})
    assert reply == {
        "error": "Too few faces: batch 2 needs 1 dice but only 0 are left (3 dice in all so far)."
    }
