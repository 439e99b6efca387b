"""The turn order: setting it (with its dice), the next turn and round, the bar every page shows.
The GM's card starting one character's turn and a new round are the dashboard's
(``rolls.dashboard.urls``)."""

from django.urls import path

from rolls.turns import views

urlpatterns = [
    path("dashboard/order/", views.set_order, name="turn_order"),
    path("dashboard/order/next-turn/", views.next_turn, name="turn_next"),
    path("dashboard/order/next-round/", views.next_round, name="round_next"),
    path("turn/", views.turn_bar, name="turn_bar"),
]
