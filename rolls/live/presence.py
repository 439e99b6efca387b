"""Who is at the table: the members with a table page open now, and those who just left.

Built on the sockets' leases (``rolls.live.socket_slots``): every table socket also holds a lease in
the scope ``seat:<campaign>:<user>``, so the shared cache (Redis when scaled out) counts each
member's open pages of each table across every worker, and forgets a killed worker's pages
within two lease periods. A socket that closes notes the time (``left``); a member with no page
open is "here" for ``PRESENCE_GRACE_SECONDS`` after that, then "away" until
``PRESENCE_AWAY_SECONDS``, then no longer listed.

``people`` reads the members from the database (one query), so a non-member is never listed;
it is called when a page is rendered and when a socket opens or closes, never per delivered
entry. The list carries, for each person, the seconds until they turn away and until they drop
out, so a page moves them along itself, without another message.
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db.models import FilteredRelation, Q

from rolls.live import socket_slots
from rolls.log import reading

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
    """Who is at ``campaign``'s table now (``people_at``)."""
    return people_at(campaign.pk, campaign.gm_id, now)


def people_at(campaign_id: int, gm_id: int, now: float | None = None) -> dict[str, Any]:
    """Who is at the table now: ``{"at": time, "people": [person, ...]}``, the GM first.

    A person is ``{"user_id", "name", "gm", "characters", "state", "away_in", "gone_in"}``;
    ``away_in`` (seconds until "here" turns "away") and ``gone_in`` (until they drop out) are
    None for someone with a page open.
    """
    now = time.time() if now is None else now
    # One query: a row per member and character of theirs here (one with None for none).
    rows = (
        get_user_model()
        .objects.filter(memberships__campaign_id=campaign_id)
        .annotate(
            own=FilteredRelation("characters", condition=Q(characters__campaign_id=campaign_id))
        )
        .order_by("username", "pk", "own__name", "own__pk")
        .values_list("pk", "username", "own__name")
    )
    members: dict[int, dict[str, Any]] = {}
    for user_id, name, character in rows:
        person = members.setdefault(
            user_id,
            {
                "user_id": user_id,
                "name": name,
                "gm": user_id == gm_id,
                "characters": [],
                "state": HERE,
                "away_in": None,
                "gone_in": None,
            },
        )
        if character is not None:
            person["characters"].append(character)
    pages = socket_slots.counts([seat(campaign_id, uid) for uid in members], now)
    lefts = cache.get_many([_left_key(campaign_id, uid) for uid in members])
    grace, away = settings.PRESENCE_GRACE_SECONDS, settings.PRESENCE_AWAY_SECONDS
    found = []
    for user_id, person in members.items():
        if pages[seat(campaign_id, user_id)] <= 0:
            since = now - lefts.get(_left_key(campaign_id, user_id), now - away)
            if since >= away:
                continue
            person["gone_in"] = round(away - since, 1)
            if since < grace:
                person["away_in"] = round(grace - since, 1)
            else:
                person["state"] = AWAY
        found.append(person)
    found.sort(key=lambda person: not person["gm"])  # stable: the GM first, then by name
    return {"at": now, "people": found}


def log_context(campaign, user, session=None) -> dict[str, Any]:
    """What ``rolls/log/_log.html`` needs: the log (``rolls.log.reading.log_context``) and who is
    at the table beside it. Here, not in the log: presence is read from the sockets' places,
    which sit above the log (the consumer reads the log to replay it)."""
    return reading.log_context(campaign, user, session) | {"log_presence": people(campaign)}
