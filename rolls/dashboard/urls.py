"""The GM's dashboard: the page and its live parts, the party and pending tests, calling and
changing a test, quick NPCs; and the GM's tools on it (after a free roll, readings, awards, a
character's turn and a new round, an NPC's test), and opposed tests: the GM starts one and rolls
an NPC's side, a side's owner settles theirs (their answer is the dashboard's pending list)."""

from django.urls import path

from rolls.dashboard import gm_views, live_parts, opposed_views, views

urlpatterns = [
    path("dashboard/", views.dashboard, name="dashboard"),
    path("dashboard/live/", live_parts.dashboard_live, name="dashboard_live"),
    path("dashboard/meta/", views.dashboard_meta, name="dashboard_meta"),
    path("dashboard/party/", views.dashboard_party, name="dashboard_party"),
    path("dashboard/pending/", views.dashboard_pending, name="dashboard_pending"),
    path("dashboard/characters/<int:pk>/call/", views.call_test, name="call_test"),
    path("pending/<int:pending_id>/change/", views.change_test, name="change_test"),
    path("pending/<int:pending_id>/cancel/", views.cancel_test, name="cancel_test"),
    path(
        "pending/<int:pending_id>/after/<slug:kind>/",
        views.follow_rolled_test,
        name="follow_rolled_test",
    ),
    path("dashboard/npcs/", views.quick_npc, name="dashboard_quick_npc"),
    path("dashboard/gm-readings/", gm_views.gm_readings_box, name="gm_readings_box"),
    path(
        "dashboard/rolls/<int:roll_id>/gm/<slug:kind>/",
        gm_views.follow_free_roll,
        name="gm_follow_free_roll",
    ),
    path("dashboard/awards/", gm_views.awards_panel, name="awards_panel"),
    path("dashboard/awards/xp/", gm_views.award_xp, name="award_xp"),
    path(
        "dashboard/awards/experience-die/",
        gm_views.award_experience_die,
        name="award_experience_die",
    ),
    path("dashboard/characters/<int:pk>/turn/", gm_views.turn_start, name="turn_start"),
    path("dashboard/round/", gm_views.new_round, name="new_round"),
    path("dashboard/npcs/<int:pk>/roll/", gm_views.npc_roll, name="npc_roll"),
    path("dashboard/npcs/<int:pk>/roll/form/", gm_views.npc_roll_box, name="npc_roll_box"),
    path("dashboard/opposed/", opposed_views.start_opposed, name="start_opposed"),
    path(
        "dashboard/opposed/<int:opposed_id>/npc-roll/",
        opposed_views.roll_npc_side,
        name="opposed_npc_roll",
    ),
    path("opposed/<int:opposed_id>/settle/", opposed_views.settle_side, name="opposed_settle"),
]
