"""The exact odds of a Caerbannog group test as it is gathered and rolled equal brute force."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from rolls.engine import caerbannog as cb
from rolls.engine.caerbannog_group import GroupTest, Member, group_odds, resolve_group

SIZES = st.sampled_from((4, 6, 8, 10, 12))


def brute_force(sizes, known, difficulty, ease, bonus) -> float:
    """Every face combination of the dice still to roll, resolved by the engine itself."""
    ranges = [
        range(1, s + 1) if face is None else (face,) for s, face in zip(sizes, known, strict=True)
    ]
    wins = total = 0
    for faces in itertools.product(*ranges):
        total += 1
        test = GroupTest(
            members=tuple(Member(f"p{i}", (s,)) for i, s in enumerate(sizes)),
            difficulty=difficulty,
            ease=ease,
            modifier=bonus,
        )
        wins += resolve_group(test, [[face] for face in faces]).success
    return wins / total


@settings(max_examples=60, deadline=None)
@given(
    data=st.data(),
    sizes=st.lists(SIZES, min_size=1, max_size=4),
    difficulty=st.integers(0, 10),
    ease=st.sampled_from((-1, 0, 1)),
    bonus=st.integers(0, 5),
)
def test_group_odds_equal_brute_force(data, sizes, difficulty, ease, bonus):
    known = [
        data.draw(st.one_of(st.none(), st.integers(1, sides)), label=f"die {i}")
        for i, sides in enumerate(sizes)
    ]
    exact = group_odds(sizes, known, difficulty, ease, bonus=bonus)
    assert abs(exact - brute_force(sizes, known, difficulty, ease, bonus)) < 1e-9


def test_group_odds_with_nothing_rolled_match_the_plain_tests_odds():
    params = cb.parse_params({"dice": [10, 8, 6, 6], "difficulty": 4, "ease": 0})
    plain = cb.odds(params)["odds"]["success"]
    assert abs(group_odds([10, 8, 6, 6], [None] * 4, 4) - plain) < 1e-12


def test_a_boost_counts_only_when_the_dice_are_not_all_ones():
    # One d4 still to roll beside a known 1, difficulty 1, a bonus of 5: only 1,1 fails.
    assert group_odds([4, 4], [1, None], 1, bonus=5) == 0.75
