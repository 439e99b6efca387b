"""T10 pool, Moorcrest (RULES.md section 3, ENGINE.md ``t10``).

A pool of d10 against a difficulty 4..10. Each die at or above the difficulty is a success; each
1 is a setback that cancels a success from the highest die down (10s first); each 10 left
uncancelled explodes into a new die. Explosion dice are resolved batch by batch with the same
rule. The net result picks one of six outcomes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from typing import Any

from .core import (
    MAX_DICE,
    Die,
    EngineError,
    RandomSource,
    Scale,
    check_dice_count,
    check_fields,
    check_probabilities,
    draw,
    get_int,
    int_list,
)

SIDES = 10
ALLOWED = ("pool", "difficulty")
DEFAULT_DIFFICULTY = 7
MIN_DIFFICULTY, MAX_DIFFICULTY = 4, 10

#: Outcome keys, worst to best; result <= -1, 0, 1, 2, 3, >= 4.
OUTCOME_KEYS: tuple[str, ...] = (
    "catastrophe",
    "fail",
    "fail_but",
    "success_but",
    "success",
    "impressive",
)

#: The outcomes worst to best; a success from ``success_but`` up (a result of 2 or more).
SCALE = Scale(
    OUTCOME_KEYS,
    frozenset({"success_but", "success", "impressive"}),
    critical="impressive",
    catastrophe="catastrophe",
)

#: Odds leave out at most _TAIL of probability in the explosion tail (see ``_chain``) and do
#: not list results rarer than _REPORT_FLOOR: less than 1e-13 left out in all.
_TAIL = 1e-14
_REPORT_FLOOR = 1e-16
#: Largest chance, allowed for an odds request, that the server would refuse the roll because
#: its explosions pass MAX_DICE dice (bounded in ``_cap_risk_bounds``).
_CAP_RISK_LIMIT = 1e-10


@dataclass(frozen=True, slots=True)
class Params:
    """The pool (any whole number; 0 or less fails automatically) and the difficulty."""

    pool: int
    difficulty: int = DEFAULT_DIFFICULTY


@dataclass(frozen=True, slots=True)
class Faces:
    """All faces in roll order, and the size of each batch (the first is the pool)."""

    dice: tuple[int, ...]
    batches: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Result:
    """A resolved roll. Each die's ``group`` is its batch ("batch 1" is the pool) and its
    ``why`` is "success", "exploded" (an uncancelled 10), "cancelled" (a success a 1 took away),
    "setback" (a 1) or "" (a plain failure). ``kept`` marks the dice that count in the result.
    """

    pool: int
    difficulty: int
    result: int
    outcome: str
    severity: int
    extra_options: int
    dice_rolled: int
    automatic: bool
    dice: tuple[Die, ...]
    batches: tuple[int, ...]

    def contract(self) -> dict[str, Any]:
        """The resolve answer of ENGINE.md, field for field."""
        return {
            "result": self.result,
            "outcome": self.outcome,
            "severity": self.severity,
            "extra_options": self.extra_options,
            "dice_rolled": self.dice_rolled,
            "automatic": self.automatic,
        }


def parse_params(raw: Any) -> Params:
    """Read and check ``pool`` (required) and ``difficulty`` (4..10, default 7)."""
    raw = check_fields(raw, ALLOWED)
    pool = get_int(raw, "pool")
    check_dice_count(pool)
    difficulty = get_int(raw, "difficulty", DEFAULT_DIFFICULTY, MIN_DIFFICULTY, MAX_DIFFICULTY)
    return Params(pool, difficulty)


def parse_faces(params: Params, raw: Any) -> Faces:
    """Check the flat list of faces, batch by batch: each batch's explosions size the next."""
    faces = int_list("faces", raw, 1, SIDES)
    if params.pool <= 0:
        if faces:
            raise EngineError(
                f"A pool of {params.pool} rolls no dice (an automatic fail); "
                f"'faces' must be empty, not {len(faces)} dice."
            )
        return Faces((), ())
    batches: list[int] = []
    start, size = 0, params.pool
    while size:
        end = start + size
        if end > MAX_DICE:
            raise EngineError(
                f"These faces explode into at least {end} dice; at most {MAX_DICE} dice can be "
                "rolled at once."
            )
        if end > len(faces):
            raise EngineError(
                f"Too few faces: batch {len(batches) + 1} needs {size} dice but only "
                f"{len(faces) - start} are left ({end} dice in all so far)."
            )
        batches.append(size)
        size = _explosions(faces, start, end)
        start = end
    if start < len(faces):
        raise EngineError(
            f"Too many faces: this roll has {start} dice, not {len(faces)} "
            "(the last batch has no uncancelled 10)."
        )
    return Faces(faces, tuple(batches))


def resolve(params: Params, faces: Faces) -> Result:
    """Count successes and setbacks batch by batch (deterministic)."""
    if params.pool <= 0:
        return Result(params.pool, params.difficulty, 0, "fail", 0, 0, 0, True, (), ())
    total = 0
    dice: list[Die] = []
    start = 0
    for number, size in enumerate(faces.batches):
        batch = faces.dice[start : start + size]
        start += size
        cancelled_dice, counted_dice = _dice_table(number, params.difficulty)
        ones = batch.count(1)
        successes = [i for i, face in enumerate(batch) if face >= params.difficulty]
        total += len(successes) - ones
        if ones and successes:
            # Cancel from the highest die down; among equal faces, the first rolled goes first.
            successes.sort(key=lambda i: -batch[i])
            cancelled = set(successes[:ones])
            dice.extend(
                cancelled_dice[face] if i in cancelled else counted_dice[face]
                for i, face in enumerate(batch)
            )
        else:
            dice.extend(map(counted_dice.__getitem__, batch))
    return _result(params, total, tuple(dice), faces.batches)


def roll(params: Params, rng: RandomSource) -> Result:
    """Roll the pool, then each explosion batch, and resolve.

    A chain of explosions that would pass MAX_DICE dice is refused like any request needing
    more than MAX_DICE dice (an EngineError, no result): the same faces given to ``resolve``
    would be refused too. For pools up to ``odds_max_pool()`` this happens with a chance
    below 1e-10; for a pool of 200, any explosion does it.
    """
    if params.pool <= 0:
        return resolve(params, Faces((), ()))
    faces = list(draw(rng, SIDES, params.pool))
    batches = [params.pool]
    start = 0
    size = _explosions(faces, start, len(faces))
    while size:
        if len(faces) + size > MAX_DICE:
            raise EngineError(
                f"This roll's explosions would need {len(faces) + size} dice; at most "
                f"{MAX_DICE} dice can be rolled at once, so the roll is refused."
            )
        start = len(faces)
        faces.extend(draw(rng, SIDES, size))
        batches.append(size)
        size = _explosions(faces, start, len(faces))
    return resolve(params, Faces(tuple(faces), tuple(batches)))


def outcome_for(result: int) -> str:
    """The outcome key of a net result."""
    if result < 0:
        return "catastrophe"
    return OUTCOME_KEYS[1 + min(result, 4)]


def odds(params: Params) -> dict[str, Any]:
    """Exact odds of each outcome and each net result, explosions included.

    A DP over batches: the future of a roll depends only on the size of its next batch, so the
    distribution ``chain(k)`` of what a batch of k dice adds (its explosions included) is
    computed once per k from the joint law of (batch net, next batch size), and the running
    result is carried as a distribution (see ``_chain``).

    Explosions make the support unbounded. Nothing is invented for the tail: the computation
    leaves out only explosion chains and batch outcomes so rare that, by construction, they
    total at most 1e-14 (the budget is in ``_chain``), and results rarer than 1e-16 are not
    listed. Less than 1e-13 is left out in all, nothing is put anywhere in its place, so each
    probability is exact within that and the sum is 1 within it (checked).

    The server refuses a roll whose explosions pass 200 dice (see ``roll``). The odds describe
    the rolls it completes within 1e-9 only while that refusal is negligible (a chance of at
    most 1e-10, so the odds are off by at most 2e-10), so pools above ``odds_max_pool()``
    (148) are refused here: their odds would mislead.
    """
    if params.pool <= 0:
        probabilities = dict.fromkeys(OUTCOME_KEYS, 0.0)
        probabilities["fail"] = 1.0
        return {"odds": probabilities, "result_odds": {"0": 1.0}}
    limit = odds_max_pool()
    if params.pool > limit:
        raise EngineError(
            f"Odds are given for pools up to {limit}: a pool of {params.pool} may explode past "
            f"{MAX_DICE} dice, and such rolls are refused, so its odds would mislead."
        )
    low, dist = _chain(params.pool, params.difficulty)
    result_odds: dict[str, float] = {}
    probabilities = dict.fromkeys(OUTCOME_KEYS, 0.0)
    for offset, p in enumerate(dist):
        if p >= _REPORT_FLOOR:
            result = low + offset
            result_odds[str(result)] = p
            probabilities[outcome_for(result)] += p
    return {
        "odds": dict(check_probabilities(probabilities)),
        "result_odds": dict(check_probabilities(result_odds)),
    }


def odds_max_pool() -> int:
    """The largest pool whose chance of exploding past MAX_DICE dice is at most 1e-10."""
    return _odds_max_pool()


# --- resolution helpers ---------------------------------------------------------------------


def _explosions(faces: Any, start: int, end: int) -> int:
    """Size of the next batch: the batch's tens left after its ones cancelled (10s first)."""
    tens = ones = 0
    for index in range(start, end):
        face = faces[index]
        if face == 10:
            tens += 1
        elif face == 1:
            ones += 1
    return tens - ones if tens > ones else 0


def _result(params: Params, total: int, dice: tuple[Die, ...], batches: tuple[int, ...]) -> Result:
    return Result(
        pool=params.pool,
        difficulty=params.difficulty,
        result=total,
        outcome=outcome_for(total),
        severity=-total if total < 0 else 0,
        extra_options=total - 3 if total > 3 else 0,
        dice_rolled=len(dice),
        automatic=False,
        dice=dice,
        batches=batches,
    )


_Table = tuple[dict[int, Die], dict[int, Die]]  # (die when cancelled, die otherwise) by face


@cache
def _dice_table(number: int, difficulty: int) -> _Table:
    """The frozen dice of batch ``number`` (0-based), built once and shared by every roll."""
    group = f"batch {number + 1}"
    cancelled: dict[int, Die] = {}
    plain: dict[int, Die] = {}
    for face in range(1, SIDES + 1):
        if face == 1:
            plain[face] = Die(SIDES, face, True, group, "setback")
        elif face >= difficulty:
            why = "exploded" if face == SIDES else "success"
            plain[face] = Die(SIDES, face, True, group, why)
            cancelled[face] = Die(SIDES, face, False, group, "cancelled")
        else:
            plain[face] = Die(SIDES, face, False, group)
    return cancelled, plain


# --- odds helpers ---------------------------------------------------------------------------

# A distribution over whole numbers: (lowest value, probabilities from that value up).
_Dist = tuple[int, tuple[float, ...]]


@cache
def _binomial_rows(size: int, difficulty: int) -> tuple[tuple[float, ...], ...]:
    """Row m: the law of the successes among m dice known to show neither 1 nor 10."""
    # Of the faces 2..9, those from the difficulty up succeed (none at difficulty 10).
    q = (SIDES - difficulty) / 8
    rows: list[tuple[float, ...]] = [(1.0,)]
    for _ in range(size):
        last = rows[-1]
        row = [0.0] * (len(last) + 1)
        for s, p in enumerate(last):
            row[s] += p * (1 - q)
            row[s + 1] += p * q
        rows.append(tuple(row))
    return tuple(rows)


@cache
def _batch(size: int, difficulty: int) -> tuple[_Dist, tuple[tuple[int, _Dist], ...]]:
    """The joint law of one batch of ``size`` dice: (net, next batch size).

    Returns the law of the net when nothing explodes, and for each next batch size u >= 1 the
    (sub-probability) law of the net with that u, leaving out u == size (every die a 10), which
    ``_chain`` sums as a geometric series. Given t tens and o ones, the other m dice succeed
    binomially, so the net is (t - o) + Bin(m, q). Pairs (t, o) less likely than a floor are
    skipped and each law's ends below floor / width are cut: (pairs + size + 1) * floor, at
    most _TAIL / 20 of probability, is left out.
    """
    pairs = (size + 1) * (size + 2) // 2
    floor = _TAIL / 20 / (pairs + size + 1)
    rows = _binomial_rows(size, difficulty)
    width = 2 * size + 1  # net from -size to +size
    stop = [0.0] * width
    parts: dict[int, list[float]] = {}
    for tens in range(size):  # tens == size is the all-tens loop
        for ones in range(size - tens + 1):
            others = size - tens - ones
            weight = (
                math.comb(size, tens) * math.comb(size - tens, ones) * 0.1 ** (tens + ones)
            ) * 0.8**others
            if weight < floor:
                continue
            u = tens - ones
            target = stop if u <= 0 else parts.setdefault(u, [0.0] * width)
            _add_into(target, u + size, weight, rows[others])
    cut = floor / width
    return _trim(-size, stop, cut), tuple((u, _trim(-size, parts[u], cut)) for u in sorted(parts))


@cache
def _chain(size: int, difficulty: int) -> _Dist:
    """The law of what a batch of ``size`` dice adds to the result, all its explosions included,
    short of at most tol = _TAIL of probability (never more, and nothing added).

    chain(k) = stop(k) + sum over u < k of part(k, u) * chain(u) + 0.1**k x**k chain(k), so
    chain(k) = (stop + sum ...) * sum over i of (0.1**k x**k)**i. Each chain(u) is cached.

    The budget, by induction on k, in parts of tol: _batch leaves out <= 1/20. The n parts have
    masses m_u adding up to M < 1/2 (tens outnumber ones less often than not); a part with
    m_u <= tol / (8 n) is skipped, the others take chain(u) short of <= tol: together
    <= M tol + tol / 8 <= 5/8. Both shortfalls grow by 1 / (1 - 0.1**k) <= 10/9 in the loop:
    <= 3/4. The loop's cut tail <= 1/5; the cut ends of the list <= 1/1000.
    """
    tol = _TAIL
    stop, parts = _batch(size, difficulty)
    light = tol / (8 * len(parts)) if parts else 0.0
    pieces = [(part, _chain(u, difficulty)) for u, part in parts if math.fsum(part[1]) > light]
    # One buffer spanning every term, so each product is added in place.
    low = min([stop[0]] + [a[0] + b[0] for a, b in pieces])
    high = max(
        [stop[0] + len(stop[1])] + [a[0] + len(a[1]) + b[0] + len(b[1]) - 1 for a, b in pieces]
    )
    base = [0.0] * (high - low)
    _add_into(base, stop[0] - low, 1.0, stop[1])
    for a, b in pieces:
        (low_a, pa), (low_b, pb) = a, b
        if len(pa) > len(pb):
            pa, pb = pb, pa
        for i, p in enumerate(pa):
            _add_into(base, low_a + low_b - low + i, p, pb)
    # The all-tens loop: every die a 10 adds `size` and rolls a batch of `size` again; stop
    # once the rest of the geometric series, term / (1 - ratio), is within tol / 5.
    ratio = 0.1**size
    total = list(base)
    term, shift = ratio, size
    while term / (1 - ratio) > tol / 5:
        total.extend([0.0] * (len(base) + shift - len(total)))
        _add_into(total, shift, term, base)
        term *= ratio
        shift += size
    return _trim(low, total, tol / 1000 / len(total))


def _add_into(target: list[float], start: int, weight: float, values: Any) -> None:
    """target[start + i] += weight * values[i], one slice at a time (the fast way in Python)."""
    end = start + len(values)
    target[start:end] = [x + weight * y for x, y in zip(target[start:end], values, strict=True)]


def _trim(low: int, values: Any, floor: float) -> _Dist:
    """Cut the entries below ``floor`` off both ends (at most len * floor of probability)."""
    start, end = 0, len(values)
    while start < end and values[start] < floor:
        start += 1
    while end > start and values[end - 1] < floor:
        end -= 1
    return low + start, tuple(values[start:end])


@cache
def _odds_max_pool() -> int:
    risks = _cap_risk_bounds()
    return max(pool for pool in range(1, MAX_DICE + 1) if risks[pool] <= _CAP_RISK_LIMIT)


def _cap_risk_bounds() -> list[float]:
    """For each pool, an upper bound on the chance that its explosions pass MAX_DICE dice.

    Faces are read from one stream of independent d10s. If a roll of ``pool`` dice needs more
    than MAX_DICE, dice pool+1..MAX_DICE are all explosion dice, each born of its own
    uncancelled 10 earlier in the stream, so the first MAX_DICE - 1 faces hold at least
    MAX_DICE - pool tens: P <= P(Bin(MAX_DICE - 1, 1/10) >= MAX_DICE - pool).
    """
    n = MAX_DICE - 1
    tail = [0.0] * (n + 2)  # tail[m] = P(Bin(n, 1/10) >= m)
    for m in range(n, -1, -1):
        tail[m] = tail[m + 1] + math.comb(n, m) * 0.1**m * 0.9 ** (n - m)
    return [min(1.0, tail[MAX_DICE - pool]) if pool < MAX_DICE else 1.0 for pool in range(n + 2)]
