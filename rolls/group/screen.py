"""What each page shows of a group test (rolls.group.actions): the group page's view for its
reader, the helpers each may offer, and the cue above every page while one is under way."""

from __future__ import annotations

from typing import Any

from campaigns.models import GameSession
from rolls.group.actions import OPEN, GroupRules, current, rules_of
from rolls.models import GroupTest
from sheets.models import Character


def view(group: GroupTest | None, user, campaign) -> dict[str, Any]:
    """The group test as one reader's page shows it: participants, odds, what they may do."""
    rules = rules_of(campaign.system)
    mine = set(Character.objects.filter(campaign=campaign, owner=user).values_list("pk", flat=True))
    is_gm = campaign.gm_id == user.pk
    characters = list(Character.objects.filter(campaign=campaign).order_by("name"))
    shown: dict[str, Any] = {
        "group": group,
        "rules": rules,
        "is_gm": is_gm,
        "startable": _picks(rules, [c for c in characters if is_gm or c.pk in mine]),
    }
    if group is None or rules is None:
        return shown
    taking_part = {member["character"] for member in group.members}
    counts = rules.dice_counts(len(group.members) - 1)
    members = []
    for member, count in zip(group.members, counts, strict=True):
        members.append(
            member
            | {
                "dice_count": member["dice"] or count,
                "mine": is_gm or member["character"] in mine,
                "gained": rules.gained(member) if member["seq"] is not None else 0,
            }
        )
    opened = group.status in OPEN
    odds = rules.odds(group.members, group.difficulty, group.ease) if opened else None
    leads = opened and (is_gm or group.members[0]["character"] in mine)
    shown |= {
        "members": members,
        "odds": odds,
        "open": opened,
        "leads": leads,
        **_offers(group, rules, characters, mine, leads),
        "all_rolled": all(member["seq"] is not None for member in group.members),
        "joinable": _picks(rules, [c for c in characters if c.pk not in taking_part]),
        "answer": group.result.result.get("answer") if group.result_id else None,
        "heroic": rules.heroic,
    }
    return shown


def _offers(group, rules, characters, mine, leads) -> dict[str, Any]:
    """The helpers offered (to those who gather: the ones to answer), the reader's own offers
    (declined ones said so) and what the reader may still offer (rolls.group.offers)."""
    if group.status != GroupTest.Status.GATHERING:
        return {}
    room = len(group.members) - 1 < rules.max_helpers
    offered = {offer["character"] for offer in group.offers if not offer["declined"]}
    taking_part = {member["character"] for member in group.members}
    own = [
        c for c in characters if c.pk in mine and c.pk not in taking_part | offered
    ]  # fmt: skip
    return {
        "offers_to_answer": [o for o in group.offers if not o["declined"]] if leads else [],
        "my_offers": [o for o in group.offers if o["character"] in mine and not leads],
        "offerable": _picks(rules, own) if room and not leads else [],
        "full": not room,
    }


def _picks(rules: GroupRules | None, characters: list[Character]) -> list[dict[str, Any]]:
    """Each character with what they may test with, for the screen's choice of both at once."""
    if rules is None:
        return []
    return [{"character": c, "choices": rules.choices(c)} for c in characters]


def cue(session: GameSession | None, user) -> dict[str, Any] | None:
    """What a player's pages say of the group test under way: whose it is, and which of their
    characters' dice are still to roll."""
    group = current(session)
    if group is None or group.status not in OPEN:
        return None
    return cue_of(group, user, session.campaign.gm_id)


def under_way(session: GameSession) -> GroupTest | None:
    """The session's group test being gathered or rolled, if any (one query)."""
    return GroupTest.objects.filter(session=session, status__in=OPEN).first()


def cue_of(group: GroupTest, user, gm_id: int) -> dict[str, Any]:
    """``cue`` of the group test under way, ``group``, in the campaign of the GM ``gm_id``."""
    mine = set(Character.objects.filter(owner=user).values_list("pk", flat=True))
    leads = gm_id == user.pk or group.members[0]["character"] in mine
    if gm_id == user.pk:  # the GM rolls for anyone: every die still to roll
        mine = {m["character"] for m in group.members}
    return {
        # The helpers offered, to those who answer them (rolls.group.offers).
        "offered": [o["name"] for o in group.offers if not o["declined"]] if leads else [],
        "offered_key": "-".join(str(o["character"]) for o in group.offers if not o["declined"]),
        "group": group,
        "initiator": group.members[0]["name"],
        "waiting": [
            m["name"] for m in group.members if m["character"] in mine and m["seq"] is None
        ],
        "gathering": group.status == GroupTest.Status.GATHERING,
    }
