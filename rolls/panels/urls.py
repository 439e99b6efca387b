"""A sheet's test panel: the panel, its roll, what may follow a roll; and the cue of the tests
the GM has called on the reader's characters (``rolls.cues``), which opens it."""

from django.urls import path

from rolls import cues
from rolls.panels import views

urlpatterns = [
    path("characters/<int:pk>/test/", views.test_panel, name="test_panel"),
    path("calls/", cues.my_calls, name="my_calls"),
    path("characters/<int:pk>/test/roll/", views.test_roll, name="test_roll"),
    path(
        "characters/<int:pk>/rolls/<int:roll_id>/options/",
        views.test_options,
        name="test_options",
    ),
    path(
        "characters/<int:pk>/rolls/<int:roll_id>/<slug:kind>/",
        views.test_follow_up,
        name="test_follow_up",
    ),
]
