"""Conditions the GM puts on a character and clears, the sheet's list of them, and the options
a roll may take after it (the dashboard's box, the GM's choice, a counter-move)."""

from django.urls import path

from rolls.conditions import views

urlpatterns = [
    path(
        "dashboard/characters/<int:pk>/conditions/add/",
        views.add_condition,
        name="add_condition",
    ),
    path(
        "dashboard/conditions/<int:condition_id>/clear/",
        views.clear_condition,
        name="clear_condition",
    ),
    path(
        "characters/<int:pk>/conditions/",
        views.character_conditions,
        name="character_conditions",
    ),
    path("dashboard/options/", views.options_box, name="roll_options_box"),
    path("dashboard/rolls/<int:roll_id>/options/", views.choose_options, name="choose_options"),
    path("dashboard/rolls/<int:roll_id>/counter-move/", views.counter_move, name="counter_move"),
]
