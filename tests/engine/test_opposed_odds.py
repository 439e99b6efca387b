"""The exact odds of winning an opposed test equal brute force over every face combination."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rolls.engine import caerbannog, caerbannog_opposed, fasttest, fasttest_opposed, twod6


def _fasttest_outcomes(params: fasttest.Params):
    for d10 in itertools.product(range(1, 11), repeat=params.d10_count):
        for d6 in itertools.product(range(1, 7), repeat=params.d6_count):
            yield fasttest.resolve(params, fasttest.Faces(d10, d6))


def _brute(outcomes_a, outcomes_b, compare, state=lambda result: result) -> dict[str, float]:
    """Every face combination of each side resolved; results that ``compare`` cannot tell apart
    (the same ``state``) are counted together, then every pair of them compared."""

    def grouped(outcomes):
        groups: dict = {}
        for result in outcomes:
            key = state(result)
            groups.setdefault(key, [result, 0])[1] += 1
        return list(groups.values())

    counts = {"a": 0, "b": 0, "draw": 0}
    first, second = grouped(outcomes_a), grouped(outcomes_b)
    for a, m in first:
        for b, n in second:
            counts[compare(a, b) or "draw"] += m * n
    total = sum(m for _, m in first) * sum(n for _, n in second)
    return {side: count / total for side, count in counts.items()}


def _close(exact: dict[str, float], brute: dict[str, float]) -> bool:
    return all(abs(exact[side] - brute[side]) < 1e-9 for side in ("a", "b", "draw"))


def _fasttest_params(attribute, skill, bonus, penalty, split):
    params = fasttest.Params(attribute=attribute, skills=(skill,), bonus=bonus, penalty=penalty)
    return fasttest.Params(
        attribute=attribute,
        skills=(skill,),
        bonus=bonus,
        penalty=penalty,
        extra_d10=min(split, abs(params.net)),
    )


fasttest_side = st.builds(
    _fasttest_params,
    st.integers(0, 9),
    st.integers(-2, 2),
    st.integers(0, 2),
    st.integers(0, 2),
    st.integers(0, 2),
)


@settings(max_examples=12, deadline=None)
@given(a=fasttest_side, b=fasttest_side)
def test_fasttest_odds_of_winning_equal_brute_force(a, b):
    brute = _brute(
        _fasttest_outcomes(a),
        _fasttest_outcomes(b),
        lambda x, y: fasttest.opposed(x, y).winner,
        lambda result: (result.outcome, result.kept_d10),
    )
    assert _close(fasttest_opposed.win_odds(a, b), brute)


def test_fasttest_odds_of_winning_sum_to_one_with_many_dice():
    a = fasttest.Params(attribute=5, skills=(1,), bonus=8)
    b = fasttest.Params(attribute=4, skills=(0,), penalty=7, extra_d10=3)
    assert abs(sum(fasttest_opposed.win_odds(a, b).values()) - 1) < 1e-12


def _twod6_params(attribute, skill, circumstance, difficulty):
    return twod6.parse_params(
        {
            "attribute": attribute,
            "skill": skill,
            "modifiers": {"circumstance": [circumstance]},
            "difficulty": difficulty,
        }
    )


twod6_side = st.builds(
    _twod6_params, st.integers(1, 8), st.integers(-2, 8), st.integers(-5, 5), st.integers(8, 22)
)


@settings(max_examples=60, deadline=None)
@given(a=twod6_side, b=twod6_side)
def test_twod6_odds_of_winning_equal_brute_force(a, b):
    faces = list(itertools.product(range(1, 7), repeat=2))
    brute = _brute(
        (twod6.resolve(a, f) for f in faces),
        (twod6.resolve(b, f) for f in faces),
        lambda x, y: twod6.opposed(x, y).winner,
        lambda result: result.score,
    )
    assert _close(twod6.win_odds(a, b), brute)


def _caerbannog_params(dice, ease, modifier):
    return caerbannog.parse_params(
        {"dice": dice, "difficulty": 0, "ease": ease, "modifier": modifier}
    )


caerbannog_side = st.builds(
    _caerbannog_params,
    st.lists(st.sampled_from([4, 6]), min_size=1, max_size=3),
    st.integers(-1, 1),
    st.integers(-3, 2),
)


@settings(max_examples=20, deadline=None)
@given(a=caerbannog_side, b=caerbannog_side)
def test_caerbannog_odds_of_winning_equal_brute_force(a, b):
    assert _close(caerbannog_opposed.win_odds(a, b), _caerbannog_brute(a, b))


def _caerbannog_brute(a, b) -> dict[str, float]:
    """Every face combination of both sides through the engine's own opposed test: the
    initiator wins with a level above 0, else the opponent resists (never a draw)."""

    def faces(params):
        return list(itertools.product(*(range(1, sides + 1) for sides in params.dice)))

    first, second = faces(a), faces(b)
    wins = sum(
        caerbannog_opposed.opposed_test(a, fa, b, fb).success for fa in first for fb in second
    )
    total = len(first) * len(second)
    return {"a": wins / total, "b": (total - wins) / total, "draw": 0.0}


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # Four dice (the "added" form and a combined test of four): the more favourable of the
        # two middle dice; against a defence's three.
        (([4, 4, 4, 4], 0, 0), ([4, 6, 4], 0, 0)),
        # Eased against hindered, a modifier pushing the opponent's result below 0.
        (([4, 4, 6, 6], 1, -2), ([6, 4], -1, -3)),
        # A single die each: every critical failure (a lone 1) counts.
        (([6], 0, 1), ([4], 0, -1)),
    ],
)
def test_caerbannog_odds_of_winning_equal_brute_force_on_larger_pools(first, second):
    a, b = _caerbannog_params(*first), _caerbannog_params(*second)
    assert _close(caerbannog_opposed.win_odds(a, b), _caerbannog_brute(a, b))


def test_caerbannog_opposed_nine_against_five_is_four():
    a = _caerbannog_params([10, 10, 10], 1, 0)
    b = _caerbannog_params([6, 6, 6], 1, 0)
    assert caerbannog_opposed.opposed_test(a, [9, 2, 1], b, [5, 1, 2]).level == 4
