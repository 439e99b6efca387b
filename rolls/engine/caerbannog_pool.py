"""The Rozmach pool between tests (RULES.md section 4, point 12).

The pool starts at 0, never holds more than 10 (the excess is lost) and goes back to 0 at the end
of each scene. When Rozmach is gained and spent at once, it is added first, capped, then spent.
"""

from __future__ import annotations

from .caerbannog import ROZMACH_MAX
from .core import EngineError, get_int


def _pool(pool: int) -> int:
    return get_int({"rozmach": pool}, "rozmach", lo=0, hi=ROZMACH_MAX)


def _amount(name: str, value: int) -> int:
    return get_int({name: value}, name, lo=0)


def clamp_rozmach(value: int) -> int:
    """Any whole number of Rozmach brought into the pool's range 0..10."""
    return max(0, min(ROZMACH_MAX, get_int({"rozmach": value}, "rozmach")))


def gain(pool: int, amount: int) -> int:
    """The pool after gaining ``amount`` Rozmach; what would pass 10 is lost."""
    return min(ROZMACH_MAX, _pool(pool) + _amount("gain", amount))


def spend(pool: int, cost: int, gained: int = 0) -> int:
    """The pool after a voluntary spending of ``cost`` (``gained`` at the same time is added first).

    Spending what the pool does not hold is refused: Rozmach cannot be replaced by other resources.
    """
    available = gain(pool, gained)
    cost = _amount("cost", cost)
    if cost > available:
        raise EngineError(f"This costs {cost} Rozmach, but the pool holds only {available}.")
    return available - cost


def force_spend(pool: int, cost: int, gained: int = 0) -> tuple[int, int]:
    """A forced spending: ``(pool after, Determinacja lost)``.

    What the pool cannot pay is lost as the same amount of Determinacja (**Decision**: the pool
    pays what it holds and only the shortfall costs Determinacja).
    """
    available = gain(pool, gained)
    cost = _amount("cost", cost)
    paid = min(cost, available)
    return available - paid, cost - paid


def end_scene(pool: int) -> int:
    """The pool when a scene ends: always 0."""
    _pool(pool)
    return 0


def surprised(pool: int) -> int:
    """A surprised side's Rozmach in the first round: halved, rounded down."""
    return _pool(pool) // 2


def surprising(pool: int) -> int:
    """The surprising side's Rozmach in the first round: doubled, still at most 10."""
    return min(ROZMACH_MAX, 2 * _pool(pool))
