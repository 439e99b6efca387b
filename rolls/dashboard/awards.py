"""The GM's awards (RULES.md section 1, "Development"): XP to one character or the whole party,
an experience die (gained on failing an important test), and at the end of a session every
experience die still held turned into 1 XP. The sheet holds the totals; ``Award`` rows keep who
got what and why.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from django import forms
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns import stored_text
from campaigns.models import Campaign, GameSession
from campaigns.systems import all_systems, get_system
from config.text import TextField
from rolls.actions import ActionRefused
from rolls.engine.core import SUCCESSES
from rolls.models import Award, Roll
from sheets import actions as sheet_actions
from sheets.models import Character

XP_AMOUNT = (1, 20)
REASON_MAX = 120
RECENT = 8


#: The reasons the app gives an award itself, kept as the award's text (the GM types the others):
#: written in the GM's language at the time, each read in the reader's (campaigns.stored_text).
FAILED_TEST = gettext_lazy("failed an important test (#%(seq)s)")
EXPERIENCE_DIE = gettext_lazy("experience die")
KEPT_TO_THE_END = gettext_lazy("experience dice kept to the end of the session")
stored_text.register(FAILED_TEST, EXPERIENCE_DIE, KEPT_TO_THE_END)


def _never(campaign: Campaign) -> bool:
    return False


@dataclass(frozen=True)
class Experience:
    """A system's part (``campaigns.systems.Part``): its sheets keep XP, which the GM awards."""

    key: ClassVar[str] = "experience"
    #: Where the sheet keeps its XP (a path into ``Character.data``).
    path: tuple[str, ...]
    #: The awards box's title ("PD" in Caerbannog).
    title: Any
    #: What the rules call a point of it, short, as its buttons and the awards given name it
    #: ("Give PD" in Caerbannog, whose title says what PD are).
    unit: Any = gettext_lazy("XP")
    #: The awards box's word on how much to give, and the amount it offers first.
    hint: Any = ""
    initial: int = 1
    #: Occasions on which the rules give every party member 1 XP ({key: what it was for}):
    #: the awards box offers one button each.
    occasions: Mapping[str, Any] = field(default_factory=dict)
    #: The most XP a sheet holds (both sheets' bound).
    most: int = 999
    #: The campaign plays with experience dice (FastTest's optional rule), and the most of them a
    #: sheet holds (at ``dice_path``).
    dice_on: Callable[[Campaign], bool] = _never
    dice_most: int = 0
    dice_path: tuple[str, ...] = ("experience_dice",)


def experience_of(campaign: Campaign) -> Experience | None:
    return get_system(campaign.system).part(Experience)


def register_occasion_words() -> None:
    """The occasions each system gives XP on (``Experience.occasions``), which an award keeps
    as its reason: read in the reader's language too (rolls.apps, once the systems are
    registered)."""
    parts = [s.part(Experience) for s in all_systems()]
    stored_text.register(*(text for p in parts if p for text in p.occasions.values()))


def keeps_xp(campaign: Campaign) -> bool:
    return experience_of(campaign) is not None


def experience_dice_on(campaign: Campaign) -> bool:
    """FastTest's optional experience dice, switched on in the campaign's settings."""
    experience = experience_of(campaign)
    return experience is not None and experience.dice_on(campaign)


def _open_session(campaign: Campaign) -> GameSession | None:
    return GameSession.objects.open_of(campaign.pk)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _set_numbers(character: Character, numbers: dict[tuple[str, ...], int]) -> None:
    """The sheet's write (``sheets.actions``), refused with the schema's message for what it
    would break."""
    try:
        saved = sheet_actions.set_numbers(character, numbers)
    except sheet_actions.SheetRefused as error:
        raise ActionRefused(str(error)) from error
    character.data, character.updated_at = saved.data, saved.updated_at


@transaction.atomic
def give_xp(
    *, campaign: Campaign, gm, amount: int, reason: str, character_id: int | None = None
) -> list[Award]:
    """XP to one character (``character_id``) or to every character of the campaign (None)."""
    experience = experience_of(campaign)
    if experience is None:
        raise ActionRefused(_("Sheets of this system keep no XP."))
    path = experience.path
    low, high = XP_AMOUNT
    if not _is_int(amount) or not low <= amount <= high:
        raise ActionRefused(_("Give from %(low)s to %(high)s XP.") % {"low": low, "high": high})
    reason = _reason(reason, required=True)
    characters = Character.objects.select_for_update().filter(campaign=campaign)
    if character_id is not None:
        characters = characters.filter(pk=character_id)
    characters = list(characters)
    if not characters:
        raise ActionRefused(_("No such character in this campaign."))
    session = _open_session(campaign)
    awards = []
    for character in characters:
        character.campaign = campaign
        current = get_system(campaign.system).view(character.data).number(*path)
        if current + amount > experience.most:
            raise ActionRefused(
                _("%(name)s would pass %(max)s XP, the most a sheet holds.")
                % {"name": character.name, "max": experience.most}
            )
        _set_numbers(character, {path: current + amount})
        awards.append(
            Award(
                campaign=campaign,
                character=character,
                character_name=character.name,
                session=session,
                kind=Award.Kind.XP,
                amount=amount,
                reason=reason,
                given_by=gm,
            )  # fmt: skip
        )
    return Award.objects.bulk_create(awards)


def _reason(reason: Any, *, required: bool) -> str:
    text = " ".join(str(reason or "").split())
    if required and not text:
        raise ActionRefused(_("Say what the award is for."))
    if len(text) > REASON_MAX:
        raise ActionRefused(_("Keep the reason to %(max)s characters.") % {"max": REASON_MAX})
    return text


@transaction.atomic
def give_experience_die(
    *, campaign: Campaign, gm, character_id: int, roll_id: int | None = None, reason: str = ""
) -> Award:
    """One experience die to a character; with ``roll_id``, for that failed test, only once."""
    experience = experience_of(campaign)
    if experience is None or not experience.dice_on(campaign):
        raise ActionRefused(_("Experience dice are off in this campaign."))
    character = (
        Character.objects.select_for_update().filter(pk=character_id, campaign=campaign).first()
    )
    if character is None:
        raise ActionRefused(_("No such character in this campaign."))
    reason = _reason(reason, required=False)
    roll = None
    if roll_id is not None:
        roll = _failed_test(campaign, character, roll_id)
        reason = reason or str(FAILED_TEST) % {"seq": roll.seq}
    current = get_system(campaign.system).view(character.data).number(*experience.dice_path)
    if current >= experience.dice_most:
        raise ActionRefused(
            _("%(name)s already holds %(max)s experience dice, the most a sheet holds.")
            % {"name": character.name, "max": experience.dice_most}
        )
    character.campaign = campaign
    _set_numbers(character, {experience.dice_path: current + 1})
    try:
        with transaction.atomic():
            return Award.objects.create(
                campaign=campaign, character=character, character_name=character.name,
                session=_open_session(campaign), kind=Award.Kind.EXPERIENCE_DIE, amount=1,
                reason=reason or str(EXPERIENCE_DIE), roll=roll, given_by=gm,
            )  # fmt: skip
    except IntegrityError as error:
        raise ActionRefused(_("An experience die was already given for this test.")) from error


def _failed_test(campaign: Campaign, character: Character, roll_id: int) -> Roll:
    roll = Roll.objects.filter(
        pk=roll_id,
        session__campaign=campaign,
        character=character,
        system=campaign.system,
        kind="test",
    ).first()
    if roll is None:
        raise ActionRefused(_("No such test of this character."))
    if roll.result.get("answer", {}).get("outcome") in SUCCESSES:
        raise ActionRefused(_("An experience die is gained on a failed test, not a success."))
    if Award.objects.filter(roll=roll, kind=Award.Kind.EXPERIENCE_DIE).exists():
        raise ActionRefused(_("An experience die was already given for this test."))
    return roll


def convert_experience_dice(
    session: GameSession, convert: Callable[[int, int], tuple[int, int]]
) -> list[Award]:
    """At the end of a session, the experience dice each character still holds become XP as
    ``convert(xp, dice)`` says, giving the XP and the dice left (only when the campaign plays
    with experience dice). Called inside ``end_session``, by the system's receiver."""
    campaign = session.campaign
    experience = experience_of(campaign)
    if experience is None or not experience.dice_on(campaign):
        return []
    awards = []
    for character in Character.objects.select_for_update().filter(campaign=campaign):
        sheet = get_system(campaign.system).view(character.data)
        dice = sheet.number(*experience.dice_path)
        if dice <= 0:
            continue
        xp, left = convert(sheet.number(*experience.path), dice)
        character.campaign = campaign
        numbers = {experience.path: min(xp, experience.most), experience.dice_path: left}
        _set_numbers(character, numbers)
        awards.append(
            Award(
                campaign=campaign,
                character=character,
                character_name=character.name,
                session=session,
                kind=Award.Kind.CONVERSION,
                amount=dice,
                reason=str(KEPT_TO_THE_END),
            )  # fmt: skip
        )
    return Award.objects.bulk_create(awards)


def recent_awards(campaign: Campaign) -> list[Award]:
    return list(Award.objects.filter(campaign=campaign)[:RECENT])


# --- The GM's forms -----------------------------------------------------------------------------

ALL = "all"


class XPForm(forms.Form):
    character = forms.ChoiceField(label=gettext_lazy("To"))
    amount = forms.IntegerField(
        label=gettext_lazy("Amount"),
        min_value=XP_AMOUNT[0],
        max_value=XP_AMOUNT[1],
    )
    reason = TextField(
        label=gettext_lazy("For"),
        max_length=REASON_MAX,
        widget=forms.TextInput(attrs={"placeholder": gettext_lazy("e.g. the troll's bridge")}),
    )

    def __init__(self, *args, characters=(), rules=None, **kwargs) -> None:
        kwargs.setdefault("auto_id", "xp-%s")
        super().__init__(*args, **kwargs)
        #: The system's ``Experience`` (the box's title, hint, first amount and occasions).
        self.experience = rules.part(Experience) if rules is not None else None
        experience = self.experience or Experience(path=(), title="")
        self.unit = experience.unit
        self.occasions = dict(experience.occasions)
        self.fields["amount"].help_text = experience.hint
        self.fields["amount"].initial = experience.initial
        self.fields["character"].choices = [(ALL, _("the whole party"))] + [
            (str(c.pk), c.name) for c in characters
        ]
        # The button of one of the system's ``Experience.occasions``: 1 XP to every member.
        self.occasion = str(self.data.get("occasion") or "")
        if self.occasion:
            # The occasion's button fixes the amount and the party: what is typed there is moot.
            self.fields["amount"].required = self.fields["character"].required = False
            self.fields["reason"].required = False

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        occasion = self.occasion
        if occasion and occasion not in self.occasions:
            raise forms.ValidationError(_("These rules give no XP for that occasion."))
        if occasion:
            for moot in ("amount", "character"):
                self._errors.pop(moot, None)
            said = cleaned.get("reason") or ""
            label = str(self.occasions[occasion])
            cleaned |= {
                "amount": 1,
                "character": ALL,
                "reason": f"{label}: {said}" if said else label,
            }
        return cleaned

    def character_id(self) -> int | None:
        value = self.cleaned_data["character"]
        return None if value == ALL else int(value)


class ExperienceDieForm(forms.Form):
    character = forms.ChoiceField(label=gettext_lazy("To"))
    reason = TextField(
        label=gettext_lazy("For"),
        max_length=REASON_MAX,
        required=False,
        widget=forms.TextInput(attrs={"placeholder": gettext_lazy("e.g. failed to hold the gate")}),
    )

    def __init__(self, *args, characters=(), **kwargs) -> None:
        kwargs.setdefault("auto_id", "die-%s")
        super().__init__(*args, **kwargs)
        self.fields["character"].choices = [(str(c.pk), c.name) for c in characters]
