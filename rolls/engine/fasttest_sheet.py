"""FastTest sheet resources (RULES.md section 1, "Magic" and "Development").

The magic die (its starting size, the roll after each spell, a night's rest), the penalty dice of
a spell, the XP cost of development and experience dice turning into XP. Magic dice are their
number of sides (4, 6, 8, 10, 12) or None for no die.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .core import EngineError, RandomSource, draw

#: The magic dice, smallest first; None stands for "no magic die".
MAGIC_DICE: tuple[int, ...] = (4, 6, 8, 10, 12)

#: Magic-die faces that make the die drop one step.
MAGIC_DROP_FACES = frozenset({1, 2})

#: Penalty dice of a spell before the uniqueness rule: "standard 2-3".
SPELL_DIFFICULTY = 2


@dataclass(frozen=True, slots=True)
class MagicRoll:
    """One roll of the magic die after a spell.

    ``die_after`` is None when a d4 dropped (the caster falls ``unconscious``); ``emanation`` is
    the optional uncontrolled eruption (a face above DUCH), False when that rule is off.
    """

    die: int
    face: int
    die_after: int | None
    dropped: bool
    unconscious: bool
    emanation: bool


def _step_index(die: int | None) -> int:
    # None is one step below d4, so "none + 1 step = d4" (RULES.md's Decision) falls out.
    if die is None:
        return -1
    if die not in MAGIC_DICE:
        raise EngineError(f"A magic die must be a d4, d6, d8, d10 or d12 (or none), not d{die}.")
    return MAGIC_DICE.index(die)


def _die_at(index: int) -> int | None:
    return None if index < 0 else MAGIC_DICE[min(index, len(MAGIC_DICE) - 1)]


def step_magic_die(die: int | None, steps: int) -> int | None:
    """Move a magic die ``steps`` along none < d4 < ... < d12, clamped at both ends."""
    return _die_at(max(_step_index(die) + steps, -1))


def starting_magic_die(duch: int, magic_traits: int) -> int | None:
    """The largest die not above DUCH, then one step up per magic trait, at most d12."""
    if magic_traits < 0:
        raise EngineError(f"The number of magic traits must be at least 0, not {magic_traits}.")
    base = max((die for die in MAGIC_DICE if die <= duch), default=None)
    return step_magic_die(base, magic_traits)


def drop_magic_die(die: int | None) -> int | None:
    """The die one step down; None after a d4, and the caster then falls unconscious."""
    if die is None:
        raise EngineError("There is no magic die left to lower.")
    return step_magic_die(die, -1)


def magic_die_roll(
    die: int | None, face: int, duch: int, *, emanation_rule: bool = False
) -> MagicRoll:
    """Read the magic-die roll: 1-2 drops the die a step; dropping a d4 leaves no die and an
    unconscious caster. With the optional ``emanation_rule``, a face above DUCH erupts."""
    if die is None:
        raise EngineError("A character without a magic die cannot roll it.")
    _step_index(die)
    if not 1 <= face <= die:
        raise EngineError(f"A d{die} shows 1 to {die}, not {face}.")
    dropped = face in MAGIC_DROP_FACES
    after = drop_magic_die(die) if dropped else die
    return MagicRoll(
        die=die,
        face=face,
        die_after=after,
        dropped=dropped,
        unconscious=after is None,
        emanation=emanation_rule and face > duch,
    )


def roll_magic_die(
    die: int | None, duch: int, rng: RandomSource, *, emanation_rule: bool = False
) -> MagicRoll:
    """Roll the magic die with ``rng`` and read it (see ``magic_die_roll``)."""
    if die is None:
        raise EngineError("A character without a magic die cannot roll it.")
    _step_index(die)
    (face,) = draw(rng, die, 1)
    return magic_die_roll(die, face, duch, emanation_rule=emanation_rule)


def rest_magic_die(current: int | None, starting: int | None) -> int | None:
    """A night's rest: one step up, never above the starting die (RULES.md's Decision).

    A die already above the starting one (a GM's gift) is left as it is.
    """
    now = _step_index(current)
    rested = min(now + 1, _step_index(starting))
    return _die_at(max(now, rested))


def spell_penalty(difficulty: int = SPELL_DIFFICULTY, earlier_similar: int = 0) -> int:
    """Penalty dice of a spell: its difficulty plus one per earlier similar spell."""
    if difficulty < 0 or earlier_similar < 0:
        raise EngineError("A spell's difficulty and earlier similar spells cannot be negative.")
    return difficulty + earlier_similar


def development_cost(trait_levels: Iterable[int]) -> int:
    """XP for a new trait or +1 level on one: the current sum of trait levels (flaws excluded)."""
    levels = list(trait_levels)
    for level in levels:
        if level < 1:
            raise EngineError(f"A trait's level must be at least 1, not {level}.")
    return sum(levels)


def spend_development(xp: int, trait_levels: Iterable[int]) -> int:
    """The XP left after buying one development step; an error when the XP do not suffice."""
    cost = development_cost(trait_levels)
    if xp < cost:
        raise EngineError(f"The next trait level costs {cost} XP; only {xp} are available.")
    return xp - cost


def end_session_xp(xp: int, experience_dice: int) -> tuple[int, int]:
    """Session end: each experience die still held becomes 1 XP. Returns (XP, dice left = 0)."""
    if experience_dice < 0:
        raise EngineError(f"Experience dice cannot be negative, not {experience_dice}.")
    return xp + experience_dice, 0
