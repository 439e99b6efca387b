"""Caerbannog 2026 (RULES.md section 4): read the middle die, subtract the difficulty.

One test rolls a list of dice (usually three of the skill's size; combined and group tests mix
sizes) and reads one of them:

- plain (``ease == 0``): the middle die. With an odd number of dice, drop highs and lows alike until
  one is left; with an even number until two are left and read the higher (the more favourable);
  that is always the die at position ``n // 2`` of the faces sorted low to high;
- eased (``ease > 0``): the highest die; hindered (``ease < 0``): the lowest.

What ``resolve`` reports (the ENGINE.md contract, and the choices this module makes):

- ``kept``: the face of the die read, before anything is added (1 on a critical failure).
- ``result``: the test's final number of successes (failures when 0 or less), after the boost and
  heroic effort: ``kept + modifier - difficulty``, plus ``bonus`` when boosted; heroic effort then
  turns it into exactly 1. On a critical failure (every die shows 1) it is 0, whatever the
  modifier and difficulty, because the rules say such a result counts as 0.
- ``rozmach_gained``: +1 for every die showing its maximum face, dropped dice included.
- ``rozmach``: the pool after the roll: ``min(10, rozmach + gained)``, then 1 less when boosted
  (the Rozmach gained by this very roll may pay for the boost).
- ``heroic_cost``: failure level + 1, i.e. ``1 - result`` of the failed (possibly boosted) result;
  0 when heroic effort is not used.
- ``przebicia``: ``result // 3`` for a success, else 0.

The raw ``kept + modifier - difficulty`` stays available as ``Result.base`` for the log (a
critical failure at difficulty 3 has base -2 but result 0).

Combined and group tests and re-rolls live in ``caerbannog_group``, opposed tests in
``caerbannog_opposed``, the Rozmach pool between tests in ``caerbannog_pool`` and the exact
counting behind ``odds`` in ``caerbannog_odds``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import groupby
from operator import eq
from typing import Any

from .caerbannog_odds import gain_counts, read_counts
from .core import (
    Die,
    EngineError,
    RandomSource,
    Scale,
    check_fields,
    check_probabilities,
    draw,
    get_bool,
    get_int,
    int_list,
)

#: Die sizes, indexed by skill level 0..IV.
SKILL_DICE: tuple[int, ...] = (4, 6, 8, 10, 12)
DIE_SIZES = frozenset(SKILL_DICE)
#: The Rozmach pool never holds more than this; the excess is lost.
ROZMACH_MAX = 10
#: The difficulties the text names (the rest of its table is missing; RULES.md says not to invent).
DIFFICULTIES: dict[str, int] = {"łatwy": 2, "przeciętny": 3, "wymagający": 4, "trudny": 5}

SUCCESS = "success"
FAILURE = "failure"
CRITICAL_FAILURE = "critical_failure"

#: The outcomes worst to best: a critical failure (every die a 1) is its catastrophe; the
#: rules name no critical success.
SCALE = Scale(
    (CRITICAL_FAILURE, FAILURE, SUCCESS), frozenset({SUCCESS}), catastrophe=CRITICAL_FAILURE
)

ALLOWED = ("dice", "difficulty", "ease", "modifier", "bonus", "boost", "rozmach", "heroic")


@dataclass(frozen=True, slots=True)
class Params:
    """One test. Build it with ``parse_params``, which checks every field."""

    dice: tuple[int, ...]
    difficulty: int
    ease: int = 0
    modifier: int = 0
    bonus: int = 0
    boost: bool = False
    rozmach: int = 0
    heroic: bool = False

    @property
    def mode(self) -> str:
        """ "eased", "hindered" or "plain", from the sign of ``ease``."""
        return ease_mode(self.ease)


@dataclass(frozen=True, slots=True)
class Result:
    """A resolved test: every die, the die read and all the numbers of the module docstring."""

    dice: tuple[Die, ...]
    mode: str
    kept: int
    base: int
    result: int
    success: bool
    critical_failure: bool
    rozmach_gained: int
    rozmach: int
    boosted: bool
    heroic_cost: int
    przebicia: int
    outcome: str

    def contract(self) -> dict[str, Any]:
        """ENGINE.md's resolve answer for caerbannog, exactly."""
        return {
            "kept": self.kept,
            "result": self.result,
            "success": self.success,
            "critical_failure": self.critical_failure,
            "rozmach_gained": self.rozmach_gained,
            "rozmach": self.rozmach,
            "boosted": self.boosted,
            "heroic_cost": self.heroic_cost,
            "przebicia": self.przebicia,
            "outcome": self.outcome,
        }


def ease_mode(ease: int) -> str:
    """How the die is read: ``ease`` > 0 eased, < 0 hindered, 0 plain."""
    if ease > 0:
        return "eased"
    if ease < 0:
        return "hindered"
    return "plain"


def net_ease(easing: int, hindering: int) -> int:
    """Net ease of several factors: the side that occurs more often wins; equal counts cancel."""
    return (easing > hindering) - (easing < hindering)


def reduce_difficulty(difficulty: int, by: int) -> int:
    """A difficulty lowered by a rule; it never goes below 0."""
    return max(0, difficulty - by)


def read_position(count: int, ease: int) -> int:
    """Index, in the faces sorted low to high, of the die a test reads."""
    if ease > 0:
        return count - 1
    if ease < 0:
        return 0
    # Odd: the exact middle. Even: the higher of the two middle dice, the more favourable one.
    return count // 2


def check_die_sizes(name: str, dice: Any) -> tuple[int, ...]:
    """A non-empty list of die sizes from 4, 6, 8, 10, 12."""
    sizes = int_list(name, dice)
    if not sizes:
        raise EngineError(f"'{name}' must hold at least one die.")
    for index, sides in enumerate(sizes):
        if sides not in DIE_SIZES:
            raise EngineError(
                f"'{name}' must hold die sizes 4, 6, 8, 10 or 12; entry {index + 1} is {sides}."
            )
    return sizes


def parse_params(raw: Any) -> Params:
    """Check the request's params (ENGINE.md) and fill in the defaults."""
    raw = check_fields(raw, ALLOWED)
    if "dice" not in raw:
        raise EngineError("'dice' is missing: list the die sizes rolled, e.g. [8, 8, 8].")
    return Params(
        dice=check_die_sizes("dice", raw["dice"]),
        difficulty=get_int(raw, "difficulty", lo=0),
        ease=get_int(raw, "ease", 0),
        modifier=get_int(raw, "modifier", 0),
        bonus=get_int(raw, "bonus", 0),
        boost=get_bool(raw, "boost", False),
        rozmach=get_int(raw, "rozmach", 0, lo=0, hi=ROZMACH_MAX),
        heroic=get_bool(raw, "heroic", False),
    )


def check_faces(dice: Sequence[int], raw: Any, name: str = "faces") -> tuple[int, ...]:
    """One whole number per die of ``dice``, in the same order, each between 1 and its size."""
    faces = int_list(name, raw)
    if len(faces) != len(dice):
        raise EngineError(f"'{name}' must hold exactly {len(dice)} dice, not {len(faces)}.")
    for index, (sides, face) in enumerate(zip(dice, faces, strict=True)):
        if not 1 <= face <= sides:
            raise EngineError(
                f"Die {index + 1} of '{name}' is a d{sides}: its face must be between 1 and "
                f"{sides}, not {face}."
            )
    return faces


def parse_faces(params: Params, raw: Any) -> tuple[int, ...]:
    """The rolled faces: a list aligned with ``params.dice``, each face 1..its die's size."""
    return check_faces(params.dice, raw)


def read_die(faces: Sequence[int], ease: int) -> tuple[int, tuple[str, ...]]:
    """The index of the die read and each die's ``why``: "kept", or dropped as "lower"/"higher".

    Ties are broken by roll order (a stable sort), so equal faces are dropped left to right.
    """
    order = sorted(range(len(faces)), key=faces.__getitem__)
    position = read_position(len(faces), ease)
    why = ["higher"] * len(faces)
    for index in order[:position]:
        why[index] = "lower"
    why[order[position]] = "kept"
    return order[position], tuple(why)


def refuse_after_critical(boost: bool, heroic: bool) -> None:
    """A critical failure can be neither boosted nor saved by heroic effort (only re-rolled)."""
    if boost:
        raise EngineError("A critical failure cannot be boosted with Rozmach.")
    if heroic:
        raise EngineError("Heroic effort is not possible after a critical failure.")


def pay_boost(pool: int) -> int:
    """The pool after paying 1 Rozmach for a boost (``pool`` already holds this roll's gain)."""
    if pool < 1:
        raise EngineError("A boost costs 1 Rozmach, and the Rozmach pool is empty.")
    return pool - 1


def heroic_effort(result: int) -> tuple[int, int]:
    """Heroic effort after a failure: ``(1, cost)``; the cost is failure level + 1."""
    if result > 0:
        raise EngineError(
            f"Heroic effort is only possible after a failure; this test has {result} successes."
        )
    return 1, 1 - result


def finish(
    base: int, critical: bool, pool: int, boost: bool, bonus: int, heroic: bool
) -> tuple[int, int, int]:
    """``(result, pool, heroic_cost)`` after the boost, then heroic effort, on a rolled ``base``.

    ``pool`` is the roller's Rozmach after this roll's gain and the cap of 10.
    """
    if critical:
        refuse_after_critical(boost, heroic)
        return 0, pool, 0
    result = base
    if boost:
        pool = pay_boost(pool)
        result += bonus
    cost = 0
    if heroic:
        result, cost = heroic_effort(result)
    return result, pool, cost


def outcome_of(result: int, critical: bool) -> str:
    """The outcome key: "critical_failure", "success" (result > 0) or "failure"."""
    if critical:
        return CRITICAL_FAILURE
    return SUCCESS if result > 0 else FAILURE


def resolve(params: Params, faces: Sequence[int]) -> Result:
    """Resolve one test on faces already checked by ``parse_faces``.

    Raises EngineError for a boost without Rozmach, a boost or heroic effort after a critical
    failure, and heroic effort on a success.
    """
    dice = params.dice
    index, why = read_die(faces, params.ease)
    kept = faces[index]
    gained = sum(map(eq, dice, faces))  # a die showing its size shows its maximum face
    critical = max(faces) == 1
    base = kept + params.modifier - params.difficulty
    pool = min(ROZMACH_MAX, params.rozmach + gained)
    result, pool, cost = finish(base, critical, pool, params.boost, params.bonus, params.heroic)
    success = result > 0
    return Result(
        tuple(map(_die, dice, faces, why)),
        ease_mode(params.ease),
        kept,
        base,
        result,
        success,
        critical,
        gained,
        pool,
        params.boost,
        cost,
        result // 3 if success else 0,
        outcome_of(result, critical),
    )


@cache
def _die(sides: int, face: int, why: str) -> Die:
    # Dice are immutable and few (size x face x why), so each is built once: resolve stays cheap.
    return Die(sides, face, why == "kept", "", why)


def roll(params: Params, rng: RandomSource) -> Result:
    """Roll ``params.dice`` with ``rng`` (in order), then resolve."""
    faces: list[int] = []
    for sides, run in groupby(params.dice):
        faces.extend(draw(rng, sides, sum(1 for _ in run)))
    return resolve(params, faces)


def odds(params: Params) -> dict[str, Any]:
    """Exact odds of a test before the roll: outcomes, results and the expected Rozmach pool.

    Boost and heroic effort are choices made after seeing the roll, so they are refused here.
    ``result_odds`` maps each possible ``result`` (a critical failure counts as 0) to its
    probability. ``rozmach_mean`` is the expected Rozmach pool right after the roll: the pool
    before it plus the Rozmach its dice generate, capped at 10, with nothing spent.
    """
    if params.boost or params.heroic:
        raise EngineError(
            "Odds are for the roll itself: 'boost' and 'heroic' are decided after the roll, "
            "so leave them false."
        )
    dice = params.dice
    total, counts = read_counts(dice, read_position(len(dice), params.ease))
    offset = params.modifier - params.difficulty
    critical = 1  # exactly one face combination shows 1 on every die
    results: dict[int, int] = {0: critical}
    for face, count in counts.items():
        if face == 1:
            count -= critical
        if count:
            results[face + offset] = results.get(face + offset, 0) + count
    success = sum(count for result, count in results.items() if result > 0)
    room = ROZMACH_MAX - params.rozmach
    # E[min(10, pool + g)] = 10 - E[max(0, room - g)], and only g < room adds to the second term.
    shortfall = sum(count * (room - g) for g, count in enumerate(gain_counts(dice, room)))
    return {
        "odds": check_probabilities(
            {
                SUCCESS: success / total,
                FAILURE: (total - success - critical) / total,
                CRITICAL_FAILURE: critical / total,
            }
        ),
        "result_odds": check_probabilities(
            {str(result): results[result] / total for result in sorted(results) if results[result]}
        ),
        "rozmach_mean": ROZMACH_MAX - shortfall / total,
    }
