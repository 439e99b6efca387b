"""FastTest (RULES.md section 1): one d10 against the chance, one d6 for the degree.

Bonus and penalty dice cancel; the rest are extra d10s or d6s (``extra_d10`` of them d10). With
bonus dice the most favourable d10/d6 pair is kept, with penalty dice the least favourable.
Combat, wounds, magic and development live in ``fasttest_combat`` and ``fasttest_sheet``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .core import (
    OUTCOMES,
    RANK,
    SIX_OUTCOMES,
    Die,
    EngineError,
    RandomSource,
    check_dice_count,
    check_fields,
    check_probabilities,
    check_range,
    draw,
    faces_list,
    get_int,
    get_int_list,
)

#: The fields a FastTest request may carry (ENGINE.md).
ALLOWED = ("attribute", "skills", "bonus", "penalty", "npc_traits", "wounds", "extra_d10")

#: The chance is read on a d10 and always lies within these bounds; the rest becomes dice.
CHANCE_MIN = 1
CHANCE_MAX = 9

#: Opposed-test winners (ENGINE.md) and the labels of RULES.md's Decision on margins.
WINNERS = ("a", "b")
LABEL_DRAW = "draw"
LABEL_MINOR = "minor"
LABEL_WIN = "win"
LABEL_CLEAR_WIN = "clear_win"
LABEL_CRITICAL_WIN = "critical_win"
LABELS = (LABEL_DRAW, LABEL_MINOR, LABEL_WIN, LABEL_CLEAR_WIN, LABEL_CRITICAL_WIN)

#: What settled an opposed test: the ranks, then chance_raw, then the kept d10; else a draw.
DECIDED_BY = ("rank", "chance_raw", "kept_d10", "draw")

#: Its outcomes worst to best, its successes and extremes (RULES.md): the shared six.
SCALE = SIX_OUTCOMES

# Outcome keys by (success, d6 face); index 0 is unused so a face indexes directly.
_SUCCESS_BY_D6 = ("", "yes_but", "yes_but", "yes_but", "yes", "yes", "yes_and")
_FAILURE_BY_D6 = ("", "no_but", "no_but", "no_but", "no", "no", "no_and")


@dataclass(frozen=True, slots=True)
class Params:
    """A FastTest test. Everything the roll needs is derived once here, not on every roll.

    ``bonus`` holds the player's bonus dice (trait levels, GM circumstances, experience dice);
    ``penalty`` the GM's penalty dice (circumstances, spell difficulty, a flaw); ``npc_traits``
    the dice of the applicable NPC traits; ``wounds`` the wounds counted for this attribute.
    ``extra_d10`` None means every extra die is a d10 (the default of RULES.md step 6).
    """

    attribute: int
    skills: tuple[int, ...] = ()
    bonus: int = 0
    penalty: int = 0
    npc_traits: tuple[int, ...] = ()
    wounds: int = 0
    extra_d10: int | None = None
    chance_raw: int = field(init=False, repr=False, compare=False)
    chance: int = field(init=False, repr=False, compare=False)
    overflow_bonus: int = field(init=False, repr=False, compare=False)
    overflow_penalty: int = field(init=False, repr=False, compare=False)
    npc_dice: int = field(init=False, repr=False, compare=False)
    bonus_total: int = field(init=False, repr=False, compare=False)
    penalty_total: int = field(init=False, repr=False, compare=False)
    net: int = field(init=False, repr=False, compare=False)
    d10_count: int = field(init=False, repr=False, compare=False)
    d6_count: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        chance_raw = self.attribute + sum(self.skills)
        chance = min(max(chance_raw, CHANCE_MIN), CHANCE_MAX)
        overflow_bonus = max(chance_raw - CHANCE_MAX, 0)
        overflow_penalty = max(CHANCE_MIN - chance_raw, 0)
        npc = npc_penalty(self.npc_traits)
        bonus_total = self.bonus + overflow_bonus
        penalty_total = self.penalty + overflow_penalty + npc + self.wounds
        net = bonus_total - penalty_total
        extra = abs(net)
        check_dice_count(2 + extra)
        extra_d10 = extra if self.extra_d10 is None else self.extra_d10
        check_range("extra_d10", extra_d10, 0, extra)
        values = {
            "extra_d10": extra_d10,
            "chance_raw": chance_raw,
            "chance": chance,
            "overflow_bonus": overflow_bonus,
            "overflow_penalty": overflow_penalty,
            "npc_dice": npc,
            "bonus_total": bonus_total,
            "penalty_total": penalty_total,
            "net": net,
            "d10_count": 1 + extra_d10,
            "d6_count": 1 + extra - extra_d10,
        }
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def sources(self) -> dict[str, dict[str, int]]:
        """Where the bonus and penalty dice came from, for a log entry."""
        return {
            "bonus": {
                "given": self.bonus,
                "overflow": self.overflow_bonus,
                "total": self.bonus_total,
            },
            "penalty": {
                "given": self.penalty,
                "overflow": self.overflow_penalty,
                "npc_traits": self.npc_dice,
                "wounds": self.wounds,
                "total": self.penalty_total,
            },
        }


@dataclass(frozen=True, slots=True)
class Faces:
    """The rolled dice: ``params.d10_count`` d10s and ``params.d6_count`` d6s."""

    d10: tuple[int, ...]
    d6: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Result:
    """A resolved test. The kept dice are given by their index into the rolled faces."""

    params: Params
    d10: tuple[int, ...]
    d6: tuple[int, ...]
    kept_d10_at: int
    kept_d6_at: int
    success: bool
    outcome: str

    @property
    def chance_raw(self) -> int:
        return self.params.chance_raw

    @property
    def chance(self) -> int:
        return self.params.chance

    @property
    def net(self) -> int:
        return self.params.net

    @property
    def kept_d10(self) -> int:
        return self.d10[self.kept_d10_at]

    @property
    def kept_d6(self) -> int:
        return self.d6[self.kept_d6_at]

    @property
    def rank(self) -> int:
        return RANK[self.outcome]

    @property
    def bonus_total(self) -> int:
        return self.params.bonus_total

    @property
    def penalty_total(self) -> int:
        return self.params.penalty_total

    def sources(self) -> dict[str, dict[str, int]]:
        """The bonus and penalty dice with their parts (see ``Params.sources``)."""
        return self.params.sources()

    @property
    def dice(self) -> tuple[Die, ...]:
        """Every die rolled, d10s first, with the kept pair marked."""
        net = self.params.net
        why = "only" if net == 0 else ("best" if net > 0 else "worst")
        return _dice(10, self.d10, self.kept_d10_at, why) + _dice(6, self.d6, self.kept_d6_at, why)

    def contract(self) -> dict[str, Any]:
        """ENGINE.md's resolve answer."""
        return {
            "chance_raw": self.params.chance_raw,
            "chance": self.params.chance,
            "net": self.params.net,
            "kept_d10": self.kept_d10,
            "kept_d6": self.kept_d6,
            "success": self.success,
            "outcome": self.outcome,
        }


def _dice(sides: int, faces: tuple[int, ...], kept_at: int, why: str) -> tuple[Die, ...]:
    group = f"d{sides}"
    return tuple(
        Die(sides, face, True, group, why)
        if index == kept_at
        else Die(sides, face, False, group, "dropped")
        for index, face in enumerate(faces)
    )


def npc_penalty(traits: tuple[int, ...] | list[int]) -> int:
    """Penalty dice of the applicable NPC traits: the highest, plus 1 for each other one."""
    if not traits:
        return 0
    return max(traits) + len(traits) - 1


def parse_params(raw: Any) -> Params:
    """Read and check a request's params (ENGINE.md); missing ``extra_d10`` means all d10."""
    raw = check_fields(raw, ALLOWED)
    extra_d10 = None if raw.get("extra_d10") is None else get_int(raw, "extra_d10", lo=0)
    return Params(
        attribute=get_int(raw, "attribute"),
        skills=get_int_list(raw, "skills", ()),
        bonus=get_int(raw, "bonus", 0, lo=0),
        penalty=get_int(raw, "penalty", 0, lo=0),
        npc_traits=get_int_list(raw, "npc_traits", (), lo=1),
        wounds=get_int(raw, "wounds", 0, lo=0),
        extra_d10=extra_d10,
    )


def parse_faces(params: Params, raw: Any) -> Faces:
    """Check the rolled faces: exactly the d10s and d6s this test rolls."""
    raw = check_fields(raw, ("d10", "d6"), "faces")
    for name in ("d10", "d6"):
        if name not in raw:
            raise EngineError(f"The faces need the rolled '{name}' dice.")
    return Faces(
        d10=faces_list("d10", raw["d10"], 10, params.d10_count),
        d6=faces_list("d6", raw["d6"], 6, params.d6_count),
    )


def resolve(params: Params, faces: Faces) -> Result:
    """Keep the pair RULES.md step 7 asks for and read the outcome from it."""
    d10, d6 = faces.d10, faces.d6
    chance = params.chance
    if params.net >= 0:
        # The most favourable pair: any success beats any failure, then the higher d10.
        hits = [face for face in d10 if face <= chance]
        success = bool(hits)
        kept10 = max(hits) if success else max(d10)
        kept6 = max(d6) if success else _best_failure_d6(d6)
    else:
        # The least favourable pair: any failure is worse than any success, then the lower d10.
        misses = [face for face in d10 if face > chance]
        success = not misses
        kept10 = min(d10) if success else min(misses)
        kept6 = min(d6) if success else _worst_failure_d6(d6)
    outcome = (_SUCCESS_BY_D6 if success else _FAILURE_BY_D6)[kept6]
    return Result(params, d10, d6, d10.index(kept10), d6.index(kept6), success, outcome)


def _best_failure_d6(d6: tuple[int, ...]) -> int:
    # After a failure 1-3 (no_but) is the best degree, then 4-5 (no), then 6 (no_and);
    # within the degree the highest die is kept (net >= 0).
    low = [face for face in d6 if face <= 3]
    if low:
        return max(low)
    mid = [face for face in d6 if face <= 5]
    return max(mid) if mid else 6


def _worst_failure_d6(d6: tuple[int, ...]) -> int:
    # The worst failure is a 6 (no_and), then 4-5 (no), then 1-3; the lowest within the degree.
    if 6 in d6:
        return 6
    mid = [face for face in d6 if face >= 4]
    return min(mid) if mid else min(d6)


def roll(params: Params, rng: RandomSource) -> Result:
    """Roll the test's dice with ``rng`` (d10s first, then d6s) and resolve them."""
    return resolve(params, Faces(draw(rng, 10, params.d10_count), draw(rng, 6, params.d6_count)))


def outcome_odds(chance: int, net: int, extra_d10: int) -> dict[str, float]:
    """Exact outcome probabilities in closed form for a chance, a net and a split.

    The d10s decide success alone and the d6s the degree alone, so the two are independent:
    P(success) is 1 - (1 - p)^n with bonus dice and p^n with penalty dice, and each degree
    is a difference of powers of the d6's "all at most x" probabilities.
    """
    # Exact fractions, converted once at the end, so every probability is correctly rounded.
    n10 = 1 + extra_d10
    n6 = 1 + abs(net) - extra_d10
    p = Fraction(chance, 10)
    all_low = Fraction(1, 2**n6)  # every d6 is 1-3
    all_six = Fraction(1, 6**n6)
    none_six = Fraction(5**n6, 6**n6)
    if net >= 0:
        hit = 1 - (1 - p) ** n10
        success = {"yes_and": 1 - none_six, "yes": none_six - all_low, "yes_but": all_low}
        failure = {"no_but": 1 - all_low, "no": all_low - all_six, "no_and": all_six}
    else:
        hit = p**n10
        success = {"yes_but": 1 - all_low, "yes": all_low - all_six, "yes_and": all_six}
        failure = {"no_and": 1 - none_six, "no": none_six - all_low, "no_but": all_low}
    miss = 1 - hit
    degree = {key: float(hit * value) for key, value in success.items()}
    degree.update((key, float(miss * value)) for key, value in failure.items())
    return {key: degree[key] for key in OUTCOMES}


def odds(params: Params) -> dict[str, Any]:
    """ENGINE.md's odds answer for the params' own split of dice."""
    # The split as the params resolved it (their extra_d10 field also admits None, unresolved).
    result = outcome_odds(params.chance, params.net, params.d10_count - 1)
    return {"odds": dict(check_probabilities(result))}


@dataclass(frozen=True, slots=True)
class Split:
    """The odds of one split of the extra dice into d10s and d6s."""

    extra_d10: int
    odds: Mapping[str, float]
    success: float
    mean_rank: float


def split_odds(params: Params) -> tuple[Split, ...]:
    """The odds of every split, indexed by ``extra_d10`` (0..|net|); the params' own is ignored.

    They depend on the chance and the net alone, a few hundred pairs in all: each is worked
    out once per process (every panel and every roll asks; exact fractions cost 0.1-0.4 ms).
    The splits are frozen, and no caller writes to their odds."""
    return _splits(params.chance, params.net)


@functools.lru_cache(maxsize=1024)
def _splits(chance: int, net: int) -> tuple[Split, ...]:
    splits = []
    for extra_d10 in range(abs(net) + 1):
        result = outcome_odds(chance, net, extra_d10)
        success = result["yes_but"] + result["yes"] + result["yes_and"]
        mean_rank = sum(RANK[key] * p for key, p in result.items())
        splits.append(Split(extra_d10, result, success, mean_rank))
    return tuple(splits)


def best_split(params: Params) -> Split:
    """The split with the highest P(success) (see ``choose_split``)."""
    return choose_split(split_odds(params))


def choose_split(splits: Iterable[Split]) -> Split:
    """The best of ``splits``: the highest P(success); ties go to the higher expected outcome
    rank, then to more d10s (the default split). Ties are judged to within 1e-12."""
    best = None
    for split in splits:
        if best is None or _better(split, best):
            best = split
    if best is None:
        raise EngineError("There is no split to choose from.")
    return best


def _better(new: Split, old: Split) -> bool:
    if abs(new.success - old.success) > 1e-12:
        return new.success > old.success
    if abs(new.mean_rank - old.mean_rank) > 1e-12:
        return new.mean_rank > old.mean_rank
    return new.extra_d10 > old.extra_d10


@dataclass(frozen=True, slots=True)
class Opposed:
    """An opposed test: ``winner`` "a", "b" or None, ``margin`` the difference of the ranks."""

    winner: str | None
    margin: int
    a: Result
    b: Result
    decided_by: str

    @property
    def label(self) -> str:
        return victory_label(self.winner, self.margin)

    def contract(self) -> dict[str, Any]:
        """ENGINE.md's opposed answer."""
        return {
            "winner": self.winner,
            "margin": self.margin,
            "a": self.a.contract(),
            "b": self.b.contract(),
        }


def opposed(a: Result, b: Result) -> Opposed:
    """Compare two tests: the higher rank wins; on equal ranks the higher chance_raw, then the
    higher kept d10 wins a minor victory (margin 0); else a draw."""
    margin = a.rank - b.rank
    if margin:
        return Opposed("a" if margin > 0 else "b", abs(margin), a, b, "rank")
    if a.chance_raw != b.chance_raw:
        return Opposed("a" if a.chance_raw > b.chance_raw else "b", 0, a, b, "chance_raw")
    if a.kept_d10 != b.kept_d10:
        return Opposed("a" if a.kept_d10 > b.kept_d10 else "b", 0, a, b, "kept_d10")
    return Opposed(None, 0, a, b, "draw")


def victory_label(winner: str | None, margin: int) -> str:
    """RULES.md's Decision: tie broken = minor, 1-2 = win, 3-4 = clear win, 5 = critical win."""
    if winner is None:
        return LABEL_DRAW
    if margin == 0:
        return LABEL_MINOR
    if margin <= 2:
        return LABEL_WIN
    if margin <= 4:
        return LABEL_CLEAR_WIN
    return LABEL_CRITICAL_WIN
