"""Typed form fields the GM's tools share (a called test's changes, an NPC's test, quick dice,
the tables): each reads what was posted, or given by an action, and leaves what is wrong with it
to the form's own rule, in the words the tools use."""

from __future__ import annotations

from typing import Any

from django import forms


class WholeNumber(forms.Field):
    """A whole number, posted or given. Text that is no whole number is kept as text, so the
    rule that refuses it (``Limit.refusal`` or the form's own) says why in its own words."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> Any:
        if isinstance(value, int) or value is None:
            return value  # given by an action (a bool stays a bool: refused as no number)
        raw = str(value).strip()
        if raw == "":
            return None
        try:
            return int(raw)
        except ValueError:
            return raw

    def validate(self, value: Any) -> None:
        """The form checks the number against its rule (``clean_<name>``)."""


class WholeNumbers(WholeNumber):
    """Every value posted under the name (``getlist``), each read like ``WholeNumber``."""

    widget = forms.MultipleHiddenInput

    def to_python(self, value: Any) -> list[Any]:
        values = value if isinstance(value, (list, tuple)) else [] if value is None else [value]
        return [super(WholeNumbers, self).to_python(v) for v in values]


class Text(forms.Field):
    """Posted text as it is, None when nothing was posted under the name. Unlike
    ``forms.CharField`` it refuses nothing itself: the form's rule says what is wrong with it
    (``config.text.text_problem`` for a NUL), in the words the GM's tools use."""

    def to_python(self, value: Any) -> str | None:
        return None if value is None else str(value)

    def validate(self, value: Any) -> None:
        """The form checks the text (``clean_<name>``), if it checks it at all."""


def whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class YesNo(forms.Field):
    """ "yes" or "no" as posted, True or False as given; anything else is None."""

    def to_python(self, value: Any) -> bool | None:
        if value in (True, False):
            return bool(value)
        return {"yes": True, "no": False}.get(value) if isinstance(value, str) else None

    def validate(self, value: Any) -> None:
        """The form says what it asks (``clean_<name>``)."""
