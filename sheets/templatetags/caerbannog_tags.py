"""Template helpers of the Caerbannog sheet: skills by category, defences and resources."""

from __future__ import annotations

from typing import Any

from django import template

from rolls.engine.caerbannog import SKILL_DICE
from sheets.systems import caerbannog

register = template.Library()


def _data(data: Any) -> dict:
    return data if isinstance(data, dict) else {}


@register.simple_tag
def skill_groups(data: Any) -> list[dict]:
    return caerbannog.skill_groups(_data(data))


@register.simple_tag
def defence_groups(data: Any) -> list[dict]:
    return caerbannog.defence_groups(_data(data))


@register.simple_tag
def resource_rows(data: Any) -> list[dict]:
    return caerbannog.resource_rows(_data(data))


@register.simple_tag
def specialist_suggestions() -> tuple[str, ...]:
    return caerbannog.SPECIALIST_SUGGESTIONS


@register.filter
def die(sides: Any) -> str:
    return f"d{sides}" if isinstance(sides, int) and not isinstance(sides, bool) else "—"


@register.simple_tag
def level_choices() -> list[tuple[int, str]]:
    """Skill and defence levels with their dice: 0 · d4 .. IV · d12."""
    numerals = ("0", "I", "II", "III", "IV")
    return [(level, f"{numerals[level]} · d{sides}") for level, sides in enumerate(SKILL_DICE)]
