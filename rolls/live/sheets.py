"""Every saved change to a character reaches the table's pages: the GM's dashboard refreshes the
party, open sheets of that character refresh. One receiver, so no write path can forget it."""

from __future__ import annotations

from campaigns.live import broadcast_on_commit, campaign_group


def character_saved(sender, instance, created: bool, **kwargs) -> None:
    broadcast_on_commit(
        campaign_group(instance.campaign_id), {"type": "table.sheet", "character": instance.pk}
    )
