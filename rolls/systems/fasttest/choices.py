"""The player's choices of a FastTest test as the panel reads them: the attribute, the skills and
traits ticked, the other bonus and penalty dice, experience dice, ignoring wounds, the split of
the extra dice and a spell with its difficulty, each refused in the rule's own words; what the
GM called for (the target, a wound test's dice, a called spell's difficulty) fixed on the form.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rolls.conditions import actions as conditions
from rolls.panels import (
    Name,
    Names,
    PanelForm,
    SourceText,
    WholeNumber,
    WholeNumberOrNone,
    not_on_sheet,
)
from rolls.systems.fasttest import spells
from sheets.systems.fasttest import ATTRIBUTES, FastTestSheet, Trait

MAX_EXTRA = 20  # circumstance dice a player may type in one test


class FastTestChoices(conditions.ConditionChoices, PanelForm):
    """A FastTest test as the player chooses it. What the GM called for is fixed, and so are the
    circumstances on a called test (RULES.md: "circumstances the GM grants", added on the GM's
    card with their sources): the player's own fields stay 0. The player still picks traits,
    experience dice, the split of bonus dice and ignoring wounds; a wound test's dice are the
    rules' own (the new wound counted, the armor as the GM's bonus dice), so there every field
    the player could add with is fixed (anything posted for them is a forged or stale page)."""

    magic_die = Name()
    attribute = Name()
    skill = Names()
    trait = Names()
    bonus_other = WholeNumber(
        0,
        MAX_EXTRA,
        gettext_lazy("%(label)s must be a whole number from 0 to %(max)s."),
        label=gettext_lazy("Other bonus dice"),
        max=MAX_EXTRA,
    )
    penalty_other = WholeNumber(
        0,
        MAX_EXTRA,
        gettext_lazy("%(label)s must be a whole number from 0 to %(max)s."),
        label=gettext_lazy("Other penalty dice"),
        max=MAX_EXTRA,
    )
    experience = WholeNumber(
        0, 0, gettext_lazy("You can spend from 0 to %(n)s experience dice."), n=0
    )
    ignore_wounds = Name()
    extra_d10 = WholeNumberOrNone()
    spell = Name()
    spell_name = SourceText(
        spells.NAME_MAX,
        gettext_lazy("A spell's name is at most %(n)s characters."),
        n=spells.NAME_MAX,
    )
    spell_difficulty = WholeNumber(
        min(spells.DIFFICULTIES),
        max(spells.DIFFICULTIES),
        gettext_lazy("A spell's difficulty is the standard %(easy)s or %(hard)s penalty dice."),
        empty=min(spells.DIFFICULTIES),
        easy=min(spells.DIFFICULTIES),
        hard=max(spells.DIFFICULTIES),
    )
    # The sheet and the campaign's settings as ``read`` finds them, and what the GM fixed.
    sheet: FastTestSheet
    traits: tuple[Trait, ...]
    settings: Mapping[str, Any]
    spell_fixed: bool
    wound_test: bool

    @classmethod
    def read(
        cls, choices, sheet: FastTestSheet, settings, pending=None, in_force=()
    ) -> FastTestChoices:
        """The choices for this sheet; ``pending``'s target and circumstances fixed;
        ``in_force`` the character's conditions (none shape a wound test: its dice are the
        rules' own)."""
        target = (pending or {}).get("target", {})
        wound_test = target.get("wound_test") is True
        fixed = dict(target)
        if pending is not None:
            fixed |= {"bonus_other": 0, "penalty_other": 0}
        if wound_test:
            fixed |= {"trait": [], "experience": 0, "ignore_wounds": "", "spell": ""}
        called_spell = spells.called_difficulty(target)
        if called_spell is not None:
            # The GM called a spell: its difficulty is the GM's, who may make it easier than
            # the standard (the seed: "nawet do 0 kar"); the caster names the spell.
            fixed |= {"spell": "on", "spell_difficulty": called_spell}
        form = cls(choices, fixed=fixed)
        form.settings, form.traits, form.sheet = settings, sheet.traits, sheet
        form.spell_fixed = called_spell is not None
        if form.spell_fixed:
            spell_difficulty = form.field_of("spell_difficulty", WholeNumber)
            spell_difficulty.low, spell_difficulty.high = 0, spells.CALLED_MAX
        form.wound_test = wound_test
        form.in_force = () if wound_test else tuple(in_force)
        experience = form.field_of("experience", WholeNumber)
        if settings["experience_dice"]:
            experience.high = sheet.experience_dice
            experience.params = {"n": experience.high}
        else:
            experience.message = gettext_lazy("Experience dice are off in this campaign.")
        return form

    def clean_attribute(self) -> str:
        if self.cleaned_data["attribute"] not in ATTRIBUTES:
            raise ValidationError(_("Choose the attribute to test."))
        return self.cleaned_data["attribute"]

    def clean_skill(self) -> list[str]:
        posted, names = self.cleaned_data["skill"], list(self.settings["skills"])
        wrong = [not_on_sheet(name) for name in posted if name and name not in names][:1]
        chosen = [name for name in names if name in posted]
        if len(chosen) > 1 and not self.settings["multi_skill"]:
            wrong.append(_("This campaign tests one skill at a time (multi-skill tests are off)."))
        if wrong:
            raise ValidationError(wrong)
        return chosen

    def clean_trait(self) -> list[int]:
        """Traits ticked by index (the panel's checkboxes) or by name (a click on the sheet)."""
        names = {trait.name: index for index, trait in enumerate(self.traits)}
        ticked = set()
        for value in self.cleaned_data["trait"]:
            if value in names:
                ticked.add(names[value])
            try:
                index = int(value)
            except ValueError:
                continue
            if 0 <= index < len(self.traits):
                ticked.add(index)
        return sorted(ticked)

    def clean_ignore_wounds(self) -> bool:
        return self.cleaned_data["ignore_wounds"] == "on"

    def clean_spell(self) -> bool:
        if self.cleaned_data["spell"] != "on":
            return False
        if refusal := spells.refusal(self.sheet, self.settings):
            raise ValidationError(refusal)
        return True

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if cleaned.get("spell") and not cleaned.get("spell_name"):
            self.add_error("spell_name", _("Name the spell, so similar spells can be counted."))
        return cleaned


class FastTestCall(PanelForm):
    """The GM's call as posted (``panel.target_fields``): the attribute and skills as named
    (the panel built on them refuses what the sheet does not hold), and a spell's difficulty
    when the GM calls a spell."""

    attribute = Name()
    skill = Names()
    spell_difficulty = spells.CalledDifficulty()
