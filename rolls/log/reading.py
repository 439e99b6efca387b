"""Reading a session's log for one viewer: the page, the replay and the exports share this."""

from __future__ import annotations

from typing import Any

from campaigns.models import Campaign, GameSession
from rolls.log.payload import audience_of, for_viewer, roll_payload, sealed_for, unknown_to
from rolls.log.payload import may_see as payload_may_see
from rolls.models import Roll, Visibility


def current_session(campaign: Campaign) -> GameSession | None:
    """The running session, else the latest one (its log stays readable), else None."""
    sessions = GameSession.objects.filter(campaign=campaign)
    return sessions.open().first() or sessions.order_by("-started_at", "-pk").first()


#: What a log entry's payload reads of its roll's relations (``roll_payload``), in its query.
ENTRY_RELATED = ("actor", "parent", "seal", "strike")

#: Entries a page shows at once, the latest first; earlier ones come a page at a time on demand
#: (``page_before``), so a page weighs the same after 20 rolls or 2,000. Not 50: with 50 a
#: 2,000-entry evening's dashboard weighed 90 KB, too near issue 17's 100 KB for heavier entries.
PAGE_SIZE = 30


def entries_for(session: GameSession, user, is_gm: bool, newest_first: bool = True) -> list[dict]:
    """Every entry of the session as this viewer may see it, in two queries whatever the count:
    for the exports and the statistics, never for a page (``page_before``)."""
    rolls = Roll.objects.filter(session=session).select_related(*ENTRY_RELATED)
    rolls = rolls.order_by("-seq" if newest_first else "seq")
    return _as_seen(rolls, user.pk, is_gm)


def _as_seen(rolls, user_id: int, is_gm: bool) -> list[dict]:
    """The entries as this viewer may see them, without those they may not know of."""
    payloads = (roll_payload(roll) for roll in rolls)
    return [
        for_viewer(payload, user_id, is_gm)
        for payload in payloads
        if not unknown_to(payload, user_id, is_gm)
    ]


def page_before(
    session: GameSession, user, is_gm: bool, before: int | None = None, size: int = PAGE_SIZE
) -> tuple[list[dict], int | None]:
    """The ``size`` entries before seq ``before`` (None: the latest), newest first, as this
    viewer may see them, and the seq to ask for the page before these (None: this is the first).

    One query whatever the log's length: one row more than shown says whether earlier ones exist.
    """
    rolls = Roll.objects.filter(session=session).select_related(*ENTRY_RELATED)
    if before is not None:
        rolls = rolls.filter(seq__lt=before)
    rolls = list(rolls.order_by("-seq")[: size + 1])
    shown = rolls[:size]
    earlier = shown[-1].seq if len(rolls) > size else None
    return _as_seen(shown, user.pk, is_gm), earlier


def entry_for(roll: Roll, user, is_gm: bool) -> dict:
    """One roll as this viewer may see it: every answer that shows a roll (the panel after a
    roll, a refused follow-up, an NPC's test) renders this, never the bare payload."""
    return for_viewer(roll_payload(roll), user.pk, is_gm)


def may_see(roll: Roll, user, is_gm: bool) -> bool:
    """Whether this viewer may see the roll whole: the log's rule
    (``rolls.log.payload.may_see``)."""
    return payload_may_see(audience_of(roll), user.pk, is_gm)


def shown_wherever(source: Roll, entry: Roll, *, unsealed: bool = False) -> bool:
    """Whether everyone who may see ``entry`` (or a follow-up of it, which keeps its visibility)
    may see ``source`` too: only then may an offer, a cost, odds or a label shown with ``entry``
    be computed from ``source`` (issue 23: a GM's hidden roll told through heroic effort's cost).
    The GM sees everything, so a hidden entry may read anything. A sealed ``source`` (issue 25:
    an opposed test's opponent's roll before the initiator has settled) is its viewers' and the
    GM's alone: a secret entry of one of them may read it, a public one may not. ``unsealed``:
    as it will be once its seal is lifted (what may be promised now, to be read after the
    reveal)."""
    if entry.visibility == Visibility.HIDDEN:
        return True
    sealed = None if unsealed else sealed_for(source)
    if sealed is not None and (
        entry.visibility != Visibility.SECRET or entry.actor_id not in sealed
    ):
        return False
    if source.visibility == Visibility.PUBLIC:
        return True
    return (
        entry.visibility == Visibility.SECRET
        and source.visibility == Visibility.SECRET
        and source.actor_id == entry.actor_id
    )


def log_context(campaign: Campaign, user, session: GameSession | None = None) -> dict[str, Any]:
    """What ``rolls/log/_log.html`` needs but who is at the table
    (``rolls.live.presence.log_context`` adds it)."""
    session = session or current_session(campaign)
    is_gm = campaign.is_gm(user)
    entries, earlier = page_before(session, user, is_gm) if session else ([], None)
    return {
        "log_campaign": campaign,
        "log_session": session,
        "log_entries": entries,
        "log_earlier": earlier,
        "log_last_seq": session.last_seq if session else 0,
        "log_is_gm": is_gm,
    }
