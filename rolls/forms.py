"""The typed fields the features' forms share, and the small forms of the GM's tools on the
dashboard (and of quick dice and random tables): each view reads its POST through one of these,
never by hand. The changes to a pending test
have theirs in ``rolls.pending.forms``; an NPC's own test in ``rolls.dashboard.npc_rolls``;
FastTest's combat wound in ``rolls.systems.fasttest.gm_forms``.

Fields read text as posted (``Text``: a NUL is refused by the rule that reads it, in its own
words) and numbers as ``WholeNumber`` (text that is no whole number kept as text, so the view
refuses it with its message).
"""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _


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


#: The largest id a row can have (PostgreSQL's bigint): a larger posted one names no row.
MAX_ID = 2**63


def row_id(value: Any) -> int | None:
    """A posted id as a whole number, or None (no row has it) when it is not one."""
    return value if whole(value) and 0 < value < MAX_ID else None


class RollKey(forms.Field):
    """A roll request's idempotency key; None when it is missing or malformed (each view says
    so in its own words, or makes one)."""

    def to_python(self, value: Any) -> uuid.UUID | None:
        try:
            return uuid.UUID(str(value))
        except ValueError:
            return None

    def validate(self, value: Any) -> None:
        """A missing key is the view's to refuse (``key_or_none``)."""


class RollKeyForm(forms.Form):
    """The idempotency key of a roll request and the nonce the page sent for its dice."""

    key = RollKey(required=False)
    nonce = Text()

    def key_or_none(self):
        """The key, or None when it is missing or malformed."""
        self.is_valid()
        return self.cleaned_data.get("key")

    def sent_nonce(self) -> str | None:
        self.is_valid()
        return self.cleaned_data.get("nonce")


class SettleForm(forms.Form):
    """A side of an opposed test settled in turn (the player's box, the GM's dashboard): which
    side, whether the initiator declares what the rules let them declare blind (Caerbannog's
    heroic effort "if it fails", whose own fields the system's form reads) and the request's
    key, which makes a declaration sent twice count once."""

    side = forms.ChoiceField(choices=(("a", "a"), ("b", "b")))
    declare = forms.BooleanField(required=False)
    key = RollKey(required=False)

    def refusal(self) -> str:
        """Why the request cannot be read ("" when it can)."""
        self.is_valid()
        if "side" in self.errors:
            return _("Say which side settles.")
        if self.cleaned_data.get("declare") and self.cleaned_data.get("key") is None:
            return _("This request is malformed; reload the page and try again.")
        return ""


class ChangeTypedForm(forms.Form):
    """The dashboard's change to a pending test: which operation (its own form reads the rest,
    ``rolls.pending.forms``) and what was typed, kept in its field when the change is refused."""

    op = Text()
    value = Text()
    #: Another resource for heroic effort and its price (Caerbannog's ``set_heroic_other``).
    name = Text()
    price = Text()

    def typed(self) -> dict[str, str]:
        self.is_valid()
        return {
            name: self.cleaned_data.get(name) or "" for name in ("op", "value", "name", "price")
        }


class CallTestForm(forms.Form):
    """Calling for a test: whether it is a combat test (what is tested, the system's panel
    reads: ``target_from_post``)."""

    combat = YesNo(required=False)

    def is_combat(self) -> bool:
        self.is_valid()
        return self.cleaned_data.get("combat") is True


class CardPartForm(forms.Form):
    """Which part of the dashboard sent a form that two parts have (the awards box, or a
    character's card: ``part=card`` with the character's id)."""

    part = Text()
    character = WholeNumber()

    def from_card(self) -> bool:
        self.is_valid()
        return self.cleaned_data.get("part") == "card"

    def character_id(self) -> int | None:
        self.is_valid()
        return row_id(self.cleaned_data.get("character"))


class OpposedStartForm(forms.Form):
    """The opposed test's own fields (each side's, the system's panel and the NPC's form read):
    the initiator, the opponent (``character-<id>`` or ``npc-<id>``) and, when the rules share
    one, the difficulty. A missing or forged id names nobody (None); the view says whom to
    choose."""

    initiator = WholeNumber()
    opponent = Text()
    difficulty = WholeNumber()
    #: The NPC opponent acts and the character chosen as the initiator resists.
    npc_initiates = forms.BooleanField(required=False)

    def __init__(self, data=None, *, shared_difficulty: bool = True) -> None:
        super().__init__(data)
        if not shared_difficulty:
            del self.fields["difficulty"]

    def clean_initiator(self) -> int | None:
        return row_id(self.cleaned_data["initiator"])

    def clean_opponent(self) -> tuple[str, int | None]:
        kind, _sep, pk = (self.cleaned_data["opponent"] or "").partition("-")
        return kind, row_id(WholeNumber().to_python(pk))

    def clean_difficulty(self) -> int | None:
        difficulty = self.cleaned_data["difficulty"]
        if isinstance(difficulty, str):  # text that is no whole number
            raise ValidationError(_("The difficulty must be a whole number."))
        return difficulty


class TableRollForm(RollKeyForm):
    """A roll on a random table: who may see it, and the roll it follows when the rules offered
    the table after one (``after``: its id)."""

    visibility = Text()
    after = Text()

    def clean_visibility(self) -> str:
        return self.cleaned_data["visibility"] or ""

    def clean_after(self) -> int | None:
        """None when the roll follows nothing; 0 (no roll has it) when the id is forged."""
        after = self.cleaned_data["after"] or ""
        if not after:
            return None
        return row_id(WholeNumber().to_python(after)) or 0


class TableImportForm(forms.Form):
    """A table's file to import, and the name and dice typed in the form (over the file's)."""

    file = forms.FileField(allow_empty_file=True)
    name = Text()
    dice = Text()

    def __init__(self, data=None, files=None) -> None:
        super().__init__(data, files)
        self.fields["file"].error_messages["required"] = _("Choose a file to import.")

    def typed(self) -> dict[str, str]:
        """The name and dice typed, stripped; what was left empty is the file's."""
        return {
            name: self.cleaned_data[name].strip()
            for name in ("name", "dice")
            if (self.cleaned_data.get(name) or "").strip()
        }
