"""The turn bar under the cues at the top of every page of the table (``rolls/_call_cue.html``,
``rolls/turns/_bar.html``)."""

from __future__ import annotations

from django import template

from rolls.cues import UNKNOWN
from rolls.turns.views import bar_context

register = template.Library()


@register.inclusion_tag("rolls/turns/_bar.html", takes_context=True)
def turn_bar(context, campaign) -> dict:
    """``cues_session``, where the page says it, spares a page with no running session the
    question where the fight stands."""
    session = context.get("cues_session", UNKNOWN)
    return bar_context(campaign, context["request"].user, session)
