"""Every write that matters to a campaign, one function per action; views only call these.

Removing a player deletes their membership and keeps their characters in the campaign: the roll
log and the story refer to them, and an invited-again player finds them where they left them.
Until then only the GM sees them (listed apart on the campaign page). Characters and NPCs are
the sheets app's, written by ``sheets.actions``.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.dispatch import Signal

from campaigns.models import Campaign, Membership, new_invite_token
from campaigns.real_dice import KEY as REAL_DICE
from campaigns.system_settings import system_settings
from campaigns.systems import get_system

#: Sent inside ``save_settings``' transaction, with ``sender`` the campaign's ``System``,
#: ``campaign``, and its system's settings as they were (``old``) and as saved (``new``): a
#: system connects with ``sender=`` itself to bring the sheets in line.
settings_saved = Signal()


class ActionRefused(Exception):
    """A request the table cannot carry out; the message is for the person who made it."""


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


@transaction.atomic
def save_settings(
    campaign: Campaign, *, name: str, system_values: dict[str, Any], real_dice: str | None = None
) -> Campaign:
    """Rename the campaign and store its own system's settings, all or nothing; ``real_dice``
    (``campaigns.real_dice``), when given, says who may type real dice.

    The system brings the sheets in line in the same transaction (``settings_saved``: a
    FastTest skill rename rewrites every character's ``data["skills"]`` keys), so sheets and
    settings never disagree.
    """
    locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
    current = system_settings(locked)
    settings_saved.send(
        sender=get_system(locked.system), campaign=locked, old=current, new=system_values
    )
    stored = dict(locked.settings or {})
    stored[locked.system] = {**current, **system_values}
    if real_dice is not None:
        stored[REAL_DICE] = real_dice
    locked.settings = stored
    locked.name = name
    locked.save(update_fields=["settings", "name"])
    return locked
