"""An NPC's own 2d6 test (``rolls.dashboard.npc_rolls``): attribute, skill and difficulty."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy

from rolls.dashboard.npc_rolls import Field
from rolls.panels import source
from rolls.systems.twod6 import choices, panel

FIELDS: tuple[Field, ...] = (
    Field("attribute", gettext_lazy("Attribute"), 0, 20, 5),
    Field("skill", gettext_lazy("Skill"), 0, 20, 3),
    Field(
        "difficulty",
        gettext_lazy("Difficulty"),
        panel.GM_LIMITS["difficulty"].low,
        panel.GM_LIMITS["difficulty"].high,
        choices.DEFAULT_DIFFICULTY,
    ),
)


def params(v: Mapping[str, int]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    params = {"attribute": v["attribute"], "skill": v["skill"], "difficulty": v["difficulty"]}
    sources = [
        source("attribute", v["attribute"]),
        source("skill", v["skill"]),
        source("difficulty", v["difficulty"]),
    ]
    return params, sources
