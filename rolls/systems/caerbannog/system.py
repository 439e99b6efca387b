"""Caerbannog 2026 (RULES.md section 4) as one ``System``."""

from __future__ import annotations

from contextlib import suppress
from dataclasses import replace

from django.db import transaction
from django.utils.translation import gettext_lazy

from campaigns.actions import ActionRefused
from campaigns.forms import CaerbannogSettings, OwnSettings
from campaigns.sessions import scene_started
from campaigns.system_settings import system_settings
from campaigns.systems import BaseSystem, register
from rolls.conditions.in_force import ConditionRules
from rolls.dashboard.awards import Experience
from rolls.dashboard.npc_rolls import NpcTests
from rolls.dashboard.system_boxes import Box, CardTools, DashboardBoxes
from rolls.engine import EngineError, caerbannog_opposed, caerbannog_pool
from rolls.engine import caerbannog as engine
from rolls.opposed.rules import OpposedRules, Outcome
from rolls.panels import FollowUps
from rolls.systems.caerbannog import (
    blind,
    consequences,
    follow_ups,
    gm_call,
    npc_rozmach,
    npc_test,
    panel,
    vitals,
)
from rolls.systems.caerbannog import demo as demo_caerbannog
from rolls.systems.caerbannog import group as group_rules
from rolls.systems.caerbannog.rules_page import PAGE as RULES_PAGE
from rolls.systems.caerbannog.urls import urlpatterns
from rolls.turns.fight import Turns
from sheets import actions as sheet_actions
from sheets.models import Character
from sheets.systems import caerbannog as sheet


def opposed_outcome(_engine, a_roll, b_roll) -> Outcome:
    """RULES.md: the initiator's result minus the opponent's is the success level; above 0 the
    initiator wins with that many successes, else the opponent resists."""
    a_params, b_params = engine.parse_params(a_roll.params), engine.parse_params(b_roll.params)
    # Heroic effort read its failure against the opponent's result as its difficulty (its
    # follow-up's, ``follow_ups``); the opposed test reads that result from the opponent's side
    # itself.
    a_params = replace(a_params, difficulty=0)
    try:
        result = caerbannog_opposed.opposed_test(a_params, a_roll.faces, b_params, b_roll.faces)
    except EngineError:
        # Heroic effort the initiator made on their own side's failure, where the opposed level
        # (against an opponent's result below 0) is a success without it: the level stands.
        a_params = replace(a_params, heroic=False)
        result = caerbannog_opposed.opposed_test(a_params, a_roll.faces, b_params, b_roll.faces)
    winner = "a" if result.success else "b"
    margin = result.level if result.success else -result.level
    return Outcome(winner, margin, "", {"level": result.level, "przebicia": result.przebicia})


#: The states the seed names (RULES.md 4, "Nakładanie stanu"), the GM's one-click list. A
#: state's strength is the result of the test that put it on (``consequences.apply_state``);
#: from the card it comes at strength 1. **Decision**: a state hinders each test it concerns as
#: one hindering factor (RULES.md 4.2: the side with more factors wins), whatever its strength;
#: the strength is what a defence later lowers, and it lasts until the GM clears it.
STATES = (
    {"key": "oszolomiony", "name": gettext_lazy("stunned (oszołomiony)"),
     "original": gettext_lazy("the state: stunned (stan oszołomiony)"),
     "effect": "hindering_state", "amount": 1, "scope": "all",
     "lasts": "hand"},
    {"key": "ogluszony", "name": gettext_lazy("dazed (ogłuszony)"),
     "original": gettext_lazy("the state: dazed (stan ogłuszenie)"),
     "effect": "hindering_state", "amount": 1, "scope": "all",
     "lasts": "hand"},
    {"key": "zmeczony", "name": gettext_lazy("tired (zmęczony)"),
     "original": gettext_lazy("tiredness (zmęczenie)"), "effect": "hindering_state",
     "amount": 1, "scope": "all",
     "lasts": "hand"},
)  # fmt: skip


# RULES.md 4.10: the opponent's result is the initiator's difficulty (both sides test at
# 0); both may roll at once, but the results are revealed in turn: the initiator settles
# their modifiers first, without the opponent's result, then the opponent.
OPPOSED = OpposedRules(
    win_odds=caerbannog_opposed.win_odds,
    resolve=opposed_outcome,
    fixed={"difficulty": 0},
    initiator_only=("heroic",),
    settle_in_turn=True,
    settles_both=("heroic",),
    reveals_in_turn=True,
    # docs/rules-decisions.md, "Decisions taken for these tests": heroic effort "if it
    # fails", declared as the initiator settles without the opponent's result, priced once
    # it is revealed.
    declared=blind.DECLARE,
)


def _turn_grant(character, campaign) -> dict:
    # RULES.md: in combat the PD table's Rozmach comes at the start of the character's turn;
    # the turn itself is marked either way (reactions come only outside it).
    grant = sheet.pd_rozmach(
        sheet.view(character.data).resource("pd"), system_settings(campaign)["pd_rozmach"]
    )
    return {"turn": {"grant": grant or 0}}


@transaction.atomic
def _turn_started(character, campaign):
    """The PD table's Rozmach, gained (capped at 10) at the start of a combat turn."""
    locked = Character.objects.select_for_update().get(pk=character.pk)
    locked.campaign = campaign
    view = sheet.view(locked.data)
    grant = sheet.pd_rozmach(view.resource("pd"), system_settings(campaign)["pd_rozmach"])
    if not grant:
        return None
    before = view.rozmach
    after = caerbannog_pool.gain(before, grant)
    try:
        saved = sheet_actions.set_numbers(locked, {("resources", "rozmach"): after})
    except sheet_actions.SheetRefused as error:
        raise ActionRefused(str(error)) from error
    character.data, character.updated_at = saved.data, saved.updated_at
    return grant, before, after


class Caerbannog(BaseSystem):
    #: The GM applies a test's result from the dashboard (consequence_views).
    urls = urlpatterns

    key = "caerbannog"
    name = "Caerbannog 2026"
    position = 4
    engine = engine
    sheet = sheet
    panel = panel
    demo = demo_caerbannog
    rules_page = RULES_PAGE
    # RULES.md: the seed lacks these tables; the GM fills them in, empty by default.
    # pd_rozmach: [{"pd": int, "rozmach": int}], reaction_costs: [{"reaction": str, "cost": int}]
    settings_defaults = {"pd_rozmach": [], "reaction_costs": [], npc_rozmach.SETTING: False}
    facts = ("kept", "result", "przebicia", "rozmach_gained", "rozmach", "heroic_cost")
    gm_controls = gm_call.GM_CONTROLS
    parts = (
        OPPOSED,
        # RULES.md point 9: an initiator and helpers, each boosting with their own pool.
        group_rules.RULES,
        # RULES.md 4.12 (NPCs and Rozmach): none by default, or one pool all the GM's NPCs
        # share, the campaign's setting.
        NpcTests(
            npc_test.FIELDS,
            npc_test.params,
            campaign_fields=npc_rozmach.reaction_field,
            at_roll=npc_rozmach.at_roll,
        ),
        DashboardBoxes(
            (
                # The GM applies a result (damage, healing, a state) from its entry (issue 15).
                Box("results", consequences.TEMPLATE, consequences.box_context),
                Box("npcs", npc_rozmach.TEMPLATE, npc_rozmach.box_context),
            )
        ),
        # RULES.md 4.12: reactions only outside the character's own turn, once per round.
        Turns(started=_turn_started),
        CardTools(_turn_grant),
        FollowUps(follow_ups.follow_ups, follow_ups.build_follow_up),
        # RULES.md 4 (issue 15): a state is a condition of its strength, hindering the tests it
        # concerns (one hindering factor each).
        ConditionRules(
            effects={"hindering_state": gettext_lazy("a state: hinders the test (strength)")},
            amounts=(1, 20),
            presets=STATES,
        ),
        OwnSettings(
            "systems/caerbannog/settings.html",
            lambda campaign, settings, data=None: CaerbannogSettings(data, settings=settings),
        ),
        Experience(
            path=("resources", "pd"),
            title=gettext_lazy("PD (experience points)"),
            unit=gettext_lazy("PD"),
            # RULES.md: "1 PD za każde stoczone wyzwanie i walkę", to every party member.
            hint=gettext_lazy("Every party member gains 1 PD per challenge and per fight."),
            occasions={
                "challenge": gettext_lazy("a challenge"),
                "fight": gettext_lazy("a fight"),
            },
        ),
    )

    def view(self, data):
        return sheet.view(data)

    def vitals(self, data):
        return vitals.vitals(self.view(data))

    def entry_facts(self, roll):
        # An NPC without Rozmach gains none: its entry says so instead (npc_rozmach).
        if npc_rozmach.hides_rozmach(roll):
            return tuple(fact for fact in self.facts if fact not in ("rozmach_gained", "rozmach"))
        return self.facts


SYSTEM = register(Caerbannog())


def _scene_started(sender, campaign, scene, **kwargs):
    # RULES.md (Caerbannog): the Rozmach pool goes back to 0 at the end of each scene, and
    # once the GM has filled the PD table each character starts the new one with the
    # Rozmach its PD grant (nothing while the table is empty: the seed does not print it).
    # The pool the GM's NPCs may share empties too.
    npc_rozmach.empty(campaign)
    table = system_settings(campaign)["pd_rozmach"]
    for character in Character.objects.select_for_update().filter(campaign=campaign):
        view = sheet.view(character.data)
        granted = sheet.pd_rozmach(view.resource("pd"), table) or 0
        if view.resources.get("rozmach", 0) != granted:
            character.campaign = campaign
            with suppress(sheet_actions.SheetRefused):
                # A sheet its schema already refuses is left as it is, not the scene.
                sheet_actions.set_numbers(character, {("resources", "rozmach"): granted})


scene_started.connect(_scene_started, sender=SYSTEM, dispatch_uid="caerbannog-rozmach")
