"""The shared core of the resolution engine: errors, limits, outcome keys, input checks, dice.

Pure standard-library Python: nothing here (or anywhere in ``rolls.engine``) imports Django, so
the engine runs with the bare system ``python3`` and its tests need no settings.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

#: Hard cap on the dice one request may need, explosions and re-rolls included.
MAX_DICE = 200

#: Outcome keys of RULES.md, worst to best. The index is the outcome's rank.
OUTCOMES: tuple[str, ...] = ("no_and", "no", "no_but", "yes_but", "yes", "yes_and")
RANK: dict[str, int] = {key: rank for rank, key in enumerate(OUTCOMES)}
SUCCESSES = frozenset({"yes_but", "yes", "yes_and"})


@dataclass(frozen=True)
class Scale:
    """A system's outcome keys from worst to best, which of them succeed, and its extremes (a
    critical above every other, a catastrophe below; None where the rules have none). What
    compares one test's luck with another's (rolls.recap.luck) reads it, never a system's name."""

    order: tuple[str, ...]
    successes: frozenset[str]
    critical: str | None = None
    catastrophe: str | None = None

    def rank(self, outcome: str) -> int:
        """The outcome's place, 0 the worst; ``ValueError`` for a key the system lacks."""
        return self.order.index(outcome)


#: The six-outcome scale of RULES.md (FastTest and the Alternative Test System).
SIX_OUTCOMES = Scale(OUTCOMES, SUCCESSES, critical="yes_and", catastrophe="no_and")

_REQUIRED = object()


class EngineError(ValueError):
    """A request the engine refuses. Its message is a sentence a player can read."""


class RandomSource(Protocol):
    """What ``roll`` needs from a random source (``secrets.SystemRandom``, ``random.Random``)."""

    def randint(self, a: int, b: int) -> int: ...


def check_fields(raw: Any, allowed: Iterable[str], where: str = "params") -> Mapping[str, Any]:
    """Refuse anything but an object whose keys are all among ``allowed``."""
    if not isinstance(raw, Mapping):
        raise EngineError(f"The {where} must be a JSON object.")
    allowed = set(allowed)
    unknown = sorted(str(key) for key in raw if key not in allowed)
    if unknown:
        names = ", ".join(repr(name) for name in unknown)
        raise EngineError(f"Unknown field {names} in {where}.")
    return raw


def _is_int(value: Any) -> bool:
    # JSON true/false arrive as bool, which Python counts as int: a die count of `true` is wrong.
    return isinstance(value, int) and not isinstance(value, bool)


def check_range(name: str, value: int, lo: int | None = None, hi: int | None = None) -> int:
    if lo is not None and hi is not None and not lo <= value <= hi:
        raise EngineError(f"'{name}' must be between {lo} and {hi}, not {value}.")
    if lo is not None and value < lo:
        raise EngineError(f"'{name}' must be at least {lo}, not {value}.")
    if hi is not None and value > hi:
        raise EngineError(f"'{name}' must be at most {hi}, not {value}.")
    return value


def get_int(
    raw: Mapping[str, Any],
    name: str,
    default: Any = _REQUIRED,
    lo: int | None = None,
    hi: int | None = None,
) -> int:
    """A whole number from ``raw[name]``; missing means ``default`` (or an error if required)."""
    if name not in raw:
        if default is _REQUIRED:
            raise EngineError(f"'{name}' is missing.")
        return default
    value = raw[name]
    if not _is_int(value):
        raise EngineError(f"'{name}' must be a whole number, not {value!r}.")
    return check_range(name, value, lo, hi)


def get_optional_int(
    raw: Mapping[str, Any], name: str, lo: int | None = None, hi: int | None = None
) -> int | None:
    """Like ``get_int`` but ``null`` (or a missing field) means None."""
    if raw.get(name) is None:
        return None
    return get_int(raw, name, lo=lo, hi=hi)


def get_bool(raw: Mapping[str, Any], name: str, default: Any = _REQUIRED) -> bool:
    if name not in raw:
        if default is _REQUIRED:
            raise EngineError(f"'{name}' is missing.")
        return default
    value = raw[name]
    if not isinstance(value, bool):
        raise EngineError(f"'{name}' must be true or false, not {value!r}.")
    return value


def int_list(
    name: str, value: Any, lo: int | None = None, hi: int | None = None
) -> tuple[int, ...]:
    """Check that ``value`` is a list of whole numbers within bounds."""
    if not isinstance(value, Sequence) or isinstance(value, (str, bytes)):
        raise EngineError(f"'{name}' must be a list of whole numbers.")
    if len(value) > MAX_DICE:
        raise EngineError(f"'{name}' has {len(value)} entries; at most {MAX_DICE} are allowed.")
    items = []
    for index, item in enumerate(value):
        if not _is_int(item):
            raise EngineError(
                f"'{name}' must hold whole numbers only; entry {index + 1} is {item!r}."
            )
        items.append(check_range(f"{name}[{index}]", item, lo, hi))
    return tuple(items)


def get_int_list(
    raw: Mapping[str, Any],
    name: str,
    default: Any = _REQUIRED,
    lo: int | None = None,
    hi: int | None = None,
) -> tuple[int, ...]:
    if name not in raw:
        if default is _REQUIRED:
            raise EngineError(f"'{name}' is missing.")
        return tuple(default)
    return int_list(name, raw[name], lo, hi)


def check_dice_count(needed: int) -> None:
    """Refuse a request that needs more dice than one roll may have."""
    if needed > MAX_DICE:
        raise EngineError(
            f"This test needs {needed} dice; at most {MAX_DICE} dice can be rolled at once."
        )


def faces_list(name: str, value: Any, sides: int, count: int | None = None) -> tuple[int, ...]:
    """Check rolled faces: a list of whole numbers 1..sides, exactly ``count`` of them if given."""
    faces = int_list(name, value, 1, sides)
    if count is not None and len(faces) != count:
        raise EngineError(f"'{name}' must hold exactly {count} dice, not {len(faces)}.")
    return faces


_CHUNK = 32
_CHUNK_MASK = (1 << _CHUNK) - 1


def draw(rng: RandomSource, sides: int, count: int) -> tuple[int, ...]:
    """Roll ``count`` dice with ``sides`` sides each, uniformly and without bias.

    With ``getrandbits`` (``secrets.SystemRandom``, ``random.Random``) all dice come from one
    request for bits, so the server's OS random source is asked once per roll rather than once
    per die (which halves the roll rate for a big pool). Each die takes a 32-bit chunk; a chunk
    from the small biased remainder is thrown away and drawn again (rejection sampling).
    A source with its own ``dice(sides, count)`` (the fair stream, ``fair.FairDice``) draws them.
    """
    dice = getattr(rng, "dice", None)
    if dice is not None:
        return dice(sides, count)
    getrandbits = getattr(rng, "getrandbits", None)
    if getrandbits is None or count <= 0:
        return tuple(rng.randint(1, sides) for _ in range(count))
    limit = (1 << _CHUNK) - (1 << _CHUNK) % sides
    bits = getrandbits(_CHUNK * count)
    faces = []
    for _ in range(count):
        chunk = bits & _CHUNK_MASK
        bits >>= _CHUNK
        while chunk >= limit:
            chunk = getrandbits(_CHUNK)
        faces.append(chunk % sides + 1)
    return tuple(faces)


def check_probabilities(odds: Mapping[str, float]) -> Mapping[str, float]:
    """Guard the engine's own arithmetic: exact odds must sum to 1."""
    total = sum(odds.values())
    if abs(total - 1.0) > 1e-9:  # pragma: no cover - a bug, not a user error
        raise AssertionError(f"odds sum to {total}, not 1")
    return odds


@dataclass(frozen=True, slots=True)
class Die:
    """One die as a log entry shows it: its size, its face, and whether (and why) it counts.

    ``group`` names the die's role in its system ("d10", "white", "black", "batch 2"...);
    ``why`` is a short key saying why it was kept or dropped ("kept", "lower", "setback",
    "exploded"...), which templates translate. The engine never writes prose for the log.
    """

    sides: int
    face: int
    kept: bool
    group: str = ""
    why: str = ""
