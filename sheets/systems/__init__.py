"""One module per rule system holding its sheet: defaults, reading a form, validation, totals.

Every system's ``sheet`` (``campaigns.systems.System.sheet``) offers the same small interface,
which the generic sheet views call; nothing outside these modules knows a system's sheet rules.
A system without sheet templates of its own may use the generic ones
(``sheets/generic/form.html``, ``sheets/generic/sheet.html``: a list of named values).

- ``default_data(campaign) -> dict``: a blank sheet for a new character in that campaign.
- ``data_from_post(post, campaign) -> dict``: the sheet as typed in the form (a ``QueryDict``),
  in the JSON shape of ``Character.data``; values that do not parse stay as the typed strings so
  the form can show them again with their error. It must also accept a post holding only some
  fields (one section's form, see ``SECTIONS``): what is missing comes back empty, never raises.
  The module reads the post through Django forms declared beside it, never by hand: a field's
  name and reading are a form field (``sheet_forms.Typed``, ``Number``, ``Ticked`` in a
  ``SheetForm``), a list's rows a formset of ``RowForm`` (``sheet_forms.read_rows``; the rows of
  free named lists are ``named_lists.NamedRow``). These forms refuse nothing: ``validate`` does.
- ``validate(data, campaign, *, creating: bool) -> tuple[dict, dict[str, list[str]]]``: the cleaned
  data and the errors keyed by the form field's name (``""`` for the sheet as a whole). Creation
  applies the system's creation rules (FastTest: attributes sum to 20 and so on); later edits keep
  every value within its bounds. It must accept any JSON value inside ``data`` (an import is
  validated with it): wrong types are errors, never exceptions.
- ``totals(data, campaign) -> list[Total]``: the running totals shown while the player types.
- ``derived(data, campaign) -> dict``: values computed from the sheet for display (FastTest magic
  die start, next development cost; Caerbannog skill dice...). Called on valid data only.
- ``view(data) -> SheetView``: the typed read-only view of a stored sheet
  (``campaigns.systems.SheetView``; ``System.view`` hands it out). Code outside the module reads
  a sheet only through it; writes go through ``sheets.actions`` (validated with ``validate``).
- ``FORM_TEMPLATE``: the partial rendering the creation form's fields (the generic page supplies
  the ``<form>``, the name field, the running totals and the buttons).
- ``SHEET_TEMPLATE``: the partial rendering the system's part of the character page. Without
  ``SECTIONS`` it is the read-only sheet, and the page wraps it in one box whose "Edit" opens
  ``FORM_TEMPLATE`` (validated with ``creating=False``). With ``SECTIONS`` it lays the sections
  out, including the generic box for each:
  ``{% include "sheets/_section.html" with section=sections.attributes %}``.
- ``SECTIONS`` ``tuple[Section, ...]`` (``()`` for none): the boxes of the paper sheet edited
  on their own after creation (htmx swaps one box; without JavaScript the page posts it).
- ``NUMBER_LABELS`` ``dict[str, label]``: the whole numbers play changes on the sheet (a roll
  spends or gains them: experience dice, FUNT, Rozmach), by their key, named for the reader; a
  GM striking a roll sees them by these names when giving them back (``rolls.strikes``).

Context given to every one of these templates: ``campaign``, ``settings`` (the campaign's
``system_settings``), ``data`` (the sheet, or the values as typed when re-shown with errors),
``errors`` (field name -> messages), ``character`` (None while creating), ``creating``,
``can_edit`` (the viewer may edit: owner or GM), ``is_gm``, and on the character page ``derived``
and ``sections``; a section's template also gets ``section`` and ``editing`` (render inputs).
``{% load sheet_tags %}`` offers ``{% field_errors errors "name" %}`` (the messages of one field,
with the id ``<name>-error`` for ``aria-describedby``), ``errors|has_errors:"name"``,
``mapping|get:key``, ``rows|with_blanks:2`` (typed rows plus blank ones), ``index|fieldname:
"trait_{}_name"``, and for roll targets ``name|roll_as:"attribute"`` / ``target|roll_json``
(render stats as ``<button type="button" class="roll-target" data-roll="...">`` for editors).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Any

from campaigns.systems import get_system


@dataclass(frozen=True)
class Total:
    """One running total: what is summed, its value, its target, and whether it is met."""

    label: str
    value: int
    target: str
    ok: bool
    #: Show the value with its sign ("+1"), as skill sums are written.
    signed: bool = False


@dataclass(frozen=True)
class Section:
    """One box of the paper sheet, edited on its own after creation.

    ``fields`` are the parts of ``Character.data`` its form edits, as dotted paths
    (``"attributes"``, ``"resources.rozmach"``): saving copies exactly those from
    ``data_from_post`` into the stored sheet and validates the whole with ``creating=False``.
    ``gm_only``: after creation only the GM edits it (FastTest attributes and skills).
    A path missing from what ``data_from_post`` returns is removed from the sheet, so
    ``validate`` fills in its default.
    An empty ``fields`` marks a box that is shown but has no form of its own (its template may
    hold action forms, e.g. the FastTest wound tracker).
    """

    key: str
    title: str
    template: str
    fields: tuple[str, ...] = ()
    gm_only: bool = False
    #: Shown only when this key of the campaign's ``system_settings`` is true (FastTest "magic").
    setting: str = ""
    #: Keys of the other boxes that show values computed from this one (FastTest: traits ->
    #: magic die, next development cost); they are fetched again after this box is saved.
    refreshes: tuple[str, ...] = ()


#: The single box used for a module without ``SECTIONS``: the whole system part of the sheet.
WHOLE_SHEET = "sheet"


def sheet_module(system: str) -> Any:
    """The sheet of a system key, from the one registry (``campaigns.systems``)."""
    return get_system(system).sheet


def sections(module: ModuleType) -> tuple[Section, ...]:
    """The module's boxes, or one box holding the whole sheet when it declares none."""
    if module.SECTIONS:
        return tuple(module.SECTIONS)
    from django.utils.translation import gettext_lazy as _

    return (Section(WHOLE_SHEET, _("Sheet"), "sheets/_whole_sheet.html", fields=("*",)),)
