"""The post-apocalyptic 2d6 test panel (RULES.md section 5): attribute + skill (+ a
specialisation), the modifiers in their four categories with each category's sum and clamp,
helpers, the difficulty, the success-point cap, the automatic flags and the exact odds, success
points included. Nothing follows a roll in this system.

Decisions of this panel, where RULES.md and the seed are silent:

- A specialisation raises the success-point cap by 1. The seed names specialisations among the
  ways to raise the limit but gives no size; one step is the smallest raise, and fitting
  equipment or help (typed as the cap raise) adds more when the GM says so. Only one
  specialisation counts in a test, and only one of the chosen skill: a specialisation posted for
  another skill (left over from switching skills) is ignored.
- "No skill" tests the attribute alone: skill 0, so at most 1 success point.
- The difficulty is the GM's; until it is typed the panel shows 15. The seed has no table of
  difficulties, so the panel offers the two its examples use: 15 (the library, the ambush) and
  20 (the mayor's speech to a hostile crowd).
- Up to MAX_FREE free modifiers per category, each −5..+5 with a short source ("other" when left
  blank). A row with a source but no number yet counts as nothing.
- The log gets one source per category that has entries: the amount that counts (after the
  clamp) and what made it up; cap raises are logged as "cap" sources.

A test the GM calls for (a pending test) fixes the attribute, the skill and the difficulty. The
GM's controls: the difficulty (DIFFICULTY_MIN..DIFFICULTY_MAX, as everywhere) and modifiers with
their sources in any of the four categories (``add_category_modifier``, each −5..+5; a
"circumstance" entry added with ``add_dice`` counts too). **Decision**: the GM may add to every
category, not only circumstance, because each category is clamped on its own: an anomaly's −3 is
supernatural and must not be swallowed by a circumstance clamp the player's own modifiers already
fill. The GM's modifiers join the player's in their category, before the clamp, and the log names
them among the rest. The player keeps the sheet's choices: the specialisation and the advantages.
**Decision** (issue 13: a player must not override the GM): typed modifiers, helpers and the cap
raise are the GM's on a called test, shown disabled; the GM adds what the player asks for on the
card."""

from __future__ import annotations

import unicodedata
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.text import TextField, text_problem
from rolls.engine import EngineError, twod6
from rolls.panels import Limit, Panel, gm_fixed, one_str, source, with_target
from rolls.words import joined, words
from sheets.systems.named_lists import NAME_MAX, check_int, signed
from sheets.systems.twod6 import CATEGORY_LABELS, success_point_limit, validate

TEMPLATE = "systems/twod6/panel.html"
MAX_FREE = 5  # free modifiers a player may type per category
DEFAULT_DIFFICULTY = 15
DIFFICULTY_MIN, DIFFICULTY_MAX = 1, 60  # 10 + 10 + 4 × 5 + 12 = 52 is the best total a sheet allows
MAX_CAP_RAISE = 10
SPECIALISATION_RAISE = 1
#: The difficulties the seed's examples use, with what they were set for.
SEED_DIFFICULTIES = (
    (15, gettext_lazy("the library, the ambush")),
    (20, gettext_lazy("a crowd that wants blood")),
)

_PLACEHOLDERS = {
    "circumstance": gettext_lazy("e.g. unfamiliar ground"),
    "personal": gettext_lazy("e.g. exhausted"),
    "equipment": gettext_lazy("e.g. no medical kit"),
    "supernatural": gettext_lazy("e.g. PSI: foresight"),
}


def build(character, campaign, choices, pending: dict[str, Any] | None = None) -> Panel:
    """The panel for ``choices``; for a test the GM called (``pending``) its target is fixed and
    the GM's difficulty and modifiers apply, each with its source."""
    sheet, _sheet_errors = validate(character.data, campaign, creating=False)
    panel = Panel(system="2d6", template=TEMPLATE)
    errors = panel.errors
    target = (pending or {}).get("target") or {}
    gm = _gm_modifiers((pending or {}).get("modifiers") or {})
    choices = with_target(choices, target)
    if pending is not None:
        difficulty = target.get("difficulty", str(DEFAULT_DIFFICULTY))
        choices = gm_fixed(choices, GMModifiers, {"difficulty": difficulty})

    attributes = {row["name"]: row["value"] for row in sheet["attributes"]}
    skills = {row["name"]: row["value"] for row in sheet["skills"]}
    attribute = one_str(choices, "attribute")
    if attribute not in attributes:
        message = (
            _("Choose the attribute to test.")
            if attributes
            else _("This sheet has no attributes yet; add them on the sheet first.")
        )
        errors.setdefault("attribute", []).append(message)
    skill = one_str(choices, "skill")
    if skill and skill not in skills:
        errors.setdefault("skill", []).append(_("Choose one of the skills on this sheet."))
        skill = ""
    skill_specialisations = [s["name"] for s in sheet["specialisations"] if s["skill"] == skill]
    specialisation = one_str(choices, "specialisation")
    if specialisation not in skill_specialisations:
        specialisation = ""
    ticked_names = set(_strs(choices, "advantage"))
    advantages = [{**row, "ticked": row["name"] in ticked_names} for row in sheet["advantages"]]
    free = {category: _free_rows(choices, category, errors) for category in twod6.CATEGORIES}
    helpers, helpers_typed = _number(
        choices, "helpers", 0, twod6.MAX_HELPERS, 0, errors, _("Helpers")
    )
    if gm["difficulty"] is None:
        difficulty, difficulty_typed = _number(
            choices, "difficulty", DIFFICULTY_MIN, DIFFICULTY_MAX, DEFAULT_DIFFICULTY, errors,
            _("The difficulty"),
        )  # fmt: skip
    else:
        difficulty = difficulty_typed = gm["difficulty"]
    cap_raise, cap_raise_typed = _number(
        choices, "cap_raise", 0, MAX_CAP_RAISE, 0, errors, _("The cap raise")
    )
    cap_source = _clean_text(one_str(choices, "cap_source"))

    panel.context = {
        "attributes": list(attributes.items()),
        "skills": [(name, value, success_point_limit(value)) for name, value in skills.items()],
        "chosen_attribute": attribute,
        "chosen_skill": skill,
        "specialisations": skill_specialisations,
        "chosen_specialisation": specialisation,
        "specialisation_raise": SPECIALISATION_RAISE,
        "helpers": helpers_typed,
        "max_helpers": twod6.MAX_HELPERS,
        "difficulty": difficulty_typed,
        "difficulty_min": DIFFICULTY_MIN,
        "difficulty_max": DIFFICULTY_MAX,
        "seed_difficulties": SEED_DIFFICULTIES,
        "cap_raise": cap_raise_typed,
        "cap_source": cap_source,
        "max_cap_raise": MAX_CAP_RAISE,
        "mod_limit": twod6.MOD_LIMIT,
        "categories": [
            {
                "key": category,
                "label": CATEGORY_LABELS[category],
                "advantages": [a for a in advantages if a["category"] == category],
                "rows": free[category],
                "placeholder": _PLACEHOLDERS[category],
                "gm_rows": gm["entries"][category],
            }
            for category in twod6.CATEGORIES
        ],
        "pending": pending,
        "fixed": {
            "attribute": "attribute" in target,
            "skill": "skill" in target,
            "difficulty": pending is not None,
        },
    }
    if errors:
        return panel

    entries = {category: [] for category in twod6.CATEGORIES}
    for advantage in advantages:
        if advantage["ticked"]:
            entries[advantage["category"]].append((advantage["name"], advantage["modifier"]))
    for category, rows in free.items():
        entries[category] += [
            (row["source"] or words("other"), row["amount"]) for row in rows if row["counts"]
        ]
        entries[category] += [(row["source"], row["amount"]) for row in gm["entries"][category]]

    spec_raise = SPECIALISATION_RAISE if specialisation else 0
    params = {
        "attribute": attributes[attribute],
        "skill": skills.get(skill, 0),
        "modifiers": {
            category: [amount for _text, amount in entries[category]]
            for category in twod6.CATEGORIES
        },
        "helpers": helpers,
        "difficulty": difficulty,
        "cap_bonus": spec_raise + cap_raise,
    }
    try:
        parsed = twod6.parse_params(params)
    except EngineError as error:
        errors.setdefault("", []).append(str(error))
        return panel
    odds = twod6.odds(parsed)

    sums = _category_sums(parsed, entries, helpers)
    for category, row in zip(panel.context["categories"], sums, strict=True):
        category["sum"] = row
    sources = [_category_source(row) for row in sums if row["entries"] or row["helpers"]]
    if spec_raise:
        sources.append(source("cap", spec_raise, words("specialisation", name=specialisation)))
    if cap_raise:
        sources.append(source("cap", cap_raise, cap_source or words("equipment_or_help")))

    test = f"{attribute} {params['attribute']}"
    if skill:
        test += f" + {skill} {params['skill']}"
        if specialisation:
            test += f" ({specialisation})"
    panel.label = words("twod6_test", test=test, difficulty=difficulty)
    panel.params = params
    panel.sources = sources
    panel.odds = [(key, odds["odds"][key]) for key in ("success", "failure")]
    panel.success = odds["odds"]["success"]
    panel.context |= {
        "modifier": parsed.modifier,
        "base": parsed.base,
        "cap": parsed.cap,
        "attribute_value": params["attribute"],
        "skill_value": params["skill"],
        "spec_raise": spec_raise,
        "automatic": parsed.automatic,
        "need": difficulty - parsed.base,
        "best_total": parsed.base + twod6.DICE * twod6.SIDES,
        "used_difficulty": difficulty,
        "points": _points(odds["success_points_odds"]),
    }
    return panel


# --- The GM's side: calling for a test and shaping it -------------------------------------------

#: What the GM may change on a pending 2d6 test: the difficulty and modifiers in any category
#: (rolls.pending's ``set_difficulty`` and ``add_category_modifier``).
GM_CONTROLS = ("difficulty", "category_modifier")
#: The GM's difficulty takes the same range as the player's field and the call form's list.
GM_LIMITS = {
    "difficulty": Limit(
        DIFFICULTY_MIN,
        DIFFICULTY_MAX,
        gettext_lazy("A 2d6 difficulty is a whole number from %(low)s to %(high)s."),
    ),
    # A circumstance modifier added as a dice entry, sized like any category's modifier.
    "circumstance": Limit(
        -twod6.MOD_LIMIT,
        twod6.MOD_LIMIT,
        gettext_lazy("A modifier is a whole number from -%(high)s to +%(high)s, not 0."),
        nonzero=True,
    ),
}


def _gm_modifiers_form() -> type[forms.Form]:
    """On a called test every typed modifier is the GM's, as are helpers, the cap raise and the
    difficulty: disabled fields, so the player's own stay empty whatever is posted. The GM adds
    modifiers with their sources on the card (``add_category_modifier``)."""
    text = {"disabled": True, "initial": "", "required": False}
    fields: dict[str, forms.Field] = {
        f"mod-{category}-{index}-{part}": TextField(**text)
        for category in twod6.CATEGORIES
        for index in range(MAX_FREE)
        for part in ("value", "source")
    }
    fields |= {
        "helpers": forms.IntegerField(disabled=True, initial=0, required=False),
        "cap_raise": forms.IntegerField(disabled=True, initial=0, required=False),
        "cap_source": TextField(**text),
        "difficulty": TextField(disabled=True, required=False),
    }
    return type("GMModifiers", (forms.Form,), fields)


GMModifiers = _gm_modifiers_form()


def _gm_modifiers(modifiers: dict[str, Any]) -> dict[str, Any]:
    """The GM's part of a called test, read defensively (the operations checked it on the way
    in): the difficulty or None, and the modifiers with their sources by category."""
    difficulty = modifiers.get("difficulty")
    entries: dict[str, list[dict[str, Any]]] = {category: [] for category in twod6.CATEGORIES}
    for entry in modifiers.get("dice", []):
        if not isinstance(entry, dict) or entry.get("kind") not in entries:
            continue
        amount = entry.get("amount")
        if isinstance(amount, int) and not isinstance(amount, bool) and amount:
            text = _clean_text(str(entry.get("source", ""))) or words("set_by_gm")
            entries[entry["kind"]].append({"amount": amount, "source": text})
    valid = isinstance(difficulty, int) and not isinstance(difficulty, bool) and difficulty >= 0
    return {"difficulty": difficulty if valid else None, "entries": entries}


def target_fields(character, campaign) -> list[dict[str, Any]]:
    """The fields of the GM's "call for a test" form: attribute, skill and difficulty (the
    seed's 15 first, the default; then every number the panel takes)."""
    sheet, _sheet_errors = validate(character.data, campaign, creating=False)
    seeds = dict(SEED_DIFFICULTIES)
    difficulties = [
        (str(DEFAULT_DIFFICULTY), f"{DEFAULT_DIFFICULTY} ({seeds[DEFAULT_DIFFICULTY]})")
    ]
    difficulties += [
        (str(n), f"{n} ({seeds[n]})" if n in seeds else str(n))
        for n in range(DIFFICULTY_MIN, DIFFICULTY_MAX + 1)
        if n != DEFAULT_DIFFICULTY
    ]
    return [
        {
            "name": "attribute",
            "label": _("Attribute (Współczynnik)"),
            "type": "select",
            "choices": [
                (row["name"], f"{row['name']} {row['value']}") for row in sheet["attributes"]
            ],
        },
        {
            "name": "skill",
            "label": _("Skill (Umiejętność)"),
            "type": "select",
            "choices": [("", _("none"))]
            + [(row["name"], f"{row['name']} {row['value']}") for row in sheet["skills"]],
        },
        {
            "name": "difficulty",
            "label": _("Difficulty (Poziom trudności)"),
            "type": "select",
            "choices": difficulties,
        },
    ]


def target_from_post(post, character, campaign) -> tuple[dict[str, Any], list[str]]:
    """The target the GM chose, or the messages saying what is wrong with it."""
    target = {
        "attribute": one_str(post, "attribute"),
        "skill": one_str(post, "skill"),
        "difficulty": one_str(post, "difficulty").strip() or str(DEFAULT_DIFFICULTY),
    }
    panel = build(character, campaign, {}, pending={"target": target, "modifiers": {}})
    wrong = [m for name in ("attribute", "skill", "difficulty") for m in panel.errors.get(name, [])]
    return target, wrong


def _strs(choices, name: str) -> list[str]:
    if hasattr(choices, "getlist"):
        return choices.getlist(name)
    value = choices.get(name, [])
    if isinstance(value, str):
        return [value]
    return [v for v in value if isinstance(v, str)] if isinstance(value, (list, tuple)) else []


def _clean_text(raw: str) -> str:
    """A short single line as typed, spaces collapsed, at most NAME_MAX; control characters are
    dropped from what is shown again (the panel refuses them with ``text_problem``)."""
    text = " ".join(raw.split())
    return "".join(c for c in text if unicodedata.category(c) != "Cc")[:NAME_MAX]


def _number(choices, name, lo, hi, default, errors, label) -> tuple[int, int | str]:
    """The posted whole number within lo..hi (the default when blank) and what to show again."""
    raw = one_str(choices, name).strip()
    if raw == "":
        return default, default
    value, message = check_int(raw, lo, hi)
    if message:
        errors.setdefault(name, []).append(f"{label}: {message}")
        return default, raw[:12]
    return value, value


def _free_rows(choices, category: str, errors: dict) -> list[dict[str, Any]]:
    """The free modifiers typed under ``category``: every typed row, then one blank row."""
    label = CATEGORY_LABELS[category]
    typed = []
    for index in range(MAX_FREE):
        raw = one_str(choices, f"mod-{category}-{index}-value").strip()[:12]
        typed_source = one_str(choices, f"mod-{category}-{index}-source")
        text = _clean_text(typed_source)
        row = {
            "index": index,
            "number": index + 1,
            "value": raw,
            "source": text,
            "label": text or _("other"),
            "amount": 0,
            "counts": False,
            "errors": [],
            "blank": raw == "" and text == "",
        }
        if raw:
            amount, message = check_int(raw, -twod6.MOD_LIMIT, twod6.MOD_LIMIT)
            if message:
                message = _("%(category)s, modifier %(n)s: %(message)s") % {
                    "category": label,
                    "n": index + 1,
                    "message": message,
                }
                row["errors"].append(message)
                errors.setdefault(f"mod-{category}-{index}-value", []).append(message)
            else:
                row["amount"], row["counts"] = amount, True
        if problem := text_problem(typed_source):
            row["errors"].append(problem)
            errors.setdefault(f"mod-{category}-{index}-source", []).append(problem)
        typed.append(row)
    last = max((row["index"] for row in typed if not row["blank"]), default=-1)
    return typed[: min(last + 2, MAX_FREE)]


def _category_sums(parsed: twod6.Params, entries: dict, helpers: int) -> list[dict[str, Any]]:
    """Per category: its entries, what they add up to and what counts after the engine's clamp."""
    sums = []
    for category, clamped in zip(twod6.CATEGORIES, parsed.clamped, strict=True):
        own_helpers = helpers if category == "circumstance" else 0
        raw = sum(amount for _text, amount in entries[category]) + own_helpers
        sums.append(
            {
                "key": category,
                "label": CATEGORY_LABELS[category],
                "entries": entries[category],
                "helpers": own_helpers,
                "raw": raw,
                "clamped": clamped,
                "held": raw != clamped,
            }
        )
    return sums


def _category_source(row: dict[str, Any]) -> dict[str, Any]:
    parts: list[Any] = [joined([text, signed(amount)], " ") for text, amount in row["entries"]]
    if row["helpers"]:
        n = row["helpers"]
        parts.append(words("helpers", n=n, amount=signed(n)))
    text = joined(parts)
    if row["held"]:
        text = words(
            "held_at", entries=text, raw=signed(row["raw"]), clamped=signed(row["clamped"])
        )
    return source(row["key"], row["clamped"], text)


def _points(points_odds: dict[str, float]) -> list[dict[str, Any]]:
    """Success points 1..cap: the chance of exactly that many and of at least that many, and
    the bar's height beside the likeliest."""
    rows = []
    at_least = 0.0
    for key in sorted(points_odds, key=int, reverse=True):
        points = int(key)
        if points == 0:
            continue
        at_least += points_odds[key]
        rows.append({"points": points, "exactly": points_odds[key], "at_least": at_least})
    tallest = max((row["exactly"] for row in rows), default=0.0)
    for row in rows:
        row["share"] = row["exactly"] / tallest
    return rows[::-1]
