"""Caerbannog's own views, Caerbannog's ``System.urls``: the GM applies a test's result from the
dashboard (``rolls.systems.caerbannog.consequence_views``) and boosts an NPC's test with the
NPCs' shared Rozmach (``npc_views``). ``rolls.urls`` adds every system's to the campaign's
URLs, under ``c/<campaign_id>/``."""

from __future__ import annotations

from django.urls import path

from rolls.systems.caerbannog import consequence_views, npc_views

urlpatterns = [
    path("dashboard/results/", consequence_views.results_box, name="caerbannog_results_box"),
    path(
        "dashboard/rolls/<int:roll_id>/apply-result/",
        consequence_views.apply_result,
        name="caerbannog_apply_result",
    ),
    path(
        "dashboard/rolls/<int:roll_id>/npc-boost/",
        npc_views.npc_boost,
        name="caerbannog_npc_boost",
    ),
]
