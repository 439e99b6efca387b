"""The Alternative Test System sheet (RULES.md section 2): free lists and the FUNT counter.

Every entry is something a test may find applicable: attributes, advantages (Atuty), equipment
and positive states each give one white die (the seed: "za każdy taki element, trafia do puli
jedna biała kostka"); negative states raise the test level by their value (usually 1).

Shape of ``Character.data``::

    {"attributes": [{"name": "Ciało: silny"}], "advantages": [...], "equipment": [...],
     "positive_states": [{"name": "wypoczęty"}],
     "negative_states": [{"name": "zmęczony", "value": 1}], "funt": 1}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from rolls.engine import ast as engine

from . import Section, Total
from .named_lists import (
    NamedListSheet,
    NamedRow,
    add_error,
    check_int,
    clean_rows,
    rows_of,
    whole_number,
)
from .sheet_forms import SheetForm, Typed, read_rows

FORM_TEMPLATE = "sheets/ast/form.html"
SHEET_TEMPLATE = "sheets/ast/sheet.html"

#: Entries per list: more than a paper sheet holds, few enough to read at a glance.
MAX_ITEMS = 30
#: A negative state's value: what it adds to the test level.
STATE_MIN, STATE_MAX, STATE_DEFAULT = 1, 10, 1
FUNT_MIN, FUNT_MAX = 0, 99


@dataclass(frozen=True)
class ListSpec:
    """One list of the sheet: whether its entries carry a value, and which side they help."""

    key: str
    label: Promise
    valued: bool
    positive: bool


LISTS: tuple[ListSpec, ...] = (
    ListSpec(
        "attributes",
        _("Attributes (Atrybuty)"),
        valued=False,
        positive=True,
    ),
    ListSpec(
        "advantages",
        _("Advantages (Atuty)"),
        valued=False,
        positive=True,
    ),
    ListSpec(
        "equipment",
        _("Equipment (Wyposażenie)"),
        valued=False,
        positive=True,
    ),
    ListSpec(
        "positive_states",
        _("Positive states (Stany pozytywne)"),
        valued=False,
        positive=True,
    ),
    ListSpec(
        "negative_states",
        _("Negative states (Stany negatywne)"),
        valued=True,
        positive=False,
    ),
)
LIST_KEYS = tuple(spec.key for spec in LISTS)
SPECS = {spec.key: spec for spec in LISTS}

#: The whole numbers play changes on the sheet, by key, named for the reader (rolls.strikes).
NUMBER_LABELS = {"funt": _("FUNT (special points)")}

SECTIONS: tuple[Section, ...] = (
    # The FUNT box also shows the white dice and test level the lists add up to.
    *(
        Section(
            spec.key,
            spec.label,
            f"sheets/ast/_{spec.key}.html",
            fields=(spec.key,),
            refreshes=("funt",),
        )
        for spec in LISTS
    ),
    Section("funt", _("FUNT (special points)"), "sheets/ast/_funt.html", fields=("funt",)),
)


class ASTSheet(NamedListSheet):
    """The AST sheet read through its schema: five named lists (``LISTS``) and FUNT."""

    __slots__ = ()

    def entries(self, key: str) -> tuple[dict[str, Any], ...]:
        """One of ``LIST_KEYS``."""
        if key not in SPECS:
            raise KeyError(key)
        return self.rows(key)

    @property
    def negative_states(self) -> tuple[dict[str, Any], ...]:
        return self.rows("negative_states")

    @property
    def funt(self) -> int:
        return self._int("funt")


def view(data: Any) -> ASTSheet:
    return ASTSheet(data)


def default_data(campaign) -> dict[str, Any]:
    data: dict[str, Any] = {key: [] for key in LIST_KEYS}
    data["funt"] = 0
    return data


class ValuedRow(NamedRow):
    """A negative state: its name and the test level it adds (a blank row shows the default)."""

    value = Typed(initial=str(STATE_DEFAULT))


class FuntForm(SheetForm):
    funt = Typed()


def data_from_post(post: Mapping[str, Any], campaign) -> dict[str, Any]:
    data: dict[str, Any] = {
        spec.key: read_rows(post, spec.key, ValuedRow if spec.valued else NamedRow)
        for spec in LISTS
    }
    data["funt"] = FuntForm(post).values()["funt"]
    return data


def validate(data: Any, campaign, *, creating: bool) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """Clean the sheet; the cleaned lists keep only the entries that passed their checks.

    Creation has no rules of its own here: a character may even start with no white dice
    (the test then rolls two and is hindered, RULES.md 2.1).
    """
    if not isinstance(data, Mapping):
        return default_data(campaign), {"": [str(_("The sheet must be a JSON object."))]}
    errors: dict[str, list[str]] = {}
    cleaned: dict[str, Any] = {}
    for spec in LISTS:
        checkers = {"value": whole_number(STATE_MIN, STATE_MAX)} if spec.valued else {}
        cleaned[spec.key] = clean_rows(
            rows_of(data, spec.key), spec.key, MAX_ITEMS, errors, checkers
        )
    funt, message = check_int(data.get("funt", 0), FUNT_MIN, FUNT_MAX)
    add_error(errors, "funt", message)
    cleaned["funt"] = funt if funt is not None else 0
    return cleaned, errors


def white_dice(cleaned: Mapping[str, Any]) -> int:
    """White dice if every positive entry applied: one per entry."""
    return sum(len(cleaned[spec.key]) for spec in LISTS if spec.positive)


def level_modifier(cleaned: Mapping[str, Any]) -> int:
    """What the negative states add to the test level if all of them applied."""
    return sum(state["value"] for state in cleaned["negative_states"])


def totals(data: Any, campaign) -> list[Total]:
    """White dice, the test level added and FUNT, counted from the entries typed correctly."""
    cleaned, _errors = validate(data, campaign, creating=False)
    white = white_dice(cleaned)
    if white:
        dice = Total(str(_("White dice if everything applies")), white, "", True)
    else:
        dice = Total(str(_("No white dice yet: a test would roll 2, hindered")), 0, "", False)
    return [
        dice,
        Total(str(_("Test level added by negative states")), level_modifier(cleaned), "", True),
        Total(str(_("FUNT (special points)")), cleaned["funt"], "", True),
    ]


def roll_target(spec: ListSpec, entry: Mapping[str, Any]) -> dict[str, Any]:
    """What a roll panel gets when the entry is ticked as applicable."""
    if spec.positive:
        return {"list": spec.key, "item": entry["name"], "white": 1}
    return {"list": spec.key, "item": entry["name"], "level": entry["value"]}


def derived(data: Any, campaign) -> dict[str, Any]:
    """Each list with its entries' roll targets, and the dice it all adds up to."""
    cleaned, _errors = validate(data, campaign, creating=False)
    lists = {
        spec.key: {
            "spec": spec,
            "entries": [{**entry, "roll": roll_target(spec, entry)} for entry in cleaned[spec.key]],
        }
        for spec in LISTS
    }
    return {
        "lists": lists,
        "white_dice": white_dice(cleaned),
        "no_white_dice": engine.NO_WHITE_DICE,
        "level_modifier": level_modifier(cleaned),
        "funt": cleaned["funt"],
    }
