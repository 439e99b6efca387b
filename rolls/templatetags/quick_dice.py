"""The quick dice box's choices and key, for ``rolls/tables/_quick_dice.html``."""

from __future__ import annotations

import uuid
from typing import Any

from django import template

from rolls.tables import quick_dice

register = template.Library()


@register.simple_tag
def quick_choices(is_gm: bool) -> list[tuple[str, Any]]:
    return quick_dice.visibilities(bool(is_gm))


@register.simple_tag(takes_context=True)
def quick_recent(context, campaign) -> list[str]:
    """The reader's last expressions at this table, to roll again in one click."""
    return quick_dice.recent(campaign, context["request"].user)


@register.simple_tag
def quick_key() -> str:
    """A fresh idempotency key for each rendering of the box: a double click rolls once."""
    return str(uuid.uuid4())
