"""Who is at the table: the members with a table page open now, and those who just left.

Built on the sockets' leases (``rolls.socket_slots``): every table socket also holds a lease in
the scope ``seat:<campaign>:<user>``, so the shared cache (Redis when scaled out) counts each
member's open pages of each table across every worker, and forgets a killed worker's pages
within two lease periods. A socket that closes notes the time (``left``); a member with no page
open is "here" for ``PRESENCE_GRACE_SECONDS`` after that, then "away" until
``PRESENCE_AWAY_SECONDS``, then no longer listed.

``people`` reads the members from the database, so a non-member is never listed; it is called
when a page is rendered and when a socket opens or closes, never per delivered entry. The list
carries, for each person, the seconds until they turn away and until they drop out, so a page
moves them along itself, without another message.
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.core.cache import cache

from campaigns.models import Membership
from rolls import socket_slots
from sheets.models import Character

HERE = "here"
AWAY = "away"


def seat(campaign_id: int, user_id: int) -> str:
    """The lease scope counting one member's open pages of one table."""
    return f"seat:{campaign_id}:{user_id}"


def _left_key(campaign_id: int, user_id: int) -> str:
    return f"table-left:{campaign_id}:{user_id}"


def left(campaign_id: int, user_id: int, now: float | None = None) -> None:
    """Note that one of the member's pages of this table closed (it may have been the last)."""
    timeout = round(settings.PRESENCE_AWAY_SECONDS + socket_slots.period_seconds() * 2) + 1
    cache.set(_left_key(campaign_id, user_id), time.time() if now is None else now, timeout)


def people(campaign, now: float | None = None) -> dict[str, Any]:
    """Who is at the table now: ``{"at": time, "people": [person, ...]}``, the GM first.

    A person is ``{"user_id", "name", "gm", "characters", "state", "away_in", "gone_in"}``;
    ``away_in`` (seconds until "here" turns "away") and ``gone_in`` (until they drop out) are
    None for someone with a page open.
    """
    now = time.time() if now is None else now
    members = list(
        Membership.objects.filter(campaign=campaign)
        .select_related("user")
        .order_by("user__username", "pk")
    )
    user_ids = [member.user_id for member in members]
    pages = socket_slots.counts([seat(campaign.pk, uid) for uid in user_ids], now)
    lefts = cache.get_many([_left_key(campaign.pk, uid) for uid in user_ids])
    grace, away = settings.PRESENCE_GRACE_SECONDS, settings.PRESENCE_AWAY_SECONDS
    found = []
    for member in members:
        person = {
            "user_id": member.user_id,
            "name": member.user.get_username(),
            "gm": member.user_id == campaign.gm_id,
            "characters": [],
            "state": HERE,
            "away_in": None,
            "gone_in": None,
        }
        if pages[seat(campaign.pk, member.user_id)] <= 0:
            since = now - lefts.get(_left_key(campaign.pk, member.user_id), now - away)
            if since >= away:
                continue
            person["gone_in"] = round(away - since, 1)
            if since < grace:
                person["away_in"] = round(grace - since, 1)
            else:
                person["state"] = AWAY
        found.append(person)
    if found:
        by_owner: dict[int, list[str]] = {}
        owners = [person["user_id"] for person in found]
        names = Character.objects.filter(campaign=campaign, owner_id__in=owners)
        for owner_id, name in names.order_by("name", "pk").values_list("owner_id", "name"):
            by_owner.setdefault(owner_id, []).append(name)
        for person in found:
            person["characters"] = by_owner.get(person["user_id"], [])
    found.sort(key=lambda person: not person["gm"])  # stable: the GM first, then by name
    return {"at": now, "people": found}
