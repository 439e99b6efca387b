"""The recap's running figures, kept per process for each reader of a session (issue 42: a page
costs the same whatever the log's length).

A recap is counted from every entry the reader may see, and a running session's open recap
pages ask for it again a second after each burst of new entries: read whole each time, a
50,000-entry session cost seconds a request. So each reader's figures (``luck.Night``) are kept
after the last entry they counted, and a request reads and folds in only the entries that came
since, through the log's own reading for that reader (``rolls.log.reading``): one query
whatever the log's length (two while the reader waits on a sealed roll).

An entry is never edited, but two later acts change how earlier ones read: the GM's strike
(rolls.strikes: the struck entry reads struck; its own entry, written with it, is among the new
rows) and the lifting of a seal (``rolls.actions.reveal``: a sealed side reads whole; the kept
figures name the entries they could not count for a seal). Either one, of an entry counted
already, has the figures counted again from the session's first entry (rare: a few times a
night).
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from campaigns.models import GameSession
from rolls.log.payload import STRUCK
from rolls.log.reading import ENTRY_RELATED, _as_seen
from rolls.models import Roll, Seal
from rolls.recap import luck

#: Readers' figures kept at once per process, the least recently read dropped first. A slot
#: holds a reader's tests (about 150 bytes each) and listed events: a few MB for the longest
#: nights, nothing for most.
SLOTS = 64


#: The last row counted: its seq, id, idempotency key and time (``_continues``).
Mark = tuple[int, int, uuid.UUID, datetime]


@dataclass(frozen=True)
class Recap:
    """What a recap shows, as one reader may see it: a copy, read-only (the kept figures go on
    growing), that every request serves until a new entry comes."""

    people: tuple[luck.Person, ...]
    charts: dict[int, luck.Chart]
    hidden: int
    listed: dict[str, tuple[dict[str, Any], ...]]

    @classmethod
    def of(cls, night: luck.Night) -> Recap:
        people = tuple(night.people())
        listed = {key: tuple(found) for key, found in night.listed.items()}
        return cls(people, luck.charts(list(people)), night.hidden, listed)


@dataclass
class _Kept:
    """One reader's figures after the entries up to ``last`` (the last row folded in: a session
    whose rows are not those any more is counted again), and the ids of the entries the reader
    could not count for their seal alone (their seal lifted, they count)."""

    night: luck.Night = field(default_factory=luck.Night)
    last: Mark | None = None
    sealed: set[int] = field(default_factory=set)
    recap: Recap | None = None  # the last one served, while no entry came since
    lock: threading.Lock = field(default_factory=threading.Lock)


_kept: OrderedDict[tuple[int, datetime, Any], _Kept] = OrderedDict()
_kept_lock = threading.Lock()


def recap_for(session: GameSession, user_id: int | None, is_gm: bool) -> Recap:
    """The session's recap as this reader may see it: the GM (all readers who are the GM see
    the same), a player (their own view), or ``user_id`` None and not the GM: the public
    entries alone (the Discord bridge's)."""
    # The session's start beside its id: a database emptied and filled again (the tests') may
    # give another session the same id, never at the same microsecond.
    kept = _slot((session.pk, session.started_at, "gm" if is_gm else user_id))
    with kept.lock:  # one request folds at a time; another reader's figures never wait
        _bring_up_to_date(kept, session, user_id, is_gm)
        if kept.recap is None:
            kept.recap = Recap.of(kept.night)
        return kept.recap


def forget() -> None:
    """Drop every kept figure (the tests' fresh start; a running process never needs it)."""
    with _kept_lock:
        _kept.clear()


def _slot(key: tuple[int, datetime, Any]) -> _Kept:
    with _kept_lock:
        kept = _kept.get(key)
        if kept is None:
            kept = _kept[key] = _Kept()
            while len(_kept) > SLOTS:
                _kept.popitem(last=False)
        _kept.move_to_end(key)
        return kept


def _bring_up_to_date(kept: _Kept, session: GameSession, user_id: int | None, is_gm: bool):
    # The seals are looked at before the rows are read: a seal lifted between the two is seen
    # by the next request at the latest, never lost (looked at after, it would pass for counted).
    lifted = Seal.objects.filter(roll_id__in=kept.sealed, revealed_at__isnull=False)
    if kept.sealed and lifted.exists():
        _restart(kept)
    rows = _rows_from(session, kept.last)
    if kept.last is not None and _continues(rows, kept.last) and _stands(rows[1:], kept.last):
        rows = rows[1:]
    elif kept.last is not None:
        _restart(kept)
        rows = _rows_from(session, None)
    if rows:
        entries = _as_seen(rows, user_id, is_gm)
        kept.night.fold(entries)
        kept.last, kept.recap = _mark(rows[-1]), None
        kept.sealed |= {entry["id"] for entry in entries if entry.get("sealed") is True}


def _restart(kept: _Kept) -> None:
    kept.night, kept.last, kept.sealed, kept.recap = luck.Night(), None, set(), None


def _rows_from(session: GameSession, last: Mark | None) -> list[Roll]:
    """The session's rows from the last one counted (itself included, to check it is still
    that one) to the newest, in the log's order; all of them when none was counted."""
    rows = Roll.objects.filter(session=session).select_related(*ENTRY_RELATED)
    if last is not None:
        rows = rows.filter(seq__gte=last[0])
    return list(rows.order_by("seq"))


def _mark(row: Roll) -> Mark:
    return (row.seq, row.pk, row.idempotency_key, row.created_at)


def _stands(new: list[Roll], last: Mark) -> bool:
    """Whether no ``new`` row strikes an entry counted already. A strike (rolls.strikes) is written
    with its entry, in one transaction: the rows that show the one show the other, so a strike
    is never missed, and one of an entry among the new rows is read with it."""
    return not any(
        row.kind == STRUCK and row.parent_id and row.parent.seq <= last[0] for row in new
    )


def _continues(rows: list[Roll], last: Mark) -> bool:
    """Whether the rows start with the one counted last: the same seq, id, key and time (a
    database emptied and filled again, as the tests' are, may give another session the same
    ids)."""
    return bool(rows) and _mark(rows[0]) == last
