"""The GM's changes to a pending test, one small Django form each.

A form reads the dashboard's POST or an action's own arguments
(``rolls.pending.actions.change_test`` gets either): posted text and Python values are cleaned the
same way, with the same sentence for what is refused. The system's ranges (``rolls.panels.Limit``)
reach a form as ``limits``; what is checked against the locked row (the scene's challenge points,
room for another modifier) is checked by ``apply``, which makes the change.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from campaigns.models import Scene
from config.text import text_problem
from rolls.actions import ActionRefused
from rolls.forms import Text, WholeNumber, WholeNumbers, YesNo, whole
from rolls.models import Condition
from rolls.panels import Limit
from sheets.models import NPC

MAX_DICE_ENTRIES = 20
MAX_AMOUNT = 20
TEXT_MAX = 80
#: The name of another resource heroic effort may be paid with, and its price, as the GM says
#: them (RULES.md 4.12): each a short line.
HEROIC_OTHER_MAX = 60
#: The mark of a combat test in a pending test's modifiers: only after such a test does the GM
#: apply a combat wound (rolls.systems.fasttest.wounds).
COMBAT = "combat"
DICE_KINDS = ("bonus", "penalty", "level", "pool", "circumstance", "modifier", "hindrance")
#: Kinds whose amount may be negative (a pool or a modifier taken away).
SIGNED_KINDS = ("pool", "circumstance", "modifier")


class SourceText(forms.Field):
    """Where a modifier comes from: what the GM typed, or the app's own words as data (a POST
    cannot give those: only an action, e.g. the armor of a wound test)."""

    def clean(self, value: Any) -> str | dict:
        if isinstance(value, dict) and "w" in value:
            return value
        text = str(value or "").strip()[:TEXT_MAX]
        if not text:
            raise ValidationError(_("Say where the modifier comes from (e.g. darkness)."))
        if problem := text_problem(value):
            raise ValidationError(problem)
        return text


class OperationForm(forms.Form):
    """One change to ``pending`` (locked by the caller), within the system's ``limits``."""

    def __init__(self, data=None, *, pending=None, limits: dict[str, Limit] | None = None) -> None:
        super().__init__(data)
        self.pending = pending
        self.limits = limits or {}

    @property
    def modifiers(self) -> dict[str, Any]:
        return self.pending.modifiers

    def refusal(self) -> str:
        """The first thing wrong, as the GM's card shows it."""
        return next(m for messages in self.errors.values() for m in messages)

    # Each operation's form defines ``apply()``: the change it makes to ``self.modifiers``
    # (tests/web/test_gm_forms.py holds every form of OPERATIONS to it).

    def _add_entry(self, kind: str, amount: int, source) -> None:
        entries = self.modifiers.setdefault("dice", [])
        if len(entries) >= MAX_DICE_ENTRIES:
            raise ActionRefused(_("That is as many modifiers as one test can hold."))
        entries.append({"kind": kind, "amount": amount, "source": source})


def refused_amount(value: Any, low: int) -> str | None:
    if not whole(value) or not low <= value <= MAX_AMOUNT:
        return _("A number of dice must be from %(low)s to %(high)s.") % {
            "low": low,
            "high": MAX_AMOUNT,
        }
    return None


class AddDiceForm(OperationForm):
    """Bonus or penalty dice, a level, a pool or a modifier, with where it comes from; the
    system's range for that kind when it has one, else 1 to 20 (signed kinds from −20)."""

    kind = forms.ChoiceField(choices=[(k, k) for k in DICE_KINDS])
    amount = WholeNumber()
    source = SourceText()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        unknown = _("Unknown kind of modifier.")
        self.fields["kind"].error_messages |= {"required": unknown, "invalid_choice": unknown}

    def clean_amount(self) -> int:
        amount = self.cleaned_data["amount"]
        kind = self.cleaned_data.get("kind")
        if kind is None:
            return amount  # refused by its kind already
        limit = self.limits.get(kind)
        if limit is not None:
            refusal = limit.refusal(amount)
        else:
            refusal = refused_amount(amount, -MAX_AMOUNT if kind in SIGNED_KINDS else 1)
        if refusal:
            raise ValidationError(refusal)
        return amount

    def apply(self) -> None:
        data = self.cleaned_data
        self._add_entry(data["kind"], data["amount"], data["source"])


class RemoveDiceForm(OperationForm):
    index = WholeNumber()

    def clean_index(self) -> int:
        index = self.cleaned_data["index"]
        if not whole(index) or not 0 <= index < len(self.modifiers.get("dice", [])):
            raise ValidationError(_("That modifier is no longer there; look again."))
        return index

    def apply(self) -> None:
        self.modifiers["dice"].pop(self.cleaned_data["index"])


class SetNPCForm(OperationForm):
    """Tick an NPC's applicable traits (FastTest: the highest plus 1 for each other); ticking
    none takes the NPC off the test."""

    npc = WholeNumber()
    trait = WholeNumbers()

    def clean_npc(self) -> NPC:
        npc_id = self.cleaned_data["npc"]
        if not whole(npc_id):
            raise ValidationError(_("Choose an NPC of this campaign."))
        campaign_id = self.pending.session.campaign_id
        npc = NPC.objects.filter(pk=npc_id, campaign_id=campaign_id).first()
        if npc is None:
            raise ValidationError(_("No such NPC in this campaign."))
        return npc

    def apply(self) -> None:
        npc = self.cleaned_data["npc"]
        traits = self.cleaned_data["trait"]
        chosen = sorted({i for i in traits if whole(i) and 0 <= i < len(npc.traits)})
        if not chosen:
            self.modifiers.pop("npc", None)
            return
        self.modifiers["npc"] = {
            "id": npc.pk,
            "name": npc.name,
            "traits": [
                {"name": npc.traits[i]["name"], "dice": npc.traits[i]["dice"]} for i in chosen
            ],
        }


class ClearNPCForm(OperationForm):
    def apply(self) -> None:
        self.modifiers.pop("npc", None)


def number_form(name: str) -> type[OperationForm]:
    """Set (or, left empty, clear) one of the GM's numbers within the system's range for it."""

    class NumberForm(OperationForm):
        value = WholeNumber()

        def clean_value(self) -> int | None:
            value = self.cleaned_data["value"]
            if value is None:
                return None
            limit = self.limits.get(name)
            if limit is None:
                raise ValidationError(_("Tests of this system have no such setting."))
            if refusal := limit.refusal(value):
                raise ValidationError(refusal)
            return value

        def apply(self) -> None:
            value = self.cleaned_data["value"]
            if value is None:
                self.modifiers.pop(name, None)
            else:
                self.modifiers[name] = value

    NumberForm.__name__ = f"Set{name.title().replace('_', '')}Form"
    return NumberForm


class ChallengeForm(OperationForm):
    """AST: challenge points the GM puts into this test, taken from the scene's pool."""

    value = WholeNumber()

    def clean_value(self) -> int:
        value = self.cleaned_data["value"]
        if not whole(value) or value < 0:
            raise ValidationError(_("Challenge points must be a whole number, 0 or more."))
        return value

    def apply(self) -> None:
        value = self.cleaned_data["value"]
        scene = (
            Scene.objects.select_for_update()
            .filter(session=self.pending.session)
            .order_by("-number")
            .first()
        )
        if scene is None:
            raise ActionRefused(_("There is no scene to take challenge points from."))
        current = self.modifiers.get("challenge", 0)
        if value - current > scene.challenge_points:
            raise ActionRefused(
                ngettext(
                    "Only %(n)s challenge point is left in this scene.",
                    "Only %(n)s challenge points are left in this scene.",
                    scene.challenge_points,
                )
                % {"n": scene.challenge_points}
            )
        scene.challenge_points -= value - current
        scene.save(update_fields=["challenge_points"])
        self.modifiers["challenge"] = value


class CombatForm(OperationForm):
    """Mark the test as a combat test, or not (only systems with combat wounds offer it)."""

    value = YesNo(required=False)

    def clean_value(self) -> bool:
        value = self.cleaned_data["value"]
        if value is None:
            raise ValidationError(_("Say whether this is a combat test: yes or no."))
        return value

    def apply(self) -> None:
        if self.cleaned_data["value"]:
            self.modifiers[COMBAT] = True
        else:
            self.modifiers.pop(COMBAT, None)


class ForcedForm(OperationForm):
    """The GM forces the test's spending (a reaction's Rozmach): what the pool lacks is paid the
    way the system's rules say (Caerbannog: Determinacja), or takes that back."""

    value = YesNo(required=False)

    def clean_value(self) -> bool:
        value = self.cleaned_data["value"]
        if value is None:
            raise ValidationError(_("Say whether the spending is forced: yes or no."))
        return value

    def apply(self) -> None:
        if self.cleaned_data["value"]:
            self.modifiers["forced"] = True
        else:
            self.modifiers.pop("forced", None)


class HeroicOtherForm(OperationForm):
    """The GM lets the player pay for heroic effort with another fitting resource (RULES.md 4.12:
    "the GM names it and its price"), or takes that back (both fields empty or not posted)."""

    name = Text(required=False)
    price = Text(required=False)

    def clean_name(self) -> str:
        return _short_line(self.cleaned_data["name"])

    def clean_price(self) -> str:
        return _short_line(self.cleaned_data["price"])

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        name, price = data.get("name"), data.get("price")
        if name is not None and price is not None and bool(name) != bool(price):
            # One of the two left empty: say which is missing (a take-back empties both).
            if name:
                self.add_error(
                    "price", _("Say what paying with it costs (e.g. the duke's favour is lost).")
                )
            else:
                self.add_error(
                    "name",
                    _("Name the resource heroic effort may be paid with (e.g. kapitał społeczny)."),
                )
        return data

    def apply(self) -> None:
        name, price = self.cleaned_data["name"], self.cleaned_data["price"]
        if name and price:
            self.modifiers["heroic_other"] = {"name": name, "price": price}
        else:
            self.modifiers.pop("heroic_other", None)


def _short_line(value: str | None) -> str:
    """One of the GM's short lines, stripped ("" when empty)."""
    if problem := text_problem(value):  # before the strip: it would take \x1c-\x1f off the ends
        raise ValidationError(problem)
    text = (value or "").strip()
    if "\n" in text or "\r" in text:
        raise ValidationError(_("Keep the resource and its price to one line each."))
    if len(text) > HEROIC_OTHER_MAX:
        raise ValidationError(
            _("Keep the resource and its price to %(max)s characters each.")
            % {"max": HEROIC_OTHER_MAX}
        )
    return text


class SurpriseForm(OperationForm):
    """The first round of a fight: the character's side was surprised or is surprising (the
    system's rules say what that does; Caerbannog halves or doubles the Rozmach pool), or
    neither (empty)."""

    value = forms.ChoiceField(
        required=False,
        choices=[(value, value) for value in ("", "surprised", "surprising")],
        error_messages={
            "invalid_choice": gettext_lazy(
                "Say whether the side is surprised, surprising, or neither."
            )
        },
    )

    def apply(self) -> None:
        if self.cleaned_data["value"]:
            self.modifiers["surprise"] = self.cleaned_data["value"]
        else:
            self.modifiers.pop("surprise", None)


class ConditionOffForm(OperationForm):
    """Switch one of the character's conditions off for this test, or on again (issue 15: the
    GM decides a condition does not concern this test)."""

    condition = forms.IntegerField(required=False)
    value = YesNo(required=False)

    def clean_condition(self) -> int:
        pk = self.cleaned_data["condition"]
        if (
            pk is None
            or not Condition.objects.filter(
                pk=pk, character_id=self.pending.character_id, cleared_entry=None
            ).exists()
        ):
            raise ValidationError(
                _("That condition is no longer on the character; the card shows those it has.")
            )
        return pk

    def clean_value(self) -> bool:
        value = self.cleaned_data["value"]
        if value is None:
            raise ValidationError(_("Say whether the condition is off for this test: yes or no."))
        return value

    def apply(self) -> None:
        off = {pk for pk in self.modifiers.get("conditions_off", []) if whole(pk)}
        pk = self.cleaned_data["condition"]
        off = off | {pk} if self.cleaned_data["value"] else off - {pk}
        if off:
            self.modifiers["conditions_off"] = sorted(off)
        else:
            self.modifiers.pop("conditions_off", None)


class TargetField(forms.Field):
    """What is tested, as the system's ``target_from_post`` read it (never posted as such)."""

    def clean(self, value: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise ValidationError(_("Choose what is tested."))
        return value


class TargetForm(OperationForm):
    target = TargetField()

    def apply(self) -> None:
        self.pending.target = self.cleaned_data["target"]


#: Each operation's form, by the name the dashboard posts as ``op``.
OPERATIONS: dict[str, type[OperationForm]] = {
    "add_dice": AddDiceForm,
    "remove_dice": RemoveDiceForm,
    "set_npc": SetNPCForm,
    "clear_npc": ClearNPCForm,
    "set_difficulty": number_form("difficulty"),
    "set_easing": number_form("easing"),
    "set_hindering": number_form("hindering"),
    "set_extra_d10": number_form("extra_d10"),
    "set_challenge": ChallengeForm,
    "set_combat": CombatForm,
    "set_surprise": SurpriseForm,
    "set_forced": ForcedForm,
    "set_heroic_other": HeroicOtherForm,
    "set_target": TargetForm,
    "set_condition_off": ConditionOffForm,
}

#: The entry of a system's ``gm_controls`` each operation needs; ``add_dice`` by its kind.
OPERATION_CONTROL = {
    "set_npc": "npc",
    "clear_npc": "npc",
    "set_extra_d10": "extra_d10",
    "set_challenge": "challenge",
    "set_combat": COMBAT,
    "set_surprise": "surprise",
    "set_forced": "forced",
    "set_heroic_other": "heroic_other",
}
KIND_CONTROL = {
    "bonus": "bonus",
    "penalty": "penalty",
    "modifier": "modifier",
    "circumstance": "category_modifier",
    "hindrance": "hindrance",
}


def register_operation(name: str, form: type[OperationForm], control: str) -> None:
    """A system's own change to its called tests (2d6's category modifier), posted as ``op``
    ``name`` and offered where the system's ``gm_controls`` hold ``control``."""
    OPERATIONS[name] = form
    OPERATION_CONTROL[name] = control
