"""Campaigns, who plays in them, and their invite links."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from campaigns.systems import system_choices
from rolls.engine import fair


def new_invite_token() -> str:
    return secrets.token_urlsafe(24)


class CampaignQuerySet(models.QuerySet):
    def for_member(self, user) -> CampaignQuerySet:
        """Campaigns the user plays in or runs; everything else is a 404 for them."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(memberships__user=user)


class Campaign(models.Model):
    name = models.CharField(_("name"), max_length=120)
    system = models.CharField(_("rule system"), max_length=20, choices=system_choices)
    gm = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="campaigns_run",
        verbose_name=_("game master"),
    )
    # Null when the GM has revoked the link; regenerating replaces it, so old links die.
    invite_token = models.CharField(
        max_length=64, unique=True, null=True, blank=True, default=new_invite_token
    )
    settings = models.JSONField(_("settings"), default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = CampaignQuerySet.as_manager()

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = _("campaign")
        verbose_name_plural = _("campaigns")

    def __str__(self) -> str:
        return self.name

    def is_gm(self, user) -> bool:
        return user.is_authenticated and user.pk == self.gm_id

    @property
    def rules(self):
        """The campaign's rule system (``campaigns.systems.System``): templates read its flags."""
        from campaigns.systems import get_system

        return get_system(self.system)


class Membership(models.Model):
    class Role(models.TextChoices):
        GM = "gm", _("game master")
        PLAYER = "player", _("player")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.PLAYER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="one_membership_per_user")
        ]
        ordering = ["campaign", "role", "user__username"]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")

    def __str__(self) -> str:
        return f"{self.user} in {self.campaign} ({self.role})"


class GameSessionQuerySet(models.QuerySet):
    def open(self) -> GameSessionQuerySet:
        return self.filter(ended_at__isnull=True)

    def open_of(self, campaign_id: int) -> GameSession | None:
        """The campaign's open session, else None: ``open().filter(campaign=...).first()``
        (there is at most one), in plain SQL. Every roll asks, and the ORM's query built in
        Python cost five times the database's answer. Whatever this queryset filters, the
        answer is the campaign's (call it on the manager)."""
        return next(iter(self.raw(_OPEN_OF, [campaign_id])), None)


_OPEN_OF = 'SELECT * FROM "campaigns_gamesession" WHERE "campaign_id" = %s AND "ended_at" IS NULL'


class GameSession(models.Model):
    """A game night. Its rolls are numbered 1, 2, 3... by ``last_seq``, without gaps."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="sessions")
    title = models.CharField(_("title"), max_length=120, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    # The seq of the newest log entry; bumped under a row lock by rolls.actions.
    last_seq = models.PositiveIntegerField(default=0)
    # Fair dice (ENGINE.md): every roll's dice come from this secret seed, published once the
    # session has ended; its SHA-256, the commitment, is shown from the start. Not editable, so
    # no admin form shows it; read it through ``published_seed``, never directly in a page.
    seed = models.CharField(max_length=64, default=fair.new_seed, editable=False)
    commitment = models.CharField(max_length=64, editable=False)

    objects = GameSessionQuerySet.as_manager()

    class Meta:
        ordering = ["-started_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign"],
                condition=models.Q(ended_at__isnull=True),
                name="one_open_session_per_campaign",
            )
        ]
        verbose_name = _("game session")
        verbose_name_plural = _("game sessions")

    def __str__(self) -> str:
        return self.title or f"{self.campaign} #{self.pk}"

    def __repr__(self) -> str:
        return f"<GameSession {self.pk}: {self}>"  # never the seed, not even in a traceback

    def save(self, *args, **kwargs) -> None:
        if not self.commitment:
            self.commitment = fair.commitment(self.seed)
        super().save(*args, **kwargs)

    @property
    def is_open(self) -> bool:
        return self.ended_at is None

    @property
    def published_seed(self) -> str | None:
        """The seed once the session has ended (for pages and exports), else None."""
        return None if self.is_open else self.seed


class Scene(models.Model):
    """A scene within a session. AST: the GM's challenge points are per scene."""

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="scenes")
    number = models.PositiveIntegerField()
    title = models.CharField(_("title"), max_length=120, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    challenge_points = models.PositiveIntegerField(_("challenge points left"), default=0)

    class Meta:
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="one_scene_per_number")
        ]
        verbose_name = _("scene")
        verbose_name_plural = _("scenes")

    def __str__(self) -> str:
        return self.title or _("Scene %(number)s") % {"number": self.number}
