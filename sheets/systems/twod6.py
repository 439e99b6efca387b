"""The post-apocalyptic 2d6 sheet (RULES.md section 5; the Polish seed 004).

A test is attribute (współczynnik) + skill (umiejętność) + 2d6 + modifiers. The sheet holds the
attributes and skills the player names (the seed names some, e.g. PERCEPCJA, INTELIGENCJA,
CHARYZMA, ZRĘCZNOŚĆ and BIUROKRACJA, MEDYCYNA, PERSWAZJA, PRZETRWANIE, but gives no full list),
specialisations of a skill (which raise its success-point limit), and advantages and weaknesses
(Korzyści i Słabości) that give a modifier of one of the four categories.

**Decision** on bounds, from the seed's figures (attributes 5..8, skills 4..8): attributes
1..10, skills 0..10; a modifier is −5..+5, the most one category can ever add.

Shape of ``Character.data``::

    {"attributes": [{"name": "Inteligencja", "value": 8}, ...],
     "skills": [{"name": "Medycyna", "value": 6}, ...],
     "specialisations": [{"name": "Choroby", "skill": "Medycyna"}, ...],
     "advantages": [{"name": "Lekarka", "category": "personal", "modifier": 2}, ...]}

An older sheet holding ``{"Medycyna": 6, ...}`` objects is read as the same rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from rolls.engine import twod6 as engine

from . import Section, Total
from .named_lists import (
    NamedListSheet,
    NamedRow,
    ValueRow,
    check_row,
    clean_rows,
    one_of,
    rows_of,
    signed,
    whole_number,
)
from .sheet_forms import Typed, read_rows

FORM_TEMPLATE = "sheets/twod6/form.html"
SHEET_TEMPLATE = "sheets/twod6/sheet.html"

MAX_ITEMS = 30
ATTRIBUTE_MIN, ATTRIBUTE_MAX = 1, 10
SKILL_MIN, SKILL_MAX = 0, 10
MODIFIER_MIN, MODIFIER_MAX = -engine.MOD_LIMIT, engine.MOD_LIMIT
DEFAULT_CATEGORY = "personal"

_LABELS = {
    "circumstance": _("Okolicznościowe (circumstance)"),
    "personal": _("Osobiste (personal)"),
    "equipment": _("Sprzętowe (equipment)"),
    "supernatural": _("Nadnaturalne (supernatural)"),
}
#: The engine's four categories, in its order, with their names.
CATEGORY_LABELS = {category: _LABELS[category] for category in engine.CATEGORIES}

#: No roll changes a number on this sheet (rolls.strikes gives back what one did).
NUMBER_LABELS: dict = {}
SECTIONS: tuple[Section, ...] = (
    Section(
        "attributes",
        _("Attributes (Współczynniki)"),
        "sheets/twod6/_attributes.html",
        ("attributes",),
    ),
    Section(
        "skills",
        _("Skills (Umiejętności)"),
        "sheets/twod6/_skills.html",
        ("skills", "specialisations"),
    ),
    Section(
        "advantages",
        _("Advantages and weaknesses (Korzyści i Słabości)"),
        "sheets/twod6/_advantages.html",
        ("advantages",),
    ),
)


class TwoD6Sheet(NamedListSheet):
    """The 2d6 sheet read through its schema (the shape in this module's docstring)."""

    __slots__ = ()

    @property
    def skills(self) -> tuple[dict[str, Any], ...]:
        return self.rows("skills")

    @property
    def specialisations(self) -> tuple[dict[str, Any], ...]:
        return self.rows("specialisations")

    @property
    def advantages(self) -> tuple[dict[str, Any], ...]:
        return self.rows("advantages")


def view(data: Any) -> TwoD6Sheet:
    return TwoD6Sheet(data)


def default_data(campaign) -> dict[str, Any]:
    return {"attributes": [], "skills": [], "specialisations": [], "advantages": []}


class SpecialisationRow(NamedRow):
    """A specialisation: its name and the skill it belongs to."""

    skill = Typed()


class AdvantageRow(NamedRow):
    """An advantage or weakness: its name, category (a blank row's select shows the default)
    and modifier."""

    category = Typed(initial=DEFAULT_CATEGORY)
    modifier = Typed()


#: The form's rows of each list.
ROWS: dict[str, type[NamedRow]] = {
    "attributes": ValueRow,
    "skills": ValueRow,
    "specialisations": SpecialisationRow,
    "advantages": AdvantageRow,
}


def data_from_post(post: Mapping[str, Any], campaign) -> dict[str, Any]:
    return {key: read_rows(post, key, row) for key, row in ROWS.items()}


def _skill_names(raw: Any) -> dict[str, str]:
    """The names typed in the skill list, folded -> as written, whatever their values."""
    names: dict[str, str] = {}
    if isinstance(raw, list):
        for item in raw:
            row, message = check_row(item)
            name = row.get("name") if not message else None
            if isinstance(name, str) and name.strip():
                written = " ".join(name.split())
                names.setdefault(written.casefold(), written)
    return names


def _skill_of(names: Mapping[str, str]):
    def check(raw: Any) -> tuple[str | None, str | None]:
        if not isinstance(raw, str) or not raw.strip():
            return None, str(_("Choose the skill this specialisation belongs to."))
        written = " ".join(raw.split())
        if written.casefold() not in names:
            return None, str(
                _("There is no skill “%(name)s” on this sheet; add it under Skills first.")
                % {"name": written}
            )
        return names[written.casefold()], None

    return check


def validate(data: Any, campaign, *, creating: bool) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """Clean the sheet; the cleaned lists keep only the entries that passed their checks.

    A specialisation must name a skill of this sheet (spelled as in the skill list, ignoring
    case); it is stored with the skill's spelling.
    """
    if not isinstance(data, Mapping):
        return default_data(campaign), {"": [str(_("The sheet must be a JSON object."))]}
    errors: dict[str, list[str]] = {}
    skills_raw = rows_of(data, "skills")
    cleaned = {
        "attributes": clean_rows(
            rows_of(data, "attributes"),
            "attributes",
            MAX_ITEMS,
            errors,
            {"value": whole_number(ATTRIBUTE_MIN, ATTRIBUTE_MAX)},
        ),
        "skills": clean_rows(
            skills_raw, "skills", MAX_ITEMS, errors, {"value": whole_number(SKILL_MIN, SKILL_MAX)}
        ),
        "specialisations": clean_rows(
            data.get("specialisations", []),
            "specialisations",
            MAX_ITEMS,
            errors,
            {"skill": _skill_of(_skill_names(skills_raw))},
        ),
        "advantages": clean_rows(
            data.get("advantages", []),
            "advantages",
            MAX_ITEMS,
            errors,
            {
                "category": one_of(engine.CATEGORIES),
                "modifier": whole_number(MODIFIER_MIN, MODIFIER_MAX),
            },
        ),
    }
    return cleaned, errors


def category_sums(cleaned: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Per category with advantages: the raw sum of their modifiers and the sum after the clamp.

    The clamp is the engine's (RULES.md 5.1): within a category modifiers add up, then are held
    to −5..+5.
    """
    modifiers: dict[str, list[int]] = {category: [] for category in engine.CATEGORIES}
    for advantage in cleaned["advantages"]:
        modifiers[advantage["category"]].append(advantage["modifier"])
    clamped = engine.Params(
        attribute=0,
        skill=0,
        difficulty=0,
        modifiers=tuple(tuple(modifiers[category]) for category in engine.CATEGORIES),
    ).clamped
    return [
        {
            "category": category,
            "label": CATEGORY_LABELS[category],
            "raw": sum(modifiers[category]),
            "clamped": value,
            "count": len(modifiers[category]),
        }
        for category, value in zip(engine.CATEGORIES, clamped, strict=True)
        if modifiers[category]
    ]


def success_point_limit(skill: int) -> int:
    """Success points a test of this skill can score, before raises (the engine's cap)."""
    return engine.Params(attribute=0, skill=skill, difficulty=0).cap


def totals(data: Any, campaign) -> list[Total]:
    """Each category's modifier if all its advantages applied, after the −5..+5 clamp."""
    cleaned, _errors = validate(data, campaign, creating=False)
    limit = f"{signed(MODIFIER_MIN)}..{signed(MODIFIER_MAX)}"
    result = []
    for row in category_sums(cleaned):
        held = row["raw"] != row["clamped"]
        target = limit
        if held:
            target = str(
                _("%(limit)s (the entries add up to %(raw)s)")
                % {"limit": limit, "raw": signed(row["raw"])}
            )
        result.append(Total(str(row["label"]), row["clamped"], target, not held, signed=True))
    return result


def derived(data: Any, campaign) -> dict[str, Any]:
    """Entries with their roll targets, specialisations under their skill, category sums."""
    cleaned, _errors = validate(data, campaign, creating=False)
    by_skill: dict[str, list[dict[str, Any]]] = {}
    for spec in cleaned["specialisations"]:
        by_skill.setdefault(spec["skill"], []).append(
            {**spec, "roll": {"specialisation": spec["name"], "skill": spec["skill"]}}
        )
    return {
        "attributes": [
            {**row, "roll": {"attribute": row["name"], "value": row["value"]}}
            for row in cleaned["attributes"]
        ],
        "skills": [
            {
                **row,
                "limit": success_point_limit(row["value"]),
                "specialisations": by_skill.get(row["name"], []),
                "roll": {"skill": row["name"], "value": row["value"]},
            }
            for row in cleaned["skills"]
        ],
        "advantages": [
            {
                **row,
                "label": CATEGORY_LABELS[row["category"]],
                "signed": signed(row["modifier"]),
                "roll": {
                    "advantage": row["name"],
                    "category": row["category"],
                    "modifier": row["modifier"],
                },
            }
            for row in cleaned["advantages"]
        ],
        "category_sums": [
            {**row, "signed": signed(row["clamped"])} for row in category_sums(cleaned)
        ],
        "categories": CATEGORY_LABELS,
    }
