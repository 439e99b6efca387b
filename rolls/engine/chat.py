"""A line of the table's chat (``rolls.chat``) as the engine reads it: the facts of a note
(``rolls.engine.note``: its text, whom it was for) and the dice expressions the line rolls in
place (``[[1d20+2]]``), each read and rolled by ``rolls.engine.dice``.

The line's dice are drawn from its own entry's stream, expression after expression in the order
they stand in the line, each exactly as a quick roll draws it; so the fair-dice checker re-runs a
line like any roll (``{"system": "chat", "op": "draw", "params": {"note": "chat", "text": ...,
"inline": ["1d20+2"]}, ...}``) and gets its faces and its results. A line without rolls is a note
and answers as one. Standard library only.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from . import dice, note
from .core import MAX_DICE, Die, EngineError, RandomSource, int_list

#: The log's kind of a chat line (``rolls.chat``).
KIND = "chat"
#: The most dice expressions one line may roll in place.
MAX_INLINE = 5
#: A dice expression rolled in place; the shortest match, so ``[[d6]] and [[d8]]`` is two.
INLINE = re.compile(r"\[\[(.*?)\]\]")


@dataclass(frozen=True, slots=True)
class Line:
    """A line's facts and the expressions it rolls, in the order they stand."""

    note: note.Note
    inline: tuple[dice.Params, ...]


@dataclass(frozen=True, slots=True)
class Said:
    """A line as rolled: its facts and each expression's result, in the line's order."""

    note: note.Note
    rolls: tuple[dice.Result, ...]

    @property
    def dice(self) -> tuple[Die, ...]:
        return tuple(die for result in self.rolls for die in result.dice)

    def contract(self) -> dict[str, Any]:
        answer = self.note.contract()
        if self.rolls:
            answer["inline"] = [result.contract() for result in self.rolls]
        return answer


def parse_params(raw: Any) -> Line:
    """A note's params with, under ``inline``, at most ``MAX_INLINE`` expressions that need at
    most ``MAX_DICE`` dice between them."""
    facts = note.parse_params(raw)
    typed = raw.get("inline", [])
    if not isinstance(typed, list) or not all(isinstance(text, str) for text in typed):
        raise EngineError("A line's 'inline' is a list of dice expressions.")
    if len(typed) > MAX_INLINE:
        raise EngineError(f"A line rolls at most {MAX_INLINE} expressions, not {len(typed)}.")
    inline = tuple(dice.parse_expression(text) for text in typed)
    needed = sum(params.dice_needed for params in inline)
    if needed > MAX_DICE:
        raise EngineError(
            f"The line's rolls may need {needed} dice; at most {MAX_DICE} can be rolled at once."
        )
    return Line(facts, inline)


def parse_faces(params: Line, raw: Any) -> tuple[int, ...]:
    """Every face of the line's rolls in draw order; whether they fit is ``resolve``'s to say."""
    return int_list("faces", raw, 1, dice.MAX_SIDES)


class _Given:
    """The faces given to ``resolve``, handed out as a random source hands out dice."""

    def __init__(self, faces: Sequence[int]) -> None:
        self.faces, self.at = tuple(faces), 0

    def dice(self, sides: int, count: int) -> tuple[int, ...]:
        chunk = self.faces[self.at : self.at + count]
        if len(chunk) < count:
            raise EngineError(f"Too few faces for this line: {len(self.faces)} given.")
        for face in chunk:
            if not 1 <= face <= sides:
                raise EngineError(f"A d{sides} cannot show {face}.")
        self.at += count
        return chunk

    def randint(self, a: int, b: int) -> int:
        return a - 1 + self.dice(b - a + 1, 1)[0]


def resolve(params: Line, faces: Sequence[int]) -> Said:
    """The line's results with the given faces (in draw order, exactly as many as needed)."""
    given = _Given(faces)
    said = roll(params, given)
    if given.at != len(given.faces):
        raise EngineError(f"Too many faces for this line: {len(faces)} given, {given.at} needed.")
    return said


def roll(params: Line, rng: RandomSource) -> Said:
    """Roll the line's expressions from ``rng``, one after the other."""
    return Said(params.note, tuple(dice.roll(expression, rng) for expression in params.inline))


def widest_total(params: dice.Params) -> int:
    """How many characters the expression's total can take at most, its sign counted: what a
    line written out with its results needs room for (``rolls.chat``)."""
    low, high = _bounds(params.terms)
    return max(len(str(low)), len(str(high)))


def _bounds(terms: Sequence[Any]) -> tuple[int, int]:
    low = high = 0
    for term in terms:
        if isinstance(term, dice.Number):
            least = most = term.value
        elif isinstance(term, dice.Group):
            least, most = _bounds(term.terms)
        else:
            least, most = _dice_bounds(term)
        if term.sign < 0:
            least, most = -most, -least
        low, high = low + least, high + most
    return low, high


def _dice_bounds(group: dice.Dice) -> tuple[int, int]:
    """The least and the most a group of dice adds (before its sign)."""
    kept = group.count
    if group.keep in ("kh", "kl"):
        kept = group.keep_n
    elif group.keep in ("dh", "dl"):
        kept = group.count - group.keep_n
    if group.sides == 66:  # two d6 read as tens and units: 11 to 66
        return 11 * kept, 66 * kept
    # An exploding die may add MAX_EXPLOSIONS more (it is never kept or dropped).
    most = kept * (dice.MAX_EXPLOSIONS + 1 if group.explode else 1) * group.sides
    return kept, most


def written_out(text: str, answer: Any) -> str:
    """``text`` with each roll in place written with its result, ``[[1d20+2 = 17]]``, from the
    line's answer (``Said.contract``): what the exports read. A roll the answer lacks stays as
    it was typed."""
    results = answer.get("inline") if isinstance(answer, Mapping) else None
    rolls = iter(results if isinstance(results, list) else [])

    def result(found: re.Match[str]) -> str:
        rolled = next(rolls, None)
        if not isinstance(rolled, Mapping):
            return found.group(0)
        return f"[[{rolled.get('expression')} = {rolled.get('total')}]]"

    return INLINE.sub(result, text)
