"""The Discord bridge of a campaign and its outbox; Django finds them through ``rolls.models``."""

from __future__ import annotations

from django.db import models
from django.db.models.functions import Now
from django.utils.translation import gettext_lazy as _


class DiscordBridge(models.Model):
    """A campaign's webhook and how its delivery goes.

    ``lease_owner`` and ``lease_until``: the courier delivering now (one process at a time, so
    several workers never post one entry twice). ``next_try_at``: nothing is sent before it (a
    rate limit, a back-off after errors). ``gone``: Discord said the webhook no longer exists,
    and the bridge waits for the GM to paste a new one."""

    campaign = models.OneToOneField(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="discord"
    )
    # The webhook's URL holds its token: shown to nobody, not even the GM after saving.
    webhook_url = models.CharField(max_length=300)
    # The posts' language (each member reads the table in their own; the channel in one).
    language = models.CharField(max_length=10)
    # Where the links back to the table point: the address the GM connected from.
    site = models.CharField(max_length=200)
    active = models.BooleanField(default=True)
    gone = models.BooleanField(default=False)
    lease_owner = models.CharField(max_length=64, blank=True)
    lease_until = models.DateTimeField(null=True, blank=True)
    next_try_at = models.DateTimeField(null=True, blank=True)
    failures = models.PositiveIntegerField(default=0)
    failing_since = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True)
    last_delivered_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("Discord bridge")
        verbose_name_plural = _("Discord bridges")

    def __str__(self) -> str:
        return f"Discord bridge of campaign {self.campaign_id}"


class DiscordPost(models.Model):
    """One thing to tell the channel, queued with what it tells: an ``entry`` of the log, an
    ``edit`` of an entry's post (the entry was struck), the session ``started`` or ``ended``,
    a ``turn`` (``facts``: the round and whose turn), the GM's ``test`` message, or the
    session's ``recap`` (rolls.recap) after its end, counted from its public entries.

    ``message_id`` is Discord's message that carries it (several posts share one when they were
    sent together); ``sent_at`` once Discord took it; ``dropped`` says why Discord refused it."""

    class Kind(models.TextChoices):
        ENTRY = "entry"
        EDIT = "edit"
        STARTED = "started"
        ENDED = "ended"
        TURN = "turn"
        TEST = "test"
        RECAP = "recap"

    bridge = models.ForeignKey(DiscordBridge, on_delete=models.CASCADE, related_name="posts")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    roll = models.ForeignKey("rolls.Roll", on_delete=models.CASCADE, null=True, related_name="+")
    session = models.ForeignKey(
        "campaigns.GameSession", on_delete=models.CASCADE, null=True, related_name="+"
    )
    # The database fills what a log entry's post leaves out: it is queued by one INSERT ...
    # SELECT, with the roll (``outbox.queue_entry``).
    facts = models.JSONField(null=True, blank=True)
    message_id = models.CharField(max_length=30, blank=True, db_default="")
    sent_at = models.DateTimeField(null=True, blank=True)
    dropped = models.CharField(max_length=300, blank=True, db_default="")
    created_at = models.DateTimeField(db_default=Now())

    class Meta:
        ordering = ["pk"]
        indexes = [models.Index(fields=["bridge", "sent_at", "id"], name="discord_post_queue")]
        verbose_name = _("Discord post")
        verbose_name_plural = _("Discord posts")

    def __str__(self) -> str:
        return f"{self.kind} post {self.pk}"
