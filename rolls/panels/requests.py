"""What a panel's requests carry beside the system's own choices, read by Django forms: which
test it shows, a roll's key, visibility, nonce and called test, a follow-up's key, the result
shown. The system's choices are its ``PanelForm``'s (rolls.panels)."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rolls.models import Visibility
from rolls.panels import Key, Name, WholeNumberOrNone, posted

MALFORMED = gettext_lazy("This roll request is malformed; reload the page and try again.")
REAL_DICE_REFUSED = gettext_lazy(
    "The GM has not allowed you to type real dice in this campaign; roll here instead."
)


class PanelRequest(forms.Form):
    """Which test the panel shows: the GM's open call (``pending``), or one it was just told is
    off (``called_off``); a number that is not one is no call at all."""

    pending = WholeNumberOrNone()
    called_off = WholeNumberOrNone()


def asked_for(choices, name: str) -> int | None:
    form = PanelRequest(posted(choices))
    return form.cleaned_data.get(name) if form.is_valid() else None


class _Visibility(forms.Field):
    """Who may see the roll, from what this user may choose; public when not posted."""

    def __init__(self) -> None:
        super().__init__(required=False)
        self.allowed: dict[str, str] = {}

    def clean(self, value):
        value = Visibility.PUBLIC if value is None else value
        if value not in self.allowed:
            raise ValidationError(_("Choose who may see this roll."))
        return value


class _PendingId(Name):
    """The called test being rolled: None for a free test, else its number."""

    def clean(self, value):
        raw = super().clean(value)
        if not raw:
            return None
        try:
            return int(raw)
        except ValueError:
            raise ValidationError(MALFORMED) from None


class RollRequest(forms.Form):
    """A roll's own fields beside the panel's choices: its key (a repeated key answers with the
    first roll), who may see it, the page's nonce, and the called test and revision rolled."""

    key = Key(MALFORMED)
    visibility = _Visibility()
    # As the page sent it: the fair dice check it and say what a nonce must be.
    nonce = forms.Field(required=False)
    pending = _PendingId()
    revision = WholeNumberOrNone()

    def __init__(self, choices=None, visibilities=()):
        super().__init__(posted(choices))
        self.fields["visibility"].allowed = dict(visibilities)
        self.is_valid()


class FollowUpRequest(forms.Form):
    """A follow-up's own fields: its key and the page's nonce."""

    key = Key(gettext_lazy("This request is malformed; reload the page and try again."))
    nonce = forms.Field(required=False)


class ShownRequest(forms.Form):
    """The result the panel shows (its roll's number), kept through the page's refreshes."""

    shown = WholeNumberOrNone()
