"""The Caerbannog 2026 test panel (RULES.md section 4): a skill (or a combined test of several,
or a defence), the difficulty by name or number, easing and hindering factors, a fixed modifier,
the Rozmach pool from the sheet, the exact odds; after the roll a boost, heroic effort and
re-rolls from abilities (``follow_ups``), each logged as its own entry linked to the roll it
follows. The player's choices and the sheet's skills and defences are read in ``choices``, the
difficulty's names and words are in ``difficulty``, the GM's call and controls in ``gm_call``.

Decisions of this panel (the rules leave them open):

- A defence may be tested on its own (three dice of its level's size) or join a combined test
  (RULES.md 8: "z różnych umiejętności lub obron"). What is tested is kept in the order it was
  named: the first is the main one, whether a skill or a defence. The player orders them on the
  panel (each moves up or down; a new one joins last); on a called test the GM's order stands.
- A defence has no category bonus, so a test whose main one is a defence offers no boost. A
  combined test's boost adds the main skill's category bonus, and a skill whose category bonus
  is 0 offers no boost (it would cost Rozmach for nothing).

A test the GM calls for (a pending test) fixes what is tested (skills and defences, in the GM's
order: the first is the main one), the form of a combined test (the "added" form is the GM's to
allow) and the difficulty. The GM's own controls: the difficulty (0..MAX_DIFFICULTY, as the call
form lists it), easing and hindering factors, and fixed modifiers each with its source.
**Decision**: on a called test those are the GM's alone (issue 13: a player must not override the
GM): a factor or modifier the player's ability or armour gives is told to the GM, who adds it on
the card with its source. The player's fields show the GM's values, disabled, and the server
ignores any value posted for them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import groupby
from typing import Any

from django.utils.translation import gettext as _

from rolls.actions import ActionRefused
from rolls.conditions import actions as conditions
from rolls.conditions import in_force
from rolls.engine import EngineError, caerbannog
from rolls.engine.caerbannog_group import added_dice, combined_dice
from rolls.labels import joined, words
from rolls.panels import Panel, source
from rolls.systems.caerbannog import gm_call, reactions, rozmach
from rolls.systems.caerbannog.choices import (
    ADDED,
    COMBINED,
    MAX_FACTORS,
    MAX_MODIFIER,
    CaerbannogChoices,
    calls_tested,
    rozmach_pool,
    testable_groups,
)
from rolls.systems.caerbannog.difficulty import difficulty_choices
from sheets.systems.caerbannog import defence_groups
from sheets.systems.caerbannog import view as read_sheet
from sheets.templatetags.sheet_tags import roman

TEMPLATE = "systems/caerbannog/panel.html"
# The panel module's interface (campaigns.systems: ``System.panel``) names the GM's call form's
# fields and the ranges of the GM's numbers (rolls.panels.gm_limits): both are the GM's call's.
GM_LIMITS = gm_call.GM_LIMITS
target_fields = gm_call.target_fields


def build(character, campaign, choices, pending: dict[str, Any] | None = None) -> Panel:
    """The panel for the posted choices; for a test the GM called (``pending``) its target is
    fixed and the GM's difficulty, factors and modifiers apply, each with its source."""
    data = character.data
    gm = gm_call.gm_modifiers((pending or {}).get("modifiers") or {})
    form = CaerbannogChoices.read(choices, data, pending, gm["difficulty"])
    form.in_force = in_force.active(character)
    panel = Panel(system="caerbannog", template=TEMPLATE, errors=form.messages)
    _other, wrong = gm_call.heroic_other((pending or {}).get("modifiers"))
    if wrong:  # refused at the GM's card (the card's panel is built on the change)
        panel.errors.setdefault("", []).append(wrong)
    found = _states(form, pending)
    panel.context = _context(form, data, gm, pending) | {
        "conditions": conditions.panel_rows(found, form.raw("use") or [], form.raw("attempt") or [])
    }
    spending, guard = _spending(panel, form, character, campaign, gm)
    if panel.errors or not form.in_order():
        return panel
    tested, dice, bonus, what = _tested(form)
    states = len(found.applied)
    params = {
        "dice": list(dice),
        "difficulty": form.cleaned["difficulty"][0],
        "ease": _ease(form, gm, states),
        "modifier": form.cleaned["modifier"] + sum(entry["amount"] for entry in gm["entries"]),
        "bonus": bonus,
        "rozmach": spending.start,
    }
    try:
        odds = caerbannog.odds(caerbannog.parse_params(params))
    except EngineError as error:
        panel.errors.setdefault("", []).append(str(error))
        return panel
    panel.label = words(
        "caerbannog_test", what=what, dice=dice_text(dice), difficulty=params["difficulty"]
    )
    panel.params = params
    panel.sources = (
        _sources(form, gm, tested, dice, params["ease"], states)
        + [in_force.as_source(condition) for condition in found.applied]
        + rozmach.sources(spending)
    )
    _show(panel, form, params, odds)
    panel.after = conditions.after_roll(found, form, lambda outcome: outcome == caerbannog.SUCCESS)
    if guard is not None:
        panel.after = _then(guard, panel.after)
    if spending.changes:
        keep, pay = keep_rozmach(spending.pool), rozmach.pay_lacking(spending.lacking)
        panel.on_result = lambda sheet, result: (keep(sheet, result), pay(sheet, result))
    return panel


def _spending(
    panel: Panel, form: CaerbannogChoices, character, campaign, gm
) -> tuple[rozmach.Spending, Callable[[Any], None] | None]:
    """Surprise (the GM's, on a called test) and a reaction's cost, before the dice; the panel
    shows them and says why it refuses one, or why it offers none now (RULES.md 4.12: only
    outside the character's own turn, once per round). With the spending, the roll's check of
    a reaction posted (``reactions.guard``), None when none was."""
    data = character.data
    costs = rozmach.reaction_costs(campaign)
    reaction = form.cleaned.get("reaction", "")
    if reaction and reaction not in costs:
        panel.errors.setdefault("reaction", []).append(
            _("“%(reaction)s” is not in the GM's Reaction-cost table.") % {"reaction": reaction}
        )
        reaction = ""
    fight, not_now = reactions.now(character, campaign) if costs else (None, "")
    guard = reactions.guard(character, campaign, not_now) if reaction else None
    if not_now:
        # Not offered, so not in the test shown either: what the Roll button rolls is what the
        # panel shows, and a reaction posted all the same (an older page) is refused.
        reaction = ""
    spending, errors = rozmach.plan(
        pool=rozmach_pool(data),
        determinacja=read_sheet(data).resource("determinacja"),
        surprise=gm["surprise"],
        reaction=reaction,
        cost=costs.get(reaction, 0),
        forced=bool(form.cleaned.get("forced")),
    )
    for field, messages in errors.items():
        panel.errors.setdefault(field, []).extend(messages)
    panel.context |= {
        "reactions": sorted(costs.items()),
        "reaction": reaction or str(form.raw("reaction") or ""),
        "reaction_refusal": not_now,
        "fight": fight,
        "forced": bool(form.cleaned.get("forced")),
        "spending": spending,
        "surprise_label": rozmach.SURPRISE_LABELS.get(spending.surprise, ""),
    }
    return spending, guard


def _then(first: Callable[[Any], None], second: Callable[[Any], None] | None):
    """A panel's ``after`` that runs ``first``, then ``second`` (if any)."""
    if second is None:
        return first

    def after(roll) -> None:
        first(roll)
        second(roll)

    return after


def _states(form: CaerbannogChoices, pending) -> in_force.ForTest:
    """The states on the sheet that concern this test: those of all tests, and those of the
    main skill or defence tested (RULES.md 8: the first named)."""
    tested = form.in_order()
    modifiers = (pending or {}).get("modifiers") or {}
    return conditions.shaping(form, modifiers, skill=tested[0]["name"] if tested else "")


def _ease(form: CaerbannogChoices, gm: dict[str, Any], states: int = 0) -> int:
    """The factors' verdict; each state on the sheet concerning the test is one hindering
    factor (the system's Decision, rolls.systems.caerbannog.system.STATES)."""
    easing, hindering = form.cleaned.get("easing", 0), form.cleaned.get("hindering", 0)
    return caerbannog.net_ease(easing + gm["easing"], hindering + gm["hindering"] + states)


def _context(form: CaerbannogChoices, data: dict, gm: dict[str, Any], pending) -> dict:
    """What the panel shows of the choices, as chosen (or as typed, where they are wrong)."""
    target = (pending or {}).get("target") or {}
    tested = form.in_order()
    chosen = {row["name"] for row in tested if row["kind"] == "skill"}
    picked = {row["name"] for row in tested if row["kind"] == "defence"}
    difficulty = form.cleaned.get("difficulty", (caerbannog.DIFFICULTIES["przeciętny"], ""))[0]
    return {
        "skill_groups": [
            {**group, "skills": [s for s in group["skills"] if s["name"] not in chosen]}
            for group in testable_groups(data)
        ],
        "defence_groups": [
            {**group, "defences": [d for d in group["defences"] if d["name"] not in picked]}
            for group in defence_groups(data)
        ],
        "tested": tested,
        "main_is_defence": bool(tested) and tested[0]["kind"] == "defence",
        "form": form.cleaned.get("form", COMBINED),
        "difficulties": difficulty_choices(difficulty),
        "difficulty": difficulty,
        "easing": form.value("easing"),
        "hindering": form.value("hindering"),
        "net_ease": _ease(form, gm),
        "modifier": form.value("modifier"),
        "modifier_source": str(form.raw("modifier_source") or "").strip(),
        "rozmach": rozmach_pool(data),
        "max_factors": MAX_FACTORS,
        "max_modifier": MAX_MODIFIER,
        "pending": pending,
        "gm": gm,
        "gm_modifier": sum(entry["amount"] for entry in gm["entries"]),
        "fixed": {
            "tested": calls_tested(target),
            "form": pending is not None,
            "difficulty": "difficulty" in target or gm["difficulty"] is not None,
        },
    }


def _tested(form: CaerbannogChoices) -> tuple[list[dict], tuple[int, ...], int, Any]:
    """What is rolled: the skills and defences tested (the main one first), their dice, the
    boost's category bonus (none when a defence leads) and the words for the label."""
    tested, how = form.in_order(), form.cleaned["form"]
    sizes = [entry["die"] for entry in tested]
    dice = added_dice(sizes[0], sizes[1:]) if how == ADDED else combined_dice(sizes)
    named = [_named(entry) for entry in tested]
    if how == COMBINED or len(tested) == 1:
        what = joined(named, " + ")
    else:
        what = words("skill_with_added", main=named[0], others=joined(named[1:]))
    return tested, dice, _main_bonus(tested), what


def _main_bonus(tested: list[dict]) -> int:
    """The category bonus a boost adds: the main skill's; a defence has none."""
    return tested[0]["bonus"] if tested[0]["kind"] == "skill" else 0


def _named(entry: dict) -> str:
    return f"{entry['name']} {roman(entry['level'])}"


def _sources(
    form: CaerbannogChoices, gm, tested, dice, ease: int, states: int = 0
) -> list[dict[str, Any]]:
    """The difficulty, the pool when several skills make it, the factors (a state's hindering
    factor among the player's own: the state itself is listed after) and the modifiers."""
    easing, hindering = form.cleaned["easing"], form.cleaned["hindering"] + states
    modifier, said = form.cleaned["modifier"], form.cleaned["modifier_source"]
    difficulty, difficulty_name = form.cleaned["difficulty"]
    sources = [source("difficulty", difficulty, difficulty_name)]
    if len(tested) > 1:
        sources.append(source("rolled", len(dice), _pool_text(tested, form.cleaned["form"])))
    if easing + gm["easing"] or hindering + gm["hindering"]:
        kind = "hinder" if ease < 0 else "ease"
        text = _ease_text(easing, hindering, ease)
        if gm["easing"] or gm["hindering"]:
            text = _gm_ease_text(gm["easing"], gm["hindering"], easing, hindering, ease)
        sources.append(source(kind, abs(ease), text))
    if modifier:
        sources.append(source("modifier", modifier, said or words("fixed_modifier")))
    for entry in gm["entries"]:
        sources.append(source("modifier", entry["amount"], entry["source"]))
    return sources


def _show(panel: Panel, form: CaerbannogChoices, params, odds) -> None:
    """The ready panel: the odds of each outcome and result, and the Rozmach pool kept."""
    dice, main = params["dice"], form.in_order()[0]
    outcomes = odds["odds"]
    panel.odds = [(key, outcomes[key]) for key in caerbannog_outcomes()]
    panel.success = outcomes[caerbannog.SUCCESS]
    panel.on_result = keep_rozmach(params["rozmach"])
    results = [(int(key), p) for key, p in odds["result_odds"].items()]
    tallest = max(p for _key, p in results)
    panel.context |= {
        "dice": tuple(dice),
        "dice_text": dice_text(dice),
        "ease": params["ease"],
        "mode": caerbannog.ease_mode(params["ease"]),
        "bonus": params["bonus"],
        "boost_category": main.get("category_label", ""),
        "results": [(value, p, p / tallest) for value, p in results],
        "rozmach_mean": odds["rozmach_mean"],
        "even": len(dice) % 2 == 0,
    }


def caerbannog_outcomes() -> tuple[str, ...]:
    """Outcome keys best first."""
    return (caerbannog.SUCCESS, caerbannog.FAILURE, caerbannog.CRITICAL_FAILURE)


def dice_text(dice: Sequence[int]) -> str:
    """Dice as a player writes them: (8, 8, 6) -> "2d8+1d6"."""
    return "+".join(f"{len(list(run))}d{sides}" for sides, run in groupby(dice))


def _pool_text(tested: list[dict], form: str) -> dict:
    """Each skill's dice as they were rolled: the main skill's first, then one per other skill
    (RULES.md, Caerbannog 8: "Jazda 3d8 + Dociekliwość 1d6" with others added)."""
    if form == ADDED:
        counts = [3] + [1] * (len(tested) - 1)
    elif len(tested) == 2:
        counts = [2, 1]
    else:
        counts = [1] * len(tested)
    parts = joined(
        [
            f"{entry['name']} {count}d{entry['die']}"
            for entry, count in zip(tested, counts, strict=True)
        ],
        " + ",
    )
    return words("pool_added" if form == ADDED else "pool_combined", parts=parts)


_VERDICTS = {1: "eased", -1: "hindered", 0: "cancel_out"}


def _ease_text(easing: int, hindering: int, ease: int) -> dict:
    return words("factors", e=easing, h=hindering, verdict=words(_VERDICTS[ease]))


def _gm_ease_text(
    gm_easing: int, gm_hindering: int, easing: int, hindering: int, ease: int
) -> dict:
    """The factors of a called test: the GM's, the player's own, and which side wins."""
    parts = [words("gm_factors", e=gm_easing, h=gm_hindering)]
    if easing or hindering:
        parts.append(words("own_factors", e=easing, h=hindering))
    return words("factors_verdict", parts=joined(parts, "; "), verdict=words(_VERDICTS[ease]))


def target_from_post(
    post, character, campaign, prefix: str = ""
) -> tuple[dict[str, Any], list[str]]:
    """The target the GM chose, or the messages saying what is wrong with it: the call as posted
    (``gm_call.called_target``, its fields under ``prefix``), then what the panel built on it
    refuses."""
    target, wrong = gm_call.called_target(post, character, prefix)
    if wrong:
        return target, wrong
    panel = build(character, campaign, {}, pending={"target": target, "modifiers": {}})
    wrong = [m for messages in panel.errors.values() for m in messages]
    return target, wrong


# --- After the roll -----------------------------------------------------------------------------


def keep_rozmach(expected: int):
    """``on_result``: the sheet's Rozmach becomes the pool the engine left (gain, cap, spending).

    ``expected`` is the pool the test was built on; if the sheet changed meanwhile (another roll
    or an edit in the same instant) the roll is refused rather than overwriting it.
    """

    def on_result(sheet: dict, result: Any) -> None:
        resources = sheet.setdefault("resources", {})
        if rozmach_pool(sheet) != expected:
            raise ActionRefused(
                _("The Rozmach pool changed meanwhile; look at the sheet and roll again.")
            )
        resources["rozmach"] = result.rozmach

    return on_result
