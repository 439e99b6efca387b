"""What the channel is to be told, queued in the transaction that writes it (a transactional
outbox): a roll rolled back posts nothing, and one committed is posted even across a restart.

Only what every member may read is queued: public entries (never a secret, hidden, sealed or
whispered one, nor that one was made), the session's start and end, its recap (from its public
entries only), whose turn it is. A roll
asks whether its campaign has a bridge in the statement that reads its scene (``HAS_BRIDGE``),
so a campaign without one pays no statement for it.
"""

from __future__ import annotations

import threading
from typing import Any

from django.db import connection, transaction

from rolls.discord.models import DiscordBridge, DiscordPost
from rolls.log.payload import may_see

#: Whether the campaign (the parameter) has a bridge that is on, as an SQL expression.
HAS_BRIDGE = (
    'EXISTS (SELECT 1 FROM "rolls_discordbridge" WHERE "campaign_id" = %s AND "active" '
    'AND NOT "gone")'
)
#: Set as a post is committed: the courier of this process wakes at once (others poll).
queued = threading.Event()

_QUEUE = (
    'INSERT INTO "rolls_discordpost" ("bridge_id", "kind", "roll_id", "session_id") '
    'SELECT "id", %s, %s, %s FROM "rolls_discordbridge" '
    'WHERE "campaign_id" = %s AND "active" AND NOT "gone"'
)


def _wake() -> None:
    queued.set()


def queue_entry(roll, payload: dict[str, Any], campaign_id: int) -> None:
    """Queue the log entry ``roll`` if every member may read it (its ``payload``,
    ``rolls.log.payload.roll_payload``, says who may); a strike (an entry of kind ``struck``)
    queues the edit of the entry it strikes too."""
    if not may_see(payload, None, False):
        return
    _queue(DiscordPost.Kind.ENTRY, roll.pk, roll.session_id, campaign_id)
    if roll.kind == "struck" and roll.parent_id:
        _queue(DiscordPost.Kind.EDIT, roll.parent_id, roll.session_id, campaign_id)


def _queue(kind: str, roll_id: int | None, session_id: int | None, campaign_id: int) -> None:
    # One statement whether or not the campaign has a bridge: its lookup and the insert in one.
    with connection.cursor() as cursor:
        cursor.execute(_QUEUE, [kind, roll_id, session_id, campaign_id])
        if cursor.rowcount:
            transaction.on_commit(_wake)


def queue_session(session, kind: str) -> None:
    """Queue that ``session`` started or ended (``DiscordPost.Kind.STARTED``, ``ENDED``)."""
    _queue(kind, None, session.pk, session.campaign_id)


def queue_turn(session, round_: int, character=None, npc=None) -> None:
    """Queue whose turn it is now: ``character``'s, ``npc``'s (by name once the GM has shown
    it, else "an NPC"), or nobody's yet (a new round)."""
    bridge = DiscordBridge.objects.filter(
        campaign_id=session.campaign_id, active=True, gone=False
    ).first()
    if bridge is None:
        return
    if character is not None:
        name = character.name
    else:
        name = npc.name if npc is not None and npc.revealed else ""
    DiscordPost.objects.create(
        bridge=bridge,
        kind=DiscordPost.Kind.TURN,
        session=session,
        facts={"round": round_, "name": name, "npc": npc is not None},
    )
    transaction.on_commit(_wake)


def queue_test(bridge: DiscordBridge) -> bool:
    """Queue the GM's test message; False when one still waits (one is enough)."""
    waiting = DiscordPost.objects.filter(
        bridge=bridge, kind=DiscordPost.Kind.TEST, sent_at=None, dropped=""
    )
    if waiting.exists():
        return False
    DiscordPost.objects.create(bridge=bridge, kind=DiscordPost.Kind.TEST)
    transaction.on_commit(_wake)
    return True


def session_started(sender, campaign, scene, **kwargs) -> None:
    """A session's first scene opens with it (``campaigns.sessions.scene_started``)."""
    if scene.number == 1:
        queue_session(scene.session, DiscordPost.Kind.STARTED)


def session_ended(sender, session, **kwargs) -> None:
    """The session has ended (``campaigns.sessions.session_ended``): that, then its recap,
    counted from its public entries as the post is sent (``posts``)."""
    queue_session(session, DiscordPost.Kind.ENDED)
    queue_session(session, DiscordPost.Kind.RECAP)
