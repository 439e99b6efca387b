"""An NPC's own AST test (``rolls.dashboard.npc_rolls``): white dice and what is added to the test
level."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy

from rolls.dashboard.npc_rolls import MAX_DICE_TYPED, Field
from rolls.panels import source

FIELDS: tuple[Field, ...] = (
    Field("white", gettext_lazy("White dice"), 0, MAX_DICE_TYPED, 2),
    Field("level_mod", gettext_lazy("Added to the test level"), 0, MAX_DICE_TYPED, 0),
)


def params(v: Mapping[str, int]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    params = {"white": v["white"], "level_mod": v["level_mod"]}
    sources = [source("white", v["white"])]
    if v["level_mod"]:
        sources.append(source("level", v["level_mod"]))
    return params, sources
