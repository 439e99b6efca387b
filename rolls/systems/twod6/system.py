"""The post-apocalyptic 2d6 (RULES.md section 5) as one ``System``."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from campaigns.systems import BaseSystem, register
from rolls.conditions.in_force import ConditionRules
from rolls.dashboard.npc_rolls import NpcTests
from rolls.engine import twod6 as engine
from rolls.opposed.rules import OpposedRules, Outcome
from rolls.systems.twod6 import demo as demo_twod6
from rolls.systems.twod6 import gm_forms as gm_forms  # registers the category modifier
from rolls.systems.twod6 import npc_test, panel
from rolls.systems.twod6.rules_page import PAGE as RULES_PAGE
from sheets.systems import twod6 as sheet


def _resolved(roll):
    params = engine.parse_params(roll.params)
    return engine.resolve(params, engine.parse_faces(params, roll.faces))


def opposed_outcome(_engine, a_roll, b_roll) -> Outcome:
    """RULES.md: success points against failure points; the resisting side ("b") wins ties."""
    result = engine.opposed(_resolved(a_roll), _resolved(b_roll))
    return Outcome(result.winner, result.margin)


# RULES.md: both sides test against the same difficulty, which the GM gives.
OPPOSED = OpposedRules(win_odds=engine.win_odds, resolve=opposed_outcome, shared_difficulty=True)


class TwoD6(BaseSystem):
    #: RULES.md 5 (issue 15): a circumstance modifier lasting beyond one test is a condition of
    #: its category, joining the others before the category's clamp. The rules name none of
    #: their own, so the GM types them.
    parts = (
        OPPOSED,
        ConditionRules(effects=sheet.CATEGORY_LABELS),
        NpcTests(npc_test.FIELDS, npc_test.params),
    )

    key = "2d6"
    name = gettext_lazy("Post-apocalyptic 2d6")
    position = 5
    engine = engine
    sheet = sheet
    panel = panel
    demo = demo_twod6
    rules_page = RULES_PAGE
    facts = ("total", "success_points", "failure_points", "automatic")
    gm_controls = panel.GM_CONTROLS

    def view(self, data):
        return sheet.view(data)


SYSTEM = register(TwoD6())
