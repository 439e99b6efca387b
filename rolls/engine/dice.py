"""Quick dice: a dice expression any member types (``2d6+3``, ``4d6kh3``, ``3d10!``, ``d100``).

Not a rule system: the expression is rolled as it is written and its total is the result. The
module has the engine's interface (``parse_params``, ``parse_faces``, ``resolve``, ``roll``), so
the JSON Lines contract's ``draw`` and the fair-dice checker re-run a quick roll like any test:
``{"system": "dice", "op": "draw", "params": {"expression": "2d6+3"}, ...}``.

Grammar (case-insensitive, spaces ignored)::

    expression := term (("+" | "-") term)*
    term       := ["+" | "-"] (dice | number | "(" expression ")")
    dice       := [count] "d" (sides | "%" | "F"?) ["!"] [("kh" | "kl" | "dh" | "dl" | "k") n]
    count, sides, n := digits

``d%`` is ``d100``; ``d66`` is a d66 read as tens and units (two d6, ``3`` and ``5`` make 35);
``!`` explodes: a die showing its highest face adds another die of its kind (a chain stops at
``MAX_EXPLOSIONS`` per die and at ``MAX_DICE`` per roll). ``kh3`` keeps the highest three,
``kl1`` the lowest one, ``dh``/``dl`` drop the highest/lowest; ``k3`` is ``kh3``.

Why our own parser rather than ``d20`` (avrae): ``d20`` rolls through its own ``random`` calls in
its own order, so drawing from the session's fair stream (ENGINE.md, "Fair dice") in an order a
checker can reproduce would mean monkeypatching it; a recursive-descent parser of ~200 lines with
hard limits is easier to keep exact. Its work is bounded before any die is drawn: at most
``MAX_LENGTH`` characters, ``MAX_DEPTH`` nested parentheses, ``MAX_TERMS`` terms, ``MAX_DICE``
dice counted with every possible explosion, sides at most ``MAX_SIDES``.

Dice are drawn left to right, each group in full before its explosions (batch after batch), and
listed in the result in exactly that order, so ``faces`` is a flat list in draw order.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .core import MAX_DICE, Die, EngineError, RandomSource, check_fields, draw, int_list

MAX_LENGTH = 120
MAX_DEPTH = 8
MAX_TERMS = 40
MAX_SIDES = 1000
MAX_NUMBER = 100_000
#: The most extra dice one die's explosions may add (a d2 could go on for ever).
MAX_EXPLOSIONS = 10
#: The kind a quick roll has in the log (the fair-dice checker re-runs such an entry here).
QUICK_KIND = "quick"
#: The kinds of a participant's dice in a Caerbannog group test and of their re-roll: rolled
#: as expressions here too ("2d10"), whatever the campaign's system.
GROUP_DIE_KIND = "group_die"
GROUP_REROLL_KIND = "group_reroll"
#: Every kind of log entry whose dice and result are this engine's, not the system's.
EXPRESSION_KINDS = frozenset({QUICK_KIND, GROUP_DIE_KIND, GROUP_REROLL_KIND})

_KEEP = ("kh", "kl", "dh", "dl")
_DIGITS = frozenset("0123456789")


#: What a parser expected where it could not read (the ``expected`` of an ExpressionError).
EXPECTED = {
    "term": "a number, a die such as 'd6' or '('",
    "close": "')'",
    "sides": "the number of sides",
    "drop": "'dh' or 'dl' (drop the highest or lowest)",
    "how_many": "how many dice to keep or drop",
    "operator": "'+', '-' or the end",
}

#: Every refusal of an expression, by code; the web layer has each in the reader's language.
MESSAGES = {
    "unreadable": "Cannot read {char!r} at position {position}: {expected} expected.",
    "ends_early": "The expression ends too early: {expected} expected at the end.",
    "stray_close": "The ')' at position {position} closes no '('.",
    "split_number": "A space splits the number at position {position}.",
    "number_long": "The number at position {position} is too long.",
    "number_big": "The number {number} is too big; at most {max}.",
    "zero_dice": "At position {position}: roll at least one die.",
    "sides_range": "At position {position}: a die has 1 to {max} sides, not {sides}.",
    "no_explode": "At position {position}: a d{sides} cannot explode.",
    "explode_keep": "At position {position}: exploding dice cannot also be kept or dropped.",
    "keep_many": "At position {position}: {count} dice cannot keep or drop {n}.",
    "empty": "Type a dice expression, such as '2d6+3'.",
    "no_dice": "The expression rolls no dice; add one, such as 'd20'.",
    "length": "The expression is too long; at most {max} characters.",
    "depth": "The brackets nest too deep; at most {max} levels.",
    "terms": "The expression has too many parts; at most {max}.",
    "too_many_dice": (
        "This expression may need {needed} dice (explosions counted); "
        "at most {max} dice can be rolled at once."
    ),
}


class ExpressionError(EngineError):
    """An expression that cannot be rolled: ``code`` (a key of MESSAGES) and its ``data``, so
    the web layer can say it in the reader's language; ``str()`` is the English sentence."""

    def __init__(self, code: str, **data: Any) -> None:
        self.code, self.data = code, data
        shown = data | ({"expected": EXPECTED[data["expected"]]} if "expected" in data else {})
        super().__init__(MESSAGES[code].format(**shown))


@dataclass(frozen=True, slots=True)
class Dice:
    """``count`` dice of ``sides`` (``d66``: ``sides`` 66), exploding or not, kept or dropped."""

    count: int
    sides: int
    explode: bool = False
    keep: str = ""  # "kh", "kl", "dh", "dl" or ""
    keep_n: int = 0
    sign: int = 1
    text: str = ""

    def most_dice(self) -> int:
        """The dice this group can need at worst (every die exploding to the cap)."""
        per_die = 2 if self.sides == 66 else 1
        return self.count * per_die * ((MAX_EXPLOSIONS + 1) if self.explode else 1)


@dataclass(frozen=True, slots=True)
class Number:
    value: int
    sign: int = 1


@dataclass(frozen=True, slots=True)
class Group:
    """A parenthesised sub-expression."""

    terms: tuple[Any, ...]
    sign: int = 1


@dataclass(frozen=True, slots=True)
class Params:
    expression: str
    terms: tuple[Any, ...]
    dice_needed: int


@dataclass(frozen=True, slots=True)
class Result:
    """A rolled expression: every die in draw order (dropped ones marked) and the total."""

    expression: str
    total: int
    dice: tuple[Die, ...]

    def contract(self) -> dict[str, Any]:
        return {"expression": self.expression, "total": self.total, "dice_rolled": len(self.dice)}


class _Parser:
    def __init__(self, text: str, origin: list[int]) -> None:
        self.text = text
        self.origin = origin  # where each character stood in the text as typed
        self.at = 0
        self.terms = 0

    def pos(self, at: int) -> int:
        """A position in the text as typed (spaces counted), from 1."""
        return self.origin[at] + 1 if at < len(self.origin) else len(self.origin) + 1

    def fail(self, expected: str) -> ExpressionError:
        if self.at >= len(self.text):
            return ExpressionError("ends_early", expected=expected)
        return ExpressionError(
            "unreadable", char=self.text[self.at], position=self.pos(self.at), expected=expected
        )

    def peek(self) -> str:
        return self.text[self.at] if self.at < len(self.text) else ""

    def number(self) -> int | None:
        start = self.at
        while self.peek() in _DIGITS:
            self.at += 1
            if self.at - start > 6:
                raise ExpressionError("number_long", position=self.pos(start))
        return int(self.text[start : self.at]) if self.at > start else None

    def expression(self, depth: int) -> tuple[Any, ...]:
        if depth > MAX_DEPTH:
            raise ExpressionError("depth", max=MAX_DEPTH)
        terms = [self.term(depth)]
        while self.peek() in ("+", "-"):
            terms.append(self.term(depth))
        return tuple(terms)

    def term(self, depth: int) -> Any:
        self.terms += 1
        if self.terms > MAX_TERMS:
            raise ExpressionError("terms", max=MAX_TERMS)
        sign = 1
        if self.peek() in ("+", "-"):
            sign = -1 if self.peek() == "-" else 1
            self.at += 1
        start = self.at
        if self.peek() == "(":
            self.at += 1
            inner = self.expression(depth + 1)
            if self.peek() != ")":
                raise self.fail("close")
            self.at += 1
            return Group(inner, sign)
        count = self.number()
        if self.peek() != "d":
            if count is None:
                raise self.fail("term")
            if count > MAX_NUMBER:
                raise ExpressionError("number_big", number=count, max=MAX_NUMBER)
            return Number(count, sign)
        return self.dice(count, sign, start)

    def dice(self, count: int | None, sign: int, start: int) -> Dice:
        self.at += 1  # the "d"
        if count is None:
            count = 1
        if count < 1:
            raise ExpressionError("zero_dice", position=self.pos(start))
        if self.peek() == "%":
            self.at += 1
            sides = 100
        else:
            sides_at = self.at
            typed = self.number()
            if typed is None:
                raise self.fail("sides")
            sides = typed
            if not 1 <= sides <= MAX_SIDES:
                raise ExpressionError(
                    "sides_range", position=self.pos(sides_at), max=MAX_SIDES, sides=sides
                )
        explode = False
        if self.peek() == "!":
            self.at += 1
            explode = True
            if sides == 1 or sides == 66:
                raise ExpressionError("no_explode", position=self.pos(start), sides=sides)
        keep, n = "", 0
        if self.peek() in ("k", "d"):
            keep_at = self.at
            pair = self.text[self.at : self.at + 2]
            if pair in _KEEP:
                keep = pair
                self.at += 2
            elif self.peek() == "k":
                keep = "kh"
                self.at += 1
            else:
                raise self.fail("drop")
            how_many = self.number()
            if how_many is None:
                raise self.fail("how_many")
            n = how_many
            if explode:
                raise ExpressionError("explode_keep", position=self.pos(keep_at))
            if n > count:
                raise ExpressionError("keep_many", position=self.pos(keep_at), count=count, n=n)
        return Dice(count, sides, explode, keep, keep_n=n, sign=sign,
                    text=self.text[start : self.at])  # fmt: skip


def _walk(terms: Sequence[Any]):
    for term in terms:
        if isinstance(term, Group):
            yield from _walk(term.terms)
        else:
            yield term


def parse_expression(text: Any) -> Params:
    """Read an expression, or an EngineError that says where it cannot be read."""
    if not isinstance(text, str):
        raise ExpressionError("empty")
    if len(text) > MAX_LENGTH:
        raise ExpressionError("length", max=MAX_LENGTH)
    split = re.search(r"[0-9]\s+[0-9]", text)
    if split:
        raise ExpressionError("split_number", position=split.start() + 1)
    origin = [index for index, char in enumerate(text) if not char.isspace()]
    # ASCII only is lowered: some letters' lower case is two characters, and positions must hold.
    compact = "".join(text[i].lower() if text[i].isascii() else text[i] for i in origin)
    if not compact:
        raise ExpressionError("empty")
    parser = _Parser(compact, origin)
    terms = parser.expression(0)
    if parser.at < len(compact):
        if parser.peek() == ")":
            raise ExpressionError("stray_close", position=parser.pos(parser.at))
        raise parser.fail("operator")
    groups = [term for term in _walk(terms) if isinstance(term, Dice)]
    if not groups:
        raise ExpressionError("no_dice")
    needed = sum(group.most_dice() for group in groups)
    if needed > MAX_DICE:
        raise ExpressionError("too_many_dice", needed=needed, max=MAX_DICE)
    return Params(compact, terms, needed)


def parse_params(raw: Any) -> Params:
    """The engine's params: ``{"expression": "2d6+3"}``."""
    check_fields(raw, ("expression",))
    if "expression" not in raw:
        raise EngineError("'expression' is missing.")
    return parse_expression(raw["expression"])


def parse_faces(params: Params, raw: Any) -> tuple[int, ...]:
    """The faces in draw order; whether they fit the expression is ``resolve``'s to say."""
    return int_list("faces", raw, 1, MAX_SIDES)


class _Faces:
    """Faces given (``resolve``) or drawn (``roll``), handed out one group at a time."""

    def __init__(self, faces: Sequence[int] | None = None, rng: RandomSource | None = None):
        self.faces = faces
        self.rng = rng
        self.at = 0

    def take(self, sides: int, count: int) -> tuple[int, ...]:
        if self.rng is not None:
            return draw(self.rng, sides, count)
        assert self.faces is not None
        if self.at + count > len(self.faces):
            raise EngineError(
                f"Too few faces for this expression: {len(self.faces)} given, more needed."
            )
        chunk = tuple(self.faces[self.at : self.at + count])
        self.at += count
        for face in chunk:
            if not 1 <= face <= sides:
                raise EngineError(f"A d{sides} cannot show {face}.")
        return chunk


def _group(dice: Dice, source: _Faces) -> tuple[int, list[Die]]:
    label = dice.text
    if dice.sides == 66:
        pairs = source.take(6, 2 * dice.count)
        out = [Die(6, face, True, label) for face in pairs]
        value = sum(pairs[i] * 10 + pairs[i + 1] for i in range(0, len(pairs), 2))
        return value, out
    faces: list[int] = list(source.take(dice.sides, dice.count))
    why = ["" for _ in faces]
    if dice.explode:
        # Batch after batch: every die at its top face adds one die; a chain stops at the cap.
        chain = [0] * len(faces)
        batch = [i for i, face in enumerate(faces) if face == dice.sides]
        while batch:
            extra = source.take(dice.sides, len(batch))
            nxt = []
            for origin, face in zip(batch, extra, strict=True):
                why[origin] = "exploded"
                chain.append(chain[origin] + 1)
                faces.append(face)
                why.append("explosion")
                if face == dice.sides and chain[-1] < MAX_EXPLOSIONS:
                    nxt.append(len(faces) - 1)
            batch = nxt
    kept = [True] * len(faces)
    if dice.keep:
        order = sorted(range(len(faces)), key=lambda i: (faces[i], i))
        n = dice.keep_n
        if dice.keep == "kh":
            dropped = order[: len(faces) - n]
        elif dice.keep == "kl":
            dropped = order[n:]
        elif dice.keep == "dh":
            dropped = order[len(faces) - n :]
        else:
            dropped = order[:n]
        for i in dropped:
            kept[i] = False
            why[i] = "dropped"
    out = [
        Die(dice.sides, face, keep, label, reason)
        for face, keep, reason in zip(faces, kept, why, strict=True)
    ]
    return sum(face for face, keep in zip(faces, kept, strict=True) if keep), out


def _evaluate(terms: Sequence[Any], source: _Faces, dice: list[Die]) -> int:
    total = 0
    for term in terms:
        if isinstance(term, Number):
            total += term.sign * term.value
        elif isinstance(term, Group):
            total += term.sign * _evaluate(term.terms, source, dice)
        else:
            value, rolled = _group(term, source)
            dice.extend(rolled)
            total += term.sign * value
    return total


def resolve(params: Params, faces: Sequence[int]) -> Result:
    """The expression's total with the given faces (in draw order; exactly as many as needed)."""
    source = _Faces(faces=tuple(faces))
    dice: list[Die] = []
    total = _evaluate(params.terms, source, dice)
    if source.at != len(faces):
        raise EngineError(
            f"Too many faces for this expression: {len(faces)} given, {source.at} needed."
        )
    return Result(params.expression, total, tuple(dice))


def roll(params: Params, rng: RandomSource) -> Result:
    """Draw the dice from ``rng`` in order and add them up."""
    source = _Faces(rng=rng)
    dice: list[Die] = []
    total = _evaluate(params.terms, source, dice)
    return Result(params.expression, total, tuple(dice))
