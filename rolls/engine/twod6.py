"""Post-apocalyptic 2d6 (RULES.md section 5, ENGINE.md ``2d6``).

Total = attribute + skill + 2d6 + modifiers, against a difficulty set by the GM. Modifiers come in
four categories; within a category they add up and the sum is clamped to -5..+5. Helpers of a
joint test add +1 circumstance each, inside that clamp.

Decisions of this module where RULES.md and ENGINE.md are silent:

- The success-point cap (skill + 1 + cap_bonus) is never below 1: a success always scores at
  least one success point, even for a negative skill. So ``success_points`` is 0 exactly on a
  failure, ``success_points_odds["0"]`` is exactly the failure mass, and in an opposed test every
  success beats every failure.
- ``success_points_odds`` is the distribution of ``success_points`` over all rolls: "0" carries
  the failure mass. Only values that can occur are listed, so it sums to 1.
- Opposed: ``margin`` is the absolute difference of the two scores (0 on a tie, which "b", the
  resisting side, wins). The sides' difficulties are taken as given; the engine does not insist
  that they are equal.
- Any whole number is accepted as a single modifier: the category clamp bounds its effect anyway.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .core import (
    Die,
    EngineError,
    RandomSource,
    Scale,
    check_dice_count,
    check_fields,
    check_probabilities,
    draw,
    faces_list,
    get_int,
    int_list,
)

ALLOWED = ("attribute", "skill", "modifiers", "helpers", "difficulty", "cap_bonus")
CATEGORIES = ("circumstance", "personal", "equipment", "supernatural")

#: Failure, then success: the rules name no extremes (success points say how well).
SCALE = Scale(("failure", "success"), frozenset({"success"}))
MOD_LIMIT = 5
MAX_HELPERS = 4
SIDES = 6
DICE = 2

#: How many of the 36 ordered rolls of 2d6 give each sum 2..12.
SUM_WAYS: tuple[tuple[int, int], ...] = tuple((s, 6 - abs(s - 7)) for s in range(2, 13))


def _clamp(value: int) -> int:
    return max(-MOD_LIMIT, min(MOD_LIMIT, value))


@dataclass(frozen=True, slots=True)
class Params:
    """A validated 2d6 test. ``modifiers`` holds the raw lists per category, in CATEGORIES order.

    The derived fields (clamped categories, their sum, the dice-free ``base``, the success-point
    ``cap`` and the ``automatic`` flag) are computed once here so that ``resolve`` stays lean.
    """

    attribute: int
    skill: int
    difficulty: int
    modifiers: tuple[tuple[int, ...], ...] = ((), (), (), ())
    helpers: int = 0
    cap_bonus: int = 0
    clamped: tuple[int, ...] = field(init=False)
    modifier: int = field(init=False)
    base: int = field(init=False)
    cap: int = field(init=False)
    automatic: str | None = field(init=False)

    def __post_init__(self) -> None:
        sums = [sum(values) for values in self.modifiers]
        sums[0] += self.helpers  # helpers are circumstance modifiers, inside its clamp
        clamped = tuple(_clamp(value) for value in sums)
        base = self.attribute + self.skill + sum(clamped)
        if base > self.difficulty:
            automatic: str | None = "success"
        elif base + DICE * SIDES < self.difficulty:
            automatic = "failure"
        else:
            automatic = None
        # Decision: a success always scores at least 1 point, even when skill + 1 would be < 1.
        cap = max(1, self.skill + 1 + self.cap_bonus)
        for name, value in (
            ("clamped", clamped),
            ("modifier", sum(clamped)),
            ("base", base),
            ("cap", cap),
            ("automatic", automatic),
        ):
            object.__setattr__(self, name, value)


@dataclass(frozen=True, slots=True)
class Result:
    """One resolved 2d6 test: the params, both dice and every number a log entry shows."""

    params: Params
    dice: tuple[Die, ...]
    total: int
    success: bool
    success_points: int
    failure_points: int
    automatic: str | None
    outcome: str

    @property
    def score(self) -> int:
        """The side's score in an opposed test: its success points, or minus its failure points."""
        return self.success_points if self.success else -self.failure_points

    def contract(self) -> dict[str, Any]:
        """ENGINE.md's resolve answer."""
        return {
            "total": self.total,
            "success": self.success,
            "success_points": self.success_points,
            "failure_points": self.failure_points,
            "automatic": self.automatic,
            "outcome": self.outcome,
        }


@dataclass(frozen=True, slots=True)
class Opposed:
    """An opposed test: "a" is the initiating side, "b" the resisting side that wins ties."""

    a: Result
    b: Result
    winner: str
    margin: int

    def contract(self) -> dict[str, Any]:
        """ENGINE.md's opposed answer: winner, margin and both sides' resolve answers."""
        return {
            "winner": self.winner,
            "margin": self.margin,
            "a": self.a.contract(),
            "b": self.b.contract(),
        }


def _parse_modifiers(raw: Mapping[str, Any]) -> tuple[tuple[int, ...], ...]:
    if "modifiers" not in raw:
        return ((), (), (), ())
    mods = raw["modifiers"]
    if not isinstance(mods, Mapping):
        raise EngineError(
            "'modifiers' must be a JSON object with lists under circumstance, personal, "
            "equipment or supernatural."
        )
    unknown = sorted(str(key) for key in mods if key not in CATEGORIES)
    if unknown:
        names = ", ".join(f"{name!r}" for name in unknown)
        raise EngineError(
            f"Unknown modifier category {names}; the categories are circumstance, personal, "
            "equipment and supernatural."
        )
    return tuple(
        int_list(f"modifiers.{name}", mods[name]) if name in mods else () for name in CATEGORIES
    )


def parse_params(raw: Any) -> Params:
    """Validate ENGINE.md's 2d6 params (unknown fields, types, bounds) into a ``Params``."""
    raw = check_fields(raw, ALLOWED)
    return Params(
        attribute=get_int(raw, "attribute"),
        skill=get_int(raw, "skill"),
        difficulty=get_int(raw, "difficulty"),
        modifiers=_parse_modifiers(raw),
        helpers=get_int(raw, "helpers", 0, 0, MAX_HELPERS),
        cap_bonus=get_int(raw, "cap_bonus", 0, 0),
    )


def parse_faces(params: Params, raw: Any) -> tuple[int, int]:
    """Validate the rolled faces: exactly two d6, ``[a, b]``."""
    a, b = faces_list("faces", raw, SIDES, DICE)
    return a, b


def resolve(params: Params, faces: tuple[int, int]) -> Result:
    """Resolve the test on the given faces (already validated): fully deterministic."""
    a, b = faces
    total = params.base + a + b
    difficulty = params.difficulty
    if total >= difficulty:
        points = total - difficulty + 1
        success_points = points if points < params.cap else params.cap
        failure_points = 0
        success = True
    else:
        success_points = 0
        failure_points = difficulty - total
        success = False
    return Result(
        params=params,
        dice=(Die(SIDES, a, True, "2d6", "kept"), Die(SIDES, b, True, "2d6", "kept")),
        total=total,
        success=success,
        success_points=success_points,
        failure_points=failure_points,
        automatic=params.automatic,
        outcome="success" if success else "failure",
    )


def roll(params: Params, rng: RandomSource) -> Result:
    """Roll 2d6 with ``rng`` and resolve the test on those faces."""
    a, b = draw(rng, SIDES, DICE)
    return resolve(params, (a, b))


def odds(params: Params) -> dict[str, Any]:
    """Exact odds: success/failure and the distribution of success points (0 = failure)."""
    check_dice_count(DICE)
    base, difficulty, cap = params.base, params.difficulty, params.cap
    ways_success = 0
    points_ways: dict[int, int] = {}
    for dice_sum, ways in SUM_WAYS:
        total = base + dice_sum
        if total >= difficulty:
            ways_success += ways
            points = min(total - difficulty + 1, cap)
        else:
            points = 0
        points_ways[points] = points_ways.get(points, 0) + ways
    outcome_odds = {
        "success": ways_success / 36,
        "failure": (36 - ways_success) / 36,
    }
    check_probabilities(outcome_odds)
    points_odds = {str(points): points_ways[points] / 36 for points in sorted(points_ways)}
    check_probabilities(points_odds)
    return {"odds": outcome_odds, "success_points_odds": points_odds}


def opposed(result_a: Result, result_b: Result) -> Opposed:
    """Compare two resolved tests: the higher score wins by the difference; "b" wins a tie."""
    score_a, score_b = result_a.score, result_b.score
    return Opposed(
        a=result_a,
        b=result_b,
        winner="a" if score_a > score_b else "b",
        margin=abs(score_a - score_b),
    )


def _score_counts(params: Params) -> dict[int, int]:
    """How many of the 36 rolls give each opposed score (``Result.score``)."""
    counts: dict[int, int] = {}
    for dice_sum, ways in SUM_WAYS:
        total = params.base + dice_sum
        if total >= params.difficulty:
            score = min(total - params.difficulty + 1, params.cap)
        else:
            score = total - params.difficulty
        counts[score] = counts.get(score, 0) + ways
    return counts


def win_odds(
    a: Params, b: Params, a_result: Result | None = None, b_result: Result | None = None
) -> dict[str, float]:
    """Exact P("a" wins) and P("b" wins) of an opposed test; "b", the resisting side, wins ties,
    so there is no draw. A side's ``*_result`` (its roll, once the viewer may see it) stands for
    its distribution: all 36 rolls of it give its score."""
    first = _score_counts(a) if a_result is None else {a_result.score: 36}
    second = _score_counts(b) if b_result is None else {b_result.score: 36}
    a_wins = sum(p * q for sa, p in first.items() for sb, q in second.items() if sa > sb)
    return {"a": a_wins / 1296, "b": (1296 - a_wins) / 1296, "draw": 0.0}
