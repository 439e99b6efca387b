"""Group tests: the screen every participant and the GM share, and each step of one."""

from django.urls import path

from rolls.group import views

urlpatterns = [
    path("group/", views.group_page, name="group_test"),
    path("group/section/", views.group_section, name="group_section"),
    path("group/cue/", views.group_cue, name="group_cue"),
    path("group/start/", views.group_start, name="group_start"),
    path("group/<int:group_id>/add/", views.group_add, name="group_add"),
    path("group/<int:group_id>/remove/", views.group_remove, name="group_remove"),
    path("group/<int:group_id>/offer/", views.group_offer, name="group_offer"),
    path("group/<int:group_id>/answer/", views.group_answer, name="group_answer"),
    path("group/<int:group_id>/withdraw/", views.group_withdraw, name="group_withdraw"),
    path("group/<int:group_id>/roll/", views.group_roll, name="group_roll"),
    path("group/<int:group_id>/boost/", views.group_boost, name="group_boost"),
    path("group/<int:group_id>/reroll/", views.group_reroll, name="group_reroll"),
    path("group/<int:group_id>/settle/", views.group_settle, name="group_settle"),
    path("group/<int:group_id>/cancel/", views.group_cancel, name="group_cancel"),
]
