"""The cues above every page of the table, in its first HTML (``rolls/_call_cue.html``,
``rolls/group/_slot.html``): one query each, from ``rolls.cues``, the functions their refreshes
use. The page may say what it knows: ``panel_character``, whose panel it shows, and
``cues_session``, the open session (or None)."""

from __future__ import annotations

from typing import Any

from django import template

from rolls import cues

register = template.Library()


def _user(context):
    return context["request"].user


@register.simple_tag(takes_context=True)
def call_cues(context, campaign) -> list[dict[str, Any]]:
    """The GM's calls on the reader's characters, but the one whose panel is on the page."""
    sheet = context.get("panel_character")
    return cues.call_cues(campaign, _user(context), sheet=sheet.pk if sheet else None)


@register.simple_tag(takes_context=True)
def group_cue(context, campaign, here=False) -> dict[str, Any]:
    """What ``rolls/group/_cue.html`` shows, ``here`` on the group test's own page."""
    session = context.get("cues_session", cues.UNKNOWN)
    return cues.group_cue(campaign, _user(context), session=session, here=bool(here))
