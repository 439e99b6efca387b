"""A night's rest in FastTest (RULES.md section 1, "Magic"): the magic die one step up, never
above the starting die (the sheet module's ``starting_magic_die``). The GM gives it from a
party card on the dashboard; ``rest_preview`` says what it would do (the card's button, which
its ``CardTools`` part offers only when it would change something) and ``night_rest`` does it.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import Campaign
from campaigns.system_settings import system_settings
from rolls.actions import ActionRefused
from rolls.engine import EngineError
from rolls.engine.fasttest_sheet import rest_magic_die
from rolls.systems.fasttest.sheet_actions import set_magic_die
from sheets import actions as sheet_actions
from sheets.models import Character
from sheets.systems import fasttest as fasttest_sheet


def starting_die(character: Character, campaign: Campaign) -> int | None:
    """The character's starting magic die (from the sheet module), None without magic."""
    data = character.data if isinstance(character.data, dict) else {}
    if not system_settings(campaign)["magic"]:
        return None
    try:
        return fasttest_sheet.derived(data, campaign)["starting_magic_die"]
    except (EngineError, KeyError, TypeError):
        return None


def rest_preview(character: Character, campaign: Campaign) -> dict[str, Any] | None:
    """What a night's rest would do: {"current", "after", "starting"}, or None when it would
    change nothing (no magic, or the die is already at its starting size)."""
    starting = starting_die(character, campaign)
    sheet = fasttest_sheet.view(character.data)
    current = sheet.magic_die
    if starting is None:
        return None
    if current is None and not sheet.magic_traits:
        return None  # no die and no magic trait: not a caster, nothing to rest back
    after = rest_magic_die(current, starting)
    if after == current:
        return None
    return {"current": current, "after": after, "starting": starting}


@transaction.atomic
def night_rest(character: Character, campaign: Campaign) -> tuple[int | None, int | None]:
    """A night's rest: the magic die one step up, never above the starting die."""
    locked = Character.objects.select_for_update().get(pk=character.pk)
    preview = rest_preview(locked, campaign)
    if preview is None:
        raise ActionRefused(
            _("%(name)s's magic die is already at its starting size.") % {"name": locked.name}
        )
    try:
        set_magic_die(locked, preview["after"])
    except sheet_actions.SheetRefused as error:
        raise ActionRefused(str(error)) from error
    return preview["current"], preview["after"]
