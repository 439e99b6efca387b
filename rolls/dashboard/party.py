"""The numbers that matter in play, per system: what the GM's dashboard shows of each character."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from campaigns.systems import get_system
from rolls.engine.fasttest_combat import SEVERITIES
from sheets.systems.caerbannog import RESOURCES as CAERBANNOG_RESOURCES
from sheets.systems.fasttest import ATTRIBUTES as FASTTEST_ATTRIBUTES
from sheets.systems.fasttest import SEVERITY_LABELS


def vitals(character, system: str) -> list[tuple[str, Any]]:
    """(label, value) pairs for one character's card; values already as the GM reads them."""
    data = character.data if isinstance(character.data, dict) else {}
    return get_system(system).vitals(data)


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


def fasttest_vitals(sheet) -> list[tuple[str, Any]]:
    """The card of a ``FastTestSheet``."""
    die = sheet.magic_die
    return [
        (_("Wounds (Rany)"), _wounds(sheet.wounds)),
        (_("Armor"), sheet.armor),
        (_("Magic die"), f"d{die}" if die else "–"),
        (_("XP"), sheet.xp),
        (_("Experience dice"), sheet.experience_dice),
    ] + [  # in the order of the paper sheet: PostgreSQL's jsonb keeps no key order
        (name, sheet.attributes.get(name, "–")) for name in FASTTEST_ATTRIBUTES
    ]


def caerbannog_vitals(sheet) -> list[tuple[str, Any]]:
    """The card of a ``CaerbannogSheet``: its resources named as the sheet names them."""
    label = {key: text for key, text, _bounds in CAERBANNOG_RESOURCES}
    return [
        (label["rozmach"], f"{sheet.resource('rozmach')}/10"),
        *(
            (label[key], sheet.resource(key))
            for key in ("wytrzymalosc", "determinacja", "zywotnosc", "zdrowie")
        ),
    ]


def ast_vitals(sheet) -> list[tuple[str, Any]]:
    """The card of an ``ASTSheet``."""
    negative = sheet.negative_states
    return [
        (_("FUNT (special points)"), sheet.funt),
        (_("Negative states"), ", ".join(f"{s['name']} +{s['value']}" for s in negative) or "–"),
    ]
