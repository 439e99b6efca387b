"""The chat box beside the log (``rolls/chat/_say.html``)."""

from __future__ import annotations

import uuid

from django import template

from rolls.chat.forms import LINE_MAX, SayForm

register = template.Library()


@register.simple_tag(takes_context=True)
def say_box(context, campaign) -> SayForm:
    """An empty box for the page's viewer: whom they may write to, who they may speak as."""
    return SayForm(campaign=campaign, user=context["request"].user)


@register.simple_tag
def say_key() -> str:
    """A fresh idempotency key for each rendering of the box: a double click sends once."""
    return str(uuid.uuid4())


@register.simple_tag
def line_max() -> int:
    return LINE_MAX
