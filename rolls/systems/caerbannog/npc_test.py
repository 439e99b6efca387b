"""An NPC's own Caerbannog test (``rolls.dashboard.npc_rolls``): a skill level (three dice of its
size), a difficulty and easing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_lazy

from rolls.dashboard.npc_rolls import Field
from rolls.engine import caerbannog
from rolls.panels import source
from rolls.systems.caerbannog import gm_call

ROMAN = ("0", "I", "II", "III", "IV")
DEFAULT_DIFFICULTY = caerbannog.DIFFICULTIES["przeciętny"]


def _level_words(level: str, sides: int) -> str:
    # A level's three dice in the reader's notation: "II (3d8)" in English, "II (3k8)" in Polish.
    return gettext("%(level)s (3d%(sides)s)") % {"level": level, "sides": sides}


_level = lazy(_level_words, str)

FIELDS: tuple[Field, ...] = (
    Field(
        "level",
        gettext_lazy("Skill level"),
        0,
        len(caerbannog.SKILL_DICE) - 1,
        1,
        tuple(
            (index, _level(ROMAN[index], sides))
            for index, sides in enumerate(caerbannog.SKILL_DICE)
        ),
    ),
    Field(
        "difficulty",
        gettext_lazy("Difficulty"),
        gm_call.GM_LIMITS["difficulty"].low,
        gm_call.GM_LIMITS["difficulty"].high,
        DEFAULT_DIFFICULTY,
    ),
    Field(
        "ease",
        gettext_lazy("Eased or hindered"),
        -1,
        1,
        0,
        (
            (0, gettext_lazy("neither")),
            (1, gettext_lazy("eased: read the highest die")),
            (-1, gettext_lazy("hindered: read the lowest die")),
        ),
    ),
)


def params(v: Mapping[str, int]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    sides = caerbannog.SKILL_DICE[v["level"]]
    params = {"dice": [sides] * 3, "difficulty": v["difficulty"], "ease": v["ease"]}
    sources = [
        source("rolled", 3, f"{ROMAN[v['level']]} (3d{sides})"),
        source("difficulty", v["difficulty"]),
    ]
    if v["ease"]:
        sources.append(source("ease" if v["ease"] > 0 else "hinder", 1))
    return params, sources
