"""The night's luck: each person's tests measured against the exact odds each test had.

Counted from the entries one reader may see (``rolls.log.reading.entries_for``), so a recap never
tells more than that reader's log: a redacted entry (another's secret or hidden roll, a sealed
side) counts nothing, a whisper the reader may not know of is not among the entries at all.

What counts (docs/recap.md says the same to the reader):

- A **roll** is an entry that shows dice: a test, a follow-up, quick dice, a random table, a line
  of chat rolling in place. Notes (a condition, options chosen, a strike) are no rolls.
- A **test** is a roll of the rule system's own test: an entry that follows no other and ends in
  one of its system's outcomes (``rolls.engine.core.Scale``), whose odds the engine can tell
  from its params. Only tests are measured for luck. A follow-up (a re-roll, a magic die, a
  boost, heroic effort) is a roll, not a test: its odds hang on choices made after seeing the
  dice. An opposed or group test's result is listed apart: its sides' own tests are measured.
- A **struck** test (rolls.strikes) leaves the luck and is listed as struck.
- Real dice typed at the table (rolls.real_dice) count like drawn ones: the test had the same
  odds whoever's dice rolled it.

Per test, from the odds ``odds`` of its outcomes (worst to best by the system's scale):
P(success) is the sum over its successes; its **percentile** is P(worse) + ½·P(same), whose
mean is exactly ½ for fair dice, above ½ luckier than the odds. Per person: successes beside
the expected successes (Σ P(success)), the mean percentile, how many tests beat the odds
(percentile above ½), the least likely success (the smallest P(success) among successes) and
the least likely failure (the smallest P(failure) among failures).
"""

from __future__ import annotations

import functools
import json
import math
import sys
from array import array
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from campaigns.systems import UnknownSystem, get_system
from rolls.engine import EngineError

#: Entries of shared features that end in an outcome but are no one's own test: listed apart.
RESULT_KINDS = frozenset({"opposed", "group"})
#: The kinds of notes that tell of a condition coming or going (rolls.conditions).
CONDITION_KINDS = frozenset({"condition", "condition_cleared"})

# The luck chart's drawing box, in SVG user units (scaled by CSS).
CHART_WIDTH, CHART_HEIGHT = 240, 80
#: The most points a luck line draws: one a user unit. A longer night's line keeps the value at
#: the end of each of this many even stretches of its tests (``Tally.line``).
CHART_POINTS = CHART_WIDTH


@dataclass(frozen=True, slots=True)
class Test:
    """One test as luck reads it (slotted: a long night's figures keep tens of thousands)."""

    seq: int
    outcome: str
    success: bool
    p_success: float
    percentile: float
    critical: bool
    catastrophe: bool
    typed: bool

    @property
    def p_failure(self) -> float:
        return 1.0 - self.p_success


@dataclass(frozen=True)
class Person:
    """One person's night: their rolls and tests, and their luck against the odds. Its figures
    are counted as the tests come (``Tally``), so reading one costs the same after 4 tests or
    40,000."""

    actor_id: int
    name: str
    rolls: int
    tests: tuple[Test, ...]
    struck: int
    successes: int = 0
    #: Successes the odds promised: Σ P(success).
    expected: float = 0.0
    percentile_sum: float = 0.0
    #: Tests whose outcome was better than the odds' middle (percentile above ½).
    beat_odds: int = 0
    criticals: int = 0
    catastrophes: int = 0
    least_likely_success: Test | None = None
    least_likely_failure: Test | None = None
    #: The line of luck over the night as drawn: (the test's place, the running surplus after
    #: it), at most CHART_POINTS of them; and the line's highest |surplus|, drawn or not.
    line: tuple[tuple[int, float], ...] = field(default=(), repr=False)
    line_length: int = field(default=1, repr=False)
    peak: float = field(default=0.0, repr=False)

    @property
    def failures(self) -> int:
        return len(self.tests) - self.successes

    @property
    def surplus(self) -> float:
        """Successes beyond (or short of) the odds' promise."""
        return self.successes - self.expected

    @property
    def percentile(self) -> float | None:
        """The mean percentile of the tests; ½ is what fair dice give on average."""
        return self.percentile_sum / len(self.tests) if self.tests else None


class RunningSum:
    """A sum of floats kept as they come, equal to the last bit to Python's ``sum()`` of the
    same floats in the same order: the figures may not change with the way they were counted.
    From Python 3.12 ``sum()`` compensates its rounding (Neumaier); before, it adds in turn."""

    __slots__ = ("total", "compensation")
    COMPENSATED = sys.version_info >= (3, 12)

    def __init__(self) -> None:
        self.total, self.compensation = 0.0, 0.0

    def add(self, x: float) -> None:
        if not self.COMPENSATED:
            self.total += x
            return
        total = self.total + x
        if abs(self.total) >= abs(x):
            self.compensation += (self.total - total) + x
        else:
            self.compensation += (x - total) + self.total
        self.total = total

    @property
    def value(self) -> float:
        if self.compensation and math.isfinite(self.compensation):
            return self.total + self.compensation
        return self.total


class Tally:
    """One person's figures so far, entry after entry (``Night.fold``)."""

    def __init__(self, actor_id: int, name: str) -> None:
        self.actor_id, self.name = actor_id, name
        self.rolls = self.struck = self.successes = 0
        self.beat = self.criticals = self.catastrophes = 0
        self.tests: list[Test] = []
        self.expected, self.percentiles = RunningSum(), RunningSum()
        self.least_success: Test | None = None
        self.least_failure: Test | None = None
        # The running surplus: 0 before the first test, then after each (compact floats).
        self.path = array("d", [0.0])
        self.surplus = 0.0
        self.peak = 0.0

    def add(self, test: Test) -> None:
        self.tests.append(test)
        self.successes += test.success
        self.expected.add(test.p_success)
        self.percentiles.add(test.percentile)
        self.beat += test.percentile > 0.5
        self.criticals += test.critical
        self.catastrophes += test.catastrophe
        # Ties go to the earlier test, whose seq is smaller: only a strictly less likely one wins.
        if test.success:
            if self.least_success is None or test.p_success < self.least_success.p_success:
                self.least_success = test
        elif self.least_failure is None or test.p_failure < self.least_failure.p_failure:
            self.least_failure = test
        self.surplus += test.success - test.p_success
        self.path.append(self.surplus)
        self.peak = max(self.peak, abs(self.surplus))

    def line(self) -> tuple[tuple[int, float], ...]:
        """The running surplus as drawn: every value while there are at most CHART_POINTS; then
        the first, and the value at the end of each of CHART_POINTS − 1 even stretches of the
        tests (so the last value too). A stretch's swings between its ends are not drawn; the
        chart's scale still spans them (``peak``)."""
        length = len(self.path)
        if length <= CHART_POINTS:
            places: Iterable[int] = range(length)
        else:
            places = (k * (length - 1) // (CHART_POINTS - 1) for k in range(CHART_POINTS))
        return tuple((place, self.path[place]) for place in places)

    def person(self) -> Person:
        return Person(
            actor_id=self.actor_id,
            name=self.name,
            rolls=self.rolls,
            tests=tuple(self.tests),
            struck=self.struck,
            successes=self.successes,
            expected=self.expected.value,
            percentile_sum=self.percentiles.value,
            beat_odds=self.beat,
            criticals=self.criticals,
            catastrophes=self.catastrophes,
            least_likely_success=self.least_success,
            least_likely_failure=self.least_failure,
            line=self.line(),
            line_length=len(self.path),
            peak=self.peak,
        )


#: A night's tests share few params (a character's stats, a few modifiers), and odds are a pure
#: function of them: each is worked out once per process, not once per test per refresh (a recap
#: of 2,000 entries spent a third of its time here; bench/pages.py).
@functools.lru_cache(maxsize=4096)
def _odds(system: str, params: str) -> Mapping[str, float] | None:
    try:
        engine = get_system(system).engine
        odds = engine.odds(engine.parse_params(json.loads(params)))["odds"]
    except (UnknownSystem, EngineError, KeyError, TypeError):
        return None
    return MappingProxyType({str(key): float(chance) for key, chance in odds.items()})


def measured(entry: Mapping[str, Any]) -> Test | None:
    """The entry as a test of its system, or None when it is none (see the module)."""
    if (
        entry["redacted"]
        or entry.get("note")
        or entry.get("parent_seq") is not None
        or entry["kind"] in RESULT_KINDS
        or not isinstance(entry.get("outcome"), str)
    ):
        return None
    try:
        params = json.dumps(entry["params"], sort_keys=True)
    except (KeyError, TypeError, ValueError):
        return None
    figures = _figures(entry["system"], params, entry["outcome"])
    if figures is None:
        return None
    return Test(entry["seq"], *figures, typed=bool(entry.get("typed")))


#: A test's figures are a pure function of its system, params and outcome, as its odds are:
#: worked out once per process, and the tests sharing them share their objects (a long night's
#: kept figures hold tens of thousands of tests; rolls.recap.running).
@functools.lru_cache(maxsize=4096)
def _figures(system: str, params: str, outcome: str) -> tuple[Any, ...] | None:
    """(outcome, success, P(success), percentile, critical, catastrophe), or None."""
    try:
        scale = get_system(system).engine.SCALE
        rank = scale.rank(outcome)
    except (UnknownSystem, AttributeError, ValueError):
        return None
    odds = _odds(system, params)
    if odds is None:
        return None
    ranks = {name: scale.rank(name) for name in odds if name in scale.order}
    worse = sum(odds[name] for name, place in ranks.items() if place < rank)
    same = odds.get(outcome, 0.0)
    return (
        outcome,
        outcome in scale.successes,
        sum(odds.get(name, 0.0) for name in scale.successes),
        worse + same / 2,
        outcome == scale.critical,
        outcome == scale.catastrophe,
    )


def is_roll(entry: Mapping[str, Any]) -> bool:
    """An entry the reader sees whole that shows dice."""
    return not entry["redacted"] and bool(entry.get("dice"))


#: The night's events the recap lists by name, each by what an entry it lists is (visible ones
#: only): opposed and group tests, conditions that came and went, entries the GM struck.
LISTS: dict[str, Callable[[Mapping[str, Any]], bool]] = {
    "opposed": lambda entry: entry["kind"] == "opposed",
    "group": lambda entry: entry["kind"] == "group",
    "conditions": lambda entry: entry["kind"] in CONDITION_KINDS,
    "struck": lambda entry: bool(entry.get("struck")),
}


class Night:
    """A reader's recap so far: each person's tally, the rolls the reader could not count and
    the listed events, folded in entry by entry in the log's order. Folding the entries in two
    parts gives what folding them at once gives (rolls.recap.running keeps one per reader)."""

    def __init__(self) -> None:
        self.tallies: dict[tuple[str, int], Tally] = {}
        self.hidden = 0
        self.listed: dict[str, list[Mapping[str, Any]]] = {key: [] for key in LISTS}

    def fold(self, entries: Iterable[Mapping[str, Any]]) -> Night:
        for entry in entries:
            if entry["redacted"]:
                self.hidden += 1
                continue
            for key, lists in LISTS.items():
                if lists(entry):
                    self.listed[key].append(entry)
            if is_roll(entry):
                self._count(entry)
        return self

    def _count(self, entry: Mapping[str, Any]) -> None:
        who = (entry["actor_name"], entry["actor_id"])
        tally = self.tallies.get(who)
        if tally is None:
            tally = self.tallies[who] = Tally(entry["actor_id"], entry["actor_name"])
        tally.rolls += 1
        test = measured(entry)
        if test is not None and entry.get("struck"):
            tally.struck += 1
        elif test is not None:
            tally.add(test)

    def people(self) -> list[Person]:
        """Each person who rolled, by name."""
        order = sorted(self.tallies, key=lambda who: (who[0].casefold(), who[1]))
        return [self.tallies[who].person() for who in order]


def people(entries: Iterable[Mapping[str, Any]]) -> list[Person]:
    """Each person who rolled, by name, with their rolls, tests and luck, in the entries' order."""
    return Night().fold(entries).people()


@dataclass(frozen=True)
class Chart:
    """A person's luck over the night: Σ (success − P(success)) after each test, as an SVG
    polyline on a scale every person's chart shares, so two charts compare at a glance."""

    points: str
    zero_y: float
    top: float  # the scale's bound: the line spans −top..top


def charts(everyone: list[Person]) -> dict[int, Chart]:
    """Each person's chart, by actor id; the x axis is the person's tests in order."""
    lines = [person for person in everyone if person.tests]
    top = max((person.peak for person in lines), default=0.0)
    top = max(top, 1.0)
    middle = CHART_HEIGHT / 2
    drawn = {}
    for person in lines:
        step = CHART_WIDTH / max(person.line_length - 1, 1)
        points = " ".join(
            f"{round(step * i, 2)},{round(middle - middle * value / top, 2)}"
            for i, value in person.line
        )
        drawn[person.actor_id] = Chart(points=points, zero_y=middle, top=round(top, 2))
    return drawn


def listed(entries: Iterable[Mapping[str, Any]]) -> dict[str, list[Mapping[str, Any]]]:
    """The night's events the recap lists by name (``LISTS``)."""
    shown = [entry for entry in entries if not entry["redacted"]]
    return {key: [entry for entry in shown if lists(entry)] for key, lists in LISTS.items()}
