"""The table's websocket: one per open page, thin.

A client may say "send me what I missed since N" (and ping): nothing else. Every write arrives
over HTTP through ``rolls.actions``; a consumer never relays a client's message to the group.

Whatever a client sends, the socket answers it or closes with a code of its own, never with a
crash: a frame that is not a small JSON object gets an ``error`` frame and the socket stays.
A page that shows who is at the table (``?presence=1``) also gets a ``presence`` frame, the list
rendered in its language, whenever a page of the table opens or closes (``rolls.live.presence``).

Close codes the page tells its reader about (static/js/table.js):

- 4401: no login, or the login the page connected with ended: logged out in that browser, the
  password changed or the account made inactive (``table_login_ended``, at once), or found
  ended at the socket's next lease renewal (a session expired or deleted). The page tries once
  more with whatever login its browser holds now;
- 4403: not a member of the table (the handshake is refused), or no longer one: a player removed
  (or leaving, or the campaign deleted) has every page of that table closed at once, on every
  worker (``table_membership_ended``);
- 4409: this user has ``SOCKETS_PER_USER`` table pages open already;
- 4410: this table has ``SOCKETS_PER_TABLE`` pages open already;
- 4429: the page sent more frames than a page ever needs (``FRAME_BURST``, ``FRAME_RATE``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from typing import Any

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings

from campaigns.live import campaign_group, login_mark, user_group, user_id_of
from campaigns.models import Campaign, GameSession
from config.overrides.consumer import DispatchWithoutConnectionCheck
from rolls import limits
from rolls.live import presence, socket_slots
from rolls.log.payload import for_viewer, roll_payload, unknown_to
from rolls.log.reading import ENTRY_RELATED
from rolls.log.rendered import entry_frame, reveal_frame
from rolls.models import Roll

logger = logging.getLogger(__name__)

# Refuse a replay request that would send an unbounded backlog in one go.
REPLAY_LIMIT = 500
CLOSE_LOGGED_OUT = 4401
CLOSE_NOT_A_MEMBER = 4403
CLOSE_TOO_MANY_OF_YOURS = 4409
CLOSE_TABLE_FULL = 4410
CLOSE_FLOOD = 4429
SERVER_STOPPING = 1012  # the code of uvicorn's close of every socket as it stops (a restart)
# A page sends one "since" per (re)connect and one per page of a long replay (a 20,000-entry
# backlog is 40 pages), and a frame per roll where rolls go over the socket: 40 at once and 5 a
# second after that is beyond any page. Counted per socket, before a frame is even parsed.
FRAME_BURST = settings.SOCKET_FRAME_BURST
FRAME_RATE = float(settings.SOCKET_FRAME_RATE)
# The longest frame a page sends is {"type": "since", "session": N, "seq": N}. Refusing longer
# ones unparsed also bounds how deep a nested frame can go.
MAX_FRAME_CHARS = 256
# Ids are 64-bit and seqs 32-bit in the database; a larger number never reaches a query.
MAX_ID = 2**63 - 1
MAX_SEQ = 2**31 - 1
_LANGUAGES = {code for code, _name in settings.LANGUAGES}


# Every database call below is a database_sync_to_async, which tidies old connections itself.
class TableConsumer(DispatchWithoutConnectionCheck, AsyncJsonWebsocketConsumer):
    async def __call__(self, scope, receive, send) -> None:
        """The socket's whole life; whatever ends it gives back what it held (``_leave``).

        A send to a page that has gone raises an ``OSError`` (ASGI; uvicorn's
        ``ClientDisconnected``), which the server swallows: the consumer then ends without the
        ``websocket.disconnect`` that runs ``disconnect()``, and its lease renewed itself for as
        long as the process lived (20 such pages left a user refused for good, issue 23). So the
        leaving is done here, in ``finally``, and the lost page is just a closed page.
        """
        self.joined: list[str] = []
        self.closing = False
        self.server_stopping = False
        try:
            await super().__call__(scope, receive, send)
        except OSError:
            logger.debug("a table page went away while the server was sending to it")
        finally:
            await self._leave()

    async def dispatch(self, message: dict[str, Any]) -> None:
        if self.closing and message["type"].startswith("table."):
            return  # the server closed this page: events already queued for it stay unsent
        await super().dispatch(message)

    async def connect(self) -> None:
        user = self.scope.get("user")
        self.campaign_id = int(self.scope["url_route"]["kwargs"]["campaign_id"])
        self.allowance, self.counted_at = float(FRAME_BURST), time.monotonic()
        if user is None or not user.is_authenticated:
            # Accepted to be closed with a code, so that the page can say why (below).
            await self._refuse(CLOSE_LOGGED_OUT, "not logged in")
            return
        # Before membership is read: a removal or a logout committed after that read reaches
        # this page as an event (and closes it); one committed before, the read refuses.
        self.real_id = user.pk  # the login: its budgets, its places, its end
        for group in self._own_groups(user):
            await self._join(group)
        self.session_key = self.scope["session"].session_key
        membership, lease = await self._admit(user)
        if membership is None:
            await self.close(code=CLOSE_NOT_A_MEMBER)
            return
        if isinstance(lease, str):
            code = CLOSE_TOO_MANY_OF_YOURS if lease.startswith("user:") else CLOSE_TABLE_FULL
            await self._refuse(code, "too many table pages open")
            return
        self.lease = lease
        self.renewing: asyncio.Task | None = None
        self._renew_later()
        # Whose eyes the page reads the table with: the user's own (the GM's view of a player's
        # table reads it with the player's, rolls.live.view_as).
        self.user_id, self.is_gm = membership[2], membership[0]
        # What the presence list needs of the campaign, not the campaign: a socket holds only
        # what it uses (memory per socket, docs/performance.md).
        self.gm_id = membership[1].gm_id
        self.language = self._language()
        self.shows_presence = self._query("presence") == "1"
        self.sent: dict[int, int] = {}  # session id -> highest seq sent to this page
        self.held: list[dict[str, Any]] | None = []  # live events until the page says "since"
        # Sealed entries revealed since the socket opened, by (session, seq): sent as revealed
        # whenever they are sent, and sent again (``reveal``) where already sent sealed.
        self.revealed: dict[tuple[int, int], dict[str, Any]] = {}
        self.held_reveals: list[dict[str, Any]] = []
        # Join first, then read: a roll committed in between arrives as an event and is dropped
        # as a duplicate, never lost.
        await self._join(campaign_group(self.campaign_id))
        if self.shows_presence:
            await self._join(presence.group(self.campaign_id))
        await self.accept()
        await self._announce_presence()

    async def _refuse(self, code: int, reason: str) -> None:
        # Accept, then close: a refused handshake reaches the page as a bare 1006, and the page
        # could not say why or stop retrying.
        await self.accept()
        self.closing = True  # frames already on their way are dropped unread
        await self.close(code=code, reason=reason)

    async def _join(self, group: str) -> None:
        self.joined.append(group)
        await self.channel_layer.group_add(group, self.channel_name)

    async def disconnect(self, code: int) -> None:
        self.server_stopping = code == SERVER_STOPPING
        await self._leave()

    async def _leave(self) -> None:
        """Leave the groups, stop renewing and give the lease back; once, however it ended."""
        joined, self.joined = self.joined, []
        for group in joined:
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except Exception:  # the layer is down: its group entries expire by themselves
                logger.warning("could not leave the table group %s", group, exc_info=True)
        lease = getattr(self, "lease", None)
        if lease is None:
            return
        self.lease = None
        self.renewal.cancel()
        if self.renewing is not None:
            self.renewing.cancel()
        try:
            await sync_to_async(socket_slots.release, thread_sensitive=False)(lease)
        except Exception:  # the cache is down: the lease runs out within two periods
            logger.warning("could not give back a table socket's lease", exc_info=True)
        await self._announce_presence(left=True)

    #: Whether this page seats its user at the table (presence): the GM's view of a player's
    #: table seats nobody.
    seated = True

    def _own_groups(self, user) -> list[str]:
        """The user's own groups this page hears (calls, logouts, removals)."""
        return [user_group(user.pk)]

    async def _announce_presence(self, left: bool = False) -> None:
        """Tell every page of the table who is at it now, soon after a page opens or closes.

        Best effort: a database or cache that is down loses one update, never the socket.
        """
        if not self.seated:
            return
        try:
            if left:
                await sync_to_async(presence.left, thread_sensitive=False)(
                    self.campaign_id, self.user_id
                )
                if self.server_stopping:
                    # Its pages come back within a second or so of the restart and say who is
                    # here then. Telling hundreds of pages that leave too of each one that left
                    # only kept the server from stopping, for seconds (docs/performance.md).
                    return
            presence.tell_the_table_soon(self.campaign_id, self.gm_id)
        except Exception:
            logger.warning("could not announce who is at table %s", self.campaign_id, exc_info=True)

    def _renew_later(self) -> None:
        """Keep this socket counted, once a period, at a moment of its own within the period.

        A timer, not a task that sleeps: a waiting task and its frame cost every open socket
        about 2 KiB (docs/performance.md); the task lives only while it renews.
        """
        spread = random.uniform(0, socket_slots.period_seconds() / 2)
        delay = socket_slots.seconds_to_next_period() + spread
        self.renewal = asyncio.get_running_loop().call_later(delay, self._renew_now)

    def _renew_now(self) -> None:
        self.renewing = asyncio.create_task(self._renew_lease())

    async def _renew_lease(self) -> None:
        try:
            still_in = await database_sync_to_async(self._renew_and_check)()
        except Exception:  # the cache or database is down: try again next period, the socket stays
            logger.warning("could not renew a table socket's lease", exc_info=True)
            still_in = True
        self.renewing = None  # this task ends here: leaving must not cancel it under itself
        if not still_in:
            await self._end(CLOSE_LOGGED_OUT, "the login this page used has ended")
        elif self.lease is not None:
            self._renew_later()

    def _renew_and_check(self) -> bool:
        """Renew the lease; whether the page's login still holds, read as HTTP reads it each
        request: what ended without an event (a session expired or deleted) ends here too."""
        socket_slots.renew(self.lease)
        return user_id_of(self.session_key) == self.real_id

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kw):
        """Every frame: counted against the budget first, then parsed, then answered."""
        if self.closing:
            return  # closed (a cap, a flood): frames still in flight are dropped unread
        now = time.monotonic()
        self.allowance = min(FRAME_BURST, self.allowance + (now - self.counted_at) * FRAME_RATE)
        self.counted_at = now
        if self.allowance < 1:
            self.closing = True
            logger.info("closed a table socket of user %s for flooding", self.real_id)
            await self.close(code=CLOSE_FLOOD, reason="too many messages")
            return
        self.allowance -= 1
        if bytes_data is not None or not text_data:
            await self._error("send text frames holding JSON")
            return
        if len(text_data) > MAX_FRAME_CHARS:
            await self._error(f"a frame is at most {MAX_FRAME_CHARS} characters")
            return
        try:
            content = json.loads(text_data)
        except (ValueError, RecursionError):
            await self._error("a frame must be JSON")
            return
        await self.receive_json(content)

    async def receive_json(self, content: Any, **kwargs) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "ping":
            await self.send_json({"type": "pong"})
        elif kind == "since":
            await self._replay(content.get("session"), content.get("seq"))
        else:
            await self._error('a frame is {"type": "since", ...} or {"type": "ping"}')

    async def _error(self, message: str) -> None:
        await self.send_json({"type": "error", "message": message})

    async def _replay(self, session_id: Any, since: Any) -> None:
        """Send the entries after ``since``, then release the live events held meanwhile.

        ``session`` null means the page shows no session (none is running): nothing to replay.
        """
        more = False
        if session_id is not None:
            if not _whole(session_id, 1, MAX_ID) or not _whole(since, 0, MAX_SEQ):
                await self._error("bad since request")
                return
            if await self._replays_spent() >= settings.REPLAY_ENTRY_LIMIT:
                await self._replay_later()
                return
            found = await self._entries_after(session_id, since)
            if found is None:
                await self._error("no such session")
                return
            last_seq, payloads = found
            if since > last_seq:
                # The page shows more than the log holds: it cannot be told what it missed.
                await self._error(f"since is beyond the session's last entry ({last_seq})")
                return
            if payloads and not await self._spend_replay(len(payloads)):
                await self._replay_later()
                return
            self.sent[session_id] = max(self.sent.get(session_id, since), since)
            for payload in payloads:
                await self._send_entry(payload)
            more = bool(payloads) and payloads[-1]["seq"] < last_seq
        held, self.held = self.held or [], None
        if more:
            # Sending a held entry past this page would mark the entries between as sent, and
            # the page's next "since" would skip them. They are all in the log: the next page
            # of the replay (or a live event's gap filling) sends them in order.
            held = []
        for payload in held:
            await self._send_entry(payload)
        reveals, self.held_reveals = self.held_reveals, []
        for payload in reveals:
            await self._send_reveal(payload)
        await self.send_json(
            {
                "type": "synced",
                "session": session_id,
                "seq": self.sent.get(session_id, 0),
                "more": more,
            }
        )

    async def _replay_later(self) -> None:
        """This user's pages replayed their budget of entries (rolls.limits): ask again then."""
        await self.send_json(
            {
                "type": "error",
                "message": "replaying too much at once; ask again shortly",
                "retry": max(1, round(limits.seconds_to_next_window())),
            }
        )

    async def _replays_spent(self) -> int:
        return await sync_to_async(limits.spent, thread_sensitive=False)("replay", self.real_id)

    async def _spend_replay(self, entries: int) -> bool:
        return await sync_to_async(limits.spend, thread_sensitive=False)(
            "replay", self.real_id, entries, settings.REPLAY_ENTRY_LIMIT
        )

    async def table_roll(self, event: dict[str, Any]) -> None:
        payload = event["payload"]
        if self.held is not None:
            self.held.append(payload)
            return
        last = self.sent.get(payload["session_id"])
        if last is not None and payload["seq"] > last + 1:
            # An entry before this one was lost or overtaken on the way (a channel layer
            # drops messages when full, and two workers may broadcast out of order): the log
            # has every entry, so send the missing ones from it first, in order.
            _last_seq, missing = await self._entries_after(payload["session_id"], last) or (0, [])
            for entry in missing:
                await self._send_entry(entry)
        await self._send_entry(payload)

    async def table_reveal(self, event: dict[str, Any]) -> None:
        """Sealed entries were revealed (``rolls.actions.reveal``): a page that shows one shows
        it again as its user may see it now; one that has not got it yet gets it revealed."""
        for payload in event["payloads"]:
            self.revealed[(payload["session_id"], payload["seq"])] = payload
            if self.held is not None:
                self.held_reveals.append(payload)
            else:
                await self._send_reveal(payload)

    async def _send_reveal(self, payload: dict[str, Any]) -> None:
        if payload["seq"] > self.sent.get(payload["session_id"], 0):
            return  # not sent yet: it goes out revealed in its turn (``_send_entry``)
        if unknown_to(payload, self.user_id, self.is_gm):
            return  # a line this page never got (a whisper to someone else) stays unknown
        await self.send(
            text_data=reveal_frame(for_viewer(payload, self.user_id, self.is_gm), self.language)
        )

    async def table_session(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "session", "session": event["session"]})

    async def table_scene(self, event: dict[str, Any]) -> None:
        await self.send_json(
            {"type": "scene", "session": event["session"], "scene": event["scene"]}
        )

    async def table_turn(self, event: dict[str, Any]) -> None:
        """The fight's turn or round changed (rolls.turns.fight): the panels and the party
        follow."""
        await self.send_json({k: v for k, v in event.items() if k != "type"} | {"type": "turn"})

    async def table_presence(self, event: dict[str, Any]) -> None:
        """Who is at the table changed: the list, rendered here (no query) in the page's words."""
        await self.send(text_data=presence.frame(event["people"], event["at"], self.language))

    async def table_membership_ended(self, event: dict[str, Any]) -> None:
        """The user is no longer a member of a table (sent to the user's own group): if it is
        this page's, the page is closed as a stranger's would be refused, and hears nothing more.
        """
        if event["campaign"] == self.campaign_id:
            await self._end(CLOSE_NOT_A_MEMBER, "no longer a member of this table")

    async def table_login_ended(self, event: dict[str, Any]) -> None:
        """A login of the user ended (sent to the user's own group): this login's pages close
        (a logout), or every page of the user (``login`` None: a password set, an account made
        inactive), so that a page hears nothing more than its browser may see."""
        if event["login"] in (None, login_mark(self.session_key)):
            await self._end(CLOSE_LOGGED_OUT, "the login this page used has ended")

    async def _end(self, code: int, reason: str) -> None:
        """Close the page from the server's side, once: it hears nothing more from now on."""
        if self.closing:
            return
        self.closing = True
        await self._leave()
        await self.close(code=code, reason=reason)

    async def table_sheet(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "sheet", "character": event["character"]})

    async def table_pending(self, event: dict[str, Any]) -> None:
        """A pending test changed (sent to the player's own group only)."""
        sent = {k: v for k, v in event.items() if k not in ("type", "user")}
        await self.send_json(sent | {"type": "pending"})

    async def table_group(self, event: dict[str, Any]) -> None:
        """A group test changed (rolls.group): every page of the table fetches it again."""
        await self.send_json({k: v for k, v in event.items() if k != "type"} | {"type": "group"})

    async def _send_entry(self, payload: dict[str, Any]) -> None:
        session_id, seq = payload["session_id"], payload["seq"]
        if seq <= self.sent.get(session_id, 0):
            return  # already sent: replay and live event overlapped
        self.sent[session_id] = seq
        if unknown_to(payload, self.user_id, self.is_gm):
            return  # not for this page at all (a whisper to someone else): counted as sent
        # A live event read before its entry was revealed: the revealed one is the entry now.
        payload = self.revealed.get((session_id, seq), payload)
        await self.send(
            text_data=entry_frame(for_viewer(payload, self.user_id, self.is_gm), self.language)
        )

    def _language(self) -> str:
        value = self._query("lang")
        return value if value in _LANGUAGES else settings.LANGUAGE_CODE

    def _query(self, wanted: str) -> str | None:
        query = self.scope.get("query_string", b"").decode()
        for part in query.split("&"):
            name, _, value = part.partition("=")
            if name == wanted:
                return value
        return None

    @database_sync_to_async
    def _admit(
        self, user
    ) -> tuple[tuple[bool, Campaign, int] | None, socket_slots.Lease | str | None]:
        """Whether the page reads as the GM, the campaign and whose eyes it reads with (None:
        not a member), and the socket's lease.

        The lease is a scope's name instead when that scope has all its sockets open already.
        """
        campaign = Campaign.objects.for_member(user).filter(pk=self.campaign_id).first()
        if campaign is None:
            return None, None
        return (campaign.is_gm(user), campaign, user.pk), self._take_lease(user)

    def _take_lease(self, user) -> socket_slots.Lease | str:
        scopes = {
            f"user:{user.pk}": settings.SOCKETS_PER_USER,
            f"table:{self.campaign_id}": settings.SOCKETS_PER_TABLE,
        }
        if self.seated:
            # Never the one that is full: a user's pages of one table are among all theirs.
            scopes[presence.seat(self.campaign_id, user.pk)] = settings.SOCKETS_PER_USER
        return socket_slots.take(scopes)

    @database_sync_to_async
    def _entries_after(
        self, session_id: int, since: int
    ) -> tuple[int, list[dict[str, Any]]] | None:
        """The session's last seq and its entries after ``since``; None for a foreign session."""
        last_seq = (
            GameSession.objects.filter(pk=session_id, campaign_id=self.campaign_id)
            .values_list("last_seq", flat=True)
            .first()
        )
        if last_seq is None:
            return None
        if since >= last_seq:
            return last_seq, []
        rolls = (
            Roll.objects.filter(session_id=session_id, seq__gt=since)
            .select_related(*ENTRY_RELATED)
            .order_by("seq")[:REPLAY_LIMIT]
        )
        return last_seq, [roll_payload(roll) for roll in rolls]


def _whole(value: Any, lowest: int, highest: int) -> bool:
    """A JSON whole number in range; ``true`` and ``1.0`` are not numbers of entries."""
    return type(value) is int and lowest <= value <= highest
