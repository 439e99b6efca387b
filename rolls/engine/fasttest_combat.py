"""FastTest combat and wounds (RULES.md section 1, "Combat and wounds" and step 4 of "Test").

Pure functions over string keys: who takes which wound after a combat test, the wound test that
follows (its params and how to read its outcome), which wounds a test counts, and the wound a
character adds by ignoring their wounds.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .core import RANK, SUCCESSES, EngineError
from .fasttest import Params

#: Wound severities, mildest first (draśnięcie, lekka, ciężka, śmiertelna).
SCRATCH = "scratch"
LIGHT = "light"
HEAVY = "heavy"
DEADLY = "deadly"
SEVERITIES: tuple[str, ...] = (SCRATCH, LIGHT, HEAVY, DEADLY)
SEVERITY_RANK: dict[str, int] = {key: rank for rank, key in enumerate(SEVERITIES)}

#: Weapon classes and the wound each deals on a plain result.
WEAPON_LIGHT = "light"  # dagger, knuckles, sling
WEAPON_HAND = "hand"  # sword, axe
WEAPON_HEAVY = "heavy"  # lance, halberd, two-handed sword, heavy crossbow
WEAPON_CLASSES: tuple[str, ...] = (WEAPON_LIGHT, WEAPON_HAND, WEAPON_HEAVY)
WEAPON_WOUNDS: dict[str, str] = {WEAPON_LIGHT: LIGHT, WEAPON_HAND: HEAVY, WEAPON_HEAVY: DEADLY}

#: Attribute keys (BUDOWA, ZRĘCZNOŚĆ, UMYSŁ, DUCH) and the physical ones, which count every wound.
BUDOWA = "budowa"
ZRECZNOSC = "zrecznosc"
UMYSL = "umysl"
DUCH = "duch"
ATTRIBUTES: tuple[str, ...] = (BUDOWA, ZRECZNOSC, UMYSL, DUCH)
PHYSICAL_ATTRIBUTES = frozenset({BUDOWA, ZRECZNOSC})

#: Who takes the wound after a combat test.
PLAYER = "player"
ENEMY = "enemy"


@dataclass(frozen=True, slots=True)
class Wound:
    """A wound on the sheet: its severity, whether it is bandaged, and an optional label."""

    severity: str
    bandaged: bool = False
    label: str = ""


@dataclass(frozen=True, slots=True)
class CombatWound:
    """The wound a combat test deals: ``target`` is "player" or "enemy"."""

    target: str
    severity: str


@dataclass(frozen=True, slots=True)
class WoundTestResult:
    """What a wound test (or its absence) means for the wounded character."""

    alive: bool
    conscious: bool
    wound_removed: bool


def check_severity(severity: str) -> str:
    """Refuse anything but a severity key."""
    if severity not in SEVERITY_RANK:
        raise EngineError(f"Unknown wound severity {severity!r}; use one of: {_keys(SEVERITIES)}.")
    return severity


def check_weapon(weapon: str) -> str:
    """Refuse anything but a weapon class key."""
    if weapon not in WEAPON_WOUNDS:
        raise EngineError(f"Unknown weapon class {weapon!r}; use one of: {_keys(WEAPON_CLASSES)}.")
    return weapon


def check_outcome(outcome: str) -> str:
    """Refuse anything but an outcome key."""
    if outcome not in RANK:
        raise EngineError(f"Unknown outcome {outcome!r}; use one of: {_keys(RANK)}.")
    return outcome


def check_attribute(attribute: str) -> str:
    """Refuse anything but an attribute key."""
    if attribute not in ATTRIBUTES:
        raise EngineError(f"Unknown attribute {attribute!r}; use one of: {_keys(ATTRIBUTES)}.")
    return attribute


def _keys(keys: Iterable[str]) -> str:
    return ", ".join(keys)


def shift_severity(severity: str, steps: int) -> str:
    """Move ``steps`` along scratch < light < heavy < deadly, clamped at both ends."""
    rank = SEVERITY_RANK[check_severity(severity)] + steps
    return SEVERITIES[min(max(rank, 0), len(SEVERITIES) - 1)]


def _degree_step(outcome: str) -> int:
    # "…and" results are one step worse for the one hit, "…but" results one step milder.
    if outcome.endswith("_and"):
        return 1
    if outcome.endswith("_but"):
        return -1
    return 0


def weapon_wound(weapon: str, outcome: str) -> str:
    """The wound ``weapon`` deals on ``outcome``: its class's wound, one step up on "…and",
    one step down on "…but" (RULES.md's Decision)."""
    base = WEAPON_WOUNDS[check_weapon(weapon)]
    return shift_severity(base, _degree_step(check_outcome(outcome)))


def combat_wound(outcome: str, player_weapon: str, enemy_weapon: str) -> CombatWound:
    """Who is wounded, and how badly, after the player's combat test.

    A success: the enemy takes the player's weapon's wound (``yes_and`` one step up, ``yes_but``
    one down). A failure: the player takes the enemy weapon's wound (``no_and`` one step up,
    ``no_but`` one down).
    """
    check_weapon(player_weapon)
    check_weapon(enemy_weapon)
    if check_outcome(outcome) in SUCCESSES:
        return CombatWound(ENEMY, weapon_wound(player_weapon, outcome))
    return CombatWound(PLAYER, weapon_wound(enemy_weapon, outcome))


def needs_wound_test(severity: str, armor: int, *, consciousness: bool = False) -> bool:
    """Heavy and deadly wounds are always tested; light wounds and scratches only with armor.

    ``consciousness`` marks the consciousness test that follows ignoring wounds: always rolled.
    """
    _check_armor(armor)
    heavy = SEVERITY_RANK[check_severity(severity)] >= SEVERITY_RANK[HEAVY]
    return heavy or armor > 0 or consciousness


def _check_armor(armor: int) -> None:
    if armor < 0:
        raise EngineError(f"Armor points must be at least 0, not {armor}.")


def wound_test_params(
    budowa: int,
    wounds_before: int,
    severity: str,
    armor: int = 0,
    *,
    skills: tuple[int, ...] = (),
    bonus: int = 0,
    penalty: int = 0,
    extra_d10: int | None = None,
    consciousness: bool = False,
) -> Params | None:
    """The BUDOWA test after a new wound, or None when no test is rolled.

    ``wounds_before`` counts every wound the character had (a BUDOWA test counts them all); the
    new wound adds one more penalty die, and each armor point is one bonus die (on top of
    ``bonus``). ``extra_d10`` None means all extra dice are d10s. ``consciousness``: the test
    after ignoring wounds, always rolled (``severity`` is then the added wound's).
    """
    if wounds_before < 0:
        raise EngineError(f"The wounds before must be at least 0, not {wounds_before}.")
    if not needs_wound_test(severity, armor, consciousness=consciousness):
        return None
    return Params(
        attribute=budowa,
        skills=tuple(skills),
        bonus=bonus + armor,
        penalty=penalty,
        wounds=wounds_before + 1,
        extra_d10=extra_d10,
    )


def wound_test_outcome(
    severity: str, armor: int, outcome: str | None, *, consciousness: bool = False
) -> WoundTestResult:
    """Read the wound test: ``outcome`` None means no test was rolled (light or scratch, no armor).

    With armor, ``yes_and`` removes the new wound. Heavy: success conscious, failure unconscious.
    Deadly: failure dies, success alive but unconscious, ``yes_and`` alive and conscious.
    Light and scratch cost no consciousness, except in the ``consciousness`` test after ignoring
    wounds, where they read like a heavy wound (failure = unconscious).
    """
    needed = needs_wound_test(severity, armor, consciousness=consciousness)
    if outcome is None:
        if needed:
            raise EngineError(f"A {severity} wound with {armor} armor needs a wound test.")
        return WoundTestResult(alive=True, conscious=True, wound_removed=False)
    if not needed:
        raise EngineError(f"A {severity} wound without armor is not tested.")
    check_outcome(outcome)
    removed = armor > 0 and outcome == "yes_and"
    success = outcome in SUCCESSES
    if severity == DEADLY:
        return WoundTestResult(success, outcome == "yes_and", removed)
    if severity == HEAVY or consciousness:
        return WoundTestResult(True, success, removed)
    return WoundTestResult(True, True, removed)


def wounds_for_test(attribute: str, wounds: Iterable[Wound]) -> int:
    """The wound penalty dice of a test: BUDOWA and ZRĘCZNOŚĆ count every wound, UMYSŁ and
    DUCH only the unbandaged ones (RULES.md's Decision)."""
    if check_attribute(attribute) in PHYSICAL_ATTRIBUTES:
        return sum(1 for _ in wounds)
    return sum(1 for wound in wounds if not wound.bandaged)


def ignored_wounds_added(wounds: Iterable[Wound]) -> str | None:
    """Ignoring wounds: the test counts no wound dice, and afterwards one more wound is added at
    once, as severe as the worst current wound (RULES.md's Decision); None when there are no
    wounds to ignore. The consciousness test that follows is ``wound_test_params`` for it."""
    ranks = [SEVERITY_RANK[check_severity(wound.severity)] for wound in wounds]
    return SEVERITIES[max(ranks)] if ranks else None
