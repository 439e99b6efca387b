"""Template helpers of the FastTest sheet: the fixed names the rules print on every sheet."""

from __future__ import annotations

from typing import Any

from django import template

from campaigns.stored_text import as_read
from campaigns.system_settings import system_settings
from rolls.engine.fasttest_sheet import MAGIC_DICE
from sheets.systems import fasttest

register = template.Library()


@register.simple_tag
def attribute_names() -> tuple[str, ...]:
    return fasttest.ATTRIBUTES


@register.simple_tag
def skill_rows(data: Any, campaign) -> list[dict]:
    """The campaign's six skills with the values on the sheet (or as typed)."""
    skills = data.get("skills") if isinstance(data, dict) else None
    skills = skills if isinstance(skills, dict) else {}
    return [
        {"index": index, "name": name, "value": skills.get(name, "")}
        for index, name in enumerate(system_settings(campaign)["skills"])
    ]


@register.simple_tag
def severity_choices() -> list[tuple[str, str]]:
    return [(key, fasttest.SEVERITY_LABELS[key]) for key in fasttest.SEVERITIES]


@register.filter
def severity_label(key: str) -> str:
    return fasttest.SEVERITY_LABELS.get(key, key)


@register.filter
def wound_label(label: Any) -> Any:
    """A wound's label as its reader reads it: the app's own ("combat, #12") in the reader's
    language, a label someone typed as typed (``fasttest.COMBAT_WOUND``)."""
    return as_read(label)


@register.simple_tag
def magic_dice() -> tuple[int, ...]:
    return MAGIC_DICE


@register.filter
def die(sides: Any) -> str:
    """A magic die as written on the sheet: d4..d12, or an em dash for none."""
    return f"d{sides}" if isinstance(sides, int) and not isinstance(sides, bool) else "—"


@register.filter
def signed(value: Any) -> str:
    """Skill values as the sheet writes them: +2, 0, −1."""
    if isinstance(value, int) and not isinstance(value, bool):
        return f"+{value}" if value > 0 else (f"−{-value}" if value < 0 else "0")
    return "" if value is None else str(value)
