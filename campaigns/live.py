"""The live table's channel groups and broadcasts: a campaign's group (every page open on its
table) and each user's own (their pages only). Events are sent once the transaction commits, so
a page never shows something that did not happen."""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction


def campaign_group(campaign_id: int) -> str:
    return f"campaign-{campaign_id}"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def membership_ended(sender, instance, **kwargs) -> None:
    """A member left, was removed, or their campaign or account was deleted: once that commits,
    their open pages of that table are closed, on every worker (the table's consumer hears this
    in the user's own group). Connected to ``post_delete`` of ``Membership`` (campaigns.apps),
    which a campaign's or a user's deletion sends for each membership it takes with it."""
    broadcast_on_commit(
        user_group(instance.user_id),
        {"type": "table.membership_ended", "campaign": instance.campaign_id},
    )


def broadcast(group: str, event: dict[str, Any]) -> None:
    async_to_sync(get_channel_layer().group_send)(group, event)


def broadcast_on_commit(group: str, event: dict[str, Any]) -> None:
    transaction.on_commit(lambda: broadcast(group, event))
