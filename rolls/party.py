"""The numbers that matter in play, per system: what the GM's dashboard shows of each character."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from campaigns.systems import get_system
from rolls.engine.fasttest_combat import SEVERITIES
from sheets.systems.fasttest import ATTRIBUTES as FASTTEST_ATTRIBUTES
from sheets.systems.fasttest import SEVERITY_LABELS


def vitals(character, system: str) -> list[tuple[str, Any]]:
    """(label, value) pairs for one character's card; values already as the GM reads them."""
    data = character.data if isinstance(character.data, dict) else {}
    return get_system(system).vitals(data)


def _wounds(wounds: list) -> str:
    """The wounds in words: "1× Lekka (light), 2× Ciężka (heavy); 1 not bandaged"."""
    wounds = [w for w in wounds if isinstance(w, dict)]
    if not wounds:
        return "–"
    by_severity = [
        f"{sum(1 for w in wounds if w.get('severity') == s)}× {SEVERITY_LABELS[s]}"
        for s in SEVERITIES
        if any(w.get("severity") == s for w in wounds)
    ]
    text = ", ".join(by_severity)
    unbandaged = sum(1 for w in wounds if not w.get("bandaged"))
    if unbandaged:
        text += "; " + ngettext("%(n)s not bandaged", "%(n)s not bandaged", unbandaged) % {
            "n": unbandaged
        }
    return text


def fasttest_vitals(data: dict) -> list[tuple[str, Any]]:
    wounds = data.get("wounds", [])
    die = data.get("magic_die")
    return [
        (_("Wounds (Rany)"), _wounds(wounds if isinstance(wounds, list) else [])),
        (_("Armor"), data.get("armor", 0)),
        (_("Magic die"), f"d{die}" if die else "–"),
        (_("XP"), data.get("xp", 0)),
        (_("Experience dice"), data.get("experience_dice", 0)),
    ] + [  # in the order of the paper sheet: PostgreSQL's jsonb keeps no key order
        (name, data.get("attributes", {}).get(name, "–")) for name in FASTTEST_ATTRIBUTES
    ]


def caerbannog_vitals(data: dict) -> list[tuple[str, Any]]:
    resources = data.get("resources", {})
    return [
        ("Rozmach", f"{resources.get('rozmach', 0)}/10"),
        ("Wytrzymałość", resources.get("wytrzymalosc", 0)),
        ("Determinacja", resources.get("determinacja", 0)),
        ("Żywotność", resources.get("zywotnosc", 0)),
        ("Zdrowie", resources.get("zdrowie", 0)),
    ]


def ast_vitals(data: dict) -> list[tuple[str, Any]]:
    negative = data.get("negative_states", [])
    return [
        ("FUNT", data.get("funt", 0)),
        (_("Negative states"), ", ".join(f"{s['name']} +{s['value']}" for s in negative) or "–"),
    ]
