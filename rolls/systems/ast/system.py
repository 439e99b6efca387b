"""The Alternative Test System (RULES.md section 2) as one ``System``."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from campaigns.models import Membership
from campaigns.sessions import ChallengePoints
from campaigns.systems import BaseSystem, register
from rolls.conditions.in_force import ConditionRules
from rolls.dashboard.npc_rolls import NpcTests
from rolls.engine import ast as engine
from rolls.panels import FollowUps, GmFollowUps
from rolls.systems.ast import demo as demo_ast
from rolls.systems.ast import follow_ups as after
from rolls.systems.ast import npc_test, panel, vitals
from rolls.systems.ast.rules_page import PAGE as RULES_PAGE
from sheets.systems import ast as sheet


def _players(campaign) -> int:
    return Membership.objects.filter(campaign=campaign, role=Membership.Role.PLAYER).count()


class AST(BaseSystem):
    #: RULES.md 2.7 (issue 15): an outcome's temporary state is a condition, used and cleared
    #: by the next test it concerns: a positive one a white die, a negative one a test level.
    parts = (
        NpcTests(npc_test.FIELDS, npc_test.params),
        # RULES.md (AST): at the start of each scene the GM gets one point per player.
        ChallengePoints(_players),
        FollowUps(
            after.follow_ups,
            after.build_follow_up,
            # RULES.md (AST): hindered, the GM reads the white die (from the rolled test's card).
            gm=GmFollowUps(
                after.gm_follow_ups, after.build_gm_follow_up, after.GM_NOTHING_TO_CHOOSE
            ),
        ),
        ConditionRules(
            effects={
                "advantage": _("temporary advantage: white dice"),
                "hindrance": _("temporary hindrance: test level"),
            },
            amounts=(1, 10),
            presets=(
                {"key": "ast_advantage", "name": _("temporary advantage (tymczasowy atut)"),
                 "original": _("a temporary advantage (tymczasowy atut)"), "effect": "advantage",
                 "amount": 1, "scope": "all",
                 "lasts": "next_test"},
                {"key": "ast_hindrance", "name": _("temporary hindrance (tymczasowe utrudnienie)"),
                 "original": _("a temporary hindrance (tymczasowe utrudnienie)"),
                 "effect": "hindrance", "amount": 1,
                 "scope": "all", "lasts": "next_test"},
            ),
        ),
    )  # fmt: skip

    key = "ast"
    name = _("Alternative Test System")
    position = 2
    engine = engine
    sheet = sheet
    panel = panel
    demo = demo_ast
    rules_page = RULES_PAGE
    facts = ("level", "mode", "extra_and", "funt_gained")
    gm_controls = panel.GM_CONTROLS

    def engine_faces(self, dice):
        black = next(die["face"] for die in dice if die["group"] == "black")
        return {"black": black, "white": [die["face"] for die in dice if die["group"] == "white"]}

    def view(self, data):
        return sheet.view(data)

    def vitals(self, data):
        return vitals.vitals(self.view(data))


SYSTEM = register(AST())
