"""Real dice typed in (rolls.engine.typed): the dice a test asks for, and the faces handed out."""

import pytest

from rolls.engine import ast, caerbannog, fasttest, t10, twod6
from rolls.engine.core import EngineError
from rolls.engine.typed import TypedDice, dice_needed


def needed(module, params, faces=()):
    return dice_needed(module.roll, module.parse_params(params), faces)


def test_fasttest_asks_its_d10s_then_its_d6s_as_the_split_says():
    params = {"attribute": 5, "skills": [1], "bonus": 2, "penalty": 0, "extra_d10": 1}
    assert needed(fasttest, params) == [10, 10, 6, 6]


def test_ast_asks_the_black_die_then_the_white_dice():
    assert needed(ast, {"white": 3, "level_mod": 0, "choice": None}) == [6, 6, 6, 6]


def test_t10_asks_its_pool_then_one_more_die_per_ten_left_after_the_ones():
    params = {"pool": 3, "difficulty": 7}
    assert (needed(t10, params), needed(t10, params, [10, 5, 6])) == ([10] * 3, [10] * 4)


def test_caerbannog_asks_its_pool_in_order():
    params = {"dice": [8, 6, 12], "difficulty": 5, "ease": 0}
    assert needed(caerbannog, params) == [8, 6, 12]


def test_twod6_asks_two_d6():
    params = {"attribute": 1, "skill": 1, "helpers": 0, "difficulty": 8}
    assert needed(twod6, params) == [6, 6]


def test_typed_faces_give_the_result_the_same_faces_resolve_to():
    params = twod6.parse_params({"attribute": 1, "skill": 1, "helpers": 0, "difficulty": 8})
    assert twod6.roll(params, TypedDice([4, 3])) == twod6.resolve(params, (4, 3))


def test_a_face_off_its_die_is_refused_naming_the_die():
    params = twod6.parse_params({"attribute": 1, "skill": 1, "helpers": 0, "difficulty": 8})
    with pytest.raises(EngineError, match=r"Die 2 \(d6\) must show 1 to 6, not 7"):
        twod6.roll(params, TypedDice([4, 7]))


def test_a_die_not_typed_is_refused_never_invented():
    params = t10.parse_params({"pool": 2, "difficulty": 7})
    with pytest.raises(EngineError, match=r"Die 3 \(d10\) is missing"):
        t10.roll(params, TypedDice([10, 4]))


def test_faces_the_roll_did_not_ask_for_are_counted_as_unused():
    source = TypedDice([4, 3, 2])
    twod6.roll(twod6.parse_params({"attribute": 1, "skill": 1, "difficulty": 8}), source)
    assert source.unused == 1


def test_typed_dice_draw_nothing_from_the_fair_stream():
    assert not hasattr(TypedDice([1]), "drawn")
