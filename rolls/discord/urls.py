"""The campaign's Discord bridge: its page (the GM's) and its state, refreshed in place."""

from django.urls import path

from rolls.discord import views

urlpatterns = [
    path("discord/", views.bridge_page, name="discord_bridge"),
    path("discord/state/", views.bridge_state, name="discord_state"),
]
