"""Forms of the GM's NPC trait lists: quick entry from a line, and the full form."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from django import forms
from django.utils.translation import gettext_lazy as _

from config.text import TextField
from sheets.npc_parse import (
    LEVEL_MAX,
    LEVEL_MIN,
    NAME_MAX,
    TRAIT_NAME_MAX,
    TRAITS_MAX,
    NPCParseError,
    ParsedNPC,
    parse_npc_lines,
)

BLANK_TRAIT_ROWS = 3


class QuickNPCForm(forms.Form):
    text = TextField(
        label=_("Quick entry"),
        max_length=5000,
        strip=False,
        widget=forms.Textarea(
            attrs={
                "rows": 2,
                "autocomplete": "off",
                "spellcheck": "false",
            }
        ),
        help_text=_(
            "Name, a colon, then traits separated by commas, e.g. “Troll: huge 3k, nasty 3k, "
            "hungry”. A level is a number with k at the end of the trait (3k, 3 k, (3) and "
            "3d work too); a trait without one is 1k; levels go from 1 to 20. One NPC per line "
            "adds several at once."
        ),
    )

    def clean_text(self) -> list[ParsedNPC]:
        try:
            return parse_npc_lines(self.cleaned_data["text"])
        except NPCParseError as error:
            raise forms.ValidationError(error.messages) from None


class NPCForm(forms.Form):
    name = TextField(
        label=_("Name"), max_length=NAME_MAX, widget=forms.TextInput(attrs={"autocomplete": "off"})
    )
    notes = TextField(
        label=_("Notes (only you see them)"),
        required=False,
        max_length=10000,
        widget=forms.Textarea(attrs={"rows": 4}),
    )
    revealed = forms.BooleanField(
        label=_("Shown to players"),
        required=False,
        help_text=_("Players then see the name and the traits, never the notes."),
    )


class TraitRowForm(forms.Form):
    """One trait; a row left blank is dropped, a level without a name is an error."""

    name = TextField(label=_("Trait"), required=False, max_length=TRAIT_NAME_MAX)
    dice = forms.IntegerField(
        label=_("Dice (k)"),
        required=False,
        min_value=LEVEL_MIN,
        max_value=LEVEL_MAX,
        error_messages={
            "invalid": _("A whole number, 1 to 20."),
            "min_value": _("Dice: 1 to 20."),
            "max_value": _("Dice: 1 to 20."),
        },
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if not cleaned.get("name") and cleaned.get("dice") is not None:
            self.add_error("name", _("Name the trait, or clear the row to remove it."))
        return cleaned

    def trait(self) -> dict[str, Any] | None:
        data = getattr(self, "cleaned_data", {})
        if not data.get("name"):
            return None
        # A trait written without a number is 1, as in the seed.
        return {"name": data["name"], "dice": data.get("dice") or 1}


class BaseTraitFormSet(forms.BaseFormSet):
    def clean(self) -> None:
        if any(self.errors):
            return
        seen: set[str] = set()
        for form in self.forms:
            trait = form.trait()
            if trait is None:
                continue
            key = trait["name"].casefold()
            if key in seen:
                form.add_error("name", _("This trait is already listed."))
            seen.add(key)
        if any(self.errors):
            raise forms.ValidationError(_("Some traits need fixing; see the marked rows."))
        if not self.traits():
            raise forms.ValidationError(_("List at least one trait."))

    def traits(self) -> list[dict[str, Any]]:
        return [trait for form in self.forms if (trait := form.trait()) is not None]


TraitFormSet = forms.formset_factory(
    TraitRowForm,
    formset=BaseTraitFormSet,
    extra=BLANK_TRAIT_ROWS,
    max_num=TRAITS_MAX,
    absolute_max=TRAITS_MAX + BLANK_TRAIT_ROWS,
    validate_max=True,
)


def trait_formset(data=None, traits: list[dict[str, Any]] | None = None) -> BaseTraitFormSet:
    initial = [
        {"name": t.get("name", ""), "dice": t.get("dice", 1)}
        for t in (traits or [])
        if isinstance(t, dict)
    ]
    return TraitFormSet(data, prefix="traits", initial=initial)


#: An NPC's full stats are typed like a player's, but a GM's creature need not keep to the
#: creation rules (a troll's BUDOWA 9): whatever the engine reads, chance overflow included.
STAT_ATTRIBUTE_MIN, STAT_ATTRIBUTE_MAX = 1, 12
STAT_SKILL_MIN, STAT_SKILL_MAX = -5, 5


@dataclass(frozen=True)
class NpcStats:
    """A system's part (``campaigns.systems.Part``): an NPC may carry stats like a player's
    sheet (FastTest's second kind of NPC), typed in ``NPCStatsForm``."""

    key: ClassVar[str] = "npc_stats"
    #: ``names(campaign) -> (attributes, skills)``: the stats such an NPC carries.
    names: Callable[[Any], tuple[tuple[str, ...], tuple[str, ...]]]


class NPCStatsForm(forms.Form):
    """Full stats like a player's, where the system allows such NPCs: every attribute (or none,
    for an NPC that is only its traits) and the campaign's skills (blank is 0)."""

    def __init__(self, data=None, *, names=((), ()), stats=None, **kwargs):
        attributes, skills = names
        stats = stats if isinstance(stats, dict) else {}
        initial = {}
        super().__init__(data, prefix="stats", **kwargs)
        self.attribute_names, self.skill_names = tuple(attributes), tuple(skills)
        for index, name in enumerate(self.attribute_names):
            self.fields[f"a{index}"] = self._number(name, STAT_ATTRIBUTE_MIN, STAT_ATTRIBUTE_MAX)
            initial[f"a{index}"] = (stats.get("attributes") or {}).get(name)
        for index, name in enumerate(self.skill_names):
            self.fields[f"s{index}"] = self._number(name, STAT_SKILL_MIN, STAT_SKILL_MAX)
            initial[f"s{index}"] = (stats.get("skills") or {}).get(name)
        self.initial = initial

    @staticmethod
    def _number(label: str, low: int, high: int) -> forms.IntegerField:
        message = _("%(label)s: a whole number from %(low)s to %(high)s.") % {
            "label": label,
            "low": low,
            "high": high,
        }
        return forms.IntegerField(
            label=label,
            required=False,
            min_value=low,
            max_value=high,
            error_messages={"invalid": message, "min_value": message, "max_value": message},
        )

    @property
    def offered(self) -> bool:
        return bool(self.attribute_names)

    def attribute_fields(self):
        return [self[f"a{i}"] for i in range(len(self.attribute_names))]

    def skill_fields(self):
        return [self[f"s{i}"] for i in range(len(self.skill_names))]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        typed = [cleaned.get(f"a{i}") for i in range(len(self.attribute_names))]
        skills = [cleaned.get(f"s{i}") for i in range(len(self.skill_names))]
        if any(v is not None for v in skills) and all(v is None for v in typed):
            raise forms.ValidationError(_("Skills need the attributes they modify: fill them in."))
        if any(v is None for v in typed) and any(v is not None for v in typed):
            raise forms.ValidationError(
                _("Give every attribute a value, or leave them all blank for a trait-only NPC.")
            )
        return cleaned

    def stats(self) -> dict[str, Any]:
        """The stats to save: {} for a trait-only NPC."""
        data = self.cleaned_data
        if not self.offered or data.get("a0") is None:
            return {}
        return {
            "attributes": {n: data[f"a{i}"] for i, n in enumerate(self.attribute_names)},
            "skills": {n: data.get(f"s{i}") or 0 for i, n in enumerate(self.skill_names)},
        }
