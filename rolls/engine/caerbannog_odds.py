"""Exact counting for Caerbannog odds: order statistics and maximum faces over mixed dice.

Everything is counted in whole numbers of equally likely face combinations (out of the product of
the die sizes), so the odds are exact until the final division. No face combination is ever
enumerated: dice of one size are taken together through binomial coefficients and the sizes are
combined by a polynomial product truncated to the degree that matters, so six mixed dice cost a
few hundred integer operations and 200 dice stay in the milliseconds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from math import comb, prod


def _truncated_product(groups: Iterable[tuple[int, int, int]], degree: int) -> list[int]:
    """Coefficients 0..degree of the product of ``(miss + hit*x) ** count`` over ``groups``.

    The coefficient of ``x**j`` counts the face combinations where exactly ``j`` dice "hit".
    """
    poly = [1] + [0] * degree
    for count, hit, miss in groups:
        top = min(count, degree)
        factor = [comb(count, j) * hit**j * miss ** (count - j) for j in range(top + 1)]
        new = [0] * (degree + 1)
        for i, a in enumerate(poly):
            if a:
                for j, b in enumerate(factor[: degree - i + 1]):
                    new[i + j] += a * b
        poly = new
    return poly


def _at_least_low(sizes: Counter[int], value: int, need: int) -> int:
    """How many face combinations have at least ``need`` dice showing ``value`` or less."""
    n = sum(sizes.values())
    # Count whichever side of the split needs fewer polynomial terms: the combinations with fewer
    # than `need` low dice (then subtract), or those with at most n - need high dice.
    if need - 1 <= n - need:
        groups = [(m, min(value, s), s - min(value, s)) for s, m in sizes.items()]
        return prod(s**m for s, m in sizes.items()) - sum(_truncated_product(groups, need - 1))
    groups = [(m, s - min(value, s), min(value, s)) for s, m in sizes.items()]
    return sum(_truncated_product(groups, n - need))


def read_counts(dice: Sequence[int], position: int) -> tuple[int, dict[int, int]]:
    """``(total, {face: count})`` for the die at ``position`` of the faces sorted low to high.

    ``total`` is the number of face combinations; ``count`` how many of them read ``face``.
    The position-th order statistic is at most v exactly when at least position + 1 dice are.
    """
    sizes = Counter(dice)
    total = prod(s**m for s, m in sizes.items())
    counts: dict[int, int] = {}
    below = 0
    for value in range(1, max(sizes) + 1):
        at_most = _at_least_low(sizes, value, position + 1)
        if at_most > below:
            counts[value] = at_most - below
        below = at_most
    return total, counts


def gain_counts(dice: Sequence[int], limit: int) -> list[int]:
    """How many face combinations show exactly g maximum faces, for g = 0 .. limit - 1."""
    if limit <= 0:
        return []
    sizes = Counter(dice)
    return _truncated_product(((m, 1, s - 1) for s, m in sizes.items()), limit - 1)
