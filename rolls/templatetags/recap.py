"""The recap's words in its template (rolls.recap): a chance as the log writes odds, and one
listed entry of the night, the same as the Markdown export says them."""

from __future__ import annotations

from typing import Any

from django import template

from rolls.recap import markdown

register = template.Library()


@register.filter
def chance(value: float) -> str:
    return markdown.percent(value)


@register.filter
def event_line(entry: dict[str, Any]) -> str:
    return markdown.event_line(entry)
