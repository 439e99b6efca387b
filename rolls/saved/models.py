"""A pinned test (``rolls.saved``); Django finds it through ``rolls.models``."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class SavedTest(models.Model):
    """``choices``: the test panel's choices as posted ({name: [values]}), without the request's
    own fields (key, visibility, a called test's revision)."""

    character = models.ForeignKey(
        "sheets.Character", on_delete=models.CASCADE, related_name="saved_tests"
    )
    name = models.CharField(max_length=60)
    choices = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["character", "name"], name="one_saved_test_per_name")
        ]
        verbose_name = _("saved test")
        verbose_name_plural = _("saved tests")

    def __str__(self) -> str:
        return f"{self.name} ({self.character_id})"

    def fields(self) -> list[tuple[str, str]]:
        """The choices as (name, value) pairs, for the hidden fields of its one-click form."""
        return [(name, value) for name, values in self.choices.items() for value in values]
