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

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rolls import labels
from rolls.conditions import actions as conditions
from rolls.conditions import in_force
from rolls.engine import EngineError, twod6
from rolls.labels import joined, words
from rolls.panels import Limit, Panel, PanelForm, source
from rolls.systems.twod6.choices import (
    DEFAULT_DIFFICULTY,
    DIFFICULTY_MAX,
    DIFFICULTY_MIN,
    MAX_CAP_RAISE,
    MAX_FREE,
    TwoD6Choices,
    clean_text,
)
from sheets.models import Character
from sheets.systems.named_lists import signed
from sheets.systems.twod6 import CATEGORY_LABELS, success_point_limit, validate

# A joint test's helpers, with the characters of the table named.
labels.register(words={"helpers_named": gettext_lazy("%(helpers)s: %(names)s")})

TEMPLATE = "systems/twod6/panel.html"
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
    gm = _gm_modifiers((pending or {}).get("modifiers") or {})
    form = TwoD6Choices.read(choices, sheet, pending, gm["difficulty"])
    form.table = _table_helpers(character, campaign)
    form.in_force = in_force.active(character)
    panel = Panel(system="2d6", template=TEMPLATE, errors=form.messages)
    found = conditions.shaping(
        form,
        (pending or {}).get("modifiers"),
        attribute=str(form.cleaned.get("attribute") or ""),
        skill=str(form.cleaned.get("skill") or ""),
    )
    panel.context = _context(form, sheet, gm, pending) | {
        "conditions": conditions.panel_rows(found, form.raw("use") or [], form.raw("attempt") or [])
    }
    if panel.errors:
        return panel
    entries = _entries(form, panel.context["categories"], gm)
    # A lasting modifier (a condition) joins the others of its category, before the clamp.
    for condition in found.applied:
        entries[condition.effect].append((in_force.source_words(condition), condition.amount))
    panel.after = conditions.after_roll(found, form, lambda outcome: outcome == "success")
    params = _params(form, entries)
    try:
        parsed = twod6.parse_params(params)
    except EngineError as error:
        panel.errors.setdefault("", []).append(str(error))
        return panel
    sums = _category_sums(parsed, entries, params["helpers"])
    for category, row in zip(panel.context["categories"], sums, strict=True):
        category["sum"] = row
    _show(panel, form, params, _sources(form, sums), parsed)
    return panel


def _typed(form: PanelForm, name: str) -> Any:
    """A number as the page shows it again: the clean one, or what was typed."""
    if name in form.cleaned:
        return form.cleaned[name]
    return str(form.raw(name) or "").strip()[:12]


def _context(form, sheet: Mapping[str, Any], gm: Mapping[str, Any], pending) -> dict[str, Any]:
    """What the panel shows of the choices, as chosen (or as typed, where they are wrong)."""
    target = (pending or {}).get("target") or {}
    ticked_names = set(form.value("advantage") or [])
    advantages = [{**row, "ticked": row["name"] in ticked_names} for row in sheet["advantages"]]
    skills = form.skills
    return {
        "attributes": list(form.attributes.items()),
        "skills": [(name, value, success_point_limit(value)) for name, value in skills.items()],
        "chosen_attribute": form.value("attribute"),
        "chosen_skill": form.cleaned.get("skill", ""),
        "specialisations": form.skill_specialisations(),
        "chosen_specialisation": form.cleaned.get("specialisation", ""),
        "specialisation_raise": SPECIALISATION_RAISE,
        "helpers": _typed(form, "helpers"),
        "max_helpers": twod6.MAX_HELPERS,
        "table_helpers": [
            (name, name in (form.cleaned.get("helper") or [])) for name in form.table
        ],
        "named_helpers": form.cleaned.get("helper") or [],
        "difficulty": _typed(form, "difficulty") if gm["difficulty"] is None else gm["difficulty"],
        "difficulty_min": DIFFICULTY_MIN,
        "difficulty_max": DIFFICULTY_MAX,
        "seed_difficulties": SEED_DIFFICULTIES,
        "cap_raise": _typed(form, "cap_raise"),
        "cap_source": clean_text(str(form.raw("cap_source") or "")),
        "max_cap_raise": MAX_CAP_RAISE,
        "mod_limit": twod6.MOD_LIMIT,
        "categories": [
            {
                "key": category,
                "label": CATEGORY_LABELS[category],
                "advantages": [a for a in advantages if a["category"] == category],
                "rows": _free_rows(form, category),
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


def _entries(form, categories: list[dict[str, Any]], gm) -> dict[str, list[tuple[Any, int]]]:
    """Per category, every modifier that counts with where it comes from: the ticked
    advantages, the typed modifiers and the GM's."""
    entries: dict[str, list[tuple[Any, int]]] = {}
    for category in categories:
        key = category["key"]
        entries[key] = [(a["name"], a["modifier"]) for a in category["advantages"] if a["ticked"]]
        entries[key] += [
            (row["source"] or words("other"), row["amount"])
            for row in category["rows"]
            if row["counts"]
        ]
        entries[key] += [(row["source"], row["amount"]) for row in gm["entries"][key]]
    return entries


def _params(form, entries) -> dict[str, Any]:
    spec_raise = SPECIALISATION_RAISE if form.cleaned["specialisation"] else 0
    return {
        "attribute": form.attributes[form.cleaned["attribute"]],
        "skill": form.skills.get(form.cleaned["skill"], 0),
        "modifiers": {
            category: [amount for _text, amount in entries[category]]
            for category in twod6.CATEGORIES
        },
        "helpers": form.cleaned["helpers"] + len(form.cleaned["helper"]),
        "difficulty": form.cleaned["difficulty"],
        "cap_bonus": spec_raise + form.cleaned["cap_raise"],
    }


def _sources(form, sums: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One source per category with entries (after its clamp), then the cap raises."""
    named = form.cleaned["helper"]
    sources = [_category_source(row, named) for row in sums if row["entries"] or row["helpers"]]
    specialisation, cap_raise = form.cleaned["specialisation"], form.cleaned["cap_raise"]
    if specialisation:
        said = words("specialisation", name=specialisation)
        sources.append(source("cap", SPECIALISATION_RAISE, said))
    if cap_raise:
        said = form.cleaned["cap_source"]
        sources.append(source("cap", cap_raise, said or words("equipment_or_help")))
    return sources


def _show(panel: Panel, form, params, sources, parsed: twod6.Params) -> None:
    """The ready panel: its label, the roll's params and the odds, success points included."""
    attribute, skill = form.cleaned["attribute"], form.cleaned["skill"]
    specialisation, difficulty = form.cleaned["specialisation"], params["difficulty"]
    odds = twod6.odds(parsed)
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
        "spec_raise": SPECIALISATION_RAISE if specialisation else 0,
        "automatic": parsed.automatic,
        "need": difficulty - parsed.base,
        "best_total": parsed.base + twod6.DICE * twod6.SIDES,
        "used_difficulty": difficulty,
        "points": _points(odds["success_points_odds"]),
    }


# --- The GM's side: calling for a test and shaping it -------------------------------------------

#: What the GM may change on a pending 2d6 test: the difficulty and modifiers in any category
#: (rolls.pending.actions's ``set_difficulty`` and ``add_category_modifier``).
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
            text = clean_text(str(entry.get("source", ""))) or words("set_by_gm")
            entries[entry["kind"]].append({"amount": amount, "source": text})
    valid = isinstance(difficulty, int) and not isinstance(difficulty, bool) and difficulty >= 0
    return {"difficulty": difficulty if valid else None, "entries": entries}


def target_fields(character, campaign) -> list[dict[str, Any]]:
    """The fields of the GM's "call for a test" form: attribute, skill and difficulty (the
    seed's 15 first, the default; then every number the panel takes), and the characters of
    the table helping in a joint test (named in the log), when there are others."""
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
    ] + _helper_field(character, campaign)


def _helper_field(character, campaign) -> list[dict[str, Any]]:
    others = _table_helpers(character, campaign)
    if not others:
        return []
    return [
        {
            "name": "helper",
            "label": _("Helpers from the table (each counts as one, named in the log)"),
            "type": "multiselect",
            "choices": [(name, name) for name in others],
        }
    ]


def target_from_post(
    post, character, campaign, prefix: str = ""
) -> tuple[dict[str, Any], list[str]]:
    """The target the GM chose, or the messages saying what is wrong with it; its fields under
    ``prefix`` (a Django form's: ``a`` reads ``a-attribute``)."""
    form = TwoD6Choices(post, prefix=prefix)
    target: dict[str, Any] = {
        "attribute": str(form.raw("attribute") or ""),
        "skill": str(form.raw("skill") or ""),
        "difficulty": str(form.raw("difficulty") or "").strip() or str(DEFAULT_DIFFICULTY),
    }
    if helpers := list(dict.fromkeys(form.raw("helper") or [])):
        target["helper"] = helpers
    panel = build(character, campaign, {}, pending={"target": target, "modifiers": {}})
    checked = ("attribute", "skill", "difficulty", "helper", "helpers")
    wrong = [m for name in checked for m in panel.errors.get(name, [])]
    return target, wrong


def _free_rows(form, category: str) -> list[dict[str, Any]]:
    """The free modifiers typed under ``category``: every typed row, then one blank row."""
    typed: list[dict[str, Any]] = []
    for index in range(MAX_FREE):
        value, said = f"mod-{category}-{index}-value", f"mod-{category}-{index}-source"
        raw = str(form.raw(value) or "").strip()[:12]
        text = clean_text(str(form.raw(said) or ""))
        amount = form.cleaned.get(value)
        typed.append(
            {
                "index": index,
                "number": index + 1,
                "value": raw,
                "source": text,
                "label": text or _("other"),
                "amount": amount or 0,
                "counts": amount is not None,
                "errors": [*form.errors.get(value, []), *form.errors.get(said, [])],
                "blank": raw == "" and text == "",
            }
        )
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


def _table_helpers(character, campaign) -> list[str]:
    """The other characters of the table, who may be named as helpers in a joint test."""
    others = Character.objects.filter(campaign=campaign).exclude(pk=character.pk)
    return list(others.order_by("name").values_list("name", flat=True))


def _category_source(row: dict[str, Any], named: Sequence[str] = ()) -> dict[str, Any]:
    parts: list[Any] = [joined([text, signed(amount)], " ") for text, amount in row["entries"]]
    if row["helpers"]:
        n = row["helpers"]
        said = words("helpers", n=n, amount=signed(n))
        parts.append(
            words("helpers_named", helpers=said, names=joined(list(named))) if named else said
        )
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
