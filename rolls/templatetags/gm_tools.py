"""What the GM's tools on the dashboard need, for partials included in pages whose views do
not know them (the dashboard, its party refresh). Each tag reads what the including page has
(``campaign``, ``session``) and a posted form kept in the context, if any."""

from __future__ import annotations

import uuid
from typing import Any

from django import template

from rolls import after_roll, awards, npc_rolls
from sheets.models import Character

register = template.Library()


@register.simple_tag(takes_context=True)
def after_roll_items(context) -> list[dict[str, Any]]:
    """The after-roll strip's entries (three queries whatever their number)."""
    return after_roll.strip(context["campaign"], context.get("session"))


@register.simple_tag
def weapon_classes() -> list[tuple[str, Any]]:
    return list(after_roll.WEAPON_LABELS.items())


@register.simple_tag
def fresh_key() -> str:
    """An idempotency key for one form: a double-submitted form rolls once."""
    return str(uuid.uuid4())


@register.simple_tag(takes_context=True)
def awards_box(context) -> dict[str, Any]:
    """The awards box: its two forms (the posted ones when they came back with errors)."""
    campaign = context["campaign"]
    characters = list(Character.objects.filter(campaign=campaign).only("pk", "name"))
    return {
        "keeps_xp": awards.keeps_xp(campaign),
        "dice_on": awards.experience_dice_on(campaign),
        "xp_form": context.get("xp_form") or awards.XPForm(characters=characters),
        "die_form": context.get("die_form") or awards.ExperienceDieForm(characters=characters),
        "recent": awards.recent_awards(campaign),
        "note": context.get("awards_note", ""),
    }


@register.simple_tag(takes_context=True)
def npc_roll_form(context, npc) -> dict[str, Any]:
    """One NPC's test form: the posted one for the NPC just rolled (or refused), else blank."""
    state = context.get("npc_roll")
    if isinstance(state, dict) and state.get("npc_id") == npc.pk:
        return state
    return {"npc_id": npc.pk, "form": npc_rolls.blank_form(context["campaign"].system)}


@register.simple_tag
def visibilities() -> tuple:
    return npc_rolls.VISIBILITIES


@register.simple_tag(takes_context=True)
def card_tools(context, character) -> dict[str, Any]:
    """A party card's tools: a night's rest when it would raise the magic die, the experience
    die when the campaign plays with them. No query: the card's character is loaded."""
    campaign = context["campaign"]
    return {
        "rest": None,
        **campaign.rules.card_tools(character, campaign),
        "dice_on": awards.experience_dice_on(campaign),
    }


@register.filter
def weapon_label(key: str) -> Any:
    return after_roll.WEAPON_NAMES.get(key, key)
