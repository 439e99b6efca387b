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
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Test:
    """One test as luck reads it."""

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
    """One person's night: their rolls and tests, and their luck against the odds."""

    actor_id: int
    name: str
    rolls: int
    tests: tuple[Test, ...]
    struck: int

    @property
    def successes(self) -> int:
        return sum(test.success for test in self.tests)

    @property
    def failures(self) -> int:
        return len(self.tests) - self.successes

    @property
    def expected(self) -> float:
        """Successes the odds promised: Σ P(success)."""
        return sum(test.p_success for test in self.tests)

    @property
    def surplus(self) -> float:
        """Successes beyond (or short of) the odds' promise."""
        return self.successes - self.expected

    @property
    def percentile(self) -> float | None:
        """The mean percentile of the tests; ½ is what fair dice give on average."""
        return sum(t.percentile for t in self.tests) / len(self.tests) if self.tests else None

    @property
    def beat_odds(self) -> int:
        """Tests whose outcome was better than the odds' middle (percentile above ½)."""
        return sum(test.percentile > 0.5 for test in self.tests)

    @property
    def criticals(self) -> int:
        return sum(test.critical for test in self.tests)

    @property
    def catastrophes(self) -> int:
        return sum(test.catastrophe for test in self.tests)

    @property
    def least_likely_success(self) -> Test | None:
        won = [test for test in self.tests if test.success]
        return min(won, key=lambda test: (test.p_success, test.seq)) if won else None

    @property
    def least_likely_failure(self) -> Test | None:
        lost = [test for test in self.tests if not test.success]
        return min(lost, key=lambda test: (test.p_failure, test.seq)) if lost else None


def odds_of(entry: Mapping[str, Any]) -> Mapping[str, float] | None:
    """The exact odds of the entry's outcomes as its params say, None where its engine cannot
    tell them (an unknown system, params it refuses)."""
    try:
        return _odds(entry["system"], json.dumps(entry["params"], sort_keys=True))
    except (KeyError, TypeError, ValueError):
        return None


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
    ):
        return None
    try:
        scale = get_system(entry["system"]).engine.SCALE
        rank = scale.rank(entry["outcome"])
    except (UnknownSystem, AttributeError, ValueError):
        return None
    odds = odds_of(entry)
    if odds is None:
        return None
    ranks = {outcome: scale.rank(outcome) for outcome in odds if outcome in scale.order}
    worse = sum(odds[outcome] for outcome, place in ranks.items() if place < rank)
    same = odds.get(entry["outcome"], 0.0)
    return Test(
        seq=entry["seq"],
        outcome=entry["outcome"],
        success=entry["outcome"] in scale.successes,
        p_success=sum(odds.get(outcome, 0.0) for outcome in scale.successes),
        percentile=worse + same / 2,
        critical=entry["outcome"] == scale.critical,
        catastrophe=entry["outcome"] == scale.catastrophe,
        typed=bool(entry.get("typed")),
    )


def is_roll(entry: Mapping[str, Any]) -> bool:
    """An entry the reader sees whole that shows dice."""
    return not entry["redacted"] and bool(entry.get("dice"))


def people(entries: Iterable[Mapping[str, Any]]) -> list[Person]:
    """Each person who rolled, by name, with their rolls, tests and luck, in the entries' order."""
    rolls: dict[tuple[str, int], int] = defaultdict(int)
    tests: dict[tuple[str, int], list[Test]] = defaultdict(list)
    struck: dict[tuple[str, int], int] = defaultdict(int)
    for entry in entries:
        if not is_roll(entry):
            continue
        who = (entry["actor_name"], entry["actor_id"])
        rolls[who] += 1
        test = measured(entry)
        if test is not None and entry.get("struck"):
            struck[who] += 1
        elif test is not None:
            tests[who].append(test)
    return [
        Person(actor_id, name, rolls[who], tuple(tests[who]), struck[who])
        for who in sorted(rolls, key=lambda who: (who[0].casefold(), who[1]))
        for name, actor_id in (who,)
    ]


@dataclass(frozen=True)
class Chart:
    """A person's luck over the night: Σ (success − P(success)) after each test, as an SVG
    polyline on a scale every person's chart shares, so two charts compare at a glance."""

    points: str
    zero_y: float
    top: float  # the scale's bound: the line spans −top..top


def charts(everyone: list[Person]) -> dict[int, Chart]:
    """Each person's chart, by actor id; the x axis is the person's tests in order."""
    paths = {person.actor_id: _running(person.tests) for person in everyone if person.tests}
    top = max((abs(value) for path in paths.values() for value in path), default=0.0)
    top = max(top, 1.0)
    middle = CHART_HEIGHT / 2
    drawn = {}
    for actor_id, path in paths.items():
        step = CHART_WIDTH / max(len(path) - 1, 1)
        points = " ".join(
            f"{round(step * i, 2)},{round(middle - middle * value / top, 2)}"
            for i, value in enumerate(path)
        )
        drawn[actor_id] = Chart(points=points, zero_y=middle, top=round(top, 2))
    return drawn


def _running(tests: tuple[Test, ...]) -> list[float]:
    """0 before the first test, then the running surplus after each."""
    path, total = [0.0], 0.0
    for test in tests:
        total += test.success - test.p_success
        path.append(total)
    return path


def listed(entries: Iterable[Mapping[str, Any]]) -> dict[str, list[Mapping[str, Any]]]:
    """The night's events the recap lists by name: opposed and group tests, conditions that came
    and went, entries the GM struck (visible ones only)."""
    shown = [entry for entry in entries if not entry["redacted"]]
    return {
        "opposed": [e for e in shown if e["kind"] == "opposed"],
        "group": [e for e in shown if e["kind"] == "group"],
        "conditions": [e for e in shown if e["kind"] in CONDITION_KINDS],
        "struck": [e for e in shown if e.get("struck")],
    }
