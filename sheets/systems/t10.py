"""The T10 pool sheet, Moorcrest (RULES.md section 3; the Swedish seed 002).

A test rolls a pool of d10 equal to an attribute (grundegenskap) plus a skill (färdighet), plus
or minus dice from items and circumstances. The seed names no attributes or skills, so both are
free lists the player names. **Decision** on bounds: attributes 1..10, skills 0..10 (a skill
may be untrained), items −5..+5 dice (0 for gear that only matters in the story).

Shape of ``Character.data``::

    {"attributes": [{"name": "Styrka", "value": 4}, ...],
     "skills": [{"name": "Svärd", "value": 3}, ...],
     "equipment": [{"name": "Långsvärd", "dice": 1}, ...]}

An older sheet holding ``{"Styrka": 4, ...}`` objects is read as the same rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from rolls.engine import t10 as engine

from . import Section, Total
from .named_lists import (
    NamedListSheet,
    NamedRow,
    ValueRow,
    clean_rows,
    rows_of,
    signed,
    whole_number,
)
from .sheet_forms import Typed, read_rows

FORM_TEMPLATE = "sheets/t10/form.html"
SHEET_TEMPLATE = "sheets/t10/sheet.html"

MAX_ITEMS = 30
ATTRIBUTE_MIN, ATTRIBUTE_MAX = 1, 10
SKILL_MIN, SKILL_MAX = 0, 10
ITEM_DICE_MIN, ITEM_DICE_MAX = -5, 5

#: No roll changes a number on this sheet (rolls.strikes gives back what one did).
NUMBER_LABELS: dict = {}
SECTIONS: tuple[Section, ...] = (
    # The skills box also shows the largest pool, which needs the best attribute.
    Section(
        "attributes",
        _("Attributes (Grundegenskaper)"),
        "sheets/t10/_attributes.html",
        ("attributes",),
        refreshes=("skills",),
    ),
    Section("skills", _("Skills (Färdigheter)"), "sheets/t10/_skills.html", ("skills",)),
    Section("equipment", _("Items (Föremål)"), "sheets/t10/_equipment.html", ("equipment",)),
)


class T10Sheet(NamedListSheet):
    """The T10 sheet read through its schema: rows of ``name`` and ``value`` (items: ``dice``)."""

    __slots__ = ()

    @property
    def skills(self) -> tuple[dict[str, Any], ...]:
        return self.rows("skills")

    @property
    def equipment(self) -> tuple[dict[str, Any], ...]:
        return self.rows("equipment")


def view(data: Any) -> T10Sheet:
    return T10Sheet(data)


def default_data(campaign) -> dict[str, Any]:
    return {"attributes": [], "skills": [], "equipment": []}


class ItemRow(NamedRow):
    """An item: its name and the dice it adds (a blank row shows 0)."""

    dice = Typed(initial="0")


#: The form's rows of each list.
ROWS: dict[str, type[NamedRow]] = {"attributes": ValueRow, "skills": ValueRow, "equipment": ItemRow}


def data_from_post(post: Mapping[str, Any], campaign) -> dict[str, Any]:
    return {key: read_rows(post, key, row) for key, row in ROWS.items()}


def validate(data: Any, campaign, *, creating: bool) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """Clean the sheet; the cleaned lists keep only the entries that passed their checks."""
    if not isinstance(data, Mapping):
        return default_data(campaign), {"": [str(_("The sheet must be a JSON object."))]}
    errors: dict[str, list[str]] = {}
    cleaned = {
        "attributes": clean_rows(
            rows_of(data, "attributes"),
            "attributes",
            MAX_ITEMS,
            errors,
            {"value": whole_number(ATTRIBUTE_MIN, ATTRIBUTE_MAX)},
        ),
        "skills": clean_rows(
            rows_of(data, "skills"),
            "skills",
            MAX_ITEMS,
            errors,
            {"value": whole_number(SKILL_MIN, SKILL_MAX)},
        ),
        "equipment": clean_rows(
            rows_of(data, "equipment", "dice"),
            "equipment",
            MAX_ITEMS,
            errors,
            {"dice": whole_number(ITEM_DICE_MIN, ITEM_DICE_MAX)},
        ),
    }
    return cleaned, errors


def largest_pool(cleaned: Mapping[str, Any]) -> int | None:
    """The best attribute plus the best skill, before items: None until both lists have one."""
    if not cleaned["attributes"] or not cleaned["skills"]:
        return None
    best_attribute = max(row["value"] for row in cleaned["attributes"])
    return best_attribute + max(row["value"] for row in cleaned["skills"])


def totals(data: Any, campaign) -> list[Total]:
    """The largest pool the sheet offers, once it has an attribute and a skill."""
    cleaned, _errors = validate(data, campaign, creating=False)
    pool = largest_pool(cleaned)
    if pool is None:
        return []
    return [Total(str(_("Largest pool (attribute + skill)")), pool, "", True)]


def derived(data: Any, campaign) -> dict[str, Any]:
    """Each entry with its roll target; a pool is one attribute plus one skill."""
    cleaned, _errors = validate(data, campaign, creating=False)
    return {
        "attributes": [
            {**row, "roll": {"attribute": row["name"], "dice": row["value"]}}
            for row in cleaned["attributes"]
        ],
        "skills": [
            {**row, "roll": {"skill": row["name"], "dice": row["value"]}}
            for row in cleaned["skills"]
        ],
        "equipment": [
            {
                **row,
                "signed": signed(row["dice"]),
                "roll": {"item": row["name"], "dice": row["dice"]},
            }
            for row in cleaned["equipment"]
        ],
        "largest_pool": largest_pool(cleaned),
        "default_difficulty": engine.DEFAULT_DIFFICULTY,
        "difficulty_range": (engine.MIN_DIFFICULTY, engine.MAX_DIFFICULTY),
    }
