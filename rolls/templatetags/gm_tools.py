"""What the GM's tools on the dashboard need that is not data: fresh keys, choices, labels and
the blank form of each NPC. Tags never query: what a part shows from the database comes from
its context function (``rolls.dashboard``)."""

from __future__ import annotations

import uuid
from typing import Any

from django import template

from campaigns.real_dice import OFF, real_dice
from rolls.dashboard import awards, npc_rolls
from rolls.dashboard.system_boxes import card_tools_of

register = template.Library()


@register.simple_tag
def fresh_key() -> str:
    """An idempotency key for one form: a double-submitted form rolls once."""
    return str(uuid.uuid4())


@register.simple_tag(takes_context=True)
def npc_roll_form(context, npc) -> dict[str, Any]:
    """One NPC's test form: the posted one for the NPC just rolled (or refused), else blank."""
    state = context.get("npc_roll")
    if isinstance(state, dict) and state.get("npc_id") == npc.pk:
        return state
    campaign = context["campaign"]
    form = npc_rolls.blank_form(campaign.system, npc, campaign)
    # Where the GM allows real dice, the box to say they were rolled (its dice once ticked).
    offered = real_dice(campaign) != OFF
    shown = {"on": False, "prefix": f"npc-{npc.pk}-"} if offered else None
    return {"npc_id": npc.pk, "form": form, "real_dice": shown}


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
        **card_tools_of(campaign.rules, character, campaign),
        "dice_on": awards.experience_dice_on(campaign),
    }
