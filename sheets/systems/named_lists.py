"""Free lists of named rows on a sheet, read from a form or from imported JSON and checked.

Shared by the sheets whose entries players name themselves (AST, T10, 2d6). Each module declares
its rows as forms (``NamedRow`` subclasses, read with ``sheet_forms.read_rows``): a row's form
fields are named ``<list>-<index>-<field>``; a row whose name is blank and whose other fields are
blank or still show their blank-row defaults (the field's ``initial``) is left out, and a ticked
``<list>-<index>-remove`` drops the row. Every check answers ``(value, None)`` or
``(None, message)`` so each module can key the message to the field where the player typed the
value.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from campaigns.systems import SheetView
from config.text import text_problem

from .sheet_forms import RowForm, Ticked, Typed

#: Longest name of an entry: a line on a paper sheet ("Ciało: silny", "Walka toporem").
NAME_MAX = 60

# A whole number as typed: optional sign (the typographic minus too), at most six digits.
_WHOLE = re.compile(r"^[+\-\u2212]?[0-9]{1,6}$")


class NamedRow(RowForm):
    """A row of a free list as typed: its name, the fields a subclass adds (text as typed, for
    ``clean_rows`` to check) and its remove box. A field's ``initial`` is what its blank row shows
    before anything is typed (the form's ``defaults``), so such a row still counts as blank."""

    name = Typed()
    remove = Ticked()
    remove_field = "remove"


class ValueRow(NamedRow):
    """The most common row: a name and its value (``<list>-<index>-value``)."""

    value = Typed()


def rows_of(data: Mapping[str, Any], key: str, value_field: str = "value") -> Any:
    """The list stored under ``key``; an older ``{name: value}`` object becomes rows too.

    Anything else (a string, a number) is returned unchanged for ``check_list`` to refuse.
    """
    raw = data.get(key, [])
    if isinstance(raw, dict):
        return [{"name": name, value_field: value} for name, value in raw.items()]
    return raw


class NamedListSheet(SheetView):
    """A sheet of free named lists (``LISTS`` of its module): each list as a tuple of rows
    (copies of the stored dicts; an older ``{name: value}`` object reads as rows too)."""

    __slots__ = ()

    def rows(self, key: str) -> tuple[dict[str, Any], ...]:
        raw = rows_of(self._data, key)
        rows = raw if isinstance(raw, list) else []
        return tuple(dict(row) for row in rows if isinstance(row, Mapping))

    @property
    def attributes(self) -> tuple[dict[str, Any], ...]:
        return self.rows("attributes")


def check_list(raw: Any, max_items: int) -> tuple[list[Any], str | None]:
    """The entries of a list, or a message when it is not a list or is too long.

    A list that is too long is still returned whole, so every entry is checked and shown again.
    """
    if raw is None:
        return [], None
    if not isinstance(raw, list):
        return [], _("This must be a list of entries.")
    if len(raw) > max_items:
        return raw, _("At most %(max)d entries (this list has %(count)d).") % {
            "max": max_items,
            "count": len(raw),
        }
    return raw, None


def check_row(raw: Any) -> tuple[Mapping[str, Any], str | None]:
    """A row must be an object; anything else is answered at its name field."""
    if isinstance(raw, Mapping):
        return raw, None
    return {}, _("Each entry must be an object with a name.")


def check_name(raw: Any, seen: set[str]) -> tuple[str | None, str | None]:
    """A non-empty name of at most NAME_MAX characters, unique in its list (ignoring case).

    ``seen`` collects the names of the list checked so far.
    """
    if not isinstance(raw, str):
        return None, _("Enter a name.")
    if problem := text_problem(raw):
        return None, problem
    name = " ".join(raw.split())
    if not name:
        return None, _("Enter a name.")
    if len(name) > NAME_MAX:
        return None, _("At most %(max)d characters (this name has %(count)d).") % {
            "max": NAME_MAX,
            "count": len(name),
        }
    folded = name.casefold()
    if folded in seen:
        return None, _("“%(name)s” is already in this list.") % {"name": name}
    seen.add(folded)
    return name, None


def check_int(raw: Any, lo: int, hi: int) -> tuple[int | None, str | None]:
    """A whole number from ``lo`` to ``hi``: an int, or a string of digits as typed in a form."""
    message = _("Enter a whole number from %(lo)s to %(hi)s.") % {
        "lo": signed(lo) if lo < 0 else lo,
        "hi": signed(hi) if lo < 0 else hi,
    }
    if isinstance(raw, bool):
        return None, message
    if isinstance(raw, str):
        text = raw.strip()
        if not _WHOLE.match(text):
            return None, message
        raw = int(text.replace("\u2212", "-"))
    if not isinstance(raw, int) or not lo <= raw <= hi:
        return None, message
    return raw, None


def check_choice(raw: Any, choices: Sequence[str]) -> tuple[str | None, str | None]:
    """One of ``choices`` exactly."""
    if isinstance(raw, str) and raw in choices:
        return raw, None
    return None, _("Choose one of the listed options.")


def signed(value: int) -> str:
    """A modifier as players write it: +2, 0, −3 (with a true minus sign)."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"\u2212{-value}"
    return "0"


def add_error(errors: dict[str, list[str]], field: str, message: str | None) -> None:
    if message:
        errors.setdefault(field, []).append(message)


#: Checks one field of a row: ``(value, None)`` or ``(None, message)``.
Checker = Callable[[Any], tuple[Any, str | None]]


def whole_number(lo: int, hi: int) -> Checker:
    return lambda raw: check_int(raw, lo, hi)


def one_of(choices: Sequence[str]) -> Checker:
    return lambda raw: check_choice(raw, choices)


def clean_rows(
    raw: Any,
    key: str,
    max_items: int,
    errors: dict[str, list[str]],
    checkers: Mapping[str, Checker] | None = None,
) -> list[dict[str, Any]]:
    """The entries of list ``key`` that pass every check; each failure lands in ``errors``.

    Each entry is ``{"name": ..., **{field: checked value}}``. Messages are keyed
    ``<key>-<index>-<field>`` (the row's position in ``raw``, as the form shows it again), or
    ``<key>`` for the list as a whole.
    """
    checkers = checkers or {}
    items, message = check_list(raw, max_items)
    add_error(errors, key, message)
    seen: set[str] = set()
    kept = []
    for index, item in enumerate(items):
        row, message = check_row(item)
        if message:
            add_error(errors, f"{key}-{index}-name", message)
            continue
        name, message = check_name(row.get("name"), seen)
        add_error(errors, f"{key}-{index}-name", message)
        entry: dict[str, Any] = {"name": name}
        valid = name is not None
        for field, check in checkers.items():
            value, message = check(row.get(field))
            add_error(errors, f"{key}-{index}-{field}", message)
            entry[field] = value
            valid = valid and message is None
        if valid:
            kept.append(entry)
    return kept[:max_items]


#: Blank rows the form offers under each list, so rows are added without JavaScript (the
#: creation page's "More empty rows" re-shows the form with fresh ones).
BLANK_ROWS_CREATING, BLANK_ROWS_EDITING = 3, 2


def form_rows(
    data: Any,
    key: str,
    fields: Sequence[str],
    errors: Mapping[str, Sequence[str]] | None,
    *,
    creating: bool,
    defaults: Mapping[str, str] | None = None,
) -> list[dict[str, Any]]:
    """The rows of list ``key`` for the form: typed or stored ones, then blank ones.

    Each row has its ``index`` (and ``number``, from 1), ``blank`` (a fresh row, nothing to
    remove), ``first_blank``, ``label`` (its name, for "Remove <name>") and ``cells``, one per
    field: the input's ``name`` (also its id), the ``value`` to show, its ``errors`` and
    ``error_id`` for ``aria-describedby``.
    """
    errors = errors or {}
    defaults = defaults or {}
    raw = (
        rows_of(data, key, fields[1] if len(fields) > 1 else "value")
        if isinstance(data, Mapping)
        else []
    )
    if not isinstance(raw, list):
        raw = []
    existing = [row if isinstance(row, Mapping) else {} for row in raw]
    blank = BLANK_ROWS_CREATING if creating else BLANK_ROWS_EDITING
    rows = []
    for index in range(len(existing) + blank):
        is_blank = index >= len(existing)
        source = defaults if is_blank else existing[index]
        cells = {}
        for field in fields:
            name = f"{key}-{index}-{field}"
            value = source.get(field, "")
            cells[field] = {
                "name": name,
                "value": "" if value is None else value,
                "errors": list(errors.get(name, [])),
                "error_id": f"{name}-error",
            }
        label = source.get("name") if not is_blank else ""
        rows.append(
            {
                "index": index,
                "number": index + 1,
                "blank": is_blank,
                "first_blank": index == len(existing),
                "label": label if isinstance(label, str) else "",
                "cells": cells,
            }
        )
    return rows
