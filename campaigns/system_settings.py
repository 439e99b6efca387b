"""Per-system campaign settings: their defaults and one reader, so every caller sees the same.

Stored in ``Campaign.settings`` as ``{system key: {...}}``; missing keys fall back to defaults.
Only what RULES.md names is here: nothing invented.
"""

from __future__ import annotations

import copy
from typing import Any

DEFAULT_FASTTEST_SKILLS = ["WALKA", "SPRAWNOŚĆ", "KULTURA", "TECHNIKA", "PRZYRODA", "EKWIPUNEK"]

DEFAULTS: dict[str, dict[str, Any]] = {
    "fasttest": {
        # RULES.md: exactly six skills; the GM may rename or replace them (e.g. MAGIA).
        "skills": DEFAULT_FASTTEST_SKILLS,
        # The "magic" setting turns on magic dice and spells (DUCH is always on the sheet).
        "magic": False,
        # Optional rules of the seed.
        "experience_dice": False,
        "emanation": False,
        "multi_skill": False,
    },
    # RULES.md: the seed lacks these tables; the GM fills them in, empty by default.
    # pd_rozmach: [{"pd": int, "rozmach": int}], reaction_costs: [{"reaction": str, "cost": int}]
    "caerbannog": {"pd_rozmach": [], "reaction_costs": []},
    "ast": {},
    "t10": {},
    "2d6": {},
}


def system_settings(campaign) -> dict[str, Any]:
    """The campaign's settings for its own system, defaults filled in (a fresh copy)."""
    merged = copy.deepcopy(DEFAULTS.get(campaign.system, {}))
    merged.update((campaign.settings or {}).get(campaign.system, {}))
    return merged
