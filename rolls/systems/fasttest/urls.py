"""FastTest's own views (the GM's, ``gm_views``; the sheet page's, ``sheet_views``), FastTest's
``System.urls``: ``rolls.urls`` adds every system's to the campaign's URLs, under
``c/<campaign_id>/`` like ``sheets.urls``, so the paths and names are global (the templates name
them only where the rules offer them)."""

from __future__ import annotations

from django.urls import path

from rolls.systems.fasttest import gm_views, sheet_views

urlpatterns = [
    path("dashboard/after-roll/", gm_views.after_roll_strip, name="after_roll_strip"),
    path("dashboard/rolls/<int:roll_id>/wound/", gm_views.apply_wound, name="apply_wound"),
    path("dashboard/rolls/<int:roll_id>/magic-die/", gm_views.magic_die, name="gm_magic_die"),
    path(
        "dashboard/rolls/<int:roll_id>/experience-die/",
        gm_views.roll_experience_die,
        name="roll_experience_die",
    ),
    path("dashboard/characters/<int:pk>/rest/", gm_views.night_rest, name="night_rest"),
]

# The sheet page's wound tracker and development (paths as they were under sheets.urls).
urlpatterns += [
    path(
        "characters/<int:pk>/wounds/",
        sheet_views.character_wound_add,
        name="character_wound_add",
    ),
    path(
        "characters/<int:pk>/wounds/<int:index>/",
        sheet_views.character_wound_change,
        name="character_wound_change",
    ),
    path("characters/<int:pk>/develop/", sheet_views.character_develop, name="character_develop"),
]
