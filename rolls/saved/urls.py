"""A sheet's pinned tests: the list, pinning one, taking one away."""

from django.urls import path

from rolls.saved import views

urlpatterns = [
    path("characters/<int:pk>/pinned/", views.pinned_tests, name="pinned_tests"),
    path("characters/<int:pk>/pinned/pin/", views.pin_test, name="pin_test"),
    path(
        "characters/<int:pk>/pinned/<int:saved_id>/unpin/",
        views.unpin_test,
        name="unpin_test",
    ),
]
