"""An opposed test's two sides and its result (``rolls.opposed``); Django finds it through
``rolls.models``, which lists every model of the app."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class OpposedTest(models.Model):
    """Two sides of one opposed test (RULES.md: FastTest, 2d6, Caerbannog), started by the GM.

    Each side is a character's pending test or, on one side only, an NPC with its own numbers
    (``npc_params``, the engine's), rolled by the GM: the opponent's side, or the initiator's when
    ``initiator`` is None (the NPC acts, the character resists).
    Each player shapes and rolls their own side as any called test; once both have rolled,
    ``result`` is the one log entry (kind "opposed") that says who won.
    """

    class Status(models.TextChoices):
        OPEN = "open", _("waiting for the rolls")
        RESOLVED = "resolved", _("resolved")
        CANCELLED = "cancelled", _("called off")

    session = models.ForeignKey(
        "campaigns.GameSession", on_delete=models.CASCADE, related_name="opposed_tests"
    )
    # None: the NPC is the initiator (its numbers below), and ``opponent`` the character resisting.
    initiator = models.OneToOneField(
        "rolls.PendingTest",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="opposed_as_initiator",
    )
    opponent = models.OneToOneField(
        "rolls.PendingTest",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="opposed_as_opponent",
    )
    npc = models.ForeignKey(
        "sheets.NPC", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    npc_name = models.CharField(max_length=120, blank=True)
    npc_params = models.JSONField(default=dict, blank=True)
    npc_sources = models.JSONField(default=list, blank=True)
    npc_roll = models.OneToOneField(
        "rolls.Roll", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    result = models.OneToOneField(
        "rolls.Roll", on_delete=models.PROTECT, null=True, blank=True, related_name="opposed_test"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    # Caerbannog (``OpposedRules.settle_in_turn``): once both have rolled, the initiator settles
    # their modifiers and reveals the final result, then the opponent; the result waits for both.
    initiator_settled = models.BooleanField(default=False)
    opponent_settled = models.BooleanField(default=False)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("opposed test")
        verbose_name_plural = _("opposed tests")

    def __str__(self) -> str:
        return f"opposed #{self.pk} ({self.status})"
