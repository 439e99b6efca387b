"""The T10 test panel (RULES.md section 3): one attribute plus one skill from the sheet, item and
circumstance dice, the difficulty, the exact odds of the six outcomes and of each net result.
A pool of 0 or less rolls nothing and fails automatically. Nothing follows a T10 roll."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from rolls.engine import EngineError
from rolls.engine import t10 as engine
from rolls.panels import Panel, one_int, one_str, source
from sheets.systems import t10 as sheet
from sheets.systems.named_lists import NAME_MAX, signed

TEMPLATE = "rolls/panels/t10.html"
#: Circumstance dice a player may type for one test, either way.
MAX_CIRCUMSTANCE = 20
#: Results less likely than this are folded into the "or less" / "or more" ends of the list.
RESULT_FLOOR = 0.005
SUCCESS_KEYS = ("success_but", "success", "impressive")


def build(character, campaign, choices, pending: dict[str, Any] | None = None) -> Panel:
    cleaned, _errors = sheet.validate(character.data, campaign, creating=False)
    panel = Panel(system="t10", template=TEMPLATE)
    errors = panel.errors

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
        skill = ""  # a forged or since renamed skill: no skill
    ticked = set(_strs(choices, "item"))
    chosen_items = [row for row in items if row["name"] in ticked]
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
    difficulty = one_int(choices, "difficulty", default=engine.DEFAULT_DIFFICULTY)
    if not isinstance(difficulty, int) or not (
        engine.MIN_DIFFICULTY <= difficulty <= engine.MAX_DIFFICULTY
    ):
        errors.setdefault("difficulty", []).append(
            _("The difficulty is a whole number from %(lo)s to %(hi)s.")
            % {"lo": engine.MIN_DIFFICULTY, "hi": engine.MAX_DIFFICULTY}
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
    }
    if errors:
        return panel

    base = attributes[attribute]["value"] + (skills[skill]["value"] if skill else 0)
    sources = [source("pool", row["dice"], row["name"]) for row in chosen_items]
    if circumstance:
        sources.append(source("pool", circumstance, circumstance_source or _("circumstances")))
    pool = base + sum(row["dice"] for row in chosen_items) + circumstance
    if pending:
        pool += pending.get("pool", 0)
        sources.extend(pending.get("sources", []))
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


def _label(attribute: str, value: int, skill: str, skills: Mapping, pool: int, difficulty: int):
    parts = f"{attribute} {value}"
    if skill:
        parts += f" + {skill} {skills[skill]['value']}"
    return _("%(parts)s: %(pool)s d10 vs %(difficulty)s") % {
        "parts": parts,
        "pool": pool,
        "difficulty": difficulty,
    }


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
                "outcome": engine.outcome_for(result),
                "or_less": result == low and results[0][0] < low,
                "or_more": result == high and results[-1][0] > high,
            }
        )
    return rows


def _strs(choices, name: str) -> list[str]:
    if hasattr(choices, "getlist"):
        return choices.getlist(name)
    value = choices.get(name, [])
    return [value] if isinstance(value, str) else [v for v in value if isinstance(v, str)]
