"""The table's websocket: one per open page, thin, read-only.

A client may only say "send me what I missed since N" (and ping). Everything else arrives over
HTTP through ``rolls.actions``; a consumer never relays a client's message to the group.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from campaigns.models import Campaign, GameSession
from rolls.actions import campaign_group, user_group
from rolls.models import Roll
from rolls.payload import for_viewer, roll_payload

# Refuse a replay request that would send an unbounded backlog in one go.
REPLAY_LIMIT = 500
_LANGUAGES = {code for code, _name in settings.LANGUAGES}
# Entries rendered by this process, newest last: every page of a table shows the same entry, so
# it is rendered once per language (and once redacted), not once per socket.
RENDERED_KEEP = 1000
_rendered: OrderedDict[tuple, str] = OrderedDict()


def rendered_entry(entry: dict[str, Any], language: str) -> str:
    """``rolls/_entry.html`` for this entry as one viewer may see it, from the cache if there.

    A roll is never edited, so its id and creation time say which roll it is; the time keeps a
    test database that reuses ids from reading another test's entry.
    """
    key = (entry["id"], entry["created_at"], entry["redacted"], language)
    html = _rendered.get(key)
    if html is None:
        with translation.override(language):
            html = render_to_string("rolls/_entry.html", {"entry": entry})
        _rendered[key] = html
        if len(_rendered) > RENDERED_KEEP:
            _rendered.popitem(last=False)
    return html


class TableConsumer(AsyncJsonWebsocketConsumer):
    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch without its ``aclose_old_connections`` before every message.

        That is a trip to a thread and back per delivered roll, a seventh of the server's time
        under load; this consumer reaches the database only through ``database_sync_to_async``,
        which tidies old connections itself.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        user = self.scope.get("user")
        self.campaign_id = int(self.scope["url_route"]["kwargs"]["campaign_id"])
        membership = await self._membership(user)
        if membership is None:
            await self.close(code=4403)
            return
        self.user_id, self.is_gm = user.pk, membership
        self.language = self._language()
        self.sent: dict[int, int] = {}  # session id -> highest seq sent to this page
        self.held: list[dict[str, Any]] | None = []  # live events until the page says "since"
        # Join first, then read: a roll committed in between arrives as an event and is dropped
        # as a duplicate, never lost.
        await self.channel_layer.group_add(campaign_group(self.campaign_id), self.channel_name)
        await self.channel_layer.group_add(user_group(self.user_id), self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "user_id"):
            await self.channel_layer.group_discard(
                campaign_group(self.campaign_id), self.channel_name
            )
            await self.channel_layer.group_discard(user_group(self.user_id), self.channel_name)

    async def receive_json(self, content: Any, **kwargs) -> None:
        if not isinstance(content, dict):
            return
        if content.get("type") == "ping":
            await self.send_json({"type": "pong"})
        elif content.get("type") == "since":
            await self._replay(content.get("session"), content.get("seq"))

    async def _replay(self, session_id: Any, since: Any) -> None:
        """Send the entries after ``since``, then release the live events held meanwhile.

        ``session`` null means the page shows no session (none is running): nothing to replay.
        """
        more = False
        if session_id is not None:
            if not isinstance(session_id, int) or not isinstance(since, int) or since < 0:
                await self.send_json({"type": "error", "message": "bad since request"})
                return
            payloads = await self._entries_after(session_id, since)
            if payloads is None:
                await self.send_json({"type": "error", "message": "no such session"})
                return
            self.sent[session_id] = max(self.sent.get(session_id, since), since)
            for payload in payloads:
                await self._send_entry(payload)
            more = len(payloads) == REPLAY_LIMIT
        held, self.held = self.held or [], None
        for payload in held:
            await self._send_entry(payload)
        await self.send_json(
            {
                "type": "synced",
                "session": session_id,
                "seq": self.sent.get(session_id, 0),
                "more": more,
            }
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
            for missing in await self._entries_after(payload["session_id"], last) or []:
                await self._send_entry(missing)
        await self._send_entry(payload)

    async def table_session(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "session", "session": event["session"]})

    async def table_scene(self, event: dict[str, Any]) -> None:
        await self.send_json(
            {"type": "scene", "session": event["session"], "scene": event["scene"]}
        )

    async def table_sheet(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "sheet", "character": event["character"]})

    async def table_pending(self, event: dict[str, Any]) -> None:
        """A pending test changed (sent to the player's own group only)."""
        await self.send_json({k: v for k, v in event.items() if k != "type"} | {"type": "pending"})

    async def _send_entry(self, payload: dict[str, Any]) -> None:
        session_id, seq = payload["session_id"], payload["seq"]
        if seq <= self.sent.get(session_id, 0):
            return  # already sent: replay and live event overlapped
        self.sent[session_id] = seq
        html = rendered_entry(for_viewer(payload, self.user_id, self.is_gm), self.language)
        await self.send_json({"type": "entry", "session": session_id, "seq": seq, "html": html})

    def _language(self) -> str:
        query = self.scope.get("query_string", b"").decode()
        for part in query.split("&"):
            name, _, value = part.partition("=")
            if name == "lang" and value in _LANGUAGES:
                return value
        return settings.LANGUAGE_CODE

    @database_sync_to_async
    def _membership(self, user) -> bool | None:
        """None for a non-member or anonymous user; else whether the user is the GM."""
        if user is None or not user.is_authenticated:
            return None
        campaign = Campaign.objects.for_member(user).filter(pk=self.campaign_id).first()
        return None if campaign is None else campaign.is_gm(user)

    @database_sync_to_async
    def _entries_after(self, session_id: int, since: int) -> list[dict[str, Any]] | None:
        if not GameSession.objects.filter(pk=session_id, campaign_id=self.campaign_id).exists():
            return None
        rolls = (
            Roll.objects.filter(session_id=session_id, seq__gt=since)
            .select_related("actor", "parent")
            .order_by("seq")[:REPLAY_LIMIT]
        )
        return [roll_payload(roll) for roll in rolls]
