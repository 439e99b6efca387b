"""An NPC's own FastTest test (``rolls.dashboard.npc_rolls``): the GM types a chance and dice for a
trait-list NPC, or picks an attribute and a skill of a full-stat one."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy

from rolls.dashboard.npc_rolls import MAX_DICE_TYPED, Field
from rolls.engine import fasttest
from rolls.forms import whole
from rolls.labels import words
from rolls.panels import source
from sheets.models import NPC
from sheets.systems.fasttest import ATTRIBUTES

FIELDS: tuple[Field, ...] = (
    Field("chance", gettext_lazy("Chance (1–9)"), fasttest.CHANCE_MIN, fasttest.CHANCE_MAX, 5),
    Field("bonus", gettext_lazy("Bonus dice"), 0, MAX_DICE_TYPED, 0),
    Field("penalty", gettext_lazy("Penalty dice"), 0, MAX_DICE_TYPED, 0),
)


def params(v: Mapping[str, int]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    params: dict[str, Any] = {
        "attribute": v["chance"], "skills": [], "bonus": v["bonus"], "penalty": v["penalty"],
    }  # fmt: skip
    _best_split(params)
    sources = [source("attribute", v["chance"], words("chance_typed_by_gm"))]
    if v["bonus"]:
        sources.append(source("bonus", v["bonus"], words("typed_by_gm")))
    if v["penalty"]:
        sources.append(source("penalty", v["penalty"], words("typed_by_gm")))
    return params, sources


def stats(npc: NPC | None) -> tuple[tuple[str, int], ...] | None:
    """A full-stat NPC's attributes in sheet order, None for a trait-only NPC."""
    stats = npc.stats if npc is not None and isinstance(npc.stats, dict) else {}
    attributes = stats.get("attributes")
    if not isinstance(attributes, dict) or not attributes:
        return None
    # In the sheet's order, never the stored one (PostgreSQL's jsonb keeps no key order).
    return tuple((name, attributes[name]) for name in ATTRIBUTES if whole(attributes.get(name)))


def skills_of(npc: NPC, skill_names) -> tuple[tuple[str, int], ...]:
    """The campaign's skills with the NPC's values (a skill it does not list is 0)."""
    skills = npc.stats.get("skills") if isinstance(npc.stats.get("skills"), dict) else {}
    return tuple((name, skills[name] if whole(skills.get(name)) else 0) for name in skill_names)


def stat_fields(npc: NPC, skill_names) -> tuple[Field, ...]:
    """The form of a full-stat NPC's test, like a player's: an attribute, a skill (or none), and
    the GM's bonus and penalty dice (its traits that apply, circumstances)."""
    attributes = stats(npc) or ()
    skills = skills_of(npc, skill_names)
    return (
        Field(
            "attribute",
            gettext_lazy("Attribute"),
            0,
            len(attributes) - 1,
            0,
            tuple((i, f"{name} {value}") for i, (name, value) in enumerate(attributes)),
        ),
        Field(
            "skill",
            gettext_lazy("Skill"),
            0,
            len(skills),
            0,
            ((0, gettext_lazy("none")),)
            + tuple((i + 1, f"{name} {value:+d}") for i, (name, value) in enumerate(skills)),
        ),
    ) + FIELDS[1:]


def stat_params(
    v: Mapping[str, int], npc: NPC, skill_names
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The engine's params of a full-stat NPC's test: its attribute and skill read from its
    stats, the split of bonus dice the best one (as the panel recommends to players)."""
    name, attribute = (stats(npc) or ())[v["attribute"]]
    skills = skills_of(npc, skill_names)
    skill = skills[v["skill"] - 1] if v["skill"] else None
    params: dict[str, Any] = {
        "attribute": attribute,
        "skills": [skill[1]] if skill else [],
        "bonus": v["bonus"],
        "penalty": v["penalty"],
    }
    parsed = _best_split(params)
    sources = [source("attribute", attribute, name)]
    if skill:
        sources.append(source("skill", skill[1], skill[0]))
    if v["bonus"]:
        sources.append(source("bonus", v["bonus"], words("typed_by_gm")))
    if v["penalty"]:
        sources.append(source("penalty", v["penalty"], words("typed_by_gm")))
    # As on a player's panel: points above 9 or below 1 are bonus or penalty dice.
    if parsed.overflow_bonus:
        sources.append(source("bonus", parsed.overflow_bonus, words("chance_above_9")))
    if parsed.overflow_penalty:
        sources.append(source("penalty", parsed.overflow_penalty, words("chance_below_1")))
    return params, sources


def _best_split(params: dict[str, Any]) -> fasttest.Params:
    parsed = fasttest.parse_params(params)
    if parsed.net > 0:
        # Bonus dice: the split with the best odds, as the panel recommends to players. Penalty
        # dice stay all d10 (RULES.md's Decision for the GM's choice).
        params["extra_d10"] = fasttest.choose_split(fasttest.split_odds(parsed)).extra_d10
    return parsed
