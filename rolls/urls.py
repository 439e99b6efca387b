from django.urls import path, re_path

from rolls import views

urlpatterns = [
    path("log/", views.session_log, name="session_log"),
    path("sessions/start/", views.session_start, name="session_start"),
    path("sessions/<int:session_id>/", views.session_detail, name="session_detail"),
    path("sessions/<int:session_id>/end/", views.session_end, name="session_end"),
    path("sessions/<int:session_id>/scenes/new/", views.scene_new, name="scene_new"),
    re_path(
        r"^sessions/(?P<session_id>[0-9]+)/log\.(?P<fmt>md|csv|json)$",
        views.session_export,
        name="session_export",
    ),
]

from rolls import panel_views  # noqa: E402

urlpatterns += [
    path("characters/<int:pk>/test/", panel_views.test_panel, name="test_panel"),
    path("characters/<int:pk>/test/roll/", panel_views.test_roll, name="test_roll"),
    path(
        "characters/<int:pk>/rolls/<int:roll_id>/<slug:kind>/",
        panel_views.test_follow_up,
        name="test_follow_up",
    ),
]

from rolls import dashboard  # noqa: E402

urlpatterns += [
    path("dashboard/", dashboard.dashboard, name="dashboard"),
    path("dashboard/party/", dashboard.dashboard_party, name="dashboard_party"),
    path("dashboard/pending/", dashboard.dashboard_pending, name="dashboard_pending"),
    path("dashboard/characters/<int:pk>/call/", dashboard.call_test, name="call_test"),
    path("pending/<int:pending_id>/change/", dashboard.change_test, name="change_test"),
    path("pending/<int:pending_id>/cancel/", dashboard.cancel_test, name="cancel_test"),
    path("dashboard/npcs/", dashboard.quick_npc, name="dashboard_quick_npc"),
]
