"""What the rules let the GM do after a player's free roll, one the GM did not call (AST: read
another white die of a hindered test, RULES.md 2.3; the worst is read at once).

A called test offers the same on its card (``rolls.pending.actions.follow_rolled_test``). A free
test has no card, so the dashboard lists the open session's latest free entries the GM may still act
on; what the GM does is logged as a follow-up of that entry (same visibility, live on every
page), checked again under the session's lock.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _

from campaigns.models import Campaign, GameSession
from campaigns.systems import get_system
from rolls.actions import ActionRefused, roll_follow_up
from rolls.models import Roll
from rolls.panels import gm_follow_ups_of

#: How many of the open session's latest entries the box looks through, newest first.
BOX_LENGTH = 10

#: An entry of a called test (or what followed one): the GM acts on it from the test's card.
_CALLED = (
    Q(pending_test__isnull=False)
    | Q(parent__pending_test__isnull=False)
    | Q(parent__parent__pending_test__isnull=False)
)


def box(campaign: Campaign, session: GameSession | None) -> list[dict[str, Any]]:
    """The latest free entries of characters on which the GM may act now, newest first, each
    with what is offered. Nothing in a system whose GM never acts after a roll."""
    gm_follow_ups = gm_follow_ups_of(get_system(campaign.system))
    if session is None or not session.is_open or gm_follow_ups is None:
        return []
    latest = (
        Roll.objects.filter(
            session=session, system=campaign.system, character__isnull=False,
            follow_ups__isnull=True,
        )
        .exclude(_CALLED)
        .select_related("character")
        .order_by("-seq")[:BOX_LENGTH]
    )  # fmt: skip
    items = []
    for roll in latest:
        offers = gm_follow_ups.offered(roll, roll.character, campaign)
        if offers:
            items.append({"roll": roll, "offers": offers})
    return items


def follow_free_roll(
    *, campaign: Campaign, roll_id: int, gm, kind: str, choices, key: uuid.UUID, nonce=None
) -> tuple[Roll, bool]:
    """The GM's follow-up ``kind`` of the free entry ``roll_id`` (the one the GM's page showed):
    refused when the rules offer it nothing, when the GM already acted on it, or when something
    followed it since the page showed it (a re-roll: the GM acts on the newest entry)."""
    gm_follow_ups = gm_follow_ups_of(get_system(campaign.system))
    roll = (
        Roll.objects.select_related("session", "character")
        .filter(pk=roll_id, session__campaign=campaign, character__isnull=False)
        .first()
    )
    if roll is None or gm_follow_ups is None:
        raise ActionRefused(_("That can no longer be done with this roll."))
    if not roll.session.is_open:
        raise ActionRefused(_("This session has ended; the GM's choices are made during play."))

    def build():
        # Under the session's lock: a follow-up that came meanwhile is seen here.
        after = roll.follow_ups.order_by("-seq").first()
        if after is not None and after.actor_id == gm.pk:
            raise ActionRefused(_("You have already made your choice on #%(seq)s.") % {
                "seq": roll.seq
            })  # fmt: skip
        if after is not None:
            raise ActionRefused(
                _("#%(seq)s has changed since your page showed it (#%(new)s followed it): "
                  "look again.") % {"seq": roll.seq, "new": after.seq}
            )  # fmt: skip
        offered = {f.kind for f in gm_follow_ups.offered(roll, roll.character, campaign)}
        if kind not in offered:
            raise ActionRefused(str(gm_follow_ups.refusal))
        panel = gm_follow_ups.build(kind, roll, roll.character, campaign, choices)
        if not panel.ready:
            raise ActionRefused(" ".join(m for ms in panel.errors.values() for m in ms))
        return panel

    return roll_follow_up(
        parent=roll, actor=gm, character=roll.character, kind=kind, build=build, key=key,
        nonce=nonce,
    )  # fmt: skip
