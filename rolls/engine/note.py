"""Entries of the log that roll nothing: a condition added or cleared, the options chosen after
a roll, the GM's counter-move, a line of chat. They go through the same path as every roll
(seq, visibility, broadcast, replay), so the evening's story reads in one list; this module is
their "engine": no dice, an answer that says what the entry is. Standard library only.

``params`` are ``{"note": kind}`` plus the entry's own facts (a condition's id, the options
chosen), all plain JSON: the checker re-runs such an entry like any other and gets no dice.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .core import Die, EngineError, RandomSource

#: The log's kinds of such entries (rolls.conditions, rolls.roll_options, rolls.systems.*): the
#: fair-dice checker re-runs them here whatever their system.
NOTE_KINDS = frozenset(
    {
        "condition",
        "condition_cleared",
        "options",
        "counter_move",
        "damage",
        "healing",
        "heroic_declared",
        # A line of the table's chat (rolls.chat): its text and whom it was for, no dice.
        "chat",
        # The GM struck an entry (rolls.strikes): which, and why.
        "struck",
    }
)

#: The most facts one entry carries, and the longest text of one.
MAX_FACTS = 20
MAX_TEXT = 400


@dataclass(frozen=True, slots=True)
class Note:
    facts: tuple[tuple[str, Any], ...]

    @property
    def dice(self) -> tuple[Die, ...]:
        return ()

    def contract(self) -> dict[str, Any]:
        return {"outcome": "", "note": dict(self.facts)}


def _plain(value: Any, depth: int = 0) -> bool:
    """JSON that says a fact: numbers, short texts, lists and objects of them, not too deep."""
    if depth > 4:
        return False
    if value is None or isinstance(value, bool | int | float):
        return True
    if isinstance(value, str):
        return len(value) <= MAX_TEXT
    if isinstance(value, list):
        return len(value) <= MAX_FACTS and all(_plain(item, depth + 1) for item in value)
    if isinstance(value, Mapping):
        return len(value) <= MAX_FACTS and all(
            isinstance(key, str) and _plain(item, depth + 1) for key, item in value.items()
        )
    return False


def parse_params(raw: Any) -> Note:
    """An entry's facts: an object with a ``note`` kind and at most a few plain values."""
    if not isinstance(raw, Mapping) or not isinstance(raw.get("note"), str):
        raise EngineError("A note's params are an object with its 'note' kind.")
    if len(raw) > MAX_FACTS or not _plain(dict(raw)):
        raise EngineError("A note carries a few short plain facts, no more.")
    return Note(tuple(sorted(raw.items())))


def resolve(params: Note, faces: Any) -> Note:
    if faces not in ([], (), None):
        raise EngineError("A note rolls no dice; its faces are [].")
    return params


def roll(params: Note, rng: RandomSource) -> Note:
    """A note draws nothing from ``rng``."""
    return params
