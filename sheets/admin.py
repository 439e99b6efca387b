from django.contrib import admin

from sheets.models import NPC, Character


@admin.register(Character)
class CharacterAdmin(admin.ModelAdmin):
    list_display = ["name", "campaign", "owner", "updated_at"]
    list_filter = ["campaign__system"]
    search_fields = ["name", "owner__username", "campaign__name"]


@admin.register(NPC)
class NPCAdmin(admin.ModelAdmin):
    list_display = ["name", "campaign", "revealed"]
    list_filter = ["revealed", "campaign__system"]
    search_fields = ["name", "campaign__name"]
