"""Dice without a sheet: quick dice, and the GM's random tables (their editing, import, export
and rolls, and the dashboard's box of them)."""

from django.urls import path

from rolls.tables import quick_dice, views

urlpatterns = [
    path("quick-dice/", quick_dice.quick_roll, name="quick_roll"),
    path("tables/", views.tables, name="random_tables"),
    path("tables/defaults/", views.table_defaults, name="random_table_defaults"),
    path("tables/import/", views.table_import, name="random_table_import"),
    path("tables/<int:pk>/", views.table_edit, name="random_table_edit"),
    path("tables/<int:pk>/delete/", views.table_delete, name="random_table_delete"),
    path("tables/<int:pk>/roll/", views.table_roll, name="random_table_roll"),
    path("dashboard/tables/", views.tables_box, name="random_tables_box"),
    path("tables/<int:pk>/export.csv", views.table_export, {"fmt": "csv"}, name="random_table_csv"),
    path(
        "tables/<int:pk>/export.json",
        views.table_export,
        {"fmt": "json"},
        name="random_table_json",
    ),
]
