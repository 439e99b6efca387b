"""Dice statistics of a session: how often each face came up per die size, and how likely fair
dice were to spread at least that unevenly (Pearson's chi-square goodness of fit).

Counted from the log entries one viewer may see (``rolls.log.reading.entries_for``), so a statistic
never tells more than the log does. Each entry counts the dice it drew from the fair stream
(``drawn``): a re-roll or a magic die counts its new dice, not those it kept from the entry it
follows, and an entry that draws none (a boost, an opposed or group result) counts nothing. An
entry without drawn dice (rolled before fair dice) counts its dice unless it is a follow-up,
which carries dice of the entry it follows. Every die drawn is counted, kept or dropped: each
was drawn fair, and dropping depends on the faces, so counting only the kept ones would skew them.
Real dice typed in at the table (``typed``) are never mixed with the drawn ones: they are counted
apart (``typed_stats``), as the dice of the table's own hands.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

# Pearson's approximation holds once every face is expected this often; below, no p-value.
MIN_EXPECTED = 5
_EPSILON = 1e-15
_TINY = 1e-300
_STEPS = 10_000

# The chart's drawing box, in SVG user units (scaled by CSS).
CHART_WIDTH, CHART_HEIGHT, LABELS = 240, 120, 16


def upper_regularized_gamma(a: float, x: float) -> float:
    """Q(a, x) = Γ(a, x) / Γ(a): the series below a + 1, the continued fraction above.

    Both as in Numerical Recipes (gammq): each converges fast on its side of a + 1.
    """
    if a <= 0:
        raise ValueError("a must be positive")
    if x <= 0:
        return 1.0
    if x < a + 1:
        return max(0.0, 1.0 - _lower_series(a, x))
    return _upper_fraction(a, x)


def _prefactor(a: float, x: float) -> float:
    return math.exp(a * math.log(x) - x - math.lgamma(a))


def _lower_series(a: float, x: float) -> float:
    """P(a, x) = x^a e^-x / Γ(a) · Σ x^n / (a (a+1) ... (a+n))."""
    term = total = 1.0 / a
    denominator = a
    for _step in range(_STEPS):
        denominator += 1
        term *= x / denominator
        total += term
        if abs(term) < abs(total) * _EPSILON:
            break
    return total * _prefactor(a, x)


def _upper_fraction(a: float, x: float) -> float:
    """Q(a, x) by Legendre's continued fraction, evaluated with Lentz's method."""
    b = x + 1 - a
    c = 1 / _TINY
    d = 1 / b
    fraction = d
    for step in range(1, _STEPS):
        coefficient = -step * (step - a)
        b += 2
        d = coefficient * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + coefficient / c
        c = _TINY if abs(c) < _TINY else c
        d = 1 / d
        change = d * c
        fraction *= change
        if abs(change - 1) < _EPSILON:
            break
    return _prefactor(a, x) * fraction


def chi_square_sf(statistic: float, df: int) -> float:
    """P(X² >= statistic) for the chi-square distribution with ``df`` degrees of freedom."""
    if df < 1:
        raise ValueError("df must be at least 1")
    return upper_regularized_gamma(df / 2, statistic / 2)


@dataclass(frozen=True)
class Bar:
    face: int
    count: int
    x: float
    y: float
    width: float
    height: float
    label_x: float


@dataclass(frozen=True)
class DieStats:
    """The faces of one die size: counts, the fit to a fair die, and the chart's bars."""

    sides: int
    counts: tuple[int, ...]  # counts[0] is face 1
    total: int
    expected: float
    chi_square: float | None
    p_value: float | None  # None: too few dice for the test
    bars: tuple[Bar, ...]
    expected_y: float

    @property
    def label(self) -> str:
        return f"d{self.sides}"


@dataclass(frozen=True)
class Scope:
    """The whole session, or one person's rolls in it."""

    name: str
    entries: int
    dice: tuple[DieStats, ...]
    actor_id: int | None = None  # None: the whole session


def die_stats(sides: int, counts: Counter) -> DieStats:
    row = tuple(counts.get(face, 0) for face in range(1, sides + 1))
    total = sum(row)
    expected = total / sides
    chi_square = p_value = None
    if total and expected >= MIN_EXPECTED:
        chi_square = sum((count - expected) ** 2 for count in row) / expected
        p_value = chi_square_sf(chi_square, sides - 1)
    top = max(max(row), expected) or 1
    plot = CHART_HEIGHT - LABELS
    slot = CHART_WIDTH / sides
    bars = tuple(
        Bar(
            face=face,
            count=count,
            x=round(slot * (face - 1) + slot * 0.15, 2),
            y=round(plot - plot * count / top, 2),
            width=round(slot * 0.7, 2),
            height=round(plot * count / top, 2),
            label_x=round(slot * (face - 0.5), 2),
        )
        for face, count in enumerate(row, start=1)
    )
    return DieStats(
        sides=sides,
        counts=row,
        total=total,
        expected=expected,
        chi_square=chi_square,
        p_value=p_value,
        bars=bars,
        expected_y=round(plot - plot * expected / top, 2),
    )


def _scope(name: str, entries: list[dict[str, Any]], actor_id: int | None = None) -> Scope:
    faces: dict[int, Counter] = defaultdict(Counter)
    for entry in entries:
        for sides, face in _dice_of(entry):
            if isinstance(sides, int) and isinstance(face, int) and 1 <= face <= sides:
                faces[sides][face] += 1
    dice = tuple(die_stats(sides, faces[sides]) for sides in sorted(faces))
    return Scope(name=name, entries=len(entries), dice=dice, actor_id=actor_id)


def _dice_of(entry: dict[str, Any]) -> list[tuple[Any, Any]]:
    """(sides, face) of each die the entry counts: those it drew, else (older rows) its dice."""
    if entry.get("drawn"):
        return [tuple(die) for die in entry["drawn"]]
    return [(die.get("sides"), die.get("face")) for die in entry["dice"]]


def counted(entries: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The entries whose dice count: visible to the viewer, and either not a follow-up or one
    that drew dice of its own."""
    return [
        e
        for e in entries
        if not e["redacted"]
        and not e.get("typed")
        and (e.get("parent_seq") is None or e.get("drawn"))
    ]


def typed_stats(entries: Iterable[dict[str, Any]]) -> Scope | None:
    """The real dice typed in at the table (rolls.real_dice), apart from the drawn ones; None
    when the viewer sees none."""
    typed = [e for e in entries if not e["redacted"] and e.get("typed")]
    return _scope("", typed) if typed else None


def session_stats(entries: Iterable[dict[str, Any]]) -> tuple[Scope, list[Scope]]:
    """The whole session, then each person who rolled (by name), from the viewer's entries."""
    chosen = counted(entries)
    by_actor: dict[tuple[str, int], list[dict[str, Any]]] = defaultdict(list)
    for entry in chosen:
        by_actor[entry["actor_name"], entry["actor_id"]].append(entry)
    people = [
        _scope(name, by_actor[name, actor_id], actor_id)
        for name, actor_id in sorted(by_actor, key=lambda person: person[0].casefold())
    ]
    return _scope("", chosen), people
