"""Per-system campaign settings: their defaults and one reader, so every caller sees the same.

Stored in ``Campaign.settings`` as ``{system key: {...}}``; missing keys fall back to the
defaults of the system (``System.settings_defaults``). Only what RULES.md names: nothing invented.
"""

from __future__ import annotations

import copy
from typing import Any

from campaigns.systems import get_system

DEFAULT_FASTTEST_SKILLS = ["WALKA", "SPRAWNOŚĆ", "KULTURA", "TECHNIKA", "PRZYRODA", "EKWIPUNEK"]


def system_settings(campaign) -> dict[str, Any]:
    """The campaign's settings for its own system, defaults filled in (a fresh copy)."""
    merged = copy.deepcopy(dict(get_system(campaign.system).settings_defaults))
    merged.update((campaign.settings or {}).get(campaign.system, {}))
    return merged
