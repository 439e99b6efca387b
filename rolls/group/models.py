"""A group test's participants and its result (``rolls.group``); Django finds it through
``rolls.models``, which lists every model of the app."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class GroupTest(models.Model):
    """A group test (RULES.md: Caerbannog, section 4 point 9): an initiator and their helpers.

    The GM or the initiator's player gathers the helpers; each participant's dice are rolled for
    them (one log entry each, kind "group_die"); ``result`` is the one entry (kind "group") read
    from everyone's dice. ``members`` holds, initiator first, each participant's character, the
    skill and die they test with, their category bonus, their faces once rolled, the seq of their
    roll and whether they boost (rolls.group). ``revision`` grows with every change, so a page
    acting on what it showed is refused once the test has moved on.
    """

    class Status(models.TextChoices):
        GATHERING = "gathering", _("gathering helpers")
        ROLLING = "rolling", _("rolling")
        RESOLVED = "resolved", _("resolved")
        CANCELLED = "cancelled", _("called off")

    session = models.ForeignKey(
        "campaigns.GameSession", on_delete=models.CASCADE, related_name="group_tests"
    )
    difficulty = models.PositiveSmallIntegerField(default=0)
    ease = models.SmallIntegerField(default=0)
    members = models.JSONField(default=list)
    # Helpers their players offered while the test gathers (rolls.group.actions.offer_help):
    # each a participant as ``members`` holds one, and whether those who gather declined it.
    offers = models.JSONField(default=list, blank=True)
    revision = models.PositiveIntegerField(default=1)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.GATHERING)
    result = models.OneToOneField(
        "rolls.Roll", on_delete=models.PROTECT, null=True, blank=True, related_name="group_test"
    )
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("group test")
        verbose_name_plural = _("group tests")

    def __str__(self) -> str:
        return f"group #{self.pk} ({self.status})"
