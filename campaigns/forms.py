"""Forms of the campaign pages: new campaign, and each system's settings."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns import real_dice
from campaigns.models import Campaign
from campaigns.systems import Words, get_system, system_choices
from config.text import TextField

SKILL_NAME_MAX = 30
SKILL_COUNT = 6
# The Rozmach pool never holds more than 10 (RULES.md), so neither a grant nor a cost can exceed it.
ROZMACH_MAX = 10
PD_MAX = 9999
REACTION_NAME_MAX = 60
TABLE_ROWS_MAX = 40
TABLE_BLANK_ROWS = 3


class CampaignForm(forms.Form):
    name = TextField(
        label=_("Campaign name"),
        max_length=Campaign._meta.get_field("name").max_length,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    system = forms.ChoiceField(
        label=_("Rule system"),
        choices=system_choices,
        help_text=_("It cannot change later: every character sheet follows it."),
    )


class CampaignNameForm(forms.Form):
    name = TextField(
        label=_("Campaign name"),
        max_length=Campaign._meta.get_field("name").max_length,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )


class RealDiceForm(forms.Form):
    """Who may roll real dice at the table and type them in (``campaigns.real_dice``)."""

    real_dice = forms.ChoiceField(
        label=_("Real dice"),
        choices=real_dice.CHOICES,
        widget=forms.RadioSelect,
        required=False,  # not posted: left as it is
        help_text=_(
            "For a group in one room: a test panel then offers “I rolled real dice”, one box "
            "per die. Typed dice cannot be checked like the server's fair dice; the log says "
            "who typed them."
        ),
    )


class FastTestSettingsForm(forms.Form):
    """The six skill names (renamed by position) and the optional rules of the seed."""

    magic = forms.BooleanField(
        label=_("Magic: magic dice and spells (magia)"),
        required=False,
        help_text=_("DUCH is on every sheet either way."),
    )
    experience_dice = forms.BooleanField(
        label=_("Experience dice (kości doświadczenia)"),
        required=False,
        help_text=_("Gained on failing an important test; each one kept to the end is 1 XP."),
    )
    emanation = forms.BooleanField(
        label=_("Magic emanation (emanacja)"),
        required=False,
        help_text=_("A magic-die face above DUCH is an uncontrolled eruption. Needs magic."),
    )
    multi_skill = forms.BooleanField(
        label=_("Tests with more than one skill"),
        required=False,
        help_text=_("Attribute + a second skill, or more, on one test."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        skills = {}
        for index in range(1, SKILL_COUNT + 1):
            skills[f"skill_{index}"] = TextField(
                label=_("Skill %(number)s (Umiejętność)") % {"number": index},
                max_length=SKILL_NAME_MAX,
                widget=forms.TextInput(attrs={"autocomplete": "off"}),
            )
        # Skills first, in their order on the sheet.
        self.fields = {**skills, **self.fields}

    @classmethod
    def for_campaign(cls, campaign: Campaign, settings: dict[str, Any], data=None):
        """The form of ``campaign``'s settings as they are (``OwnSettings.form``)."""
        return cls(data, initial=cls.initial_from(settings))

    @staticmethod
    def initial_from(settings: dict[str, Any]) -> dict[str, Any]:
        initial = {f"skill_{i}": name for i, name in enumerate(settings["skills"][:6], start=1)}
        for key in ("magic", "experience_dice", "emanation", "multi_skill"):
            initial[key] = bool(settings.get(key))
        return initial

    def skill_fields(self) -> list[forms.BoundField]:
        return [self[f"skill_{i}"] for i in range(1, SKILL_COUNT + 1)]

    def option_fields(self) -> list[forms.BoundField]:
        return [self[key] for key in ("magic", "experience_dice", "emanation", "multi_skill")]

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        seen: dict[str, int] = {}
        for index in range(1, SKILL_COUNT + 1):
            name = cleaned.get(f"skill_{index}")
            if not name:
                continue
            key = name.casefold()
            if key in seen:
                self.add_error(
                    f"skill_{index}",
                    _("Each skill needs its own name: '%(name)s' is already skill %(other)s.")
                    % {"name": name, "other": seen[key]},
                )
            else:
                seen[key] = index
        if cleaned.get("emanation") and not cleaned.get("magic"):
            self.add_error("emanation", _("Magic emanation needs magic turned on."))
        return cleaned

    def system_values(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "skills": [data[f"skill_{i}"] for i in range(1, SKILL_COUNT + 1)],
            "magic": data["magic"],
            "experience_dice": data["experience_dice"],
            "emanation": data["emanation"],
            "multi_skill": data["multi_skill"],
        }


class _RowForm(forms.Form):
    """One row of a two-column table; a row left blank is dropped, a half-filled one is an error."""

    key_field = ""
    value_field = ""

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        key_blank = cleaned.get(self.key_field) in (None, "") and not self.has_error(self.key_field)
        value_blank = cleaned.get(self.value_field) is None and not self.has_error(self.value_field)
        if key_blank and not value_blank:
            self.add_error(self.key_field, _("Fill in both, or clear the row to remove it."))
        elif value_blank and not key_blank:
            self.add_error(self.value_field, _("Fill in both, or clear the row to remove it."))
        return cleaned

    def is_blank(self) -> bool:
        data = getattr(self, "cleaned_data", {})
        return data.get(self.key_field) in (None, "") and data.get(self.value_field) is None


class PdRozmachRowForm(_RowForm):
    key_field, value_field = "pd", "rozmach"
    pd = forms.IntegerField(
        label=_("From PD"),
        required=False,
        min_value=0,
        max_value=PD_MAX,
        error_messages={
            "invalid": _("A whole number of PD, 0 or more."),
            "min_value": _("PD cannot be negative."),
            "max_value": _("At most %(limit_value)s PD."),
        },
    )
    rozmach = forms.IntegerField(
        label=_("Rozmach granted"),
        required=False,
        min_value=0,
        max_value=ROZMACH_MAX,
        error_messages={
            "invalid": _("A whole number, 0 to 10."),
            "min_value": _("0 to 10: Rozmach cannot be negative."),
            "max_value": _("0 to 10: the Rozmach pool never holds more."),
        },
    )


class ReactionCostRowForm(_RowForm):
    key_field, value_field = "reaction", "cost"
    reaction = TextField(label=_("Reaction"), required=False, max_length=REACTION_NAME_MAX)
    cost = forms.IntegerField(
        label=_("Cost in Rozmach"),
        required=False,
        min_value=0,
        max_value=ROZMACH_MAX,
        error_messages={
            "invalid": _("A whole number, 0 to 10."),
            "min_value": _("0 to 10: a cost cannot be negative."),
            "max_value": _("0 to 10: the Rozmach pool never holds more."),
        },
    )


class _TableFormSet(forms.BaseFormSet):
    """Rows keyed by their first column, which must be unique; blank rows are ignored."""

    duplicate_message: Words = ""

    def clean(self) -> None:
        if any(self.errors):
            return
        seen = set()
        for form in self.forms:
            if form.is_blank():
                continue
            key_field = form.key_field
            value = form.cleaned_data[key_field]
            key = value.casefold() if isinstance(value, str) else value
            if key in seen:
                form.add_error(key_field, self.duplicate_message % {"key": value})
            seen.add(key)
        if any(self.errors):
            raise forms.ValidationError(_("Some rows need fixing; see the marked fields."))

    def rows(self) -> list[dict[str, Any]]:
        rows = [
            {f.key_field: f.cleaned_data[f.key_field], f.value_field: f.cleaned_data[f.value_field]}
            for f in self.forms
            if not f.is_blank()
        ]
        return rows


class PdRozmachFormSet(_TableFormSet):
    duplicate_message = _("The threshold %(key)s PD is listed twice.")

    def rows(self) -> list[dict[str, Any]]:
        # Kept ascending by threshold, whatever order they were typed in.
        return sorted(super().rows(), key=lambda row: row["pd"])


class ReactionCostFormSet(_TableFormSet):
    duplicate_message = _("The reaction '%(key)s' is listed twice.")


def _table_formset(form, formset):
    return forms.formset_factory(
        form,
        formset=formset,
        extra=TABLE_BLANK_ROWS,
        max_num=TABLE_ROWS_MAX,
        absolute_max=TABLE_ROWS_MAX + TABLE_BLANK_ROWS,
        validate_max=True,
    )


PdRozmachRows = _table_formset(PdRozmachRowForm, PdRozmachFormSet)
ReactionCostRows = _table_formset(ReactionCostRowForm, ReactionCostFormSet)


class NpcRozmachForm(forms.Form):
    """Whether the GM's NPCs share one Rozmach pool (RULES.md 4.12, "NPCs and Rozmach")."""

    npc_rozmach = forms.BooleanField(
        label=_("All my NPCs share one pool of Rozmach (momentum)"),
        required=False,
        help_text=_(
            "Off (the default): NPCs have no Rozmach (momentum); their dice gain none, they "
            "neither boost nor react. On: one pool for all of them, shown on your dashboard, "
            "gained from their dice and spent on boosts and reactions, at most 10, emptied "
            "when a scene starts."
        ),
    )


#: Where Caerbannog keeps the pool the GM's NPCs share, beside its settings
#: (rolls.systems.caerbannog.npc_rozmach.POOL): the settings page empties it when the setting
#: changes, so a pool switched on starts at 0.
NPC_ROZMACH_POOL = "npc_rozmach_pool"


class CaerbannogSettings:
    """The two tables the seed refers to but does not print (RULES.md), and whether the GM's NPCs
    share one Rozmach pool, as one settings form."""

    def __init__(self, data=None, *, settings: dict[str, Any]) -> None:
        self.pd_rozmach = PdRozmachRows(
            data, prefix="pd", initial=[dict(row) for row in settings.get("pd_rozmach", [])]
        )
        self.reaction_costs = ReactionCostRows(
            data,
            prefix="reaction",
            initial=[dict(row) for row in settings.get("reaction_costs", [])],
        )
        self.shared_before = settings.get("npc_rozmach") is True
        self.npc_rozmach = NpcRozmachForm(data, initial={"npc_rozmach": self.shared_before})

    def is_valid(self) -> bool:
        # Each, so that each part shows its own errors.
        pd_ok = self.pd_rozmach.is_valid()
        reactions_ok = self.reaction_costs.is_valid()
        npcs_ok = self.npc_rozmach.is_valid()
        return pd_ok and reactions_ok and npcs_ok

    def system_values(self) -> dict[str, Any]:
        shared = self.npc_rozmach.cleaned_data["npc_rozmach"]
        values = {
            "pd_rozmach": self.pd_rozmach.rows(),
            "reaction_costs": self.reaction_costs.rows(),
            "npc_rozmach": shared,
        }
        if shared != self.shared_before:
            values[NPC_ROZMACH_POOL] = 0
        return values


@dataclass(frozen=True)
class OwnSettings:
    """A system's part (``campaigns.systems.Part``): settings of its own on the campaign's
    settings page, stored under ``Campaign.settings[key]`` with ``System.settings_defaults``."""

    key: ClassVar[str] = "settings"
    #: The settings page's partial for them.
    template: str
    #: The form: ``form(campaign, settings, data)``, with ``system_values()`` to store.
    form: Callable[..., SettingsForm]


class SettingsForm(Protocol):
    """A system's own settings as the page posts them: one form, or several as one."""

    def is_valid(self) -> bool: ...

    def system_values(self) -> dict[str, Any]: ...


def settings_form(campaign: Campaign, settings: dict[str, Any], data=None):
    """The settings form of the campaign's system, or None where the system has no settings."""
    own = get_system(campaign.system).part(OwnSettings)
    return own.form(campaign, settings, data) if own is not None else None
