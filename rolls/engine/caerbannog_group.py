"""Caerbannog tests beyond one roller's plain roll: combined, group and opposed tests, re-rolls.

RULES.md section 4, points 8-11. None of this is in the JSON contract of ENGINE.md (a combined test
reaches it only as its list of dice); the web app calls these functions directly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .caerbannog import (
    ROZMACH_MAX,
    SKILL_DICE,
    Params,
    Result,
    check_die_sizes,
    check_faces,
    ease_mode,
    heroic_effort,
    outcome_of,
    parse_faces,
    read_die,
    read_position,
    refuse_after_critical,
    resolve,
)
from .core import (
    Die,
    EngineError,
    RandomSource,
    check_dice_count,
    draw,
    get_bool,
    get_int,
    int_list,
)

# --- Which dice a test rolls -----------------------------------------------------------------


def skill_die(level: int) -> int:
    """The die size of a skill or defence level 0..4 (0..IV): d4, d6, d8, d10, d12."""
    level = get_int({"level": level}, "level", lo=0, hi=len(SKILL_DICE) - 1)
    return SKILL_DICE[level]


def combined_dice(skills: Sequence[int]) -> tuple[int, ...]:
    """The dice of a combined test, from the die sizes of its skills, the main skill first.

    One skill: three of its dice (a plain test). Two: the main skill gives 2 dice, the other 1.
    Three: one die each. Each skill above the third adds a die (still one per skill).
    """
    sizes = check_die_sizes("skills", skills)
    if len(sizes) == 1:
        return sizes * 3
    if len(sizes) == 2:
        return (sizes[0], sizes[0], sizes[1])
    return sizes


def added_dice(main: int, added: Sequence[int]) -> tuple[int, ...]:
    """The GM-allowed form "main skill with the addition of others" (RULES.md, Decision in 8).

    A full roll of the main skill (3 dice) plus one die per added skill: Jazda II with Dociekliwość
    I gives 3d8 and 1d6.
    """
    sizes = check_die_sizes("skills", (main, *added))
    check_dice_count(len(sizes) + 2)
    return (sizes[0],) * 3 + sizes[1:]


def group_dice_counts(helpers: int) -> tuple[int, ...]:
    """Dice per participant of a group test, initiator first.

    No helper: 3 (a plain test). One helper: the initiator 2, the helper 1. Two helpers: one die
    each; every further helper adds one die of their own.
    """
    helpers = get_int({"helpers": helpers}, "helpers", lo=0)
    check_dice_count(max(3, helpers + 1))
    if helpers == 0:
        return (3,)
    if helpers == 1:
        return (2, 1)
    return (1,) * (helpers + 1)


def group_dice(initiator: int, helpers: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """Each participant's dice from the die size each one tests with, initiator first."""
    sizes = check_die_sizes("skills", (initiator, *helpers))
    counts = group_dice_counts(len(sizes) - 1)
    return tuple((sides,) * count for sides, count in zip(sizes, counts, strict=True))


# --- Group tests ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Member:
    """One participant of a group test: their dice, category bonus, boost choice and Rozmach."""

    name: str
    dice: tuple[int, ...]
    bonus: int = 0
    boost: bool = False
    rozmach: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise EngineError("Each participant of a group test needs a name.")
        # Normalise a list to a tuple so the frozen member stays hashable and unchanged.
        object.__setattr__(self, "dice", check_die_sizes(f"{self.name}'s dice", self.dice))
        get_int({"bonus": self.bonus}, "bonus")
        get_bool({"boost": self.boost}, "boost")
        get_int({"rozmach": self.rozmach}, "rozmach", lo=0, hi=ROZMACH_MAX)


@dataclass(frozen=True, slots=True)
class GroupTest:
    """A group test: the members (initiator first), the difficulty and what applies to all.

    ``heroic`` is the initiator's heroic effort (**Decision**: the initiator bears the test's
    consequences, so only they may pay for it, as in opposed tests).
    """

    members: tuple[Member, ...]
    difficulty: int
    ease: int = 0
    modifier: int = 0
    heroic: bool = False

    def __post_init__(self) -> None:
        members = self.members
        if (
            not isinstance(members, Sequence)
            or not members
            or not all(isinstance(member, Member) for member in members)
        ):
            raise EngineError("A group test needs its participants, the initiator first.")
        object.__setattr__(self, "members", tuple(members))
        names = [member.name for member in self.members]
        if len(set(names)) != len(names):
            raise EngineError("Each participant of a group test needs a different name.")
        check_dice_count(sum(len(member.dice) for member in self.members))
        get_int({"difficulty": self.difficulty}, "difficulty", lo=0)
        get_int({"ease": self.ease}, "ease")
        get_int({"modifier": self.modifier}, "modifier")
        get_bool({"heroic": self.heroic}, "heroic")


@dataclass(frozen=True, slots=True)
class MemberResult:
    """One participant's share of a resolved group test."""

    name: str
    rozmach_gained: int
    rozmach: int
    boosted: bool

    def contract(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "rozmach_gained": self.rozmach_gained,
            "rozmach": self.rozmach,
            "boosted": self.boosted,
        }


@dataclass(frozen=True, slots=True)
class GroupResult:
    """A resolved group test. ``dice`` carry the roller's name as their ``group``."""

    dice: tuple[Die, ...]
    mode: str
    kept: int
    reader: str
    base: int
    result: int
    success: bool
    critical_failure: bool
    members: tuple[MemberResult, ...]
    heroic_cost: int
    przebicia: int
    outcome: str

    def contract(self) -> dict[str, Any]:
        """The engine's own answer for a group test (not part of ENGINE.md)."""
        return {
            "kept": self.kept,
            "reader": self.reader,
            "result": self.result,
            "success": self.success,
            "critical_failure": self.critical_failure,
            "members": [member.contract() for member in self.members],
            "heroic_cost": self.heroic_cost,
            "przebicia": self.przebicia,
            "outcome": self.outcome,
        }


def check_group_faces(test: GroupTest, faces: Any) -> tuple[tuple[int, ...], ...]:
    """One list of faces per member, in member order, each aligned with that member's dice."""
    if not isinstance(faces, Sequence) or isinstance(faces, (str, bytes)):
        raise EngineError("A group test's faces must be one list per participant.")
    if len(faces) != len(test.members):
        raise EngineError(
            f"A group test of {len(test.members)} participants needs {len(test.members)} "
            f"lists of faces, not {len(faces)}."
        )
    return tuple(
        check_faces(member.dice, own, f"{member.name}'s faces")
        for member, own in zip(test.members, faces, strict=True)
    )


def resolve_group(test: GroupTest, faces: Any) -> GroupResult:
    """Resolve a group test: one die read from everyone's dice, each member boosting on their own.

    Rozmach from a die goes to the member who rolled it (**Decision**); each member's boost is paid
    from their own pool (gain first, cap at 10, then 1 for the boost) and adds their own bonus.
    """
    faces = check_group_faces(test, faces)
    flat = [face for own in faces for face in own]
    sizes = [sides for member in test.members for sides in member.dice]
    owners = [member for member, own in zip(test.members, faces, strict=True) for _ in own]
    index, why = read_die(flat, test.ease)
    critical = max(flat) == 1
    base = flat[index] + test.modifier - test.difficulty
    if critical:
        refuse_after_critical(any(member.boost for member in test.members), test.heroic)
    result = 0 if critical else base
    shares = []
    for member, own in zip(test.members, faces, strict=True):
        gained = sum(face == sides for sides, face in zip(member.dice, own, strict=True))
        pool = min(ROZMACH_MAX, member.rozmach + gained)
        if member.boost:
            if pool < 1:
                raise EngineError(f"{member.name} cannot boost: their Rozmach pool is empty.")
            pool -= 1
            result += member.bonus
        shares.append(MemberResult(member.name, gained, pool, member.boost))
    cost = 0
    if test.heroic:
        result, cost = heroic_effort(result)
    success = result > 0
    return GroupResult(
        dice=tuple(
            Die(sides, face, reason == "kept", owner.name, reason)
            for owner, sides, face, reason in zip(owners, sizes, flat, why, strict=True)
        ),
        mode=ease_mode(test.ease),
        kept=flat[index],
        reader=owners[index].name,
        base=base,
        result=result,
        success=success,
        critical_failure=critical,
        members=tuple(shares),
        heroic_cost=cost,
        przebicia=result // 3 if success else 0,
        outcome=outcome_of(result, critical),
    )


def roll_group(test: GroupTest, rng: RandomSource) -> GroupResult:
    """Every member rolls their dice (member order, then die order) and the test is resolved."""
    return resolve_group(test, _draw_all(test, rng))


def _draw_all(test: GroupTest, rng: RandomSource) -> list[list[int]]:
    return [[draw(rng, sides, 1)[0] for sides in member.dice] for member in test.members]


def group_odds(
    sizes: Sequence[int],
    known: Sequence[int | None],
    difficulty: int,
    ease: int = 0,
    modifier: int = 0,
    bonus: int = 0,
) -> float:
    """Exact P(success) of a group test while it is gathered and rolled.

    ``sizes`` are all the dice (member after member), ``known`` the faces rolled so far (None
    for a die still to roll); ``bonus`` what the boosts add. The die read is an order statistic
    of independent dice: it is at most x when at least position + 1 dice show at most x, and
    the count of unknown dice at most x is a sum of unequal Bernoullis (counted by convolution).
    """
    sizes = check_die_sizes("dice", sizes)
    if len(known) != len(sizes):
        raise EngineError("Give one known face (or None) per die of the group test.")
    position = read_position(len(sizes), ease)
    offset = modifier + bonus - difficulty
    fixed = [face for face in known if face is not None]
    unknown = [sides for sides, face in zip(sizes, known, strict=True) if face is None]

    def at_most(x: int) -> float:
        counts = [1.0]  # counts[k]: P(k unknown dice show at most x)
        for sides in unknown:
            p = min(max(x, 0), sides) / sides
            step = [0.0] * (len(counts) + 1)
            for k, q in enumerate(counts):
                step[k] += q * (1 - p)
                step[k + 1] += q * p
            counts = step
        need = position + 1 - sum(face <= x for face in fixed)
        return sum(q for k, q in enumerate(counts) if k >= need)

    success = sum(at_most(x) - at_most(x - 1) for x in range(1, max(sizes) + 1) if x + offset > 0)
    if all(face == 1 for face in fixed) and 1 + offset > 0:
        critical = 1.0
        for sides in unknown:
            critical /= sides
        success -= critical  # all ones read a 1, yet count as 0
    return min(1.0, max(0.0, success))


# --- Re-rolls ---------------------------------------------------------------------------------
# A re-roll replaces the roll entirely: the test is resolved again on the new faces with the same
# choices (ease, boosts, heroic effort), so only the final roll generates Rozmach and a boost
# chosen before the re-roll still counts (RULES.md's group example: -1 + 3 + 2 = 4).


def replace_faces(faces: Sequence[int], new: Any, which: Any = None) -> tuple[int, ...]:
    """The faces after a re-roll: all dice (``which`` None, ``new`` one face per die) or only
    the dice at the 0-based indices ``which`` (``new`` aligned with ``which``).

    The new faces are checked against their dice when the test is resolved again.
    """
    new = int_list("new faces", new)
    if which is None:
        return new
    positions = [_index(position, len(faces)) for position in _listed(which)]
    if len(set(positions)) != len(positions):
        raise EngineError("A die can be re-rolled only once per re-roll.")
    if len(new) != len(positions):
        raise EngineError(f"Re-rolling {len(positions)} dice needs {len(positions)} new faces.")
    merged = list(faces)
    for position, face in zip(positions, new, strict=True):
        merged[position] = face
    return tuple(merged)


def reroll(params: Params, faces: Any, new: Any, which: Any = None) -> Result:
    """Resolve a test again after a re-roll of all its dice, or of the dice at indices ``which``."""
    faces = parse_faces(params, faces)
    return resolve(params, parse_faces(params, replace_faces(faces, new, which)))


def draw_reroll(params: Params, faces: Any, rng: RandomSource, which: Any = None) -> Result:
    """Like ``reroll``, drawing the new faces with ``rng`` (in index order)."""
    faces = parse_faces(params, faces)
    if which is None:
        return reroll(params, faces, [draw(rng, sides, 1)[0] for sides in params.dice])
    positions = [_index(position, len(faces)) for position in _listed(which)]  # before drawing
    new = [draw(rng, params.dice[position], 1)[0] for position in positions]
    return reroll(params, faces, new, positions)


def reroll_group(test: GroupTest, faces: Any, new: Any, which: Any = None) -> GroupResult:
    """Resolve a group test again after a re-roll.

    ``which`` None: every die is re-rolled and ``new`` holds one list per member. Otherwise
    ``which`` lists ``(member index, die index)`` pairs and ``new`` the new faces, aligned.
    """
    faces = check_group_faces(test, faces)
    if which is None:
        return resolve_group(test, new)
    flat = replace_faces(
        [face for own in faces for face in own], new, _flat_positions(faces, which)
    )
    return resolve_group(test, _split(flat, faces))


def draw_group_reroll(
    test: GroupTest, faces: Any, rng: RandomSource, which: Any = None
) -> GroupResult:
    """Like ``reroll_group``, drawing the new faces with ``rng`` (in the order of ``which``)."""
    faces = check_group_faces(test, faces)
    if which is None:
        return reroll_group(test, faces, _draw_all(test, rng))
    positions = _flat_positions(faces, which)  # checked before anything is drawn
    sizes = [sides for member in test.members for sides in member.dice]
    new = [draw(rng, sizes[position], 1)[0] for position in positions]
    flat = replace_faces([face for own in faces for face in own], new, positions)
    return resolve_group(test, _split(flat, faces))


def _flat_positions(faces: Sequence[Sequence[int]], which: Any) -> list[int]:
    """``(member index, die index)`` pairs as indices into all the faces, member after member."""
    offsets = [0]
    for own in faces:
        offsets.append(offsets[-1] + len(own))
    positions = []
    for pair in _listed(which):
        if not isinstance(pair, Sequence) or isinstance(pair, str) or len(pair) != 2:
            raise EngineError("Name each re-rolled die as (participant index, die index).")
        member = _index(pair[0], len(faces))
        positions.append(offsets[member] + _index(pair[1], len(faces[member])))
    return positions


def _split(flat: Sequence[int], like: Sequence[Sequence[int]]) -> list[list[int]]:
    parts, start = [], 0
    for own in like:
        parts.append(list(flat[start : start + len(own)]))
        start += len(own)
    return parts


def _listed(which: Any) -> Sequence[Any]:
    if not isinstance(which, Sequence) or isinstance(which, str):
        raise EngineError("List the re-rolled dice by their index.")
    return which


def _index(value: Any, bound: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise EngineError(f"Re-rolled dice are named by their index, not {value!r}.")
    if not 0 <= value < bound:
        raise EngineError(f"There is no die or participant with index {value} to re-roll.")
    return value
