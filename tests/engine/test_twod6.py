"""The post-apocalyptic 2d6 system (RULES.md section 5, ENGINE.md ``2d6``)."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rolls.engine import twod6
from rolls.engine.core import Die, EngineError
from rolls.engine.protocol import answer


def params(**raw: Any) -> twod6.Params:
    return twod6.parse_params(raw)


def plain(**raw: Any) -> twod6.Params:
    """5 + 3 against 12, with any field overridden."""
    return params(**{"attribute": 5, "skill": 3, "difficulty": 12, **raw})


def resolve(faces: tuple[int, int], **raw: Any) -> twod6.Result:
    return twod6.resolve(params(**raw), faces)


# --- Worked examples of RULES.md section 5 -------------------------------------------------------


def test_library_example_scores_two_success_points() -> None:
    result = resolve((3, 2), attribute=7, skill=4, difficulty=15)
    assert result.total == 16
    assert result.success is True
    assert result.success_points == 2
    assert result.failure_points == 0


def test_ambush_example_scores_three_success_points_without_the_binoculars() -> None:
    result = resolve((3, 3), attribute=8, skill=5, difficulty=15, modifiers={"circumstance": [-2]})
    assert result.total == 17
    assert result.success_points == 3


def test_aoife_example_nets_minus_two_and_needs_three_on_the_dice() -> None:
    aoife = params(
        attribute=8,
        skill=6,
        difficulty=15,
        modifiers={"equipment": [-2], "circumstance": [-2], "personal": [2]},
    )
    assert aoife.modifier == -2
    assert aoife.automatic is None
    assert twod6.resolve(aoife, (1, 1)).failure_points == 1
    assert twod6.resolve(aoife, (1, 2)).success_points == 1


def test_aoife_example_odds_are_thirty_five_in_thirty_six() -> None:
    aoife = params(
        attribute=8,
        skill=6,
        difficulty=15,
        modifiers={"equipment": [-2], "circumstance": [-2], "personal": [2]},
    )
    result = twod6.odds(aoife)
    assert result["odds"] == pytest.approx({"success": 35 / 36, "failure": 1 / 36}, abs=1e-12)
    expected = {"0": 1, "1": 2, "2": 3, "3": 4, "4": 5, "5": 6, "6": 5, "7": 10}
    assert result["success_points_odds"] == pytest.approx(
        {key: ways / 36 for key, ways in expected.items()}, abs=1e-12
    )


def test_mayor_example_fails_by_three_points() -> None:
    result = resolve(
        (1, 2),
        attribute=8,
        skill=6,
        difficulty=20,
        modifiers={"personal": [2], "circumstance": [-2]},
    )
    assert result.total == 17
    assert result.success is False
    assert result.failure_points == 3
    assert result.success_points == 0


def test_mayor_example_needs_six_on_the_dice_to_meet_twenty() -> None:
    mayor = params(
        attribute=8, skill=6, difficulty=20, modifiers={"personal": [2], "circumstance": [-2]}
    )
    assert twod6.resolve(mayor, (3, 3)).success is True
    assert twod6.resolve(mayor, (3, 3)).success_points == 1
    assert twod6.resolve(mayor, (2, 3)).success is False


def spotter(faces: tuple[int, int], difficulty: int = 15) -> twod6.Result:
    """Side "a", the raider who starts the search: 5 + 4, +3 circumstance."""
    return resolve(
        faces, attribute=5, skill=4, difficulty=difficulty, modifiers={"circumstance": [3]}
    )


def hider(faces: tuple[int, int], difficulty: int = 15) -> twod6.Result:
    """Side "b", Nomad resisting the search: 7 + 5, +2 equipment, +2 circumstance."""
    return resolve(
        faces,
        attribute=7,
        skill=5,
        difficulty=difficulty,
        modifiers={"equipment": [2], "circumstance": [2]},
    )


def test_opposed_example_hide_twenty_one_beats_spot_eighteen() -> None:
    a, b = spotter((3, 3)), hider((3, 2))
    assert (a.total, b.total) == (18, 21)
    outcome = twod6.opposed(a, b)
    assert (a.success_points, b.success_points) == (4, 6)  # 7 above 15 capped at skill 5 + 1
    assert outcome.winner == "b"
    assert outcome.margin == 2


def test_opposed_hider_with_three_points_is_found_only_with_four() -> None:
    hidden = hider((1, 1), difficulty=16)  # 18 against 16
    assert hidden.success_points == 3
    assert twod6.opposed(spotter((3, 3), difficulty=16), hidden).winner == "b"  # 3 points
    assert twod6.opposed(spotter((3, 4), difficulty=16), hidden).winner == "a"  # 4 points


# --- Rules and decisions -------------------------------------------------------------------------


def test_meeting_the_difficulty_exactly_is_a_success_with_one_point() -> None:
    result = twod6.resolve(plain(), (2, 2))
    assert result.total == 12
    assert result.success_points == 1
    assert result.outcome == "success"


def test_success_points_are_capped_at_skill_plus_one() -> None:
    assert twod6.resolve(plain(), (6, 6)).success_points == 4


def test_cap_bonus_raises_the_success_point_cap() -> None:
    assert twod6.resolve(plain(cap_bonus=2), (6, 6)).success_points == 6
    assert twod6.resolve(plain(cap_bonus=9), (6, 6)).success_points == 9


def test_negative_skill_still_scores_one_success_point_on_a_success() -> None:
    weak = params(attribute=9, skill=-3, difficulty=8)
    assert weak.cap == 1
    assert twod6.resolve(weak, (6, 6)).success_points == 1


def test_failure_points_are_the_shortfall() -> None:
    result = twod6.resolve(plain(), (1, 1))  # 10 against 12
    assert result.failure_points == 2
    assert result.outcome == "failure"


def test_modifiers_add_up_within_a_category() -> None:
    assert plain(modifiers={"personal": [1, 2, -1]}).clamped == (0, 2, 0, 0)


def test_each_category_is_clamped_to_five_either_way() -> None:
    mods = {
        "circumstance": [4, 4],
        "personal": [-3, -3],
        "equipment": [9],
        "supernatural": [-7, 1],
    }
    assert plain(modifiers=mods).clamped == (5, -5, 5, -5)


def test_helpers_add_circumstance_inside_its_clamp() -> None:
    assert plain(helpers=3).clamped == (3, 0, 0, 0)
    assert plain(helpers=4, modifiers={"circumstance": [3]}).clamped == (5, 0, 0, 0)
    assert plain(helpers=2, modifiers={"circumstance": [-4]}).clamped == (-2, 0, 0, 0)


def test_helpers_do_not_spill_into_other_categories() -> None:
    assert plain(helpers=4, modifiers={"personal": [1]}).clamped == (4, 1, 0, 0)


def test_automatic_success_when_the_dice_free_sum_exceeds_the_difficulty() -> None:
    assert params(attribute=8, skill=5, difficulty=12).automatic == "success"
    assert params(attribute=8, skill=4, difficulty=12).automatic is None


def test_automatic_success_still_lets_the_dice_decide_success_points() -> None:
    sure = params(attribute=8, skill=5, difficulty=12)
    assert twod6.resolve(sure, (1, 1)).success_points == 4
    assert twod6.resolve(sure, (6, 6)).success_points == 6
    assert twod6.resolve(sure, (1, 1)).automatic == "success"


def test_automatic_failure_when_even_twelve_cannot_reach() -> None:
    hopeless = params(attribute=2, skill=1, difficulty=16)
    assert hopeless.automatic == "failure"
    assert twod6.resolve(hopeless, (6, 6)).failure_points == 1
    assert params(attribute=2, skill=1, difficulty=15).automatic is None


def test_a_difficulty_twelve_on_the_dice_would_just_reach_is_no_automatic_failure() -> None:
    """RULES.md 5.5: a total equal to the difficulty succeeds, so 27 against 27 is not hopeless."""
    level = params(attribute=8, skill=7, difficulty=27)
    assert level.automatic is None
    assert twod6.resolve(level, (6, 6)).success is True
    assert params(attribute=8, skill=7, difficulty=28).automatic == "failure"


def test_modifiers_count_toward_the_automatic_flags() -> None:
    assert params(attribute=5, skill=5, difficulty=12, modifiers={"equipment": [3]}).automatic == (
        "success"
    )


def test_opposed_tie_goes_to_the_resisting_side_with_zero_margin() -> None:
    outcome = twod6.opposed(spotter((3, 3)), spotter((3, 3)))
    assert outcome.winner == "b"
    assert outcome.margin == 0


def test_opposed_failures_score_minus_their_failure_points() -> None:
    a = spotter((1, 1), difficulty=20)  # 14: 6 failure points
    b = spotter((2, 2), difficulty=20)  # 16: 4 failure points
    assert (a.score, b.score) == (-6, -4)
    outcome = twod6.opposed(a, b)
    assert (outcome.winner, outcome.margin) == ("b", 2)


def test_opposed_success_beats_failure_by_the_score_difference() -> None:
    outcome = twod6.opposed(spotter((6, 6), difficulty=18), spotter((1, 1), difficulty=18))
    assert (outcome.winner, outcome.margin) == ("a", 5 + 4)


def test_result_keeps_both_dice_for_the_log() -> None:
    result = twod6.resolve(plain(), (4, 5))
    assert result.dice == (Die(6, 4, True, "2d6", "kept"), Die(6, 5, True, "2d6", "kept"))


def test_contract_has_exactly_the_engine_fields() -> None:
    assert twod6.resolve(plain(), (4, 5)).contract() == {
        "total": 17,
        "success": True,
        "success_points": 4,
        "failure_points": 0,
        "automatic": None,
        "outcome": "success",
    }


def test_odds_include_zero_points_only_when_failure_is_possible() -> None:
    sure = twod6.odds(params(attribute=8, skill=5, difficulty=12))
    assert sure["odds"] == {"success": 1.0, "failure": 0.0}
    assert "0" not in sure["success_points_odds"]


def test_odds_of_an_automatic_failure_are_all_zero_points() -> None:
    result = twod6.odds(params(attribute=2, skill=1, difficulty=16))
    assert result == {"odds": {"success": 0.0, "failure": 1.0}, "success_points_odds": {"0": 1.0}}


# --- Errors --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"skill": 1, "difficulty": 9}, "'attribute' is missing."),
        ({"attribute": 1, "difficulty": 9}, "'skill' is missing."),
        ({"attribute": 1, "skill": 1}, "'difficulty' is missing."),
        ({"attribute": 1.0, "skill": 1, "difficulty": 9}, "'attribute' must be a whole number"),
        ({"attribute": True, "skill": 1, "difficulty": 9}, "'attribute' must be a whole number"),
        ({"attribute": 1, "skill": "2", "difficulty": 9}, "'skill' must be a whole number"),
        ({"attribute": 1, "skill": 1, "difficulty": 9, "helpers": 5}, "between 0 and 4, not 5"),
        ({"attribute": 1, "skill": 1, "difficulty": 9, "helpers": -1}, "between 0 and 4"),
        ({"attribute": 1, "skill": 1, "difficulty": 9, "cap_bonus": -1}, "at least 0, not -1"),
        ({"attribute": 1, "skill": 1, "difficulty": 9, "luck": 2}, "Unknown field 'luck'"),
        ({"attribute": 1, "skill": 1, "difficulty": 9, "modifiers": []}, "must be a JSON object"),
        (
            {"attribute": 1, "skill": 1, "difficulty": 9, "modifiers": {"psi": [1]}},
            "Unknown modifier category 'psi'",
        ),
        (
            {"attribute": 1, "skill": 1, "difficulty": 9, "modifiers": {"personal": 2}},
            "'modifiers.personal' must be a list of whole numbers.",
        ),
        (
            {"attribute": 1, "skill": 1, "difficulty": 9, "modifiers": {"equipment": [1, 0.5]}},
            "'modifiers.equipment' must hold whole numbers only; entry 2",
        ),
        (
            {"attribute": 1, "skill": 1, "difficulty": 9, "modifiers": {"equipment": [1] * 201}},
            "at most 200",
        ),
        ([1, 2], "must be a JSON object"),
    ],
)
def test_bad_params_are_refused_with_a_sentence(raw: Any, message: str) -> None:
    with pytest.raises(EngineError, match=message.replace("(", r"\(").replace(".", r"\.")):
        twod6.parse_params(raw)


@pytest.mark.parametrize(
    ("faces", "message"),
    [
        ([3], "exactly 2 dice, not 1"),
        ([3, 4, 5], "exactly 2 dice, not 3"),
        ([0, 4], "between 1 and 6, not 0"),
        ([3, 7], "between 1 and 6, not 7"),
        ([3, 4.0], "whole numbers only"),
        ({"d6": [3, 4]}, "must be a list"),
        ("34", "must be a list"),
        ([1] * 201, "at most 200"),
    ],
)
def test_bad_faces_are_refused_with_a_sentence(faces: Any, message: str) -> None:
    with pytest.raises(EngineError, match=message):
        twod6.parse_faces(plain(), faces)


# --- Through the protocol ------------------------------------------------------------------------


def test_protocol_resolves_the_library_example() -> None:
    request = {
        "system": "2d6",
        "op": "resolve",
        "params": {"attribute": 7, "skill": 4, "difficulty": 15},
        "faces": [3, 2],
    }
    assert answer(request) == {
        "total": 16,
        "success": True,
        "success_points": 2,
        "failure_points": 0,
        "automatic": None,
        "outcome": "success",
    }


def test_protocol_gives_the_odds_shape() -> None:
    request = {
        "system": "2d6",
        "op": "odds",
        "params": {"attribute": 2, "skill": 1, "difficulty": 16},
    }
    assert answer(request) == {
        "odds": {"success": 0.0, "failure": 1.0},
        "success_points_odds": {"0": 1.0},
    }


def test_protocol_answers_the_opposed_hide_and_spot() -> None:
    request = {
        "system": "2d6",
        "op": "opposed",
        "a": {
            "params": {
                "attribute": 5,
                "skill": 4,
                "difficulty": 15,
                "modifiers": {"circumstance": [3]},
            },
            "faces": [3, 3],
        },
        "b": {
            "params": {
                "attribute": 7,
                "skill": 5,
                "difficulty": 15,
                "modifiers": {"equipment": [2], "circumstance": [2]},
            },
            "faces": [3, 2],
        },
    }
    assert answer(request) == {
        "winner": "b",
        "margin": 2,
        "a": {
            "total": 18,
            "success": True,
            "success_points": 4,
            "failure_points": 0,
            "automatic": None,
            "outcome": "success",
        },
        "b": {
            "total": 21,
            "success": True,
            "success_points": 6,
            "failure_points": 0,
            "automatic": "success",
            "outcome": "success",
        },
    }


def test_protocol_reports_a_bad_modifier_category() -> None:
    request = {
        "system": "2d6",
        "op": "odds",
        "params": {"attribute": 1, "skill": 1, "difficulty": 9, "modifiers": {"luck": []}},
    }
    assert "Unknown modifier category 'luck'" in answer(request)["error"]


# --- Properties ----------------------------------------------------------------------------------

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-30, 30),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=5),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.text(max_size=12), inner, max_size=4),
    ),
    max_leaves=10,
)
int_or_junk = st.one_of(st.integers(-30, 30), json_values)
modifiers_raw = st.one_of(
    st.dictionaries(
        st.sampled_from([*twod6.CATEGORIES, "luck"]),
        st.one_of(st.lists(st.integers(-9, 9), max_size=4), json_values),
        max_size=5,
    ),
    json_values,
)
raw_params = st.fixed_dictionaries(
    {},
    optional={
        "attribute": int_or_junk,
        "skill": int_or_junk,
        "difficulty": int_or_junk,
        "helpers": int_or_junk,
        "cap_bonus": int_or_junk,
        "modifiers": modifiers_raw,
        "extra": json_values,
    },
)
raw_faces = st.one_of(st.lists(st.integers(-1, 8), max_size=3), json_values)

valid_params = st.builds(
    twod6.Params,
    attribute=st.integers(-5, 12),
    skill=st.integers(-4, 8),
    difficulty=st.integers(-5, 35),
    modifiers=st.tuples(*[st.lists(st.integers(-7, 7), max_size=3).map(tuple)] * 4),
    helpers=st.integers(0, 4),
    cap_bonus=st.integers(0, 4),
)


@settings(max_examples=300, deadline=None)
@given(raw=raw_params, faces=raw_faces)
def test_any_request_resolves_or_raises_engine_error(raw: Any, faces: Any) -> None:
    try:
        parsed = twod6.parse_params(raw)
        result = twod6.resolve(parsed, twod6.parse_faces(parsed, faces))
    except EngineError:
        return
    assert result.outcome in ("success", "failure")


@settings(max_examples=200, deadline=None)
@given(raw=raw_params)
def test_any_odds_request_answers_or_raises_engine_error(raw: Any) -> None:
    try:
        result = twod6.odds(twod6.parse_params(raw))
    except EngineError:
        return
    assert abs(sum(result["odds"].values()) - 1) < 1e-9


def brute_force(p: twod6.Params) -> dict[str, Any]:
    outcomes = {"success": 0.0, "failure": 0.0}
    points: dict[str, float] = {}
    for faces in itertools.product(range(1, 7), repeat=2):
        result = twod6.resolve(p, faces)
        outcomes[result.outcome] += 1 / 36
        key = str(result.success_points)
        points[key] = points.get(key, 0.0) + 1 / 36
    return {"odds": outcomes, "success_points_odds": points}


@settings(max_examples=300, deadline=None)
@given(p=valid_params)
def test_odds_equal_brute_force_over_all_36_rolls(p: twod6.Params) -> None:
    exact, brute = twod6.odds(p), brute_force(p)
    assert exact["odds"] == pytest.approx(brute["odds"], abs=1e-9)
    assert exact["success_points_odds"] == pytest.approx(brute["success_points_odds"], abs=1e-9)
    assert abs(sum(exact["success_points_odds"].values()) - 1) < 1e-9
    assert exact["success_points_odds"].get("0", 0.0) == pytest.approx(exact["odds"]["failure"])


@settings(max_examples=300, deadline=None)
@given(p=valid_params, faces=st.tuples(st.integers(1, 6), st.integers(1, 6)))
def test_success_points_are_zero_exactly_on_failure(
    p: twod6.Params, faces: tuple[int, int]
) -> None:
    result = twod6.resolve(p, faces)
    assert (result.success_points >= 1) == result.success
    assert (result.failure_points >= 1) == (not result.success)


class RecordingRandom:
    """A seeded random source that remembers every face it hands out."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)
        self.faces: list[int] = []

    def randint(self, a: int, b: int) -> int:
        face = self._rng.randint(a, b)
        self.faces.append(face)
        return face


@settings(max_examples=100, deadline=None)
@given(p=valid_params, seed=st.integers(0, 2**32))
def test_roll_equals_resolve_on_the_faces_it_drew(p: twod6.Params, seed: int) -> None:
    rng = RecordingRandom(seed)
    result = twod6.roll(p, rng)
    assert len(rng.faces) == 2
    assert result == twod6.resolve(p, (rng.faces[0], rng.faces[1]))
