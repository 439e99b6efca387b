"""FastTest's applied wounds in the admin (``rolls.admin`` imports each system's ``admin``):
records of what the GM applied after a roll (``rolls.systems.fasttest.wounds``)."""

from __future__ import annotations

from django.contrib import admin

from rolls.systems.fasttest.models import AppliedWound


@admin.register(AppliedWound)
class AppliedWoundAdmin(admin.ModelAdmin):
    list_display = ["roll", "target", "severity", "test_outcome", "wound_removed", "created_at"]
    list_filter = ["target", "severity"]
    list_select_related = ["roll"]
    readonly_fields = ["roll", "wound_test"]
