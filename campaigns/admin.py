from django.contrib import admin

from campaigns.models import Campaign, GameSession, Membership, Scene


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ["name", "system", "gm", "created_at"]
    list_filter = ["system"]
    list_select_related = ["gm"]
    readonly_fields = ["created_at"]
    search_fields = ["name", "gm__username"]
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["campaign", "user", "role", "joined_at"]
    list_filter = ["role"]
    list_select_related = ["campaign", "user"]
    autocomplete_fields = ["user"]
    search_fields = ["campaign__name", "user__username"]


class SceneInline(admin.TabularInline):
    model = Scene
    extra = 0


@admin.register(GameSession)
class GameSessionAdmin(admin.ModelAdmin):
    list_display = ["__str__", "campaign", "started_at", "ended_at", "last_seq"]
    list_select_related = ["campaign"]
    readonly_fields = ["last_seq", "commitment"]  # never the seed: it stays secret (fair dice)
    inlines = [SceneInline]


@admin.register(Scene)
class SceneAdmin(admin.ModelAdmin):
    list_display = ["__str__", "session", "number", "challenge_points", "started_at"]
    list_select_related = ["session"]
