"""Reading and checking typed sheet values, shared by the sheet modules that use form rows."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _


def number(raw: str | None) -> int | str:
    """An int when the text is one, else the text itself (so the form can show it again)."""
    text = (raw or "").strip()
    try:
        return int(text)
    except ValueError:
        return text


def is_int(value: Any) -> bool:
    # JSON true/false are ints to Python; on a sheet they are a forged value, not a number.
    return isinstance(value, int) and not isinstance(value, bool)


class Errors(dict):
    """Messages per form field."""

    def add(self, key: str, message: str) -> None:
        self.setdefault(key, []).append(message)


def bounded(errors: Errors, key: str, label: str, value: Any, bounds: tuple[int, int]) -> bool:
    """Whether ``value`` is a whole number within ``bounds``; else a message on ``key``."""
    refusal = out_of_bounds(label, value, bounds)
    if refusal:
        errors.add(key, refusal)
    return refusal is None


def out_of_bounds(label: str, value: Any, bounds: tuple[int, int]) -> str | None:
    """Why ``value`` is no whole number within ``bounds`` (named ``label``), None when it is."""
    low, high = bounds
    if not is_int(value):
        return _("%(name)s: enter a whole number.") % {"name": label}
    if not low <= value <= high:
        return _("%(name)s must be between %(low)d and %(high)d.") % {
            "name": label,
            "low": low,
            "high": high,
        }
    return None
