"""The FastTest test panel: attribute + skill(s), traits as bonus dice, wound dice, the GM's
penalty dice, the d10/d6 split with the recommended one marked, and the exact odds."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext_lazy

from campaigns.models import GameSession
from campaigns.system_settings import system_settings
from rolls.conditions import actions as conditions
from rolls.conditions import in_force
from rolls.engine import EngineError, fasttest
from rolls.engine.core import OUTCOMES, SUCCESSES
from rolls.engine.fasttest_combat import ignored_wounds_added, wounds_for_test
from rolls.engine.fasttest_sheet import spell_penalty
from rolls.labels import words
from rolls.models import Roll, Visibility
from rolls.panels import FollowUp, Limit, Panel, source
from rolls.systems.fasttest import spells, states
from rolls.systems.fasttest.choices import FastTestCall, FastTestChoices
from rolls.systems.fasttest.magic_die import (
    MAGIC_DIE,
    magic_die_odds,
    magic_die_panel,
    magic_follow_ups,
)
from rolls.systems.fasttest.wounds import ignore_wounds_after
from sheets.systems.fasttest import ATTRIBUTES, ENGINE_ATTRIBUTES, FastTestSheet
from sheets.systems.fasttest import view as read_sheet

TEMPLATE = "systems/fasttest/panel.html"
#: How far back the sheet's magic-die button looks for the spell it follows.
MAGIC_LOOKBACK = 20
#: Wound severities as words for the log (rolls.labels), rendered in each reader's language.
SEVERITY_LABELS_DATA = {
    "scratch": words("severity_scratch"),
    "light": words("severity_light"),
    "heavy": words("severity_heavy"),
    "deadly": words("severity_deadly"),
}


def build(character, campaign, choices, pending: dict[str, Any] | None = None) -> Panel:
    sheet = read_sheet(character.data)
    settings = system_settings(campaign)
    form = FastTestChoices.read(
        choices, sheet, settings, pending, in_force=in_force.active(character)
    )
    if pending is None and form.value("magic_die"):
        # The sheet's magic-die button: the die after the caster's spell, not a test.
        return _magic_die(character, campaign)
    panel = Panel(system="fasttest", template=TEMPLATE, errors=form.messages)
    panel.context = _context(form, sheet, settings, pending)
    if panel.errors:
        return panel
    shaping = _shaping(form, pending)
    panel.context["conditions"] = conditions.panel_rows(
        shaping, form.raw("use") or [], form.raw("attempt") or []
    )
    if refusal := _waking_refusal(form, settings):
        panel.errors.setdefault("attempt", []).append(refusal)
        return panel
    attribute, ignore_wounds = form.cleaned["attribute"], form.cleaned["ignore_wounds"]
    wounds = list(sheet.wounds)
    counted = wounds_for_test(ENGINE_ATTRIBUTES[attribute], wounds)
    if ignore_wounds and not counted:
        panel.errors.setdefault("ignore_wounds", []).append(
            _("No wound counts against this test, so there is nothing to ignore.")
        )
        return panel
    wound_dice = 0 if ignore_wounds else counted
    sources = _player_sources(form, wound_dice)
    # Conditions of penalty dice join the sources; a state adds no dice; wounds stay counted
    # from the sheet above (they are not conditions, so nothing is counted twice).
    shaped = [c for c in shaping.applied if c.effect == states.PENALTY]
    sources += [in_force.as_source(condition) for condition in shaped]
    spell = _spell(form, character, campaign, panel)
    if spell is not None:
        sources += spell["sources"]
    if ignore_wounds:
        # RULES.md: no wound dice now; one more wound at once and a consciousness test.
        severity = ignored_wounds_added(wounds)
        assert severity is not None  # a wound counts against the test: one more is added
        added = SEVERITY_LABELS_DATA[severity]
        sources.append(source("wounds_ignored", counted, words("ignored_wounds", severity=added)))
        panel.after = ignore_wounds_after(character.pk)
    panel.after = _both(
        panel.after,
        conditions.after_roll(shaping, form, lambda outcome: outcome in SUCCESSES),
    )
    gm = _gm_modifiers((pending or {}).get("modifiers", {}), sources)
    params = _params(form, sheet, sources, gm, wound_dice, spell)
    params["penalty"] += sum(condition.amount for condition in shaped)
    try:
        parsed = fasttest.parse_params(params)
    except EngineError as error:
        panel.errors.setdefault("", []).append(str(error))
        return panel
    _overflow_sources(parsed, sources)
    _show(panel, form, sheet, params, sources, parsed, pending)
    if spell is not None:
        panel.label = spells.spell_label(spell["name"], panel.label)
    return panel


def _shaping(form: FastTestChoices, pending) -> in_force.ForTest:
    """The conditions that shape this test: those of all tests, of its attribute, of any of
    its skills (one test may use several), those concerning a target the player ticked."""
    modifiers = (pending or {}).get("modifiers", {})
    attribute = form.cleaned["attribute"]
    found = [
        conditions.shaping(form, modifiers, attribute=attribute, skill=skill)
        for skill in form.cleaned["skill"] or [""]
    ]
    return in_force.ForTest(*(_union(getattr(f, part) for f in found) for part in PARTS))


PARTS = ("applied", "off", "offered", "attempts")


def _union(groups) -> tuple:
    seen: dict[int, Any] = {}
    for group in groups:
        for condition in group:
            seen.setdefault(condition.pk, condition)
    return tuple(seen.values())


def _waking_refusal(form: FastTestChoices, settings) -> str:
    attempted = [c for c in form.in_force if c.pk in form.cleaned["attempt"]]
    names = settings["skills"]
    return states.waking_refusal(attempted, form.cleaned["attribute"], form.cleaned["skill"], names)


def _both(first, second):
    """Two ``after``s of one roll (ignoring wounds, the conditions it ends), in that order."""
    if first is None or second is None:
        return first or second

    def after(roll) -> None:
        first(roll)
        second(roll)

    return after


def _spell(form: FastTestChoices, character, campaign, panel: Panel) -> dict[str, Any] | None:
    """The spell the test casts (RULES.md, "Magic"), None for a plain test: its name, its
    penalty dice with their sources, and the caster's earlier spells of the session (shown)."""
    if not form.cleaned["spell"]:
        return None
    name, difficulty = form.cleaned["spell_name"], form.cleaned["spell_difficulty"]
    earlier = spells.earlier_spells(character, campaign, name)
    similar = sum(1 for spell in earlier if spell.similar)
    panel.context |= {"earlier_spells": earlier, "similar_spells": similar}
    return {
        "name": name,
        "penalty": spell_penalty(difficulty, similar),
        "sources": spells.spell_sources(name, difficulty, earlier),
    }


def _context(form: FastTestChoices, sheet: FastTestSheet, settings, pending) -> dict[str, Any]:
    """What the panel shows of the choices, as chosen (or as posted, where they are wrong)."""
    skill_names = list(settings["skills"])
    posted_skills = form.value("skill") or []
    return {
        "attributes": [(name, sheet.attribute(name)) for name in ATTRIBUTES],
        "skills": [(name, sheet.skill(name)) for name in skill_names],
        "traits": list(enumerate(form.traits)),
        "chosen_attribute": form.value("attribute"),
        "chosen_skills": [name for name in skill_names if name in posted_skills],
        "ticked": form.cleaned.get("trait", []),
        "bonus_other": form.cleaned.get("bonus_other", 0),
        "penalty_other": form.cleaned.get("penalty_other", 0),
        "experience": form.cleaned.get("experience", 0),
        "experience_available": sheet.experience_dice,
        "experience_rule": settings["experience_dice"],
        "multi_skill": settings["multi_skill"],
        "ignore_wounds": form.cleaned.get("ignore_wounds", False),
        "wound_test": form.wound_test,
        "spell": form.cleaned.get("spell", form.raw("spell") == "on"),
        "spell_name": form.value("spell_name") or "",
        "spell_difficulty": form.cleaned.get("spell_difficulty", min(spells.DIFFICULTIES)),
        "spell_difficulties": spells.DIFFICULTIES,
        "can_cast": not form.wound_test and spells.refusal(sheet, settings) is None,
        "spell_fixed": form.spell_fixed,
        "pending": pending,
        "gm_dice": _gm_totals((pending or {}).get("modifiers", {})) if pending else None,
    }


def _player_sources(form: FastTestChoices, wound_dice: int) -> list[dict[str, Any]]:
    """The dice the player's choices add or take away, with where they come from."""
    traits, ticked = form.traits, form.cleaned["trait"]
    trait_dice = sum(traits[i].level for i in ticked)
    bonus_other, penalty_other = form.cleaned["bonus_other"], form.cleaned["penalty_other"]
    experience = form.cleaned["experience"]
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
    return sources


def _params(
    form: FastTestChoices,
    sheet: FastTestSheet,
    sources,
    gm: Mapping[str, Any],
    wound_dice: int,
    spell: Mapping[str, Any] | None = None,
):
    """The engine's inputs: the stats tested and the bonus and penalty dice (the GM's too)."""
    traits = form.traits
    player_bonus = sum(traits[i].level for i in form.cleaned["trait"])
    player_bonus += form.cleaned["bonus_other"] + form.cleaned["experience"]
    return {
        "attribute": sheet.attribute(form.cleaned["attribute"]),
        "skills": [sheet.skill(name) for name in form.cleaned["skill"]],
        "bonus": player_bonus + gm["bonus"],
        "penalty": form.cleaned["penalty_other"] + gm["penalty"] + (spell or {}).get("penalty", 0),
        "npc_traits": gm["npc_traits"],
        "wounds": wound_dice,
    }


def _show(panel: Panel, form: FastTestChoices, sheet, params, sources, parsed, pending) -> None:
    """The ready panel: the split of the extra dice, its label, params and odds."""
    splits = fasttest.split_odds(parsed)
    best = fasttest.choose_split(splits).extra_d10
    extra_d10 = _split(form.cleaned["extra_d10"], parsed, best, pending)
    params["extra_d10"] = extra_d10
    chosen = splits[extra_d10]
    experience = form.cleaned["experience"]
    panel.label = " + ".join(
        [f"{form.cleaned['attribute']} {params['attribute']}"]
        + [f"{name} {sheet.skill(name):+d}" for name in form.cleaned["skill"]]
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
        "wound_dice": params["wounds"],
        "splits": splits,
        "best_split": best,
        "extra_d10": extra_d10,
        "player_splits": parsed.net > 0,
        "d10_count": 1 + extra_d10,
        "d6_count": 1 + abs(parsed.net) - extra_d10,
    }


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
    if npc and npc_traits:
        names = ", ".join(f"{t['name']} {t['dice']}k" for t in npc["traits"])
        sources.append(
            source("penalty", fasttest.npc_penalty(npc_traits), f"{npc['name']} ({names})")
        )
    return {"bonus": bonus, "penalty": penalty, "npc_traits": npc_traits}


def _overflow_sources(parsed: fasttest.Params, sources: list) -> None:
    if parsed.overflow_bonus:
        sources.append(source("bonus", parsed.overflow_bonus, words("chance_above_9")))
    if parsed.overflow_penalty:
        sources.append(source("penalty", parsed.overflow_penalty, words("chance_below_1")))


def _split(posted: int | None, parsed: fasttest.Params, best: int, pending) -> int:
    """The player picks the split of bonus dice (default: the recommended one); penalty dice are
    the GM's to split (RULES.md's Decision: all d10 unless the GM says otherwise)."""
    extra = abs(parsed.net)
    if parsed.net < 0:
        chosen = (pending or {}).get("modifiers", {}).get("extra_d10")
        return chosen if isinstance(chosen, int) and 0 <= chosen <= extra else extra
    value = best if posted is None else posted
    return value if 0 <= value <= extra else best


# --- The GM's side: calling for a test and shaping it -------------------------------------------

#: What the GM may change on a pending FastTest test (see rolls.pending.actions.OPERATIONS).
GM_CONTROLS = ("bonus", "penalty", "npc", "extra_d10", "combat")


def gm_dynamic_limits(panel: Panel, pending) -> dict[str, Limit]:
    """The GM splits the penalty dice left after cancelling (RULES.md's Decision): 0 to all of
    them may be d10s; with none left there is nothing to split."""
    penalty = -panel.context.get("net", 0) if panel.ready else 0
    if penalty > 0:
        message = ngettext_lazy(
            "Of the %(high)s penalty die, from %(low)s to %(high)s can be a d10.",
            "Of the %(high)s penalty dice, from %(low)s to %(high)s can be d10s.",
            penalty,
        )
        return {"extra_d10": Limit(0, penalty, message)}
    message = gettext_lazy("No penalty dice are left to split; bonus dice are the player's.")
    return {"extra_d10": Limit(0, 0, message)}


def target_fields(character, campaign) -> list[dict[str, Any]]:
    """The fields of the GM's "call for a test" form: what is tested (a spell, for a caster)."""
    sheet = read_sheet(character.data)
    settings = system_settings(campaign)
    skills = [(name, f"{name} {sheet.skill(name):+d}") for name in settings["skills"]]
    return _target_fields(sheet, settings, skills) + spells.target_fields(sheet, settings)


def _target_fields(sheet, settings, skills) -> list[dict[str, Any]]:
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


def target_from_post(
    post, character, campaign, prefix: str = ""
) -> tuple[dict[str, Any], list[str]]:
    """The target the GM chose, or the messages saying what is wrong with it; its fields under
    ``prefix`` (a Django form's: ``a`` reads ``a-attribute``)."""
    form = FastTestCall(post, prefix=prefix)
    target: dict[str, Any] = {
        "attribute": str(form.raw("attribute") or ""),
        "skill": [name for name in form.raw("skill") or [] if name],
    }
    wrong = [str(message) for message in form.errors.get("spell_difficulty", [])]
    spell = form.cleaned.get("spell_difficulty")
    if spell is not None:
        target["spell_difficulty"] = spell
    panel = build(character, campaign, {}, pending={"target": target, "modifiers": {}})
    wrong += [m for name in ("attribute", "skill", "spell") for m in panel.errors.get(name, [])]
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
    session = GameSession.objects.open_of(campaign.pk)
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
                "first (a test marked as a spell), then roll the die."
            )
            % {"name": character.name}
        ]
        return panel
    panel = magic_die_panel(character, campaign)
    sheet = read_sheet(character.data)
    die, rule = sheet.magic_die, bool(system_settings(campaign)["emanation"])
    if not panel.ready or die is None:  # ready, it has a die (magic_die_panel)
        return panel
    panel.kind = MAGIC_DIE
    panel.parent = spell
    panel.odds = magic_die_odds(die, sheet.attribute("DUCH"), rule)
    panel.success = 1 - 2 / die  # the die holds (faces 1 and 2 drop it)
    panel.context = {"magic": {"die": die, "spell": spell}}
    return panel
