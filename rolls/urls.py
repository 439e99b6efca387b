"""The rolls app's URLs under ``c/<campaign_id>/``: each feature's own ``urls.py``, then each
rule system's own views (its ``System.urls``, rolls/systems/<key>/urls.py), the GM's tools only
its rules have. This module is loaded at the first resolve, once rolls.apps.ready has registered
every system."""

from django.urls import include, path

from campaigns.systems import all_systems

FEATURES = (
    "sessions",
    "panels",
    "tables",
    "chat",
    "saved",
    "strikes",
    "turns",
    "dashboard",
    "conditions",
    "group",
    "discord",
    "recap",
)

urlpatterns = [
    *(path("", include(f"rolls.{feature}.urls")) for feature in FEATURES),
    *(path("", include(list(system.urls))) for system in all_systems() if system.urls),
]
