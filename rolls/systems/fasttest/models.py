"""FastTest's combat wound as the GM applied it after a roll (``rolls.systems.fasttest.wounds``);
Django finds it through ``rolls.models``, which lists every model of the app."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class AppliedWound(models.Model):
    """The combat wound the GM read from one FastTest roll: applied once, never twice.

    ``target`` says who took it: the roll's character (written on the sheet as ``label``) or the
    enemy (only shown to the GM). A wound that needs a wound test links the test the GM called;
    once that test is rolled, its reading (RULES.md, "Combat and wounds") is kept here.
    """

    class Target(models.TextChoices):
        PLAYER = "player", _("the player's character")
        ENEMY = "enemy", _("the enemy")

    roll = models.OneToOneField(
        "rolls.Roll", on_delete=models.PROTECT, related_name="applied_wound"
    )
    target = models.CharField(max_length=10, choices=Target.choices)
    severity = models.CharField(max_length=10)
    player_weapon = models.CharField(max_length=10)
    enemy_weapon = models.CharField(max_length=10)
    label = models.CharField(max_length=60, blank=True)
    armor = models.PositiveSmallIntegerField(default=0)
    wound_test = models.OneToOneField(
        "rolls.PendingTest",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="applied_wound",
    )
    test_outcome = models.CharField(max_length=10, blank=True)
    alive = models.BooleanField(null=True)
    conscious = models.BooleanField(null=True)
    wound_removed = models.BooleanField(default=False)
    applied_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("applied wound")
        verbose_name_plural = _("applied wounds")

    def __str__(self) -> str:
        return f"#{self.roll_id} {self.target} {self.severity}"
