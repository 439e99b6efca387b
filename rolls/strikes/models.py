"""A struck entry (``rolls.strikes``); Django finds it through ``rolls.models``, which lists
every model of the app."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Strike(models.Model):
    """The GM struck ``roll`` (never edited itself) with ``reason``; ``entry`` is the log's
    entry that says so (kind "struck", a follow-up of ``roll``)."""

    roll = models.OneToOneField("rolls.Roll", on_delete=models.PROTECT, related_name="strike")
    entry = models.OneToOneField(
        "rolls.Roll", on_delete=models.PROTECT, related_name="strike_entry_of"
    )
    # The seq of ``entry``, so an entry shows who struck it with which entry without a join.
    entry_seq = models.PositiveIntegerField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    by_name = models.CharField(max_length=150)
    reason = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("struck entry")
        verbose_name_plural = _("struck entries")

    def __str__(self) -> str:
        return f"#{self.roll_id} struck by {self.by_name}: {self.reason}"
