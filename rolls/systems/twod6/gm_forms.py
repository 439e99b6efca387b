"""2d6's own change to a called test: a modifier in one of its four categories, which the GM's
card offers where the system's ``gm_controls`` hold ``category_modifier``. It registers with the
other changes (``rolls.pending.forms.OPERATIONS``) when the system does."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from rolls.engine import twod6
from rolls.forms import WholeNumber, whole
from rolls.pending.forms import OperationForm, SourceText, register_operation


class CategoryModifierForm(OperationForm):
    """A modifier of −5..+5 in one category, kept with the dice entries (so the card lists it and
    ``remove_dice`` takes it away); the panel adds it to its category before the clamp
    (rolls.systems.twod6.panel's Decision)."""

    category = forms.ChoiceField(choices=[(c, c) for c in twod6.CATEGORIES])
    amount = WholeNumber()
    source = SourceText()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        unknown = _("Choose the category: circumstance, personal, equipment or supernatural.")
        self.fields["category"].error_messages |= {"required": unknown, "invalid_choice": unknown}

    def clean_amount(self) -> int:
        amount, limit = self.cleaned_data["amount"], twod6.MOD_LIMIT
        if not whole(amount) or not -limit <= amount <= limit:
            raise ValidationError(
                _("A modifier must be a whole number from −%(n)s to +%(n)s.") % {"n": limit}
            )
        if amount == 0:
            raise ValidationError(_("A modifier of 0 changes nothing; give it a sign and a size."))
        return amount

    def apply(self) -> None:
        data = self.cleaned_data
        self._add_entry(data["category"], data["amount"], data["source"])


register_operation("add_category_modifier", CategoryModifierForm, control="category_modifier")
