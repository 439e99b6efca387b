"""A scene's turn order (``rolls.turns.order``); Django finds it through ``rolls.models``."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Combatant(models.Model):
    """One place in a scene's turn order: a character of the party or one of the GM's NPCs, and
    the number the GM gave it (higher acts first). The order ends with its scene, as the turns
    do; the GM sets it again as a whole, so its rows are only ever replaced."""

    scene = models.ForeignKey(
        "campaigns.Scene", on_delete=models.CASCADE, related_name="combatants"
    )
    # Its place in the order, from 1.
    place = models.PositiveIntegerField()
    character = models.ForeignKey(
        "sheets.Character", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    npc = models.ForeignKey(
        "sheets.NPC", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    initiative = models.SmallIntegerField(_("initiative"))

    class Meta:
        ordering = ["scene", "place"]
        constraints = [
            models.UniqueConstraint(fields=["scene", "place"], name="one_combatant_per_place"),
            models.CheckConstraint(
                condition=Q(character__isnull=True) ^ Q(npc__isnull=True),
                name="combatant_is_a_character_or_an_npc",
            ),
        ]
        verbose_name = _("combatant")
        verbose_name_plural = _("combatants")

    def __str__(self) -> str:
        return f"{self.place}. {self.character_id or ''}{self.npc_id or ''}"
