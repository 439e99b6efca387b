"""The socket of the GM's read-only view of a player's table (campaigns/view_as.py).

The page of ``/view/<campaign>/<player>/...`` opens ``ws/view/<campaign>/<player>/``: the table's
socket (``TableConsumer``) reading every entry with the player's eyes (what the player may see,
redacted as for the player), and hearing the calls made to the player, while the login is the
GM's: checked on connect as the GM of that campaign viewing one of its players, its budgets,
places and end (a logout, a password set) the GM's. It seats nobody: neither the player nor the
GM shows at the table for it. Like every table socket it takes no write (a frame is ``since`` or
``ping``); the player leaving the table closes it as it closes the player's own pages.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async

from campaigns.live import user_group
from campaigns.models import Campaign
from campaigns.view_as import viewed_player
from rolls.live import socket_slots
from rolls.live.consumers import TableConsumer


class ViewAsConsumer(TableConsumer):
    seated = False

    def _player_id(self) -> int:
        return int(self.scope["url_route"]["kwargs"]["user_id"])

    def _own_groups(self, user) -> list[str]:
        # The GM's own (a logout ends this page) and the player's (a call made to them, their
        # removal), each heard only for what is its own (``dispatch``).
        return [user_group(user.pk), user_group(self._player_id())]

    async def dispatch(self, message: dict[str, Any]) -> None:
        to, kind = message.get("user"), message["type"]
        if kind == "table.login_ended" and to != self.real_id:
            return  # the player's logout ends the player's pages, not the GM's view
        if kind == "table.pending" and to != self._player_id():
            return  # a call the GM's pages hear and the player's do not
        await super().dispatch(message)

    @database_sync_to_async
    def _admit(
        self, user
    ) -> tuple[tuple[bool, Campaign, int] | None, socket_slots.Lease | str | None]:
        found = viewed_player(user, self.campaign_id, self._player_id())
        if found is None:
            return None, None
        campaign, player = found
        return (False, campaign, player.pk), self._take_lease(user)
