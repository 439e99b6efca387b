"""The coin's rules, pure (standard library and ``rolls.engine.core`` only), in ENGINE.md's
shape: ``parse_params`` refuses what it does not know, ``roll(params, rng)`` returns a result
whose ``dice`` the log keeps and whose ``contract()`` is the answer; ``odds`` feeds the panel."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rolls.engine.core import Die, Scale, check_fields

HEADS, TAILS = 2, 1
#: Tails fails, heads succeeds; a coin has no extremes.
SCALE = Scale(("failure", "success"), frozenset({"success"}))


@dataclass(frozen=True)
class CoinResult:
    face: int

    @property
    def outcome(self) -> str:
        return "success" if self.face == HEADS else "failure"

    @property
    def dice(self) -> tuple[Die, ...]:
        return (Die(2, self.face, True, "coin", "read"),)

    def contract(self) -> dict[str, Any]:
        return {"face": self.face, "heads": self.face == HEADS, "outcome": self.outcome}


def parse_params(raw: Any) -> dict[str, Any]:
    check_fields(raw, ())
    return {}


def roll(params, rng) -> CoinResult:
    return CoinResult(rng.randint(1, 2))


def odds(params) -> dict[str, float]:
    return {"success": 0.5, "failure": 0.5}
