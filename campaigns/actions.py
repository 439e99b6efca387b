"""Every write that matters to a campaign, one function per action; views only call these.

Removing a player deletes their membership and keeps their characters in the campaign: the roll
log and the story refer to them, and an invited-again player finds them where they left them.
Until then only the GM sees them (listed apart on the campaign page).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from campaigns.models import Campaign, Membership, new_invite_token
from campaigns.system_settings import DEFAULT_FASTTEST_SKILLS, system_settings
from campaigns.systems import get_system
from sheets.models import NPC, Character


@transaction.atomic
def create_campaign(*, gm, name: str, system: str) -> Campaign:
    """A new campaign run by ``gm``, who also gets the GM membership."""
    campaign = Campaign.objects.create(name=name, system=system, gm=gm)
    Membership.objects.create(campaign=campaign, user=gm, role=Membership.Role.GM)
    return campaign


def join_campaign(campaign: Campaign, user) -> bool:
    """Make ``user`` a player of ``campaign``; True if they were not a member before.

    Joining twice, or the GM opening their own link, changes nothing.
    """
    if campaign.is_gm(user):
        Membership.objects.get_or_create(
            campaign=campaign, user=user, defaults={"role": Membership.Role.GM}
        )
        return False
    _, created = Membership.objects.get_or_create(
        campaign=campaign, user=user, defaults={"role": Membership.Role.PLAYER}
    )
    return created


def remove_player(campaign: Campaign, user_id: int) -> bool:
    """End a player's membership (the GM's cannot end); their characters stay. True if removed."""
    deleted, _ = Membership.objects.filter(
        campaign=campaign, user_id=user_id, role=Membership.Role.PLAYER
    ).delete()
    return deleted > 0


def regenerate_invite(campaign: Campaign) -> str:
    """A fresh invite link; the previous one stops working at once."""
    campaign.invite_token = new_invite_token()
    campaign.save(update_fields=["invite_token"])
    return campaign.invite_token


def revoke_invite(campaign: Campaign) -> None:
    """No invite link at all until the GM makes a new one."""
    campaign.invite_token = None
    campaign.save(update_fields=["invite_token"])


def renamed_skills(skills: Any, old: list[str], new: list[str]) -> Any:
    """A character's FastTest skill values under the new names, matched by position.

    The value a character had under the n-th old name moves to the n-th new name, so swapping two
    names swaps nothing in the numbers; a value that was missing becomes 0 (the neutral value).
    Anything that is not a dict of skills is left as it is for the sheet's own validation.
    """
    if not isinstance(skills, dict):
        return skills
    return {new_name: skills.get(old_name, 0) for old_name, new_name in zip(old, new, strict=True)}


def _six(names: Any) -> list[str]:
    names = [str(name) for name in names] if isinstance(names, list) else []
    return (names + DEFAULT_FASTTEST_SKILLS[len(names) :])[:6]


@transaction.atomic
def save_settings(campaign: Campaign, *, name: str, system_values: dict[str, Any]) -> Campaign:
    """Rename the campaign and store its own system's settings, all or nothing.

    The system brings the sheets in line in the same transaction (``System.settings_saved``:
    a FastTest skill rename rewrites every character's ``data["skills"]`` keys), so sheets and
    settings never disagree.
    """
    locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
    current = system_settings(locked)
    get_system(locked.system).settings_saved(locked, current, system_values)
    stored = dict(locked.settings or {})
    stored[locked.system] = {**current, **system_values}
    locked.settings = stored
    locked.name = name
    locked.save(update_fields=["settings", "name"])
    return locked


def rename_skills(campaign: Campaign, old: Any, new: list[str]) -> None:
    """FastTest: the campaign's six skills renamed from ``old`` to ``new`` on every sheet."""
    old = _six(old)
    if old != new:
        _rename_fasttest_skills(campaign, old, new)


def _rename_fasttest_skills(campaign: Campaign, old: list[str], new: list[str]) -> None:
    changed = []
    for character in Character.objects.select_for_update().filter(campaign=campaign):
        if not isinstance(character.data, dict) or "skills" not in character.data:
            continue
        skills = renamed_skills(character.data["skills"], old, new)
        if skills != character.data["skills"]:
            character.data = {**character.data, "skills": skills}
            changed.append(character)
    Character.objects.bulk_update(changed, ["data"])


# The GM's NPC trait lists. ``traits`` is always the checked list of {"name", "dice"}.


@transaction.atomic
def create_npcs(campaign: Campaign, parsed: list) -> list[NPC]:
    """NPCs from quick entry (``ParsedNPC`` items), all or none."""
    return NPC.objects.bulk_create(
        NPC(campaign=campaign, name=npc.name, traits=npc.as_traits()) for npc in parsed
    )


def create_npc(
    campaign: Campaign, *, name: str, traits: list[dict], notes: str, revealed: bool
) -> NPC:
    return NPC.objects.create(
        campaign=campaign, name=name, traits=traits, notes=notes, revealed=revealed
    )


def update_npc(npc: NPC, *, name: str, traits: list[dict], notes: str, revealed: bool) -> NPC:
    npc.name, npc.traits, npc.notes, npc.revealed = name, traits, notes, revealed
    npc.save(update_fields=["name", "traits", "notes", "revealed"])
    return npc


def set_npc_revealed(npc: NPC, revealed: bool) -> NPC:
    npc.revealed = revealed
    npc.save(update_fields=["revealed"])
    return npc


def delete_npc(npc: NPC) -> None:
    npc.delete()
