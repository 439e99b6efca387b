"""Exact odds of winning a FastTest opposed test (RULES.md section 1, "Opposed test").

An opposed test is settled by the ranks, then ``chance_raw``, then the kept d10, so each side is
described by the exact distribution of (outcome rank, kept d10) over its dice, and the two are
convolved: 60 states a side, never a face combination enumerated. The d10s alone decide success
and the kept d10, the d6s alone the degree, so the joint distribution is a product.
"""

from __future__ import annotations

from fractions import Fraction

from .core import RANK
from .fasttest import Params, Result


def _kept_d10(chance: int, n: int, net: int) -> dict[tuple[bool, int], Fraction]:
    """P(success, kept d10) for ``n`` d10s: counts of the 10**n face combinations per state."""
    total = 10**n
    counts: dict[tuple[bool, int], int] = {}
    for v in range(1, 11):
        if net >= 0:
            # Success keeps the highest d10 at most the chance; a failure (all above) the highest.
            if v <= chance:
                ways = (v + 10 - chance) ** n - (v - 1 + 10 - chance) ** n
            else:
                ways = (v - chance) ** n - (v - 1 - chance) ** n
        elif v <= chance:
            # Success (all at most the chance) keeps the lowest d10.
            ways = (chance - v + 1) ** n - (chance - v) ** n
        else:
            # A failure keeps the lowest d10 above the chance: every die at most the chance or
            # at least v, and one of them v.
            ways = (chance + 11 - v) ** n - (chance + 10 - v) ** n
        if ways:
            counts[(v <= chance, v)] = ways
    return {state: Fraction(ways, total) for state, ways in counts.items()}


def _degrees(net: int, n6: int) -> tuple[dict[str, Fraction], dict[str, Fraction]]:
    """P(outcome | success) and P(outcome | failure) from the d6s (as ``outcome_odds``)."""
    all_low = Fraction(1, 2**n6)
    all_six = Fraction(1, 6**n6)
    none_six = Fraction(5**n6, 6**n6)
    if net >= 0:
        success = {"yes_and": 1 - none_six, "yes": none_six - all_low, "yes_but": all_low}
        failure = {"no_but": 1 - all_low, "no": all_low - all_six, "no_and": all_six}
    else:
        success = {"yes_but": 1 - all_low, "yes": all_low - all_six, "yes_and": all_six}
        failure = {"no_and": 1 - none_six, "no": none_six - all_low, "no_but": all_low}
    return success, failure


def side_distribution(params: Params) -> dict[tuple[int, int], Fraction]:
    """P(outcome rank, kept d10) of one side, exactly, for the params' own split of dice."""
    success, failure = _degrees(params.net, params.d6_count)
    states: dict[tuple[int, int], Fraction] = {}
    for (hit, d10), p in _kept_d10(params.chance, params.d10_count, params.net).items():
        for outcome, q in (success if hit else failure).items():
            if q:
                key = (RANK[outcome], d10)
                states[key] = states.get(key, Fraction(0)) + p * q
    return states


def _rolled(result: Result) -> dict[tuple[int, int], Fraction]:
    """A side already rolled: its one (outcome rank, kept d10), for certain."""
    return {(result.rank, result.kept_d10): Fraction(1)}


def win_odds(
    a: Params, b: Params, a_result: Result | None = None, b_result: Result | None = None
) -> dict[str, float]:
    """Exact P("a" wins), P("b" wins) and P(draw) of an opposed test (``fasttest.opposed``);
    a side's ``*_result`` (its roll, once the viewer may see it) stands for its distribution."""
    first = side_distribution(a) if a_result is None else _rolled(a_result)
    second = side_distribution(b) if b_result is None else _rolled(b_result)
    wins = {"a": Fraction(0), "b": Fraction(0), "draw": Fraction(0)}
    for (rank_a, d10_a), p in first.items():
        for (rank_b, d10_b), q in second.items():
            key = (rank_a, a.chance_raw, d10_a) > (rank_b, b.chance_raw, d10_b)
            if (rank_a, a.chance_raw, d10_a) == (rank_b, b.chance_raw, d10_b):
                wins["draw"] += p * q
            else:
                wins["a" if key else "b"] += p * q
    return {side: float(p) for side, p in wins.items()}
