"""The post-apocalyptic 2d6 (RULES.md section 5) as one ``System``."""

from __future__ import annotations

from campaigns import demo_twod6
from campaigns.systems import BaseSystem, register
from rolls import npc_rolls
from rolls.engine import twod6 as engine
from rolls.panels import twod6 as panel
from sheets.systems import twod6 as sheet


class TwoD6(BaseSystem):
    key = "2d6"
    position = 5
    engine = engine
    sheet = sheet
    panel = panel
    demo = demo_twod6
    facts = ("total", "success_points", "failure_points", "automatic")
    gm_controls = panel.GM_CONTROLS

    def npc_fields(self):
        return npc_rolls.TWOD6_FIELDS

    def npc_params(self, values):
        return npc_rolls.twod6_params(values)


SYSTEM = register(TwoD6())
