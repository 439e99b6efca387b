"""A game session's pages: its log and the log's earlier pages, its side panel and statistics,
starting and ending it, a new scene, the log's exports."""

from django.urls import path, re_path

from rolls.sessions import views

urlpatterns = [
    path("log/", views.session_log, name="session_log"),
    path("sessions/start/", views.session_start, name="session_start"),
    path("sessions/<int:session_id>/", views.session_detail, name="session_detail"),
    path(
        "sessions/<int:session_id>/log/earlier/",
        views.session_log_earlier,
        name="session_log_earlier",
    ),
    path("sessions/<int:session_id>/side/", views.session_side, name="session_side"),
    path("sessions/<int:session_id>/stats/", views.session_stats, name="session_stats"),
    path("sessions/<int:session_id>/end/", views.session_end, name="session_end"),
    path("sessions/<int:session_id>/scenes/new/", views.scene_new, name="scene_new"),
    re_path(
        r"^sessions/(?P<session_id>[0-9]+)/log\.(?P<fmt>md|csv|json)$",
        views.session_export,
        name="session_export",
    ),
]
