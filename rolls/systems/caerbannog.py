"""Caerbannog 2026 (RULES.md section 4) as one ``System``."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from campaigns import demo_caerbannog
from campaigns.forms import CaerbannogSettings
from campaigns.systems import BaseSystem, register
from rolls import npc_rolls, party
from rolls.engine import caerbannog as engine
from rolls.panels import caerbannog as panel
from sheets.models import Character
from sheets.systems import caerbannog as sheet


class Caerbannog(BaseSystem):
    key = "caerbannog"
    position = 4
    engine = engine
    sheet = sheet
    panel = panel
    demo = demo_caerbannog
    # RULES.md: the seed lacks these tables; the GM fills them in, empty by default.
    # pd_rozmach: [{"pd": int, "rozmach": int}], reaction_costs: [{"reaction": str, "cost": int}]
    settings_defaults = {"pd_rozmach": [], "reaction_costs": []}
    facts = ("kept", "result", "przebicia", "rozmach_gained", "rozmach", "heroic_cost")
    gm_controls = panel.GM_CONTROLS
    has_follow_ups = True
    xp_path = ("resources", "pd")
    xp_title = gettext_lazy("PD (experience points)")
    settings_template = "campaigns/settings/caerbannog.html"

    def vitals(self, data):
        return party.caerbannog_vitals(data)

    def follow_ups(self, roll, character, campaign):
        return panel.follow_ups(roll, character, campaign)

    def build_follow_up(self, kind, roll, character, campaign, choices):
        return panel.build_follow_up(kind, roll, character, campaign, choices)

    def npc_fields(self):
        return npc_rolls.CAERBANNOG_FIELDS

    def npc_params(self, values):
        return npc_rolls.caerbannog_params(values)

    def settings_form(self, campaign, settings, data=None):
        return CaerbannogSettings(data, settings=settings)

    def scene_started(self, campaign, scene):
        # RULES.md (Caerbannog): the Rozmach pool goes back to 0 at the end of each scene.
        for character in Character.objects.select_for_update().filter(campaign=campaign):
            resources = character.data.get("resources")
            if isinstance(resources, dict) and resources.get("rozmach", 0) != 0:
                resources["rozmach"] = 0
                character.save(update_fields=["data", "updated_at"])


SYSTEM = register(Caerbannog())
