"""Time the heaviest realistic engine requests: exact odds and rolls per second.

    .venv/bin/python bench/odds.py        (or: make bench)

Targets (issue "The resolution engine"): every odds request under 20 ms, exact; over 50,000
rolls per second (draw with the server's random source + resolve). Prints figures, asserts nothing:
the machines are noisy, so figures go into notes and docs/performance.md, never into tests.
"""

from __future__ import annotations

import secrets
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rolls.engine import ast, caerbannog, fasttest, t10, twod6
from rolls.engine.fair import FairDice, new_seed


def best_ms(work: Callable[[], object], repeat: int = 15) -> tuple[float, float]:
    """Best and median wall time of ``work`` in milliseconds, over ``repeat`` runs."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    return min(times), statistics.median(times)


def rolls_per_second(module, raw: dict, seconds: float = 1.0) -> float:
    params = module.parse_params(raw)
    rng = secrets.SystemRandom()
    count = 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        for _ in range(500):
            module.roll(params, rng)
        count += 500
    return count / seconds


def fair_against_system(module, raw: dict, rolls: int = 5000, rounds: int = 7):
    """Rolls per second with the OS random source and with fair dice (a fresh HMAC-SHA256
    stream per roll, its own seq and a 32-character nonce, as the app rolls), measured in
    alternation and best of ``rounds``, so a busy machine slows both alike."""
    params = module.parse_params(raw)
    rng = secrets.SystemRandom()
    seed = bytes.fromhex(new_seed())
    nonce = "x" * 32
    best_system = best_fair = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(rolls):
            module.roll(params, rng)
        best_system = min(best_system, time.perf_counter() - start)
        start = time.perf_counter()
        for seq in range(1, rolls + 1):
            module.roll(params, FairDice(seed, seq, nonce))
        best_fair = min(best_fair, time.perf_counter() - start)
    return rolls / best_system, rolls / best_fair


ODDS = [
    (
        "FastTest, 12 bonus dice, every d10/d6 split + best",
        lambda: fasttest.best_split(
            fasttest.parse_params({"attribute": 5, "skills": [1], "bonus": 12})
        ),
    ),
    (
        "FastTest, 12 penalty dice, every split + best",
        lambda: fasttest.best_split(
            fasttest.parse_params({"attribute": 5, "skills": [1], "penalty": 12})
        ),
    ),
    ("AST, 10 white dice", lambda: ast.odds(ast.parse_params({"white": 10, "level_mod": 2}))),
    (
        "T10, pool 15, difficulty 4",
        lambda: t10.odds(t10.parse_params({"pool": 15, "difficulty": 4})),
    ),
    (
        "T10, pool 15, difficulty 10",
        lambda: t10.odds(t10.parse_params({"pool": 15, "difficulty": 10})),
    ),
    (
        "Caerbannog, 6 mixed dice (d4 d6 d8 d10 d12 d12)",
        lambda: caerbannog.odds(
            caerbannog.parse_params({"dice": [4, 6, 8, 10, 12, 12], "difficulty": 4})
        ),
    ),
    (
        "2d6, 4 helpers, all categories",
        lambda: twod6.odds(
            twod6.parse_params(
                {
                    "attribute": 6,
                    "skill": 5,
                    "helpers": 4,
                    "difficulty": 15,
                    "modifiers": {"circumstance": [-2], "personal": [2], "equipment": [1]},
                }
            )
        ),
    ),
]

ROLLS = [
    ("FastTest, 3 bonus dice", fasttest, {"attribute": 5, "skills": [1], "bonus": 3}),
    ("AST, 5 white dice", ast, {"white": 5, "level_mod": 1}),
    ("T10, pool 7", t10, {"pool": 7}),
    ("Caerbannog, 3d8", caerbannog, {"dice": [8, 8, 8], "difficulty": 3}),
    ("2d6", twod6, {"attribute": 6, "skill": 5, "difficulty": 15}),
]


def main() -> None:
    print("Exact odds (target: each under 20 ms). 'first' is the cold call, before any cache")
    print(f"  {'request':52} {'first ms':>9} {'best ms':>8} {'median ms':>10}")
    for name, work in ODDS:
        first, _ = best_ms(work, repeat=1)
        best, median = best_ms(work)
        print(f"  {name:52} {first:9.2f} {best:8.2f} {median:10.2f}")
    print()
    print("Rolls per second, secrets.SystemRandom, draw + resolve (target: over 50,000)")
    for name, module, raw in ROLLS:
        print(f"  {name:52} {rolls_per_second(module, raw):12,.0f}")
    print()
    print("Rolls per second, OS random source against fair dice, alternating (target: fair")
    print("within 2x of the OS source)")
    print(f"  {'request':52} {'OS source':>12} {'fair dice':>12} {'slower':>7}")
    for name, module, raw in ROLLS:
        system, fair = fair_against_system(module, raw)
        print(f"  {name:52} {system:12,.0f} {fair:12,.0f} {system / fair:6.2f}x")


if __name__ == "__main__":
    main()
