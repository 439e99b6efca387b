"""The T10 pool of Moorcrest (RULES.md section 3) as one ``System``."""

from __future__ import annotations

from campaigns import demo_t10
from campaigns.systems import BaseSystem, register
from rolls import npc_rolls
from rolls.engine import t10 as engine
from rolls.panels import t10 as panel
from sheets.systems import t10 as sheet


class T10(BaseSystem):
    key = "t10"
    position = 3
    engine = engine
    sheet = sheet
    panel = panel
    demo = demo_t10
    facts = ("result", "severity", "extra_options")
    gm_controls = panel.GM_CONTROLS

    def npc_fields(self):
        return npc_rolls.T10_FIELDS

    def npc_params(self, values):
        return npc_rolls.t10_params(values)


SYSTEM = register(T10())
