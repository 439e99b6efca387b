from django.contrib import admin

from rolls.models import PendingTest, Roll


@admin.register(Roll)
class RollAdmin(admin.ModelAdmin):
    """Read-only: log entries are never edited or deleted, not even here."""

    list_display = ["session", "seq", "system", "kind", "actor", "character_name", "visibility"]
    list_filter = ["system", "kind", "visibility"]
    list_select_related = ["session", "actor"]
    search_fields = ["label", "character_name", "actor__username"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(PendingTest)
class PendingTestAdmin(admin.ModelAdmin):
    list_display = ["character", "session", "status", "revision", "updated_at"]
    list_filter = ["status"]
    list_select_related = ["character", "session"]
    readonly_fields = ["revision", "roll"]
