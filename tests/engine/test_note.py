"""The note engine: log entries that roll nothing (a condition added or cleared)."""

import pytest

from rolls.engine import EngineError, note
from rolls.engine.protocol import answer


def test_a_note_rolls_no_dice_and_says_its_facts():
    params = note.parse_params({"note": "condition", "amount": -2})
    result = note.roll(params, rng=None)
    assert result.dice == ()
    assert result.contract() == {"outcome": "", "note": {"amount": -2, "note": "condition"}}


@pytest.mark.parametrize(
    "raw",
    [None, [], {}, {"note": 3}, {"note": "x", "text": "y" * 401}, {"note": "x", "a": object()}],
)
def test_anything_but_a_few_plain_facts_is_refused(raw):
    with pytest.raises(EngineError):
        note.parse_params(raw)


def test_a_note_with_faces_is_refused():
    with pytest.raises(EngineError):
        note.resolve(note.parse_params({"note": "x"}), [3])


def test_the_json_lines_contract_draws_a_note_as_no_faces():
    drawn = answer(
        {"system": "note", "op": "draw", "params": {"note": "condition"},
         "seed": "00" * 32, "seq": 1, "nonce": "n"}
    )  # fmt: skip
    assert drawn == {"outcome": "", "note": {"note": "condition"}, "faces": []}
