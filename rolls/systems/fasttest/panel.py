"""The FastTest test panel: attribute + skill(s), traits as bonus dice, wound dice, the GM's
penalty dice, the d10/d6 split with the recommended one marked, and the exact odds."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.models import GameSession
from campaigns.system_settings import system_settings
from rolls.after_roll import MAGIC_DIE, ignore_wounds_after, magic_die_panel, magic_follow_ups
from rolls.engine import EngineError, fasttest
from rolls.engine.core import OUTCOMES
from rolls.engine.fasttest_combat import ignored_wounds_added, wounds_for_test
from rolls.engine.fasttest_sheet import MAGIC_DICE as MAGIC_DIE_SIZES
from rolls.models import Roll, Visibility
from rolls.panels import (
    FollowUp,
    Limit,
    Panel,
    gm_fixed,
    ints,
    not_on_sheet,
    one_int,
    one_str,
    source,
    with_target,
)
from rolls.words import words
from sheets.systems.fasttest import ATTRIBUTES, ENGINE_ATTRIBUTES, FastTestSheet
from sheets.systems.fasttest import view as read_sheet

TEMPLATE = "systems/fasttest/panel.html"
MAX_EXTRA = 20  # circumstance dice a player may type in one test
#: How far back the sheet's magic-die button looks for the spell it follows.
MAGIC_LOOKBACK = 20
#: Wound severities as words for the log (rolls.words), rendered in each reader's language.
SEVERITY_LABELS_DATA = {
    "scratch": words("severity_scratch"),
    "light": words("severity_light"),
    "heavy": words("severity_heavy"),
    "deadly": words("severity_deadly"),
}


def build(character, campaign, choices, pending: dict[str, Any] | None = None) -> Panel:
    if pending is None and one_str(choices, "magic_die"):
        # The sheet's magic-die button: the die after the caster's spell, not a test.
        return _magic_die(character, campaign)
    sheet = read_sheet(character.data)
    settings = system_settings(campaign)
    panel = Panel(system="fasttest", template=TEMPLATE)
    errors = panel.errors
    # A wound test's dice are the rules' own: the new wound counted, the armor as bonus dice
    # (the GM's), nothing the player adds (RULES.md, "Combat and wounds").
    wound_test = (pending or {}).get("target", {}).get("wound_test") is True
    # What the GM called for is fixed, and so are the circumstances (the GM's own dice); the
    # player still picks traits, experience dice, the split of bonus dice and ignoring wounds.
    choices = with_target(choices, (pending or {}).get("target", {}))
    if pending is not None:
        choices = gm_fixed(choices, GMCircumstances)

    attribute = one_str(choices, "attribute")
    if attribute not in ATTRIBUTES:
        errors.setdefault("attribute", []).append(_("Choose the attribute to test."))
    skill_names = list(settings["skills"])
    chosen_skills = [name for name in skill_names if name in _strs(choices, "skill")]
    for name in [s for s in _strs(choices, "skill") if s and s not in skill_names][:1]:
        errors.setdefault("skill", []).append(not_on_sheet(name))
    if len(chosen_skills) > 1 and not settings["multi_skill"]:
        errors.setdefault("skill", []).append(
            _("This campaign tests one skill at a time (multi-skill tests are off).")
        )
    traits = sheet.traits
    if wound_test:
        # Anything posted for these is a forged or stale page: the test has no such fields.
        ticked, bonus_other, penalty_other, experience, ignore_wounds = [], 0, 0, 0, False
    else:
        ticked = _ticked_traits(choices, traits)
        bonus_other = _count(choices, "bonus_other", errors, _("Other bonus dice"))
        penalty_other = _count(choices, "penalty_other", errors, _("Other penalty dice"))
        experience = _experience(choices, sheet, settings, errors)
        ignore_wounds = one_str(choices, "ignore_wounds") == "on"

    panel.context = {
        "attributes": [(name, sheet.attribute(name)) for name in ATTRIBUTES],
        "skills": [(name, sheet.skill(name)) for name in skill_names],
        "traits": list(enumerate(traits)),
        "chosen_attribute": attribute,
        "chosen_skills": chosen_skills,
        "ticked": ticked,
        "bonus_other": bonus_other,
        "penalty_other": penalty_other,
        "experience": experience,
        "experience_available": sheet.experience_dice,
        "experience_rule": settings["experience_dice"],
        "multi_skill": settings["multi_skill"],
        "ignore_wounds": ignore_wounds,
        "wound_test": wound_test,
        "pending": pending,
        "gm_dice": _gm_totals((pending or {}).get("modifiers", {})) if pending else None,
    }
    if errors:
        return panel

    wounds = list(sheet.wounds)
    counted = wounds_for_test(ENGINE_ATTRIBUTES[attribute], wounds)
    wound_dice = 0 if ignore_wounds else counted
    if ignore_wounds and not counted:
        errors.setdefault("ignore_wounds", []).append(
            _("No wound counts against this test, so there is nothing to ignore.")
        )
        return panel
    trait_dice = sum(traits[i].level for i in ticked)
    sources = []
    if trait_dice:
        names = ", ".join(f"{traits[i].name} {traits[i].level}" for i in ticked)
        sources.append(source("bonus", trait_dice, words("traits", names=names)))
    if bonus_other:
        sources.append(source("bonus", bonus_other, words("circumstances")))
    if experience:
        sources.append(source("bonus", experience, words("experience_dice")))
    if penalty_other:
        sources.append(source("penalty", penalty_other, words("circumstances")))
    if wound_dice:
        sources.append(source("penalty", wound_dice, words("wounds")))
    if ignore_wounds:
        # RULES.md: no wound dice now; one more wound at once and a consciousness test.
        added = SEVERITY_LABELS_DATA[ignored_wounds_added(wounds)]
        sources.append(source("wounds_ignored", counted, words("ignored_wounds", severity=added)))
        panel.after = ignore_wounds_after(character.pk)
    gm = _gm_modifiers((pending or {}).get("modifiers", {}), sources)
    params = {
        "attribute": sheet.attribute(attribute),
        "skills": [sheet.skill(name) for name in chosen_skills],
        "bonus": trait_dice + bonus_other + experience + gm["bonus"],
        "penalty": penalty_other + gm["penalty"],
        "npc_traits": gm["npc_traits"],
        "wounds": wound_dice,
    }
    try:
        parsed = fasttest.parse_params(params)
    except EngineError as error:
        errors.setdefault("", []).append(str(error))
        return panel
    _overflow_sources(parsed, sources)
    splits = fasttest.split_odds(parsed)
    best = fasttest.choose_split(splits).extra_d10
    extra_d10 = _split(choices, parsed, best, pending)
    params["extra_d10"] = extra_d10
    chosen = splits[extra_d10]

    panel.label = " + ".join(
        [f"{attribute} {params['attribute']}"]
        + [f"{name} {sheet.skill(name):+d}" for name in chosen_skills]
    )
    panel.params = params
    panel.sources = sources
    panel.odds = [(key, chosen.odds[key]) for key in reversed(OUTCOMES)]
    panel.success = chosen.success
    panel.spend = {"experience_dice": experience} if experience else {}
    panel.context |= {
        "chance": parsed.chance,
        "net": parsed.net,
        "extra": abs(parsed.net),
        "wound_dice": wound_dice,
        "splits": splits,
        "best_split": best,
        "extra_d10": extra_d10,
        "player_splits": parsed.net > 0,
        "d10_count": 1 + extra_d10,
        "d6_count": 1 + abs(parsed.net) - extra_d10,
    }
    return panel


class GMCircumstances(forms.Form):
    """On a called test the circumstances are the GM's (RULES.md: "circumstances the GM
    grants"), added on the GM's card with their sources: the player's own fields stay 0."""

    bonus_other = forms.IntegerField(disabled=True, initial=0, required=False)
    penalty_other = forms.IntegerField(disabled=True, initial=0, required=False)


def _gm_totals(modifiers: dict[str, Any]) -> dict[str, int]:
    """What the fixed fields show on a called test: the GM's bonus and penalty dice so far."""
    sources: list = []
    gm = _gm_modifiers(modifiers, sources)
    penalty = gm["penalty"] + (fasttest.npc_penalty(gm["npc_traits"]) if gm["npc_traits"] else 0)
    return {"bonus": gm["bonus"], "penalty": penalty}


def _gm_modifiers(modifiers: dict[str, Any], sources: list) -> dict[str, Any]:
    """The GM's dice of a pending test, each with its source, as engine inputs."""
    bonus = penalty = 0
    for entry in modifiers.get("dice", []):
        if entry["kind"] == "bonus":
            bonus += entry["amount"]
            sources.append(source("bonus", entry["amount"], entry["source"]))
        elif entry["kind"] == "penalty":
            penalty += entry["amount"]
            sources.append(source("penalty", entry["amount"], entry["source"]))
    npc = modifiers.get("npc")
    npc_traits = [trait["dice"] for trait in npc["traits"]] if npc else []
    if npc_traits:
        names = ", ".join(f"{t['name']} {t['dice']}k" for t in npc["traits"])
        sources.append(
            source("penalty", fasttest.npc_penalty(npc_traits), f"{npc['name']} ({names})")
        )
    return {"bonus": bonus, "penalty": penalty, "npc_traits": npc_traits}


def _ticked_traits(choices, traits) -> list[int]:
    """Traits ticked by index (the panel's checkboxes) or by name (a click on the sheet)."""
    names = {trait.name: index for index, trait in enumerate(traits)}
    ticked = {i for i in ints(choices, "trait") if 0 <= i < len(traits)}
    ticked |= {names[name] for name in _strs(choices, "trait") if name in names}
    return sorted(ticked)


def _strs(choices, name: str) -> list[str]:
    if hasattr(choices, "getlist"):
        return choices.getlist(name)
    value = choices.get(name, [])
    return [value] if isinstance(value, str) else list(value)


def _count(choices, name: str, errors: dict, label: str) -> int:
    value = one_int(choices, name)
    if not isinstance(value, int) or not 0 <= value <= MAX_EXTRA:
        errors.setdefault(name, []).append(
            _("%(label)s must be a whole number from 0 to %(max)s.")
            % {"label": label, "max": MAX_EXTRA}
        )
        return 0
    return value


def _experience(choices, sheet: FastTestSheet, settings: dict, errors: dict) -> int:
    value = one_int(choices, "experience")
    if value == 0:
        return 0
    if not settings["experience_dice"]:
        errors.setdefault("experience", []).append(_("Experience dice are off in this campaign."))
        return 0
    available = sheet.experience_dice
    if not isinstance(value, int) or not 0 <= value <= available:
        errors.setdefault("experience", []).append(
            _("You can spend from 0 to %(n)s experience dice.") % {"n": available}
        )
        return 0
    return value


def _overflow_sources(parsed: fasttest.Params, sources: list) -> None:
    if parsed.overflow_bonus:
        sources.append(source("bonus", parsed.overflow_bonus, words("chance_above_9")))
    if parsed.overflow_penalty:
        sources.append(source("penalty", parsed.overflow_penalty, words("chance_below_1")))


def _split(choices, parsed: fasttest.Params, best: int, pending) -> int:
    """The player picks the split of bonus dice (default: the recommended one); penalty dice are
    the GM's to split (RULES.md's Decision: all d10 unless the GM says otherwise)."""
    extra = abs(parsed.net)
    if parsed.net < 0:
        chosen = (pending or {}).get("modifiers", {}).get("extra_d10")
        return chosen if isinstance(chosen, int) and 0 <= chosen <= extra else extra
    value = one_int(choices, "extra_d10", default=best)
    return value if isinstance(value, int) and 0 <= value <= extra else best


# --- The GM's side: calling for a test and shaping it -------------------------------------------

#: What the GM may change on a pending FastTest test (see rolls.pending.OPERATIONS).
GM_CONTROLS = ("bonus", "penalty", "npc", "extra_d10", "combat")


def gm_dynamic_limits(panel: Panel, pending) -> dict[str, Limit]:
    """The GM splits the penalty dice left after cancelling (RULES.md's Decision): 0 to all of
    them may be d10s; with none left there is nothing to split."""
    penalty = -panel.context.get("net", 0) if panel.ready else 0
    if penalty > 0:
        message = gettext_lazy(
            "Of the %(high)s penalty dice, from %(low)s to %(high)s can be d10s."
        )
        return {"extra_d10": Limit(0, penalty, message)}
    message = gettext_lazy("No penalty dice are left to split; bonus dice are the player's.")
    return {"extra_d10": Limit(0, 0, message)}


def target_fields(character, campaign) -> list[dict[str, Any]]:
    """The fields of the GM's "call for a test" form: what is tested."""
    sheet = read_sheet(character.data)
    settings = system_settings(campaign)
    skills = [(name, f"{name} {sheet.skill(name):+d}") for name in settings["skills"]]
    return [
        {
            "name": "attribute",
            "label": _("Attribute (Cecha)"),
            "type": "select",
            "choices": [(name, f"{name} {sheet.attribute(name)}") for name in ATTRIBUTES],
        },
        {
            "name": "skill",
            "label": _("Skill (Umiejętność)"),
            "type": "multiselect" if settings["multi_skill"] else "select",
            "choices": ([] if settings["multi_skill"] else [("", _("none"))]) + skills,
        },
    ]


def target_from_post(post, character, campaign) -> tuple[dict[str, Any], list[str]]:
    """The target the GM chose, or the messages saying what is wrong with it."""
    target = {
        "attribute": one_str(post, "attribute"),
        "skill": [s for s in _strs(post, "skill") if s],
    }
    panel = build(character, campaign, {}, pending={"target": target, "modifiers": {}})
    wrong = [m for name in ("attribute", "skill") for m in panel.errors.get(name, [])]
    return target, wrong


# --- After the roll: the magic die after a spell (RULES.md section 1, "Magic") ------------------


def follow_ups(roll, character, campaign) -> list[FollowUp]:
    """What may follow a FastTest roll: the magic die, once, after a spell."""
    return magic_follow_ups(roll, character, campaign)


def build_follow_up(kind: str, roll, character, campaign, choices) -> Panel:
    """The follow-up's panel: its resolver rolls the magic die, ``on_result`` updates the sheet."""
    if kind != MAGIC_DIE:
        panel = Panel(system="fasttest", template=TEMPLATE)
        panel.errors[""] = [_("Nothing like that can follow a FastTest roll.")]
        return panel
    return magic_die_panel(character, campaign)


def _magic_die(character, campaign) -> Panel:
    """The magic die after the caster's latest spell still waiting for it, in this session: a
    panel that rolls it as that spell's follow-up (the same one the rolled spell offers)."""
    session = GameSession.objects.open().filter(campaign=campaign).first()
    # Only a spell the sheet's owner may see in the log: a GM's hidden roll stays hidden.
    seen = Q(visibility=Visibility.PUBLIC) | Q(
        visibility=Visibility.SECRET, actor=character.owner_id
    )
    spells = (
        Roll.objects.filter(seen, session=session, character=character, kind="test")
        .prefetch_related("follow_ups")
        .order_by("-seq")[:MAGIC_LOOKBACK]
        if session is not None
        else []
    )
    spell = next((r for r in spells if magic_follow_ups(r, character, campaign)), None)
    if spell is None:
        panel = Panel(system="fasttest", template=TEMPLATE)
        panel.context = {"magic": {"die": read_sheet(character.data).magic_die}}
        panel.errors[""] = [
            _(
                "No spell of %(name)s waits for its magic die in this session: cast the spell "
                "first (a DUCH or UMYSŁ test of a caster), then roll the die."
            )
            % {"name": character.name}
        ]
        return panel
    panel = magic_die_panel(character, campaign)
    if not panel.ready:
        return panel
    die = read_sheet(character.data).magic_die
    drop = 2 / die
    falls = "magic_lost" if die == min(MAGIC_DIE_SIZES) else "magic_dropped"
    panel.kind = MAGIC_DIE
    panel.parent = spell
    panel.odds = [("magic_held", 1 - drop), (falls, drop)]
    panel.success = 1 - drop
    panel.context = {"magic": {"die": die, "spell": spell}}
    return panel
