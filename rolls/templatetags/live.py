"""The refresher's triggers, from the one map of which event refreshes which part."""

from django import template

from rolls.dashboard import live_parts

register = template.Library()


@register.simple_tag
def live_triggers() -> str:
    """``table:entry from:body, ...``: every table event that changes a part of the dashboard."""
    return ", ".join(f"table:{event} from:body" for event in live_parts.EVENTS)
