"""The forms for conditions: one of the rules' own in one click and the GM's own typed (what
they accept is ``rolls.conditions.in_force.Spec``, which ``rolls.conditions`` checks once more
under its lock); and the options picked after a roll, with the GM's counter-move (RULES.md 3.6)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.text import TextField
from rolls.conditions.in_force import (
    AMOUNT_MAX,
    NAME_MAX,
    NO_CONDITIONS,
    Spec,
    condition_rules,
    preset_spec,
)
from rolls.models import Condition
from rolls.panels import Key
from rolls.roll_options import OWN_MAX, too_many


class PresetForm(forms.Form):
    """One of the rules' own conditions (``ConditionRules.presets``), by its key."""

    preset = forms.ChoiceField(error_messages={"invalid_choice": "", "required": ""})

    def __init__(self, *args, system=None, **kwargs):
        # ``system`` may be left out only to look the form's fields over (the text rule's test).
        super().__init__(*args, **kwargs)
        self.system = system
        presets = condition_rules(system).presets if system is not None else ()
        self.fields["preset"].choices = [(p["key"], p["name"]) for p in presets]
        message = _("These rules have no such condition; reload the page to see theirs.")
        self.fields["preset"].error_messages = {"invalid_choice": message, "required": message}

    def spec(self) -> Spec:
        return preset_spec(self.system, self.cleaned_data["preset"])


class ConditionForm(forms.Form):
    """The GM's own condition: a name, what it changes and by how much, what it concerns and
    until when it lasts."""

    name = TextField(
        label=gettext_lazy("Name"),
        max_length=NAME_MAX,
        error_messages={"required": gettext_lazy("Give the condition a name.")},
    )
    effect = forms.ChoiceField(
        label=gettext_lazy("Changes"),
        error_messages={
            "invalid_choice": gettext_lazy("Choose what the condition changes from the list."),
            "required": gettext_lazy("Choose what the condition changes from the list."),
        },
    )
    amount = forms.IntegerField(
        label=gettext_lazy("By"),
        min_value=-AMOUNT_MAX,
        max_value=AMOUNT_MAX,
        error_messages={
            "invalid": gettext_lazy("Write a whole number from −20 to +20."),
            "min_value": gettext_lazy("Write a whole number from −20 to +20."),
            "max_value": gettext_lazy("Write a whole number from −20 to +20."),
            "required": gettext_lazy("Write a whole number from −20 to +20."),
        },
    )
    scope = forms.ChoiceField(
        label=gettext_lazy("Concerns"),
        choices=Condition.Scope.choices,
        initial="all",
        error_messages={"invalid_choice": gettext_lazy("Choose what the condition concerns.")},
    )
    scope_name = TextField(
        label=gettext_lazy("Which attribute, skill or target"), max_length=NAME_MAX, required=False
    )
    lasts = forms.ChoiceField(
        label=gettext_lazy("Lasts"),
        choices=Condition.Lasts.choices,
        initial="hand",
        error_messages={"invalid_choice": gettext_lazy("Choose until when the condition lasts.")},
    )
    ends_with = TextField(
        label=gettext_lazy("The test that ends it"), max_length=NAME_MAX, required=False
    )

    def __init__(self, *args, system=None, **kwargs):
        # ``system`` may be left out only to look the form's fields over (the text rule's test).
        super().__init__(*args, **kwargs)
        self.system = system
        effects = condition_rules(system).effects if system is not None else {}
        self.fields["effect"].choices = list(effects.items())

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError(_("Give the condition a name."))
        return name

    def clean_amount(self) -> int:
        amount = self.cleaned_data["amount"]
        if amount == 0:
            raise forms.ValidationError(_("A condition of 0 changes nothing; write −2, +1…"))
        low, high = condition_rules(self.system).amounts if self.system else NO_CONDITIONS.amounts
        if not low <= amount <= high:
            raise forms.ValidationError(
                _("A condition of these rules is from %(low)s to %(high)s.")
                % {"low": low, "high": high}
            )
        return amount

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        data["scope_name"] = " ".join(data.get("scope_name", "").split())
        data["ends_with"] = " ".join(data.get("ends_with", "").split())
        if data.get("scope") not in (None, Condition.Scope.ALL) and not data["scope_name"]:
            self.add_error("scope_name", _("Name the attribute, skill or target it concerns."))
        if data.get("lasts") == Condition.Lasts.SUCCESS and not data["ends_with"]:
            self.add_error("ends_with", _("Name the test whose success ends it."))
        return data

    def spec(self) -> Spec:
        data = self.cleaned_data
        return Spec(
            name=data["name"],
            effect=data["effect"],
            amount=data["amount"],
            scope=data["scope"],
            scope_name=data["scope_name"] if data["scope"] != Condition.Scope.ALL else "",
            lasts=data["lasts"],
            ends_with=data["ends_with"] if data["lasts"] == Condition.Lasts.SUCCESS else "",
        )


class OptionsForm(forms.Form):
    """The options picked after a roll: some of the rules' menu (``FollowUps.menu``) and one
    in the picker's own words, together no more than the result allows (``rolls.roll_options``
    checks it again under its lock)."""

    key = Key(gettext_lazy("This request is malformed; reload the page and try again."))
    chosen = forms.MultipleChoiceField(required=False, widget=forms.CheckboxSelectMultiple)
    own = TextField(label=gettext_lazy("Or in your own words"), max_length=OWN_MAX, required=False)

    def __init__(self, *args, menu=None, **kwargs):
        # ``menu`` may be left out only to look the form's fields over (the text rule's test).
        super().__init__(*args, **kwargs)
        self.menu = menu or {"options": [], "picks": 0}
        self.fields["chosen"].choices = [(o["key"], o["text"]) for o in self.menu["options"]]
        self.fields["chosen"].error_messages["invalid_choice"] = _(
            "That option is not on this result’s list; reload the page to see it."
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        data["own"] = " ".join(data.get("own", "").split())
        picked = len(data.get("chosen", [])) + (1 if data["own"] else 0)
        if "chosen" in data and picked == 0:
            raise forms.ValidationError(_("Tick an option or write your own."))
        if picked > self.menu["picks"]:
            raise forms.ValidationError(too_many(self.menu["picks"], picked))
        return data


class CounterMoveForm(forms.Form):
    """The GM's own counter-move after a roll, in a line of their own words."""

    key = Key(gettext_lazy("This request is malformed; reload the page and try again."))
    text = TextField(
        label=gettext_lazy("Your counter-move"),
        max_length=OWN_MAX,
        error_messages={
            "required": gettext_lazy("Write the counter-move in at most 200 characters."),
            "max_length": gettext_lazy("Write the counter-move in at most 200 characters."),
        },
    )
