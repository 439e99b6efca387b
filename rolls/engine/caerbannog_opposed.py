"""Caerbannog opposed tests (RULES.md section 4, point 10): initiator's result minus opponent's.

Not in the JSON contract of ENGINE.md (which lists no opposed op for caerbannog), so this module
deliberately does not offer the protocol's ``opposed`` name; the web app calls ``opposed_test``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from .caerbannog import (
    Params,
    Result,
    heroic_effort,
    outcome_of,
    parse_faces,
    refuse_after_critical,
    resolve,
)
from .core import EngineError


@dataclass(frozen=True, slots=True)
class Opposed:
    """An opposed test: the initiator's result minus the opponent's is the success level."""

    initiator: Result
    opponent: Result
    level: int
    success: bool
    heroic_cost: int
    przebicia: int
    outcome: str

    def contract(self) -> dict[str, Any]:
        """The engine's own answer for an opposed test (ENGINE.md has none for caerbannog)."""
        return {
            "level": self.level,
            "success": self.success,
            "heroic_cost": self.heroic_cost,
            "przebicia": self.przebicia,
            "outcome": self.outcome,
            "initiator": self.initiator.contract(),
            "opponent": self.opponent.contract(),
        }


def opposed_test(
    initiator: Params, initiator_faces: Any, opponent: Params, opponent_faces: Any
) -> Opposed:
    """Resolve an opposed test; each side's ``result`` is its die + modifier (+ boost).

    The opponent's result is the initiator's difficulty, so both sides have difficulty 0. Only
    the initiator may use heroic effort (``initiator.heroic``), on the opposed level. A side's
    critical failure counts as 0: the opponent's as a result of 0, the initiator's as a level of
    0 with the outcome "critical_failure".
    """
    for name, side in (("initiator", initiator), ("opponent", opponent)):
        if side.difficulty:
            raise EngineError(
                f"In an opposed test the other side's result is the difficulty: leave the "
                f"{name}'s 'difficulty' at 0."
            )
    if opponent.heroic:
        raise EngineError("Only the initiator of an opposed test may use heroic effort.")
    a = resolve(replace(initiator, heroic=False), parse_faces(initiator, initiator_faces))
    b = resolve(opponent, parse_faces(opponent, opponent_faces))
    if a.critical_failure:
        refuse_after_critical(False, initiator.heroic)
        level = 0
    else:
        level = a.result - b.result
    cost = 0
    if initiator.heroic:
        level, cost = heroic_effort(level)
    success = level > 0
    return Opposed(
        initiator=a,
        opponent=b,
        level=level,
        success=success,
        heroic_cost=cost,
        przebicia=level // 3 if success else 0,
        outcome=outcome_of(level, a.critical_failure),
    )


def _results(side: Params, rolled: Result | None) -> tuple[dict[int, float], float]:
    """P(each result) of one side (a critical failure counts as 0) and P(critical failure),
    before the roll without boosts or heroic effort, or of its ``rolled`` result for certain."""
    from .caerbannog import odds

    if rolled is not None:
        return {rolled.result: 1.0}, float(rolled.critical_failure)
    before = odds(replace(side, heroic=False, boost=False))
    results = {int(result): p for result, p in before["result_odds"].items()}
    return results, before["odds"]["critical_failure"]


def win_odds(
    initiator: Params,
    opponent: Params,
    a_result: Result | None = None,
    b_result: Result | None = None,
) -> dict[str, float]:
    """Exact P(the initiator wins) (a level above 0) before the roll, without boosts or heroic
    effort (choices made after seeing the dice): the convolution of the sides' results. A
    side's ``*_result`` (its roll, once the viewer may see it) stands for its distribution."""
    first, critical = _results(initiator, a_result)
    second, _critical = _results(opponent, b_result)
    wins = sum(p * q for ra, p in first.items() for rb, q in second.items() if ra > rb)
    # The initiator's critical failure is a level of 0 whatever the opponent rolled (counted as
    # a result of 0 above, it would beat an opponent's result below 0).
    below_zero = sum(q for rb, q in second.items() if rb < 0)
    wins -= critical * below_zero
    return {"a": wins, "b": 1.0 - wins, "draw": 0.0}
