"""The GM's writes to the campaign's bridge: connect (or replace) the webhook, test it, switch it
off and on, remove it."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import Campaign
from rolls.discord import outbox, webhook
from rolls.discord.models import DiscordBridge, DiscordPost


@transaction.atomic
def connect(campaign: Campaign, *, url: str, language: str, site: str) -> DiscordBridge:
    """Post the campaign's public log to the webhook ``url`` (``webhook.BadWebhook`` when it is
    none the server may post to), in ``language``, linking back to ``site``; a test message
    says in the channel that it works (one, however often the GM connects while it waits)."""
    webhook.check(url)
    bridge, _created = DiscordBridge.objects.update_or_create(
        campaign=campaign,
        defaults={
            "webhook_url": url.strip(),
            "language": language,
            "site": site,
            "active": True,
            "gone": False,
            "failures": 0,
            "failing_since": None,
            "next_try_at": None,
            "last_error": "",
        },
    )
    outbox.queue_test(bridge)
    return bridge


@transaction.atomic
def send_test(bridge: DiscordBridge) -> bool:
    """Queue a test message; False when one still waits to be delivered."""
    return outbox.queue_test(bridge)


@transaction.atomic
def switch(bridge: DiscordBridge, *, on: bool) -> None:
    """Switch the bridge on or off. Off, nothing is posted: what waited is dropped, so switching
    it on again never posts an old evening into the channel."""
    DiscordBridge.objects.filter(pk=bridge.pk).update(active=on)
    if not on:
        DiscordPost.objects.filter(bridge=bridge, sent_at=None, dropped="").update(
            dropped=_("the GM switched the bridge off")
        )


def remove(bridge: DiscordBridge) -> None:
    bridge.delete()
