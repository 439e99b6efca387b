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
out, so a page moves them along itself, without another message. A socket that opens or closes
has the table's pages that show the list (``group``) told a moment later (``tell_the_table_soon``),
each in its reader's language (``frame``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db.models import FilteredRelation, Q
from django.template.loader import render_to_string
from django.utils import translation

from rolls.live import socket_slots
from rolls.log import reading

logger = logging.getLogger(__name__)

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


# Each list reaches every page of its table that shows it: rendered once per language in this
# process, not once per page (a tenth of the server's CPU as 700 pages came back after a
# restart, each arrival told to the table's pages back already: docs/performance.md).
_presence_frames: dict[tuple[str, float, str], str] = {}


def frame(people: list[dict[str, Any]], at: float, language: str) -> str:
    """The ``presence`` frame of this list, in ``language``."""
    key = (json.dumps(people), at, language)
    frame = _presence_frames.get(key)
    if frame is None:
        if len(_presence_frames) >= 256:
            _presence_frames.clear()
        with translation.override(language):
            html = render_to_string("rolls/live/_presence_people.html", {"people": people})
        frame = json.dumps({"type": "presence", "at": at, "html": html})
        _presence_frames[key] = frame
    return frame


#: How long a table's pages wait to be told who is at it after one of them opens or closes: the
#: pages that open or close meanwhile (a restart's returning pages, seven a table) are told once,
#: from one read of who is here, where each page told all the others and read it again (a fifth
#: of a returning page's CPU, docs/performance.md). A person at the table shows a moment later.
PRESENCE_GATHER_SECONDS = 0.2
#: The announcement on its way, by campaign (in this process).
_presence_due: dict[int, asyncio.Task] = {}


def tell_the_table_soon(campaign_id: int, gm_id: int) -> None:
    due = _presence_due.get(campaign_id)
    if due is not None and not due.done() and due.get_loop() is asyncio.get_running_loop():
        return  # it reads who is here when it goes, so it tells of this page too
    _presence_due[campaign_id] = asyncio.get_running_loop().create_task(
        _tell_the_table(campaign_id, gm_id)
    )


async def _tell_the_table(campaign_id: int, gm_id: int) -> None:
    task = asyncio.current_task()
    try:
        await asyncio.sleep(PRESENCE_GATHER_SECONDS)
        # Due no longer before it reads: a page that opens from here on is told again.
        if _presence_due.get(campaign_id) is task:
            del _presence_due[campaign_id]
        people = await database_sync_to_async(people_at)(campaign_id, gm_id)
        await get_channel_layer().group_send(
            group(campaign_id), {"type": "table.presence", **people}
        )
    except Exception:
        logger.warning("could not announce who is at table %s", campaign_id, exc_info=True)
    finally:
        if _presence_due.get(campaign_id) is task:
            del _presence_due[campaign_id]


def group(campaign_id: int) -> str:
    """The table's pages that show who is at it (``?presence=1``); other clients skip the list."""
    return f"campaign-{campaign_id}-presence"
