"""Quick dice expressions (rolls.engine.dice): parsing, every operator, the limits, fair draws."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rolls.engine import dice
from rolls.engine.check import check_document
from rolls.engine.core import MAX_DICE, EngineError
from rolls.engine.fair import FairDice, commitment
from rolls.engine.protocol import answer
from tests.engine.test_fair import Stream


def total(expression: str, faces: list[int]) -> int:
    return dice.resolve(dice.parse_expression(expression), faces).total


def kept(expression: str, faces: list[int]) -> list[bool]:
    return [die.kept for die in dice.resolve(dice.parse_expression(expression), faces).dice]


def refusal(expression: str) -> str:
    with pytest.raises(EngineError) as error:
        dice.parse_expression(expression)
    return str(error.value)


# --- Every operator ------------------------------------------------------------------------


def test_dice_plus_a_number_adds_the_number():
    assert total("2d6+3", [4, 5]) == 12


def test_differences_of_dice_and_numbers_subtract():
    assert total("1d20 - 1d4 - 2", [15, 3]) == 10


def test_a_leading_minus_makes_a_negative_term():
    assert total("-d4+1", [3]) == -2


def test_brackets_group_a_subtraction():
    assert total("10-(d6+2)", [3]) == 5


def test_keep_highest_keeps_the_highest_dice_and_marks_the_others_dropped():
    assert total("4d6kh3", [1, 5, 3, 6]) == 14
    assert kept("4d6kh3", [1, 5, 3, 6]) == [False, True, True, True]


def test_keep_lowest_keeps_the_lowest_die():
    assert total("4d6kl1", [4, 2, 6, 3]) == 2
    assert kept("4d6kl1", [4, 2, 6, 3]) == [False, True, False, False]


def test_drop_lowest_drops_one_of_two_d20s():
    assert total("2d20dl1", [7, 18]) == 18
    assert kept("2d20dl1", [7, 18]) == [False, True]


def test_drop_highest_drops_the_highest_die():
    assert total("3d6dh1", [6, 2, 4]) == 6


def test_k_alone_means_keep_highest():
    assert total("3d6k2", [1, 4, 5]) == 9


def test_ties_drop_the_earlier_die_of_equal_faces():
    assert kept("2d6kh1", [4, 4]) == [False, True]


def test_an_exploding_die_at_its_top_face_adds_another_die():
    result = dice.resolve(dice.parse_expression("3d10!"), [10, 4, 2, 7])
    assert result.total == 23
    assert [die.why for die in result.dice] == ["exploded", "", "", "explosion"]


def test_explosions_come_batch_after_batch_in_draw_order():
    # 2d6!: both sixes explode (batch 2: 6, 3), the new six explodes again (batch 3: 1).
    assert total("2d6!", [6, 6, 6, 3, 1]) == 22


def test_an_explosion_chain_stops_at_its_cap():
    faces = [2] * (dice.MAX_EXPLOSIONS + 1)
    result = dice.resolve(dice.parse_expression("d2!"), faces)
    assert result.total == 2 * (dice.MAX_EXPLOSIONS + 1)
    assert len(result.dice) == dice.MAX_EXPLOSIONS + 1


def test_d100_and_d_percent_are_the_same_die():
    assert total("d100", [73]) == total("d%", [73]) == 73


def test_d66_reads_tens_then_units():
    assert total("d66", [3, 5]) == 35


def test_a_bare_d_means_one_die():
    assert total("d20", [11]) == 11


def test_spaces_and_capitals_are_ignored():
    assert dice.parse_expression(" 2D6 + 3 ").expression == "2d6+3"


# --- Refusals that point at what cannot be read ----------------------------------------------


def test_an_unknown_character_is_named_with_its_position():
    assert refusal("2d6+x") == (
        "Cannot read 'x' at position 5: a number, a die such as 'd6' or '(' expected."
    )


def test_positions_count_the_spaces_as_typed():
    assert "position 7" in refusal("2d6 + x")


def test_a_trailing_operator_says_the_expression_ends_too_early():
    assert "ends too early" in refusal("2d6+")


def test_a_stray_closing_bracket_is_refused():
    assert refusal("d6)") == "The ')' at position 3 closes no '('."


def test_an_unclosed_bracket_is_refused():
    assert "')' expected" in refusal("(d6+1")


def test_multiplication_is_not_part_of_the_language():
    assert "position 4" in refusal("2d6*2")


def test_an_empty_expression_asks_for_one():
    assert "Type a dice expression" in refusal("   ")


def test_an_expression_without_dice_is_refused():
    assert "rolls no dice" in refusal("3+4")


def test_a_die_without_sides_is_refused():
    assert "number of sides" in refusal("2d")


def test_a_zero_sided_die_is_refused():
    assert "1 to 1000 sides, not 0" in refusal("2d0")


def test_zero_dice_are_refused():
    assert "at least one die" in refusal("0d6")


def test_keeping_more_dice_than_rolled_is_refused():
    assert "2 dice cannot keep or drop 3" in refusal("2d6kh3")


def test_a_space_inside_a_number_is_refused():
    assert "splits the number" in refusal("3d6 4")


def test_a_d1_cannot_explode():
    assert "cannot explode" in refusal("3d1!")


# --- Hard limits -------------------------------------------------------------------------------


def test_two_hundred_dice_may_be_rolled():
    assert dice.parse_expression(f"{MAX_DICE}d6").dice_needed == MAX_DICE


def test_more_than_two_hundred_dice_are_refused():
    assert "at most 200 dice" in refusal("150d6+51d6")


def test_exploding_dice_count_their_possible_explosions_against_the_cap():
    assert "explosions counted" in refusal("19d6!")


def test_a_very_long_expression_is_refused():
    assert "too long" in refusal("1+" * 70 + "d6")


def test_brackets_nested_too_deep_are_refused():
    assert "nest too deep" in refusal("(" * 9 + "d6" + ")" * 9)


def test_too_many_terms_are_refused():
    assert "too many parts" in refusal("1+" * 40 + "d2")


def test_a_huge_number_is_refused():
    assert "too long" in refusal("d6+12345678")


def test_resolve_refuses_too_few_faces():
    with pytest.raises(EngineError, match="Too few faces"):
        dice.resolve(dice.parse_expression("3d6"), [1, 2])


def test_resolve_refuses_too_many_faces():
    with pytest.raises(EngineError, match="Too many faces"):
        dice.resolve(dice.parse_expression("3d6"), [1, 2, 3, 4])


def test_resolve_refuses_a_face_the_die_does_not_have():
    with pytest.raises(EngineError, match="d6 cannot show 7"):
        dice.resolve(dice.parse_expression("d6"), [7])


def test_params_must_hold_only_the_expression():
    with pytest.raises(EngineError, match="Unknown field"):
        dice.parse_params({"expression": "d6", "extra": 1})


# --- Properties -------------------------------------------------------------------------------

ALPHABET = "0123456789d%!khl+-() xX*"


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=ALPHABET, max_size=40) | st.text(max_size=30))
def test_any_text_parses_or_raises_an_engine_error_never_anything_else(text):
    try:
        params = dice.parse_expression(text)
    except EngineError:
        return
    assert params.dice_needed <= MAX_DICE


@st.composite
def expressions(draw) -> str:
    parts = []
    for index in range(draw(st.integers(1, 4))):
        sign = "-" if index and draw(st.booleans()) else "+"
        count = draw(st.integers(1, 4))  # 4 groups of 4 exploding: 176 dice
        sides = draw(st.sampled_from([2, 3, 4, 6, 8, 10, 12, 20, 66, 100]))
        suffix = draw(st.sampled_from(["", "!", "kh", "kl", "dh", "dl"]))
        if sides == 66 and suffix:
            suffix = ""
        if suffix in ("kh", "kl", "dh", "dl"):
            suffix += str(draw(st.integers(0, count)))
        parts.append(f"{sign}{count}d{sides}{suffix}")
        if draw(st.booleans()):
            parts.append(f"{'-' if draw(st.booleans()) else '+'}{draw(st.integers(0, 50))}")
    return "".join(parts).lstrip("+")


@settings(max_examples=200, deadline=None)
@given(expressions(), st.integers(0, 2**32))
def test_a_roll_equals_resolve_on_the_faces_it_drew(expression, seed):
    params = dice.parse_expression(expression)
    rolled = dice.roll(params, random.Random(seed))
    assert dice.resolve(params, [die.face for die in rolled.dice]) == rolled
    assert len(rolled.dice) <= params.dice_needed


@settings(max_examples=100, deadline=None)
@given(expressions(), st.integers(0, 2**32))
def test_a_total_is_the_sum_of_the_kept_dice_signed_and_the_numbers(expression, seed):
    params = dice.parse_expression(expression)
    rolled = dice.roll(params, random.Random(seed))
    if "d66" not in expression and "-" not in expression:
        numbers = sum(term.value for term in params.terms if isinstance(term, dice.Number))
        assert rolled.total == sum(die.face for die in rolled.dice if die.kept) + numbers


# --- Fair dice: the contract's draw and the offline checker ---------------------------------

SEED = "ab" * 32


def test_draw_takes_the_faces_from_the_fair_stream_in_order():
    reply = answer({"system": "dice", "op": "draw", "params": {"expression": "4d6kh3+2"},
                    "seed": SEED, "seq": 3, "nonce": "abc"})  # fmt: skip
    stream = Stream(SEED, 3, "abc")
    assert reply["faces"] == [stream.die(6) for _ in range(4)]
    assert reply["total"] == sum(sorted(reply["faces"])[1:]) + 2


def test_the_contract_resolves_a_quick_expression_with_given_faces():
    reply = answer({"system": "dice", "op": "resolve", "params": {"expression": "2d6+3"},
                    "faces": [2, 5]})  # fmt: skip
    assert reply == {"expression": "2d6+3", "total": 10, "dice_rolled": 2}


def test_the_contract_answers_a_bad_expression_with_its_message():
    reply = answer({"system": "dice", "op": "draw", "params": {"expression": "2d6+?"},
                    "seed": SEED, "seq": 1, "nonce": "n"})  # fmt: skip
    assert reply == {"error": "Cannot read '?' at position 5: a number, a die such as 'd6' or "
                     "'(' expected."}  # fmt: skip


def quick_entry(expression: str, seq: int, nonce: str) -> dict:
    stream = FairDice(SEED, seq, nonce)
    result = dice.roll(dice.parse_expression(expression), stream)
    return {
        "seq": seq, "kind": dice.QUICK_KIND, "system": "fasttest", "nonce": nonce,
        "params": {"expression": expression}, "parent_seq": None, "redacted": False,
        "faces": [die.face for die in result.dice], "result": result.contract(),
        "dice": [{"sides": die.sides, "face": die.face} for die in result.dice],
        "drawn": [list(pair) for pair in stream.drawn],
    }  # fmt: skip


def export(*entries: dict) -> dict:
    return {"fair": {"seed": SEED, "commitment": commitment(SEED)}, "entries": list(entries)}


def test_the_checker_verifies_a_quick_roll_whatever_the_campaigns_system():
    report = check_document(export(quick_entry("3d10!+d66-2", 4, "xyz")))
    assert report.matched == [4]
    assert report.ok


def test_the_checker_catches_a_quick_roll_whose_total_was_changed():
    entry = quick_entry("2d6+3", 5, "n5")
    entry["result"] = {**entry["result"], "total": entry["result"]["total"] + 1}
    report = check_document(export(entry))
    assert report.mismatched == [(5, "the result logged is not the one these faces give")]


def test_a_refusal_carries_its_code_and_data_for_the_web_layer():
    with pytest.raises(dice.ExpressionError) as error:
        dice.parse_expression("2d6+x")
    assert (error.value.code, error.value.data["position"]) == ("unreadable", 5)


@settings(max_examples=300, deadline=None)
@given(expressions(), st.lists(st.integers(-5, 1200), max_size=60))
def test_resolve_with_any_faces_answers_or_raises_an_engine_error(expression, faces):
    params = dice.parse_expression(expression)
    try:
        result = dice.resolve(params, faces)
    except EngineError:
        return
    assert [die.face for die in result.dice] == faces


@settings(max_examples=200, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=10),
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=10), inner, max_size=3)
        ),
        max_leaves=8,
    )
)
def test_any_json_params_parse_or_raise_an_engine_error(raw):  # fmt: skip
    try:
        params = dice.parse_params({"expression": raw} if not isinstance(raw, dict) else raw)
    except EngineError:
        return
    assert params.dice_needed <= MAX_DICE


class CountedDice:
    """A fair source that counts the dice drawn from it."""

    def __init__(self, seq: int) -> None:
        self.source, self.drawn = FairDice(SEED, seq, "n"), 0

    def randint(self, a: int, b: int) -> int:
        self.drawn += 1
        return self.source.randint(a, b)


def test_the_largest_expression_allowed_draws_no_more_than_its_dice():
    # 200 dice of 1000 sides, each group kept or dropped: the most one quick roll may draw, and
    # what bounds its time (timed by bench/odds.py, never in a test).
    expression = "40d1000kh1+40d1000kl1+40d1000dh1+40d1000dl1+(40d1000-1)"
    params = dice.parse_expression(expression)
    assert params.dice_needed == MAX_DICE
    for seq in range(1, 51):
        counted = CountedDice(seq)
        dice.roll(params, counted)
        assert counted.drawn == MAX_DICE


def test_the_worst_explosion_chain_is_capped_and_quick():
    params = dice.parse_expression("18d2!")

    class AlwaysTop:
        def randint(self, a: int, b: int) -> int:
            return b

    result = dice.roll(params, AlwaysTop())
    assert len(result.dice) == 18 * (dice.MAX_EXPLOSIONS + 1) <= MAX_DICE
