"""A generic sheet for a rule system without a sheet of its own: one free list of named values.

A system whose stats are just names and numbers (``{"attributes": [{"name": "Luck", "value":
3}]}``) may use this module as its ``System.sheet``, with its two generic templates; every value
is a roll target ``{"attribute": name}`` for whoever may roll for the character.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from . import Total
from .named_lists import ValueRow, clean_rows, rows_of, whole_number
from .sheet_forms import read_rows

FORM_TEMPLATE = "sheets/generic/form.html"
SHEET_TEMPLATE = "sheets/generic/sheet.html"

#: One box holding the whole sheet, edited with the creation form.
#: No roll changes a number on this sheet (rolls.strikes gives back what one did).
NUMBER_LABELS: dict = {}
SECTIONS: tuple = ()

MAX_ITEMS = 30
VALUE_MIN, VALUE_MAX = 0, 20


def default_data(campaign) -> dict[str, Any]:
    return {"attributes": []}


def data_from_post(post: Mapping[str, Any], campaign) -> dict[str, Any]:
    return {"attributes": read_rows(post, "attributes", ValueRow)}


def validate(data: Any, campaign, *, creating: bool) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """Clean the sheet; the cleaned list keeps only the entries that passed their checks."""
    if not isinstance(data, Mapping):
        return default_data(campaign), {"": [str(_("The sheet must be a JSON object."))]}
    errors: dict[str, list[str]] = {}
    attributes = clean_rows(
        rows_of(data, "attributes"),
        "attributes",
        MAX_ITEMS,
        errors,
        {"value": whole_number(VALUE_MIN, VALUE_MAX)},
    )
    return {"attributes": attributes}, errors


def totals(data: Any, campaign) -> list[Total]:
    return []


def derived(data: Any, campaign) -> dict[str, Any]:
    """Each value with its roll target."""
    cleaned, _errors = validate(data, campaign, creating=False)
    return {
        "attributes": [{**row, "roll": {"attribute": row["name"]}} for row in cleaned["attributes"]]
    }
