"""One module per rule system holding its sheet: defaults, reading a form, validation, totals.

Every module in ``SHEET_MODULES`` offers the same small interface, which the generic sheet views
call; nothing outside these modules knows a system's sheet rules.

- ``default_data(campaign) -> dict``: a blank sheet for a new character in that campaign.
- ``data_from_post(post, campaign) -> dict``: the sheet as typed in the form (a ``QueryDict``),
  in the JSON shape of ``Character.data``; values that do not parse stay as the typed strings so
  the form can show them again with their error.
- ``validate(data, campaign, *, creating: bool) -> tuple[dict, dict[str, list[str]]]``: the cleaned
  data and the errors keyed by the form field's name (``""`` for the sheet as a whole). Creation
  applies the system's creation rules (FastTest: attributes sum to 20 and so on); later edits keep
  every value within its bounds.
- ``totals(data, campaign) -> list[Total]``: the running totals shown while the player types.
- ``derived(data, campaign) -> dict``: values computed from the sheet for display (FastTest magic
  die start, next development cost; Caerbannog skill dice...).
- ``FORM_TEMPLATE`` and ``SHEET_TEMPLATE``: the template partials that render the editable form
  and the sheet's system section.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType

SHEET_MODULES: dict[str, str] = {
    "fasttest": "sheets.systems.fasttest",
    "ast": "sheets.systems.ast",
    "t10": "sheets.systems.t10",
    "caerbannog": "sheets.systems.caerbannog",
    "2d6": "sheets.systems.twod6",
}


@dataclass(frozen=True)
class Total:
    """One running total: what is summed, its value, its target, and whether it is met."""

    label: str
    value: int
    target: str
    ok: bool


def sheet_module(system: str) -> ModuleType:
    return importlib.import_module(SHEET_MODULES[system])
