"""The GM's NPC trait lists, under ``c/<campaign_id>/npcs/``."""

from django.urls import path

from sheets import npc_views

urlpatterns = [
    path("", npc_views.npc_list, name="npc_list"),
    path("quick/", npc_views.npc_quick_create, name="npc_quick_create"),
    path("new/", npc_views.npc_create, name="npc_create"),
    path("<int:pk>/edit/", npc_views.npc_edit, name="npc_edit"),
    path("<int:pk>/reveal/", npc_views.npc_reveal, name="npc_reveal"),
    path("<int:pk>/delete/", npc_views.npc_delete, name="npc_delete"),
]
