from django.contrib import admin

from campaigns.models import Campaign, Membership


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ["name", "system", "gm", "created_at"]
    list_filter = ["system"]
    search_fields = ["name", "gm__username"]
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["campaign", "user", "role", "joined_at"]
    list_filter = ["role"]
    search_fields = ["campaign__name", "user__username"]
