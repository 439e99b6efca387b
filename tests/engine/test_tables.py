"""The GM's random tables in the pure engine: reading quick entry, gaps, overlaps, the roll."""

import pytest

from rolls.engine import tables
from rolls.engine.core import EngineError
from rolls.engine.fair import FairDice
from rolls.engine.protocol import draw
from rolls.engine.tables import Problem, parse_dice, parse_table

SEED = "ab" * 32


class Faces:
    def __init__(self, *faces):
        self.faces = list(faces)

    def randint(self, low, high):
        return self.faces.pop(0)


def problems(dice, text):
    return parse_table(dice, text)[2]


def test_d66_makes_thirty_six_totals_from_11_to_66():
    totals = parse_dice("d66").totals()
    assert (len(totals), totals[0], totals[6], totals[-1]) == (36, 11, 21, 66)


def test_a_d66_table_in_tens_has_no_gap_between_16_and_21():
    assert problems("d66", "11-16: a\n21-36: b\n41-66: c") == []


def test_a_gap_names_the_lines_on_each_side():
    assert problems("2d6", "2-5: a\n8-12: b") == [Problem("gap", (1, 2), 6, 7)]


def test_a_gap_at_the_start_names_the_first_line():
    assert problems("1d20", "3-20: a") == [Problem("gap", (1,), 1, 2)]


def test_an_overlap_names_both_lines_and_the_totals():
    assert problems("1d6", "1-4: a\n4-6: b") == [Problem("overlap", (1, 2), 4, 4)]


def test_a_backwards_range_is_its_own_problem():
    assert problems("1d6", "6-1: a") == [Problem("backwards", (1,), 6, 1)]


def test_rows_come_back_in_the_order_of_their_ranges():
    _, rows, _ = parse_table("1d6", "4-6: late\n1-3: early")
    assert [row.text for row in rows] == ["early", "late"]


def test_a_table_roll_drawn_from_the_fair_stream_reads_its_row():
    params = {"name": "T", "dice": "1d100", "rows": [[1, 50, "low"], [51, 100, "high"]]}
    answer = draw(tables, params, SEED, 3, "n")
    face = FairDice(SEED, 3, "n").die(100)
    assert answer["faces"] == [face]
    assert answer["text"] == ("low" if face <= 50 else "high")


def test_params_with_a_gap_are_refused():
    params = {"name": "T", "dice": "1d6", "rows": [[1, 2, "a"], [4, 6, "b"]]}
    with pytest.raises(EngineError, match="cover every total"):
        tables.parse_params(params)


def test_params_with_an_unknown_field_are_refused():
    params = {"name": "T", "dice": "1d6", "rows": [[1, 6, "a"]], "faces": [6]}
    with pytest.raises(EngineError, match="params are"):
        tables.parse_params(params)


def test_two_dice_are_summed():
    params = tables.parse_params({"name": "T", "dice": "2d6", "rows": [[2, 12, "any"]]})
    assert tables.roll(params, Faces(6, 5)).total == 11


def test_an_unreadable_line_and_an_overlap_are_both_reported_but_no_gap():
    found = problems("1d6", "1-2: a\n4-5: b\n5-6: c\nstorm")
    assert found == [Problem("unreadable", (4,)), Problem("overlap", (2, 3), 5, 5)]
