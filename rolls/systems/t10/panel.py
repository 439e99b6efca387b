"""The T10 test panel (RULES.md section 3): one attribute plus one skill from the sheet, item and
circumstance dice, the difficulty, the exact odds of the six outcomes and of each net result.
A pool of 0 or less rolls nothing and fails automatically. Nothing follows a T10 roll.

A test the GM calls for (a pending test) fixes the attribute and the skill; the GM may set the
difficulty (the usual 7 until then) and add dice to the pool or take them away, each with its
source. Circumstances are the GM's on a called test: the player still ticks items."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.text import TextField, text_problem
from rolls.engine import EngineError
from rolls.engine import t10 as engine
from rolls.panels import (
    Limit,
    Panel,
    gm_fixed,
    not_on_sheet,
    one_int,
    one_str,
    source,
    with_target,
)
from rolls.words import words
from sheets.systems import t10 as sheet
from sheets.systems.named_lists import NAME_MAX, signed

TEMPLATE = "systems/t10/panel.html"
#: Circumstance dice a player may type for one test, either way.
MAX_CIRCUMSTANCE = 20
#: Results less likely than this are folded into the "or less" / "or more" ends of the list.
RESULT_FLOOR = 0.005
SUCCESS_KEYS = ("success_but", "success", "impressive")


def build(character, campaign, choices, pending: dict[str, Any] | None = None) -> Panel:
    cleaned, _errors = sheet.validate(character.data, campaign, creating=False)
    panel = Panel(system="t10", template=TEMPLATE)
    errors = panel.errors
    # What the GM called for is fixed; the player still ticks items and types circumstances.
    choices = with_target(choices, (pending or {}).get("target") or {})
    modifiers = (pending or {}).get("modifiers") or {}
    if pending is not None:
        difficulty = modifiers.get("difficulty", engine.DEFAULT_DIFFICULTY)
        choices = gm_fixed(choices, GMCircumstances, {"difficulty": difficulty})

    attributes = {row["name"]: row for row in cleaned["attributes"]}
    skills = {row["name"]: row for row in cleaned["skills"]}
    items = [row for row in cleaned["equipment"] if row["dice"]]
    attribute = one_str(choices, "attribute")
    if attribute not in attributes:
        errors.setdefault("attribute", []).append(
            _("Choose the attribute to test.")
            if attributes
            else _("The sheet has no attributes yet; add one to test it.")
        )
    skill = one_str(choices, "skill")
    if skill and skill not in skills:
        errors.setdefault("skill", []).append(not_on_sheet(skill))  # forged, or renamed since
        skill = ""
    ticked = set(_strs(choices, "item"))
    chosen_items = [row for row in items if row["name"] in ticked]
    for name in sorted(ticked - {row["name"] for row in items})[:1]:
        errors.setdefault("item", []).append(not_on_sheet(name))
    circumstance = one_int(choices, "circumstance")
    if (
        not isinstance(circumstance, int)
        or not -MAX_CIRCUMSTANCE <= circumstance <= MAX_CIRCUMSTANCE
    ):
        errors.setdefault("circumstance", []).append(
            _("Circumstance dice must be a whole number from −%(max)s to +%(max)s.")
            % {"max": MAX_CIRCUMSTANCE}
        )
    circumstance_source = " ".join(one_str(choices, "circumstance_source").split())
    if len(circumstance_source) > NAME_MAX:
        errors.setdefault("circumstance_source", []).append(
            _("Say where the dice come from in at most %(max)s characters.") % {"max": NAME_MAX}
        )
    elif problem := text_problem(circumstance_source):
        errors.setdefault("circumstance_source", []).append(problem)
    gm_difficulty = modifiers.get("difficulty")
    if gm_difficulty is None:
        difficulty = one_int(choices, "difficulty", default=engine.DEFAULT_DIFFICULTY)
    else:
        difficulty = gm_difficulty
    if (
        isinstance(difficulty, bool)
        or not isinstance(difficulty, int)
        or not (engine.MIN_DIFFICULTY <= difficulty <= engine.MAX_DIFFICULTY)
    ):
        message = (
            _("The difficulty is a whole number from %(lo)s to %(hi)s.")
            if gm_difficulty is None
            else _("The GM set difficulty %(set)s; T10 difficulties go from %(lo)s to %(hi)s.")
        )
        errors.setdefault("difficulty", []).append(
            message
            % {"lo": engine.MIN_DIFFICULTY, "hi": engine.MAX_DIFFICULTY, "set": gm_difficulty}
        )

    panel.context = {
        "attributes": cleaned["attributes"],
        "skills": cleaned["skills"],
        "items": [(row, signed(row["dice"]), row["name"] in ticked) for row in items],
        "chosen_attribute": attribute,
        "chosen_skill": skill,
        "circumstance": circumstance,
        "circumstance_source": circumstance_source,
        "max_circumstance": MAX_CIRCUMSTANCE,
        "name_max": NAME_MAX,
        "difficulty": difficulty,
        "difficulties": range(engine.MIN_DIFFICULTY, engine.MAX_DIFFICULTY + 1),
        "default_difficulty": engine.DEFAULT_DIFFICULTY,
        "gm_difficulty": gm_difficulty,
        "pending": pending,
    }
    if errors:
        return panel

    base = attributes[attribute]["value"] + (skills[skill]["value"] if skill else 0)
    sources = [source("pool", row["dice"], row["name"]) for row in chosen_items]
    if circumstance:
        sources.append(source("pool", circumstance, circumstance_source or words("circumstances")))
    pool = base + sum(row["dice"] for row in chosen_items) + circumstance
    pool += _gm_dice(modifiers, sources)
    params = {"pool": pool, "difficulty": difficulty}
    try:
        odds = engine.odds(engine.parse_params(params))
    except EngineError as error:
        errors.setdefault("", []).append(str(error))
        return panel

    panel.label = _label(attribute, attributes[attribute]["value"], skill, skills, pool, difficulty)
    panel.params = params
    panel.sources = sources
    panel.odds = [(key, odds["odds"][key]) for key in reversed(engine.OUTCOME_KEYS)]
    panel.success = sum(odds["odds"][key] for key in SUCCESS_KEYS)
    panel.context |= {
        "base": base,
        "pool": pool,
        "automatic": pool <= 0,
        "results": _results(odds["result_odds"]),
        "average": sum(int(result) * p for result, p in odds["result_odds"].items()),
    }
    return panel


class GMCircumstances(forms.Form):
    """On a called test the circumstance dice and the difficulty are the GM's (added on the GM's
    card): whatever is posted for them, the player's own circumstance dice stay 0."""

    circumstance = forms.IntegerField(disabled=True, initial=0, required=False)
    circumstance_source = TextField(disabled=True, initial="", required=False)
    difficulty = forms.IntegerField(disabled=True, required=False)


def _gm_dice(modifiers: Mapping[str, Any], sources: list) -> int:
    """The GM's dice of a pending test: bonus dice join the pool, penalty dice leave it."""
    total = 0
    for entry in modifiers.get("dice", []):
        sign = {"bonus": 1, "penalty": -1}.get(entry.get("kind"))
        if sign is None:
            continue
        total += sign * entry["amount"]
        sources.append(source("pool", sign * entry["amount"], entry["source"]))
    return total


# --- The GM's side: calling for a test and shaping it -------------------------------------------

#: What the GM may change on a pending T10 test (see rolls.pending.OPERATIONS).
GM_CONTROLS = ("bonus", "penalty", "difficulty")
#: The GM's numbers and their ranges (RULES.md section 3: 4..10, usually 7).
GM_LIMITS = {
    "difficulty": Limit(
        engine.MIN_DIFFICULTY,
        engine.MAX_DIFFICULTY,
        gettext_lazy("A T10 difficulty is a whole number from %(low)s to %(high)s (usually 7)."),
    ),
}


def target_fields(character, campaign) -> list[dict[str, Any]]:
    """The fields of the GM's "call for a test" form: the attribute and the skill."""
    cleaned, _errors = sheet.validate(character.data, campaign, creating=False)
    return [
        {
            "name": "attribute",
            "label": _("Attribute (Grundegenskap)"),
            "type": "select",
            "choices": [
                (row["name"], f"{row['name']} {row['value']}") for row in cleaned["attributes"]
            ],
        },
        {
            "name": "skill",
            "label": _("Skill (Färdighet)"),
            "type": "select",
            "choices": [("", _("none"))]
            + [(row["name"], f"{row['name']} {row['value']}") for row in cleaned["skills"]],
        },
    ]


def target_from_post(post, character, campaign) -> tuple[dict[str, Any], list[str]]:
    """The target the GM chose, or the messages saying what is wrong with it."""
    target = {"attribute": one_str(post, "attribute"), "skill": one_str(post, "skill")}
    cleaned, _errors = sheet.validate(character.data, campaign, creating=False)
    wrong = []
    if target["attribute"] not in {row["name"] for row in cleaned["attributes"]}:
        wrong.append(_("Choose the attribute to test."))
    if target["skill"] and target["skill"] not in {row["name"] for row in cleaned["skills"]}:
        wrong.append(_("Choose one of the character's skills, or none."))
    return target, wrong


def _label(attribute: str, value: int, skill: str, skills: Mapping, pool: int, difficulty: int):
    parts = f"{attribute} {value}"
    if skill:
        parts += f" + {skill} {skills[skill]['value']}"
    return words("t10_test", parts=parts, pool=pool, difficulty=difficulty)


def _results(result_odds: Mapping[str, float]) -> list[dict[str, Any]]:
    """The net results worth a glance, worst first: rare ends folded into "or less"/"or more"."""
    results = sorted((int(result), p) for result, p in result_odds.items())
    shown = [r for r, p in results if p >= RESULT_FLOOR] or [max(results, key=lambda rp: rp[1])[0]]
    low, high = min(shown), max(shown)
    rows = []
    for result in range(low, high + 1):
        if result == low:
            p = sum(q for r, q in results if r <= low)
        elif result == high:
            p = sum(q for r, q in results if r >= high)
        else:
            p = next((q for r, q in results if r == result), 0.0)
        rows.append(
            {
                "result": result,
                "p": p,
                "scale": 0.0,
                "outcome": engine.outcome_for(result),
                "or_less": result == low and results[0][0] < low,
                "or_more": result == high and results[-1][0] > high,
            }
        )
    tallest = max(row["p"] for row in rows)
    for row in rows:
        row["scale"] = row["p"] / tallest  # bar heights: the likeliest result fills its bar
    return rows


def _strs(choices, name: str) -> list[str]:
    if hasattr(choices, "getlist"):
        return choices.getlist(name)
    value = choices.get(name, [])
    return [value] if isinstance(value, str) else [v for v in value if isinstance(v, str)]
