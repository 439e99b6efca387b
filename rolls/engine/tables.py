"""The GM's random tables: a dice expression, rows with ranges, and the pure "table roll".

A table rolls ``NdS`` (the dice summed: ``1d6``, ``2d6``, ``1d20``, ``1d100``...) or ``d66`` (a
tens die then a units die, read as 11..66). Its rows must cover every total the dice can make,
each exactly once. Reading the GM's quick entry (one row per line, ``1-3: a gust of wind``)
reports every problem with the numbers of the lines it is about, as data (``Problem``), so the
web layer says it in the reader's language. Standard library only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .core import Die, EngineError, RandomSource, draw

#: The most dice and sides a table's expression may have, and the most rows and characters.
MAX_TABLE_DICE = 10
MAX_SIDES = 1000
MAX_ROWS = 200
MAX_TEXT = 300

_NDS = re.compile(r"([1-9][0-9]?)?d([1-9][0-9]{0,3})")
# The text is taken whole and stripped after: a lazy ``(.*?)\s*`` backtracks once per space of
# a run inside the text, and a 20,000-character line of spaces between two letters took 3.8 s.
_LINE = re.compile(r"\s*(\d{1,5})\s*(?:[-–—]\s*(\d{1,5})\s*)?[:.)]\s*(.*)")


@dataclass(frozen=True, slots=True)
class TableDice:
    """A table's dice: ``count`` dice of ``sides`` summed, or the tens-and-units ``d66``."""

    count: int
    sides: int
    d66: bool = False

    @property
    def expression(self) -> str:
        return "d66" if self.d66 else f"{self.count}d{self.sides}"

    def spans(self) -> list[tuple[int, int]]:
        """The totals the dice can make as runs of consecutive numbers, lowest first (d66: 11-16,
        21-26 ... 61-66): what the rows are checked against, whatever the dice's range."""
        if self.d66:
            return [(10 * tens + 1, 10 * tens + 6) for tens in range(1, 7)]
        return [(self.count, self.count * self.sides)]

    def totals(self) -> list[int]:
        """Every total the dice can make, lowest first (a list as long as the dice's range:
        the check reads ``spans``)."""
        if self.d66:
            return [10 * tens + units for tens in range(1, 7) for units in range(1, 7)]
        return list(range(self.count, self.count * self.sides + 1))

    def roll(self, rng: RandomSource) -> tuple[int, tuple[Die, ...]]:
        """The total and the dice, drawn from ``rng`` (d66: the tens die first)."""
        if self.d66:
            tens, units = draw(rng, 6, 2)
            return 10 * tens + units, (
                Die(6, tens, True, "tens", "read"),
                Die(6, units, True, "units", "read"),
            )
        faces = draw(rng, self.sides, self.count)
        return sum(faces), tuple(Die(self.sides, face, True, "", "kept") for face in faces)


def parse_dice(expression: Any) -> TableDice:
    """``1d6``, ``2d6``, ``d20``, ``1d100``, ``d66``... (case and spaces ignored), or an error."""
    text = str(expression or "").strip().lower().replace(" ", "")
    if text == "d66":
        return TableDice(2, 6, d66=True)
    match = _NDS.fullmatch(text)
    count = int(match.group(1) or 1) if match else 0
    sides = int(match.group(2)) if match else 0
    if not match or not 1 <= count <= MAX_TABLE_DICE or not 2 <= sides <= MAX_SIDES:
        raise EngineError(
            f"A table rolls d66 or NdS (1 to {MAX_TABLE_DICE} dice of 2 to {MAX_SIDES} sides), "
            f"not {str(expression)[:20]!r}."
        )
    return TableDice(count, sides)


@dataclass(frozen=True, slots=True)
class Row:
    low: int
    high: int
    text: str

    @property
    def range(self) -> str:
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"


@dataclass(frozen=True, slots=True)
class Problem:
    """What is wrong with the rows: ``kind`` is one of ``unreadable``, ``empty_text``, ``long``,
    ``backwards``, ``outside``, ``overlap``, ``gap``, ``no_rows``, ``too_many``; ``lines`` the
    1-based lines it is about; ``low``/``high`` the totals concerned (gap, outside, overlap)."""

    kind: str
    lines: tuple[int, ...] = ()
    low: int = 0
    high: int = 0


def read_rows(text: str) -> tuple[list[tuple[int, Row]], list[Problem]]:
    """The quick entry's lines as ``(line number, row)``, and the lines that cannot be read.
    Blank lines are skipped; a line is ``LOW-HIGH: text`` or ``N: text``."""
    rows: list[tuple[int, Row]] = []
    problems: list[Problem] = []
    for number, line in enumerate(str(text).splitlines(), start=1):
        if not line.strip():
            continue
        match = _LINE.fullmatch(line)
        if match is None:
            problems.append(Problem("unreadable", (number,)))
            continue
        low = int(match.group(1))
        high = int(match.group(2)) if match.group(2) else low
        words = match.group(3).rstrip()
        if not words:
            problems.append(Problem("empty_text", (number,)))
        elif len(words) > MAX_TEXT:
            problems.append(Problem("long", (number,)))
        elif high < low:
            problems.append(Problem("backwards", (number,), low, high))
        else:
            rows.append((number, Row(low, high, words)))
    return rows, problems


def check_rows(dice: TableDice, rows: list[tuple[int, Row]]) -> list[Problem]:
    """Every total the dice can make covered by exactly one row; nothing outside them.

    Worked on intervals, never on the totals one by one: 10d1000 makes 9,991 totals, and 200
    rows claiming all of them cost 0.4 s a POST when each total was counted (issue 23). The
    cost is in the number of rows (at most ``MAX_ROWS``), whatever the dice."""
    if not rows:
        return [Problem("no_rows")]
    if len(rows) > MAX_ROWS:
        return [Problem("too_many")]
    spans = dice.spans()
    lowest, highest = spans[0][0], spans[-1][1]
    problems: list[Problem] = []
    owned: list[tuple[int, int, int]] = []  # (low, high, line): claimed totals, sorted, disjoint
    overlaps: dict[tuple[int, int], tuple[int, int]] = {}
    for number, row in rows:
        inside = lowest <= row.low and row.high <= highest
        covered = _within(spans, row.low, row.high) if inside else []
        if not covered:  # beyond the dice, or d66's 17-20: between the totals, none of them
            problems.append(Problem("outside", (number,), lowest, highest))
            continue
        for low, high in covered:
            owned = _claim(owned, low, high, number, overlaps)
    for (first, second), (low, high) in overlaps.items():
        problems.append(Problem("overlap", (first, second), low, high))
    if any(problem.kind == "outside" for problem in problems):
        return problems  # the gap it leaves is that line's, already named
    by_line = dict(rows)
    for low, high in _gaps(spans, owned):
        problems.append(Problem("gap", _lines_around(by_line, low, high), low, high))
    return problems


def _within(spans: list[tuple[int, int]], low: int, high: int) -> list[tuple[int, int]]:
    """The parts of ``low..high`` the dice can roll, as intervals."""
    parts = [(max(low, start), min(high, end)) for start, end in spans]
    return [(start, end) for start, end in parts if start <= end]


def _claim(
    owned: list[tuple[int, int, int]],
    low: int,
    high: int,
    number: int,
    overlaps: dict[tuple[int, int], tuple[int, int]],
) -> list[tuple[int, int, int]]:
    """``owned`` with line ``number`` claiming what is still free of ``low..high``; what an
    earlier line holds there is an overlap of that line's (lowest to highest total clashing)."""
    claimed: list[tuple[int, int, int]] = []
    at = low  # the lowest total of low..high not yet looked at
    for start, end, owner in owned:
        if end < low or start > high:
            claimed.append((start, end, owner))
            continue
        if start > at:
            claimed.append((at, start - 1, number))
        clash = (max(start, low), min(end, high))
        seen = overlaps.get((owner, number), clash)
        overlaps[(owner, number)] = (min(seen[0], clash[0]), max(seen[1], clash[1]))
        claimed.append((start, end, owner))
        at = end + 1
    if at <= high:
        claimed.append((at, high, number))
    return sorted(claimed)


def _gaps(spans: list[tuple[int, int]], owned: list[tuple[int, int, int]]) -> list[tuple[int, int]]:
    """The totals no row claims, as runs of totals that follow each other among the possible
    ones (d66's 16 and 21 are neighbours)."""
    gaps: list[tuple[int, int]] = []
    joins = False  # the last gap reached the end of the span before this one
    for start, end in spans:
        at = start
        for low, high, _line in owned:
            if high < at or low > end:
                continue
            if low > at:
                _add_gap(gaps, at, low - 1, joins and at == start)
            joins, at = False, high + 1
        if at <= end:
            _add_gap(gaps, at, end, joins and at == start)
            joins = True
        else:
            joins = False
    return gaps


def _add_gap(gaps: list[tuple[int, int]], low: int, high: int, joins: bool) -> None:
    if joins:
        gaps[-1] = (gaps[-1][0], high)
    else:
        gaps.append((low, high))


def _lines_around(by_line: dict[int, Row], low: int, high: int) -> tuple[int, ...]:
    """The lines just before and just after a gap (the ones to fix)."""
    before = [number for number, row in by_line.items() if row.high < low]
    after = [number for number, row in by_line.items() if row.low > high]
    near = []
    if before:
        near.append(max(before, key=lambda n: by_line[n].high))
    if after:
        near.append(min(after, key=lambda n: by_line[n].low))
    return tuple(sorted(set(near)))


def parse_table(dice_expression: Any, text: str) -> tuple[TableDice, list[Row], list[Problem]]:
    """Read a table's dice and quick entry: the rows in order of their ranges, and every problem
    (rows only count when there are none)."""
    dice = parse_dice(dice_expression)
    numbered, problems = read_rows(text)
    checked = check_rows(dice, numbered) if numbered or not problems else []
    if problems:
        # A line that cannot be read may be the one meant to fill a gap: only clashes count.
        checked = [p for p in checked if p.kind not in ("gap", "no_rows", "too_many")]
    problems += checked
    rows = sorted((row for _, row in numbered), key=lambda row: row.low)
    return dice, rows if not problems else [], problems


def rows_text(rows: list[Row]) -> str:
    """The rows as quick entry lines again (the edit form, the export)."""
    return "\n".join(f"{row.range}: {row.text}" for row in rows)


@dataclass(frozen=True, slots=True)
class TableRoll:
    """One roll on a table, as the log stores it: ``dice``, ``outcome`` and ``contract()``."""

    name: str
    expression: str
    total: int
    row: Row
    dice: tuple[Die, ...]

    #: A table roll has no success or failure.
    outcome = ""

    def contract(self) -> dict[str, Any]:
        return {
            "table": self.name,
            "dice_expression": self.expression,
            "total": self.total,
            "low": self.row.low,
            "high": self.row.high,
            "range": self.row.range,
            "text": self.row.text,
            "outcome": "",
        }


def roll_table(name: str, dice: TableDice, rows: list[Row], rng: RandomSource) -> TableRoll:
    """Roll the table's dice from ``rng`` and read the row their total falls in."""
    total, faces = dice.roll(rng)
    for row in rows:
        if row.low <= total <= row.high:
            return TableRoll(name, dice.expression, total, row, faces)
    raise EngineError(f"No row of the table covers {total}; fix its rows first.")


# --- The engine's interface (``parse_params``, ``roll``), for the log and the offline check ------
# A table roll's params carry the table as it was rolled (its name, dice and rows), so the entry
# can be rolled again from the export and checked, whatever the GM changed in the table since.


_PARAMS = {"name", "dice", "rows", "id"}


@dataclass(frozen=True, slots=True)
class TableParams:
    name: str
    dice: TableDice
    rows: tuple[Row, ...]


def table_params(name: str, dice: TableDice, rows: list[Row], id: int | None = None) -> dict:
    """The params a table roll is logged with (``id``: where the app keeps the table)."""
    params: dict[str, Any] = {
        "name": name,
        "dice": dice.expression,
        "rows": [[row.low, row.high, row.text] for row in rows],
    }
    return params if id is None else params | {"id": id}


def parse_params(raw: Any) -> TableParams:
    """Check a table roll's params: a name, the dice, and rows covering every total once."""
    if not isinstance(raw, dict) or not {"name", "dice", "rows"} <= set(raw) <= _PARAMS:
        raise EngineError("A table roll's params are its 'name', 'dice', 'rows' (and 'id').")
    dice = parse_dice(raw["dice"])
    items = raw["rows"]
    if not isinstance(items, list) or not all(
        isinstance(item, list)
        and len(item) == 3
        and all(isinstance(n, int) and not isinstance(n, bool) for n in item[:2])
        and isinstance(item[2], str)
        for item in items
    ):
        raise EngineError("A table's 'rows' must be [low, high, text] lists.")
    rows = [(at, Row(low, high, text)) for at, (low, high, text) in enumerate(items, start=1)]
    if any(row.high < row.low or not row.text for _, row in rows) or check_rows(dice, rows):
        raise EngineError("The table's rows must cover every total of its dice exactly once.")
    return TableParams(str(raw["name"]), dice, tuple(row for _, row in rows))


def roll(params: TableParams, rng: RandomSource) -> TableRoll:
    """Roll a checked table (``parse_params``)."""
    return roll_table(params.name, params.dice, list(params.rows), rng)
