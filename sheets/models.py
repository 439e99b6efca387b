"""Characters and the GM's NPC trait lists.

A character's system-specific numbers live in ``data``, a JSON document that the system's module
in ``sheets.systems`` validates; the engine only ever receives plain values taken from it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from campaigns.models import Campaign


class Character(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="characters")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="characters"
    )
    name = models.CharField(_("name"), max_length=120)
    data = models.JSONField(_("sheet"), default=dict)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["campaign", "name", "pk"]
        verbose_name = _("character")
        verbose_name_plural = _("characters")

    def __str__(self) -> str:
        return self.name


class NPC(models.Model):
    """An NPC written as a trait list: each trait a name and its dice (a bare name is 1); in a
    system that allows it, with full stats too, rolled by the GM like a player's test."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="npcs")
    name = models.CharField(_("name"), max_length=120)
    traits = models.JSONField(_("traits"), default=list)
    # Full stats like a player's (FastTest allows both kinds of NPC): {"attributes": {name: n},
    # "skills": {name: n}}, empty for an NPC that is only its trait list.
    stats = models.JSONField(_("stats"), default=dict, blank=True)
    notes = models.TextField(_("notes"), blank=True)
    revealed = models.BooleanField(_("shown to players"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "name", "pk"]
        verbose_name = _("NPC")
        verbose_name_plural = _("NPCs")

    def __str__(self) -> str:
        return self.name
