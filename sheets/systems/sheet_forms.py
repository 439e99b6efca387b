"""Reading a sheet's form: Django forms whose fields keep what was typed.

Every sheet module's ``data_from_post`` (``sheets.systems``) reads the post through forms
declared in its module, so a field's name and how its value is read are written once, as a form
field. These forms refuse nothing: a value that does not parse stays as the typed text, so the
form can show it again, and the module's ``validate`` answers it with the sheet's own message
(an import goes through the same ``validate``, so the checks live there, not here). A field
missing from the post reads as blank, never raises, so one box's post (``Section``) is read
with the same form.

- ``Typed``: the text as typed (a value that is not text reads as ``""``), stripped on request.
- ``Number``: a whole number when the text is one, else the stripped text (``checks.number``).
- ``Ticked``: a checkbox, ticked when it sends any text (or exactly ``value``).
- ``SheetForm``: the base of a sheet's form; ``values()`` gives every field's value, leaving
  out a field declared ``if_sent=True`` that the post does not hold.
- ``RowForm`` and ``read_rows``: the rows of a list, ``<prefix><sep><index><sep><field>``
  (``attributes-0-name``, ``trait_0_name``), read through a formset of one form per row index
  the post holds, in index order, without blank or removed rows.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from typing import Any

from django import forms
from django.forms.formsets import BaseFormSet, formset_factory
from django.utils.functional import cached_property

from .checks import number


def as_text(value: Any) -> str:
    """The value a post holds for a field, as text: anything else (missing, forged) is ``""``."""
    return value if isinstance(value, str) else ""


class Typed(forms.Field):
    """Text exactly as typed (``strip``: without surrounding spaces; ``empty_value`` for blank).

    ``if_sent``: a ``SheetForm`` leaves the field out of its values when the post lacks it.
    Unlike ``forms.CharField`` it has no validator: even a NUL character is kept, for
    ``validate`` to refuse with the sheet's message.
    """

    def __init__(
        self, *, strip: bool = False, empty_value: Any = "", if_sent: bool = False, **kwargs
    ):
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)
        self.strip = strip
        self.empty_value = empty_value
        self.if_sent = if_sent

    def to_python(self, value: Any) -> Any:
        text = as_text(value)
        if self.strip:
            text = text.strip()
        return text if text else self.empty_value


class Number(Typed):
    """A whole number when the text is one, else the text without surrounding spaces, so the form
    shows it again and ``validate`` reports it (``""`` when nothing was typed)."""

    def to_python(self, value: Any) -> Any:
        return number(as_text(value))


class Ticked(Typed):
    """A checkbox: ticked when the post sends any text for it, or exactly ``value`` if given."""

    def __init__(self, *, value: str | None = None, **kwargs):
        super().__init__(**kwargs)
        self.value = value

    def to_python(self, value: Any) -> bool:
        text = as_text(value)
        return text == self.value if self.value is not None else text != ""


class SheetForm(forms.Form):
    """A sheet's form, bound to the post; its fields refuse nothing (the module's ``validate``
    does). A subclass declares its fields, or adds them in ``__init__`` when their names come
    from a list (``attr_<name>``). Bind it as any form: ``SheetForm(post)``."""

    def values(self) -> dict[str, Any]:
        """Each field's value, by field name (without the form's prefix)."""
        if self.errors:  # the fields above refuse nothing: a field that does is a mistake
            raise ValueError(self.errors.as_text())
        return {
            name: value
            for name, value in self.cleaned_data.items()
            if not (getattr(self.fields[name], "if_sent", False) and self._omitted(name))
        }

    def _omitted(self, name: str) -> bool:
        return self.fields[name].widget.value_omitted_from_data(
            self.data, self.files, self[name].html_name
        )


class RowForm(SheetForm):
    """One row of a list: its fields are named ``<prefix><separator><field>``, the prefix being
    ``<list><separator><index>`` (the formset's).

    A row is blank when each of its typed fields (all but the ``Ticked`` ones) is blank or still
    shows the field's ``initial`` (what a blank row shows before anything is typed: a select
    always sends one). A ticked ``remove_field`` drops the row.
    """

    separator = "-"
    #: The most digits of a row's index: a forged index can be neither huge nor a long number.
    index_digits = 4
    remove_field: str | None = None

    def add_prefix(self, field_name: str) -> str:
        return f"{self.prefix}{self.separator}{field_name}" if self.prefix else field_name

    @classmethod
    def typed_fields(cls) -> list[str]:
        return [name for name, field in cls.base_fields.items() if not isinstance(field, Ticked)]

    def is_blank(self) -> bool:
        for name in self.typed_fields():
            text = as_text(self[name].data)
            if text.strip() and text != self.fields[name].initial:
                return False
        return True

    def is_removed(self) -> bool:
        return self.remove_field is not None and self.values()[self.remove_field]

    def row(self) -> dict[str, Any]:
        """The row's values, without its remove box."""
        values = self.values()
        values.pop(self.remove_field, None)
        return values


class Rows(BaseFormSet):
    """The rows of one list as posted: one form per row index the post holds, in index order.

    The sheet forms send no management form (more rows come as blank ones, shown again), so
    the rows are found from the field names: a typed field of the row form, whose index is a
    whole number written plainly (``0``, ``12``; not ``012``) in at most ``index_digits`` ASCII
    digits. Any other name is forged and ignored.
    """

    def add_prefix(self, index: Any) -> str:
        return f"{self.prefix}{self.form.separator}{index}"

    def initial_form_count(self) -> int:
        return 0

    def total_form_count(self) -> int:
        return len(self.indexes)

    @cached_property
    def indexes(self) -> list[int]:
        separator = re.escape(self.form.separator)
        fields = "|".join(map(re.escape, self.form.typed_fields()))
        more = self.form.index_digits - 1
        pattern = re.compile(
            rf"{re.escape(self.prefix)}{separator}(0|[1-9][0-9]{{0,{more}}}){separator}(?:{fields})"
        )
        found = (pattern.fullmatch(name) for name in self.data if isinstance(name, str))
        return sorted({int(match.group(1)) for match in found if match})

    @cached_property
    def forms(self) -> list[RowForm]:
        # Every row is read, typed or not: none may be skipped as an untouched extra form.
        return [self._construct_form(index, empty_permitted=False) for index in self.indexes]

    def rows(self) -> list[dict[str, Any]]:
        """The rows' values in index order, without blank or removed rows."""
        return [form.row() for form in self.forms if not (form.is_blank() or form.is_removed())]


@cache
def _formset(row_form: type[RowForm]) -> type[Rows]:
    return formset_factory(row_form, formset=Rows, extra=0)


def read_rows(post: Mapping[str, Any], prefix: str, row_form: type[RowForm]) -> list[dict]:
    """The rows of list ``prefix`` in the post, read with ``row_form`` (see ``Rows``)."""
    return _formset(row_form)(data=post, prefix=prefix).rows()
