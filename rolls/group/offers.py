"""Helpers offered by their players (issue 28 item 6): while a group test gathers, a player
offers their character and what it tests with; those who gather it (the GM, the initiator's
player) take the helper in or decline, within the rules' number of helpers. The offers live on
the test (``GroupTest.offers``) and lapse once its dice roll; every change tells the table as
any change of the test does (``table.group``)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from rolls.actions import ActionRefused
from rolls.group.actions import (
    _changed,
    _gathering,
    _in_campaign,
    _locked,
    _owner_of,
    _participant,
    _rules,
    may_lead,
    room_for,
)
from rolls.models import GroupTest
from sheets.models import Character


def _offer_of(group: GroupTest, character_pk: int) -> dict[str, Any]:
    for offer in group.offers:
        if offer["character"] == character_pk:
            return offer
    raise ActionRefused(_("That offer is no longer there; look at the group test again."))


@transaction.atomic
def offer_help(
    *, group_id: int, user, revision: int | None, character: Character | None, skill: str
) -> GroupTest:
    """A player offers their character as a helper; those who gather accept or decline it. An
    offer declined before is made again."""
    group = _locked(group_id, revision)
    rules = _rules(group.session)
    _gathering(group)
    character = _in_campaign(group.session, character)
    if character.owner_id != user.pk:
        raise ActionRefused(_("Only a character's own player offers it as a helper."))
    room_for(group, rules, character)
    offer = _participant(rules, character, skill) | {"by": user.pk, "declined": False}
    group.offers = [o for o in group.offers if o["character"] != character.pk] + [offer]
    _changed(group)
    return group


@transaction.atomic
def answer_offer(
    *, group_id: int, user, revision: int | None, character_pk: int, accept: bool
) -> GroupTest:
    """Those who gather take an offered helper into the test, or decline the offer (its player
    reads that it was declined, until they take the offer back or make it again)."""
    group = _locked(group_id, revision)
    rules = _rules(group.session)
    if not may_lead(group, user):
        raise ActionRefused(_("Only the GM or the initiator's player gathers the helpers."))
    _gathering(group)
    offer = _offer_of(group, character_pk)
    if offer["declined"]:
        raise ActionRefused(_("That offer is no longer there; look at the group test again."))
    if not accept:
        group.offers = [o | {"declined": True} if o is offer else o for o in group.offers]
        _changed(group)
        return group
    character = Character.objects.filter(
        pk=character_pk, campaign_id=group.session.campaign_id
    ).first()
    if character is None:  # deleted since it was offered
        raise ActionRefused(_("That offer is no longer there; look at the group test again."))
    room_for(group, rules, character)
    group.members = [*group.members, _participant(rules, character, offer["skill"])]
    group.offers = [o for o in group.offers if o is not offer]
    _changed(group)
    return group


@transaction.atomic
def withdraw_offer(*, group_id: int, user, revision: int | None, character_pk: int) -> GroupTest:
    """The player takes their offer back (or clears one declined)."""
    group = _locked(group_id, revision)
    offer = _offer_of(group, character_pk)
    if offer["by"] != user.pk and _owner_of(character_pk) != user.pk:
        raise ActionRefused(_("Only the player who made an offer takes it back."))
    group.offers = [o for o in group.offers if o is not offer]
    _changed(group)
    return group
