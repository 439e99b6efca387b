"""A chat line's rolls in place (``rolls.engine.chat``): drawn in the line's order, resolved
back from their faces, bounded, and written out for the exports."""

from __future__ import annotations

import random

import pytest

from rolls.engine import chat, dice
from rolls.engine.core import EngineError

LINE = {"note": "chat", "text": "Cios [[1d20+2]] i [[4d6kh3]]", "inline": ["1d20+2", "4d6kh3"]}


def test_a_line_rolls_its_expressions_in_order_and_resolves_back_from_its_faces():
    params = chat.parse_params(LINE)
    said = chat.roll(params, random.Random(7))
    assert [result["expression"] for result in said.contract()["inline"]] == ["1d20+2", "4d6kh3"]
    assert chat.resolve(params, [die.face for die in said.dice]) == said


def test_a_line_without_rolls_answers_as_a_note():
    said = chat.roll(chat.parse_params({"note": "chat", "text": "Hej"}), random.Random(1))
    assert said.contract() == {"outcome": "", "note": {"note": "chat", "text": "Hej"}}
    assert said.dice == ()


def test_a_line_with_too_many_rolls_is_refused():
    with pytest.raises(EngineError, match="at most 5"):
        chat.parse_params({"note": "chat", "text": "x", "inline": ["d6"] * 6})


def test_a_line_whose_rolls_need_too_many_dice_is_refused():
    with pytest.raises(EngineError, match="201 dice"):
        chat.parse_params({"note": "chat", "text": "x", "inline": ["100d6", "101d6"]})


def test_the_faces_of_a_line_must_be_exactly_those_it_needs():
    params = chat.parse_params({"note": "chat", "text": "x", "inline": ["2d6"]})
    with pytest.raises(EngineError, match="Too few"):
        chat.resolve(params, [3])
    with pytest.raises(EngineError, match="Too many"):
        chat.resolve(params, [3, 4, 5])


@pytest.mark.parametrize(
    ("expression", "width"),
    [("d6", 1), ("-d6", 2), ("3d6!", 3), ("d66", 2), ("4d6dl1", 2), ("d20-30", 3)],
)
def test_the_widest_total_of_an_expression_counts_its_sign(expression, width):
    assert chat.widest_total(dice.parse_expression(expression)) == width


def test_a_line_is_written_out_with_each_result_in_place():
    answer = {"inline": [{"expression": "1d20+2", "total": 17}]}
    assert chat.written_out("a [[1d20 + 2]] b [[d6]]", answer) == "a [[1d20+2 = 17]] b [[d6]]"
