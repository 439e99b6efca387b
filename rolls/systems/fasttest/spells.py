"""Casting a spell in FastTest (RULES.md section 1, "Magic"): a normal test on any attribute the
caster marks as a spell, with the spell's difficulty (the standard 2-3 penalty dice) and one more
penalty die for each earlier similar spell of the caster in this session (the uniqueness rule:
"magia nie lubi się powtarzać"), counted from the log. The magic die then follows the roll
(rolls.systems.fasttest.magic_die.magic_follow_ups reads the spell's label).

Similar spells are spells of the same name (letter case and spaces aside): the seed has no list
of spells, so the caster names the spell and the name is what the log can compare. The spells
that count are those the caster's player may see in the log (public ones, and their own secret
ones): the panel lists them by number and name, and a spell the GM rolled hidden stays hidden.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from campaigns.models import GameSession
from rolls import labels
from rolls.labels import words
from rolls.models import Roll, Visibility
from rolls.panels import source
from rolls.systems.fasttest.magic_die import SPELL_LABEL

# The log's words for a spell: its label and its penalty dice.
labels.register(
    words={
        "spell_test": gettext_lazy("Spell “%(name)s”: %(test)s"),
        "spell_difficulty": gettext_lazy("spell difficulty (%(name)s)"),
        "similar_spells": gettext_lazy("similar spells earlier this session (%(seqs)s)"),
    }
)

#: The standard difficulty of a spell a player casts on their own (the seed: "2-3 karne kości");
#: anything easier is the GM's call (the GM's penalty dice on a called test).
DIFFICULTIES = (2, 3)
#: The hardest spell the GM's call sets (harder still: the GM's penalty dice on the card).
CALLED_MAX = 3
NAME_MAX = 60


@dataclass(frozen=True)
class EarlierSpell:
    seq: int
    name: str
    similar: bool


def same_spell(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def spell_name(roll: Roll) -> str | None:
    """The name of the spell ``roll`` cast, None when it was not a spell."""
    data = roll.label_data
    if not (isinstance(data, dict) and data.get("w") == SPELL_LABEL):
        return None
    name = (data.get("a") or {}).get("name")
    return name if isinstance(name, str) else ""


def earlier_spells(character, campaign, name: str) -> list[EarlierSpell]:
    """The caster's spells logged in the open session, oldest first, each marked similar or not."""
    session = GameSession.objects.open_of(campaign.pk)
    if session is None:
        return []
    seen = Q(visibility=Visibility.PUBLIC) | Q(
        visibility=Visibility.SECRET, actor=character.owner_id
    )
    rolls = Roll.objects.filter(
        seen, session=session, character=character, kind="test", label_data__w=SPELL_LABEL
    ).order_by("seq")
    found = []
    for roll in rolls.only("seq", "label_data"):
        cast = spell_name(roll) or ""
        found.append(EarlierSpell(roll.seq, cast, bool(name) and same_spell(cast, name)))
    return found


def spell_sources(name: str, difficulty: int, earlier: list[EarlierSpell]) -> list[dict[str, Any]]:
    """The spell's penalty dice, each with where it comes from (the log shows them)."""
    sources = []
    if difficulty:
        sources.append(source("penalty", difficulty, words("spell_difficulty", name=name)))
    similar = [f"#{spell.seq}" for spell in earlier if spell.similar]
    if similar:
        sources.append(
            source("penalty", len(similar), words("similar_spells", seqs=", ".join(similar)))
        )
    return sources


def spell_label(name: str, test: str | dict[str, Any]) -> dict[str, Any]:
    """The log's label of a spell: what is cast and the test it is cast with."""
    return words(SPELL_LABEL, name=name, test=test)


def refusal(sheet, settings) -> str | None:
    """Why this character cannot cast now, None when they can (RULES.md: a magic trait, and a
    magic die left, in a campaign that plays with magic)."""
    if not settings["magic"]:
        return _("This campaign plays without magic: there are no spells to cast.")
    if not sheet.magic_traits:
        return _("Casting a spell needs a magic trait (Wyróżnik magiczny) on the sheet.")
    if sheet.magic_die is None:
        return _("No magic die is left: no spell until a night's rest brings it back.")
    return None


# --- The GM calls for a spell -------------------------------------------------------------------


def called_difficulty(target: Any) -> int | None:
    """The difficulty of the spell a called test casts, None when the GM did not call a spell."""
    value = target.get("spell_difficulty") if isinstance(target, dict) else None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= CALLED_MAX:
        return None
    return value


def target_fields(sheet, settings) -> list[dict[str, Any]]:
    """The call form's spell field, for a character who can cast."""
    if refusal(sheet, settings) is not None:
        return []
    choices = [("", gettext_lazy("not a spell"))] + [
        (str(n), ngettext("spell, %(n)s penalty die", "spell, %(n)s penalty dice", n) % {"n": n})
        for n in range(CALLED_MAX + 1)
    ]
    return [
        {
            "name": "spell_difficulty",
            "label": _("Spell (Czar): difficulty"),
            "type": "select",
            "choices": choices,
        }
    ]


class CalledDifficulty(forms.Field):
    """The spell difficulty the GM chose on the call form (``target_fields``' field): None for
    a plain test (left empty), else 0 to ``CALLED_MAX`` penalty dice written as digits."""

    def __init__(self) -> None:
        super().__init__(required=False)

    def clean(self, value: Any) -> int | None:
        if value in ("", None):
            return None
        # isdecimal, not isdigit: "²" is a digit that int() refuses.
        if isinstance(value, str) and value.isdecimal() and 0 <= int(value) <= CALLED_MAX:
            return int(value)
        raise ValidationError(
            _("A called spell's difficulty is from 0 to %(max)s penalty dice.")
            % {"max": CALLED_MAX}
        )
