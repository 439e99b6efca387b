"""Character sheet URLs, under ``c/<campaign_id>/``."""

from django.urls import path

from sheets import views

urlpatterns = [
    path("characters/new/", views.character_create, name="character_create"),
    path("characters/totals/", views.character_totals, name="character_totals"),
    path("characters/import/", views.character_import, name="character_import"),
    path("characters/<int:pk>/", views.character_detail, name="character_detail"),
    path("characters/<int:pk>/paper/", views.character_paper, name="character_paper"),
    path("characters/<int:pk>/export/", views.character_export, name="character_export"),
    path("characters/<int:pk>/delete/", views.character_delete, name="character_delete"),
    path(
        "characters/<int:pk>/section/<slug:section>/",
        views.character_section,
        name="character_section",
    ),
]
