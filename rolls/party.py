"""The numbers that matter in play, per system: what the GM's dashboard shows of each character."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from campaigns.systems import get_system
from rolls.engine.fasttest_combat import SEVERITIES
from sheets.systems.fasttest import ATTRIBUTES as FASTTEST_ATTRIBUTES

_SEVERITY_SHORT = {"scratch": "D", "light": "L", "heavy": "C", "deadly": "Ś"}


def vitals(character, system: str) -> list[tuple[str, Any]]:
    """(label, value) pairs for one character's card; values already as the GM reads them."""
    data = character.data if isinstance(character.data, dict) else {}
    return get_system(system).vitals(data)


def fasttest_vitals(data: dict) -> list[tuple[str, Any]]:
    wounds = data.get("wounds", [])
    by_severity = [
        f"{sum(1 for w in wounds if w.get('severity') == s)}{_SEVERITY_SHORT[s]}"
        for s in SEVERITIES
        if any(w.get("severity") == s for w in wounds)
    ]
    unbandaged = sum(1 for w in wounds if not w.get("bandaged"))
    die = data.get("magic_die")
    return [
        (
            _("Wounds (Rany)"),
            " ".join(by_severity) + (f" ({unbandaged}!)" if unbandaged else "") if wounds else "–",
        ),
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
