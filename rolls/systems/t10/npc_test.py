"""An NPC's own T10 test (``rolls.dashboard.npc_rolls``): a pool and a difficulty."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy

from rolls.dashboard.npc_rolls import Field
from rolls.engine import t10
from rolls.panels import source

FIELDS: tuple[Field, ...] = (
    Field("pool", gettext_lazy("Dice in the pool"), 0, 30, 4),
    Field(
        "difficulty",
        gettext_lazy("Difficulty"),
        t10.MIN_DIFFICULTY,
        t10.MAX_DIFFICULTY,
        t10.DEFAULT_DIFFICULTY,
    ),
)


def params(v: Mapping[str, int]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    params = {"pool": v["pool"], "difficulty": v["difficulty"]}
    return params, [source("pool", v["pool"]), source("difficulty", v["difficulty"])]
