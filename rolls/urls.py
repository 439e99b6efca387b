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

from rolls import cues  # noqa: E402
from rolls.chat import views as chat_views  # noqa: E402
from rolls.panels import views as panel_views  # noqa: E402
from rolls.saved import views as saved_views  # noqa: E402
from rolls.strikes import views as strike_views  # noqa: E402
from rolls.tables import quick_dice  # noqa: E402
from rolls.turns import views as turn_views  # noqa: E402

urlpatterns += [
    path("characters/<int:pk>/test/", panel_views.test_panel, name="test_panel"),
    path("calls/", cues.my_calls, name="my_calls"),
    path("characters/<int:pk>/test/roll/", panel_views.test_roll, name="test_roll"),
    path(
        "characters/<int:pk>/rolls/<int:roll_id>/options/",
        panel_views.test_options,
        name="test_options",
    ),
    path(
        "characters/<int:pk>/rolls/<int:roll_id>/<slug:kind>/",
        panel_views.test_follow_up,
        name="test_follow_up",
    ),
    path("quick-dice/", quick_dice.quick_roll, name="quick_roll"),
    path("chat/", chat_views.say_line, name="say_line"),
    path("characters/<int:pk>/pinned/", saved_views.pinned_tests, name="pinned_tests"),
    path("characters/<int:pk>/pinned/pin/", saved_views.pin_test, name="pin_test"),
    path(
        "characters/<int:pk>/pinned/<int:saved_id>/unpin/",
        saved_views.unpin_test,
        name="unpin_test",
    ),
    path("dashboard/strike/", strike_views.strike_entry, name="strike_entry"),
    path("dashboard/order/", turn_views.set_order, name="turn_order"),
    path("dashboard/order/next-turn/", turn_views.next_turn, name="turn_next"),
    path("dashboard/order/next-round/", turn_views.next_round, name="round_next"),
    path("turn/", turn_views.turn_bar, name="turn_bar"),
]

from rolls.dashboard import live_parts  # noqa: E402
from rolls.dashboard import views as dashboard  # noqa: E402

urlpatterns += [
    path("dashboard/", dashboard.dashboard, name="dashboard"),
    path("dashboard/live/", live_parts.dashboard_live, name="dashboard_live"),
    path("dashboard/meta/", dashboard.dashboard_meta, name="dashboard_meta"),
    path("dashboard/party/", dashboard.dashboard_party, name="dashboard_party"),
    path("dashboard/pending/", dashboard.dashboard_pending, name="dashboard_pending"),
    path("dashboard/characters/<int:pk>/call/", dashboard.call_test, name="call_test"),
    path("pending/<int:pending_id>/change/", dashboard.change_test, name="change_test"),
    path("pending/<int:pending_id>/cancel/", dashboard.cancel_test, name="cancel_test"),
    path(
        "pending/<int:pending_id>/after/<slug:kind>/",
        dashboard.follow_rolled_test,
        name="follow_rolled_test",
    ),
    path("dashboard/npcs/", dashboard.quick_npc, name="dashboard_quick_npc"),
]

# The GM's tools on the dashboard: after a free roll, awards, conditions, turns, an NPC's test.
from rolls.conditions import views as condition_views  # noqa: E402
from rolls.dashboard import gm_views  # noqa: E402

urlpatterns += [
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
    path(
        "dashboard/characters/<int:pk>/conditions/add/",
        condition_views.add_condition,
        name="add_condition",
    ),
    path(
        "dashboard/conditions/<int:condition_id>/clear/",
        condition_views.clear_condition,
        name="clear_condition",
    ),
    path(
        "characters/<int:pk>/conditions/",
        condition_views.character_conditions,
        name="character_conditions",
    ),
    path("dashboard/options/", condition_views.options_box, name="roll_options_box"),
    path(
        "dashboard/rolls/<int:roll_id>/options/",
        condition_views.choose_options,
        name="choose_options",
    ),
    path(
        "dashboard/rolls/<int:roll_id>/counter-move/",
        condition_views.counter_move,
        name="counter_move",
    ),
    path("dashboard/characters/<int:pk>/turn/", gm_views.turn_start, name="turn_start"),
    path("dashboard/round/", gm_views.new_round, name="new_round"),
    path("dashboard/npcs/<int:pk>/roll/", gm_views.npc_roll, name="npc_roll"),
    path("dashboard/npcs/<int:pk>/roll/form/", gm_views.npc_roll_box, name="npc_roll_box"),
]

# The GM's random tables (rolls.tables.views).
from rolls.tables import views as table_views  # noqa: E402

urlpatterns += [
    path("tables/", table_views.tables, name="random_tables"),
    path("tables/defaults/", table_views.table_defaults, name="random_table_defaults"),
    path("tables/import/", table_views.table_import, name="random_table_import"),
    path("tables/<int:pk>/", table_views.table_edit, name="random_table_edit"),
    path("tables/<int:pk>/delete/", table_views.table_delete, name="random_table_delete"),
    path("tables/<int:pk>/roll/", table_views.table_roll, name="random_table_roll"),
    path("dashboard/tables/", table_views.tables_box, name="random_tables_box"),
    path(
        "tables/<int:pk>/export.csv",
        table_views.table_export,
        {"fmt": "csv"},
        name="random_table_csv",
    ),
    path(
        "tables/<int:pk>/export.json",
        table_views.table_export,
        {"fmt": "json"},
        name="random_table_json",
    ),
]

# Opposed tests (rolls.opposed): the GM starts one and rolls an NPC's side.
from rolls.dashboard import opposed_views  # noqa: E402

urlpatterns += [
    path("dashboard/opposed/", opposed_views.start_opposed, name="start_opposed"),
    path(
        "dashboard/opposed/<int:opposed_id>/npc-roll/",
        opposed_views.roll_npc_side,
        name="opposed_npc_roll",
    ),
    path("opposed/<int:opposed_id>/settle/", opposed_views.settle_side, name="opposed_settle"),
]

# Group tests (rolls.group.views): the screen every participant and the GM share.
from rolls.group import views as group_views  # noqa: E402

urlpatterns += [
    path("group/", group_views.group_page, name="group_test"),
    path("group/section/", group_views.group_section, name="group_section"),
    path("group/cue/", group_views.group_cue, name="group_cue"),
    path("group/start/", group_views.group_start, name="group_start"),
    path("group/<int:group_id>/add/", group_views.group_add, name="group_add"),
    path("group/<int:group_id>/remove/", group_views.group_remove, name="group_remove"),
    path("group/<int:group_id>/offer/", group_views.group_offer, name="group_offer"),
    path("group/<int:group_id>/answer/", group_views.group_answer, name="group_answer"),
    path("group/<int:group_id>/withdraw/", group_views.group_withdraw, name="group_withdraw"),
    path("group/<int:group_id>/roll/", group_views.group_roll, name="group_roll"),
    path("group/<int:group_id>/boost/", group_views.group_boost, name="group_boost"),
    path("group/<int:group_id>/reroll/", group_views.group_reroll, name="group_reroll"),
    path("group/<int:group_id>/settle/", group_views.group_settle, name="group_settle"),
    path("group/<int:group_id>/cancel/", group_views.group_cancel, name="group_cancel"),
]

# Each rule system's own views, its ``System.urls`` (rolls/systems/<key>/urls.py): the GM's tools
# only its rules have. This module is loaded at the first resolve, once rolls.apps.ready has
# registered every system.
from campaigns.systems import all_systems  # noqa: E402

urlpatterns += [pattern for system in all_systems() for pattern in system.urls]
