"""FastTest's party card on the GM's dashboard (its ``System.vitals``): wounds, armor, the
magic die, XP and the attributes."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rolls.engine.fasttest_combat import SEVERITIES
from sheets.systems.fasttest import ATTRIBUTES, SEVERITY_LABELS


def _wounds(wounds) -> str:
    """The wounds in words: "1× Lekka (light), 2× Ciężka (heavy); 1 not bandaged"."""
    if not wounds:
        return "–"
    by_severity = [
        f"{sum(1 for w in wounds if w.severity == s)}× {SEVERITY_LABELS[s]}"
        for s in SEVERITIES
        if any(w.severity == s for w in wounds)
    ]
    text = ", ".join(by_severity)
    unbandaged = sum(1 for w in wounds if not w.bandaged)
    if unbandaged:
        text += "; " + ngettext("%(n)s not bandaged", "%(n)s not bandaged", unbandaged) % {
            "n": unbandaged
        }
    return text


def vitals(sheet) -> list[tuple[str, Any]]:
    """The card of a ``FastTestSheet``."""
    die = sheet.magic_die
    return [
        (_("Wounds (Rany)"), _wounds(sheet.wounds)),
        (_("Armor"), sheet.armor),
        (_("Magic die"), f"d{die}" if die else "–"),
        (_("XP"), sheet.xp),
        (_("Experience dice"), sheet.experience_dice),
    ] + [  # in the order of the paper sheet: PostgreSQL's jsonb keeps no key order
        (name, sheet.attributes.get(name, "–")) for name in ATTRIBUTES
    ]
