"""FastTest's conditions (issue 15; RULES.md section 1, "Combat and wounds" and "Magic").

A character's **state** is a condition of the effect "state" (no dice: an unconscious character
is not hindered, they do not act): unconscious after a wound test says so, unconscious from
exhaustion after a magic die dropping from d4, dead after a deadly wound's failed test. No
state is conscious (the wound test's entry says so). Both unconscious states last until the
waking test succeeds (the seed's "Odzyskanie przytomności": DUCH+SPRAWNOŚĆ or
BUDOWA+SPRAWNOŚĆ, the GM choosing by the situation), offered on the sheet in one click; the GM
may clear any state by hand. A condition of penalty dice (the GM's circumstances, a flaw that
hinders) is one more source of penalty dice on every test it concerns. Wounds stay wounds: the
panel counts them from the sheet, never as conditions.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_lazy as _

from rolls import labels
from rolls.actions import ActionRefused
from rolls.conditions import actions as conditions
from rolls.conditions import in_force
from rolls.labels import WORDS, words
from rolls.models import Condition, Roll
from sheets.models import Character

# A condition without dice reads "state: unconscious (condition, #14)", with neither sign nor
# number.
labels.register(
    counted={"state": gettext_lazy("state")},
    unsigned={"state"},
    sources={"state": gettext_lazy("state")},
)

STATE, PENALTY = "state", "penalty"
UNCONSCIOUS, EXHAUSTED, DEAD = "ft_unconscious", "ft_exhausted", "ft_dead"
#: The states that end when the waking test succeeds.
ASLEEP = (UNCONSCIOUS, EXHAUSTED)
#: The attributes of the waking test (the seed: "Duch+Sprawność albo Budowa+Sprawność").
WAKING_ATTRIBUTES = ("DUCH", "BUDOWA")
#: The waking test's skill, by its default name; a campaign that renamed it uses the skill in
#: its place (the second of the six).
WAKING_SKILL, WAKING_SKILL_AT = "SPRAWNOŚĆ", 1
WAKING = _("waking test (odzyskanie przytomności)")
WORDS |= {
    "waking_test": _("Waking test: %(test)s"),
    "cleared_by_death": _("the character died (#%(seq)s)"),
}

EFFECTS = {PENALTY: _("penalty dice"), STATE: _("state (no dice)")}
AMOUNTS = (1, 10)
PRESETS = (
    {"key": UNCONSCIOUS, "name": _("unconscious (nieprzytomny)"),
     "original": _("heavily wounded, tests consciousness (ciężko ranny testuje przytomność)"),
     "effect": STATE, "amount": 1,
     "scope": "all", "lasts": "success", "ends_with": WAKING},
    {"key": EXHAUSTED, "name": _("unconscious from exhaustion (nieprzytomny z wyczerpania)"),
     "original": _("the caster falls unconscious from exhaustion (czarodziej pada "
                   "nieprzytomny z wyczerpania)"),
     "effect": STATE, "amount": 1,
     "scope": "all", "lasts": "success", "ends_with": WAKING},
    {"key": DEAD, "name": _("dead (martwy)"),
     "original": _("tests BUDOWA or dies (testuje Budowę albo umiera)"),
     "effect": STATE, "amount": 1, "scope": "all", "lasts": "hand"},
    # RULES.md's Decision: the GM may use a flaw as 1 penalty die when it hinders.
    {"key": "ft_flaw", "name": _("a flaw hinders (Wada): 1 penalty die"),
     "original": _("a flaw (Wada)"), "effect": PENALTY, "amount": 1, "scope": "all",
     "lasts": "next_test"},
    # RULES.md: a spell's standard difficulty is 2–3 penalty dice; the same numbers serve the
    # GM's circumstances lasting a scene (dark, storm).
    {"key": "ft_hard_scene", "name": _("hard circumstances: 2 penalty dice"),
     "original": _("penalty dice (kości karne)"), "effect": PENALTY, "amount": 2, "scope": "all",
     "lasts": "scene"},
)  # fmt: skip


def waking_skill(skills) -> str:
    """The skill of the waking test in this campaign (its six skills, in order)."""
    skills = list(skills)
    return WAKING_SKILL if WAKING_SKILL in skills else skills[WAKING_SKILL_AT]


def is_asleep(condition: Condition) -> bool:
    return condition.preset in ASLEEP and condition.active


def waking_tests(condition: Condition, skills) -> list[dict]:
    """The waking test's two forms, each one click on the sheet opening that panel with this
    condition's "this test is the waking test" ticked."""
    if not is_asleep(condition):
        return []
    skill = waking_skill(skills)
    return [
        {
            "label": words("waking_test", test=f"{attribute} + {skill}"),
            "roll": {"attribute": attribute, "skill": skill, "attempt": str(condition.pk)},
        }
        for attribute in WAKING_ATTRIBUTES
    ]


def waking_refusal(attempted: list[Condition], attribute: str, skills: list[str], names) -> str:
    """Why this test cannot be the waking test of ``attempted``, "" when it can."""
    if not any(c.preset in ASLEEP for c in attempted):
        return ""
    skill = waking_skill(names)
    if attribute in WAKING_ATTRIBUTES and skills == [skill]:
        return ""
    return str(
        _("The waking test is DUCH + %(skill)s or BUDOWA + %(skill)s; choose one of them.")
        % {"skill": skill}
    )


# --- What the rolls leave -------------------------------------------------------------------------


def _state(character_id: int, preset: str, roll: Roll) -> Condition | None:
    """Put state ``preset`` on the character after ``roll`` (inside its transaction): not a
    second time, nothing on the dead; death ends being unconscious."""
    try:
        return _put_state(character_id, preset, roll)
    except ActionRefused:
        # The roll is rolled and its sheet changes made; a sheet full of conditions (the cap)
        # must not undo them: the GM adds the state by hand.
        return None


def _put_state(character_id: int, preset: str, roll: Roll) -> Condition | None:
    character = Character.objects.select_related("campaign").get(pk=character_id)
    held = [c for c in in_force.active(character) if c.effect == STATE]
    if any(c.preset == DEAD for c in held):
        return None
    if preset in ASLEEP and any(c.preset in ASLEEP for c in held):
        return None
    if preset == DEAD:
        for condition in held:
            if condition.preset in ASLEEP:
                conditions.clear_condition(
                    condition_id=condition.pk, actor=roll.actor,
                    why=words("cleared_by_death", seq=roll.seq), parent=roll,
                )  # fmt: skip
    spec = in_force.preset_spec(character.campaign.rules, preset)
    return conditions.add_condition(
        character=character, actor=roll.actor, spec=spec, source_roll=roll
    )


def after_wound_test(character_id: int, roll: Roll, *, alive: bool, conscious: bool) -> None:
    """The wound test's reading (RULES.md): dead, unconscious, or conscious (no state)."""
    if not alive:
        _state(character_id, DEAD, roll)
    elif not conscious:
        _state(character_id, UNCONSCIOUS, roll)


def after_magic_die(roll: Roll) -> None:
    """The magic die dropped from d4: the caster falls unconscious from exhaustion."""
    answer = roll.result.get("answer") if isinstance(roll.result, dict) else None
    if isinstance(answer, dict) and answer.get("unconscious") is True and roll.character_id:
        _state(roll.character_id, EXHAUSTED, roll)
