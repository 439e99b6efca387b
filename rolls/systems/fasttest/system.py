"""FastTest (RULES.md section 1) as one ``System``: what the table needs of it, in one place."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from campaigns.actions import settings_saved
from campaigns.forms import FastTestSettingsForm, OwnSettings
from campaigns.sessions import session_ended
from campaigns.system_settings import DEFAULT_FASTTEST_SKILLS, system_settings
from campaigns.systems import BaseSystem, register
from rolls.conditions.in_force import ConditionRules
from rolls.dashboard import awards
from rolls.dashboard.awards import Experience
from rolls.dashboard.npc_rolls import NpcTests
from rolls.dashboard.system_boxes import Box, CardTools, DashboardBoxes
from rolls.engine import fasttest as engine
from rolls.engine import fasttest_opposed
from rolls.engine.fasttest_sheet import end_session_xp
from rolls.opposed.rules import OpposedRules, Outcome
from rolls.panels import FollowUps
from rolls.pending.actions import CalledTestKind, after_pending_roll
from rolls.systems.fasttest import (
    KEY,
    magic_die,
    npc_test,
    panel,
    rest,
    states,
    strip,
    vitals,
    wounds,
)
from rolls.systems.fasttest import demo as demo_fasttest
from rolls.systems.fasttest.rules_page import PAGE as RULES_PAGE
from rolls.systems.fasttest.sheet_actions import rename_skills
from rolls.systems.fasttest.urls import urlpatterns
from rolls.tables.rules import TableRules
from sheets.npc_forms import NpcStats
from sheets.systems import fasttest as sheet
from sheets.systems import fasttest_checks as sheet_checks


def _resolved(roll):
    params = engine.parse_params(roll.params)
    return engine.resolve(params, engine.parse_faces(params, roll.faces))


#: The purposes of the GM's side-effect tables (RULES.md, "A spell's outcome").
SIDE_EFFECT_MINOR, SIDE_EFFECT, SIDE_EFFECT_SERIOUS = (
    "side_effect_minor",
    "side_effect",
    "side_effect_serious",
)
#: The spell's outcomes a side effect follows, and which kind; "Nie, ale…" fails without one.
SIDE_EFFECTS = {"yes_but": SIDE_EFFECT_MINOR, "no": SIDE_EFFECT, "no_and": SIDE_EFFECT_SERIOUS}


def opposed_outcome(_engine, a_roll, b_roll) -> Outcome:
    """RULES.md: the higher rank wins, then the higher chance_raw, then the kept d10; the
    margin's label (minor, win, clear win, critical win) as the engine names it."""
    result = engine.opposed(_resolved(a_roll), _resolved(b_roll))
    label = "" if result.winner is None else f"opposed_{result.label}"
    return Outcome(result.winner, result.margin, label, {"decided_by": result.decided_by})


def _is_spell(roll) -> bool:
    """A test marked as a spell (any attribute, RULES.md's Decision) of a caster."""
    character = roll.character
    caster = character is not None and sheet.view(character.data).magic_traits > 0
    return caster and magic_die.is_spell(roll)


def _tables_after(roll) -> list[str]:
    answer = roll.result.get("answer", {}) if isinstance(roll.result, dict) else {}
    if roll.kind == magic_die.MAGIC_DIE and answer.get("emanation") is True:
        return ["emanation"]
    side_effect = SIDE_EFFECTS.get(str(answer.get("outcome")))
    if roll.kind == "test" and side_effect is not None and _is_spell(roll):
        return [side_effect]
    return []


TABLES = TableRules(
    purposes={
        # RULES.md: a magic-die face above DUCH is an uncontrolled eruption, drawn from a table.
        "emanation": gettext_lazy("after a magic die erupts (emanation)"),
        # The seed's "Wyniki testu czarowania": a side effect follows three of a spell's
        # outcomes, minor after "Tak, ale…", drawn after "Nie", serious after "Nie, i…".
        SIDE_EFFECT_MINOR: gettext_lazy("after a spell's “Tak, ale…” (minor side effect)"),
        SIDE_EFFECT: gettext_lazy("after a spell's “Nie” (side effect)"),
        SIDE_EFFECT_SERIOUS: gettext_lazy("after a spell's “Nie, i…” (serious side effect)"),
    },
    after=_tables_after,
    # A GM who keeps one side-effect table draws the minor and the serious ones from it too.
    fallbacks={SIDE_EFFECT_MINOR: SIDE_EFFECT, SIDE_EFFECT_SERIOUS: SIDE_EFFECT},
    hint=gettext_lazy(
        "A spell's side effect: after “Tak, ale…” (yes, but…) a minor one, after “Nie” (no) "
        "an ordinary one, after “Nie, i…” (no, and…) a serious one. A campaign with one "
        "side-effect table draws all three from it; a minor or a serious table, once written, "
        "is offered instead for its kind."
    ),
)


def _waking_tests(condition, campaign):
    # The waking test after falling unconscious, one click on the sheet.
    return states.waking_tests(condition, system_settings(campaign)["skills"])


def _npc_with_stats(npc) -> NpcTests | None:
    """The test of an NPC with stats like a player's, None for a trait list."""
    if npc_test.stats(npc) is None:
        return None
    skills = tuple(system_settings(npc.campaign)["skills"])
    return NpcTests(
        npc_test.stat_fields(npc, skills),
        lambda values: npc_test.stat_params(values, npc, skills),
    )


def _called_test_kind(pending) -> str:
    # A wound test called after a combat wound is logged as one, and read once rolled.
    return "wound_test" if wounds.is_wound_test(pending) else "test"


OPPOSED = OpposedRules(win_odds=fasttest_opposed.win_odds, resolve=opposed_outcome)


class FastTest(BaseSystem):
    key = KEY
    name = "FastTest"
    position = 1
    engine = engine
    sheet = sheet
    panel = panel
    demo = demo_fasttest
    rules_page = RULES_PAGE
    settings_defaults = {
        # RULES.md: exactly six skills; the GM may rename or replace them (e.g. MAGIA).
        "skills": DEFAULT_FASTTEST_SKILLS,
        # The "magic" setting turns on magic dice and spells (DUCH is always on the sheet).
        "magic": False,
        # Optional rules of the seed.
        "experience_dice": False,
        "emanation": False,
        "multi_skill": False,
    }
    facts = ("chance_raw", "chance", "net")
    gm_controls = panel.GM_CONTROLS
    parts = (
        OPPOSED,
        FollowUps(panel.follow_ups, panel.build_follow_up),
        # The seed allows two kinds of NPC: a trait list (penalty dice against the players) or
        # stats like a player's, rolled by the GM with the same engine.
        NpcTests(npc_test.FIELDS, npc_test.params, for_npc=_npc_with_stats),
        NpcStats(lambda campaign: (sheet.ATTRIBUTES, tuple(system_settings(campaign)["skills"]))),
        OwnSettings("systems/fasttest/settings.html", FastTestSettingsForm.for_campaign),
        Experience(
            path=("xp",),
            title=gettext_lazy("Experience points (XP)"),
            hint=gettext_lazy("After an adventure the GM gives 2–5."),
            initial=2,
            most=sheet_checks.XP_RANGE[1],
            dice_on=lambda campaign: bool(system_settings(campaign)["experience_dice"]),
            dice_most=sheet_checks.EXPERIENCE_DICE_RANGE[1],
        ),
        CalledTestKind(of=_called_test_kind),
        # What the GM applies after a roll (a combat wound, the magic die), and a night's rest.
        DashboardBoxes((Box("after_roll", strip.TEMPLATE, strip.strip_context),)),
        CardTools(lambda character, campaign: {"rest": rest.rest_preview(character, campaign)}),
        TABLES,
        # Issue 15: penalty dice lasting beyond one test, and the character's state (unconscious,
        # unconscious from exhaustion, dead) as conditions (rolls.systems.fasttest.states).
        ConditionRules(
            effects=states.EFFECTS,
            presets=states.PRESETS,
            amounts=states.AMOUNTS,
            tests=_waking_tests,
        ),
    )
    #: The GM's after-roll strip, its wound and magic die, and a night's rest (gm_views); the
    #: sheet's wound tracker and development (sheet_views).
    urls = urlpatterns

    def engine_faces(self, dice):
        return {
            "d10": [die["face"] for die in dice if die["sides"] == 10],
            "d6": [die["face"] for die in dice if die["sides"] == 6],
        }

    def view(self, data):
        return sheet.view(data)

    def vitals(self, data):
        return vitals.vitals(self.view(data))


SYSTEM = register(FastTest())


# The rules' own moments (signals sent by the campaign's System).
def _skills_renamed(sender, campaign, old, new, **kwargs):
    if "skills" in new:
        rename_skills(campaign, old.get("skills"), list(new["skills"]))


def _session_ended(sender, session, **kwargs):
    # Every experience die still held becomes 1 XP (when the campaign plays with them).
    awards.convert_experience_dice(session, end_session_xp)


def _pending_rolled(sender, pending, roll, **kwargs):
    if roll.kind == "wound_test":
        wounds.read_wound_test(pending, roll)


settings_saved.connect(_skills_renamed, sender=SYSTEM, dispatch_uid="fasttest-skill-names")
session_ended.connect(_session_ended, sender=SYSTEM, dispatch_uid="fasttest-experience-dice")
after_pending_roll.connect(_pending_rolled, sender=SYSTEM, dispatch_uid="fasttest-wound-test")
