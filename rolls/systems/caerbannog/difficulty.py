"""Caerbannog's difficulty (RULES.md section 4): the seed's named difficulties in each reader's
words (registered for the log and for a called test's target), the select's options with their
numbers, and the player's difficulty field, which takes a name or any whole number from 0 to
MAX_DIFFICULTY."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns import stored_text
from rolls.engine import caerbannog
from rolls.labels import DIFFICULTY_NAMES, WORDS, words

MAX_DIFFICULTY = 20


#: The seed's named difficulties (RULES.md 4) in the reader's words, the Polish name kept: the
#: log's message for each (``difficulty_words``), and the select's option with its number.
DIFFICULTY_WORDS = {
    "łatwy": gettext_lazy("łatwy (easy)"),
    "przeciętny": gettext_lazy("przeciętny (average)"),
    "wymagający": gettext_lazy("wymagający (demanding)"),
    "trudny": gettext_lazy("trudny (hard)"),
}
DIFFICULTY_OPTIONS = {
    "łatwy": gettext_lazy("łatwy (easy, %(n)s)"),
    "przeciętny": gettext_lazy("przeciętny (average, %(n)s)"),
    "wymagający": gettext_lazy("wymagający (demanding, %(n)s)"),
    "trudny": gettext_lazy("trudny (hard, %(n)s)"),
}
WORDS.update({f"caerbannog_difficulty:{name}": text for name, text in DIFFICULTY_WORDS.items()})
# A called test's target holds the bare name, and so do the sources of the tests logged before
# these words: both read in the reader's words too.
DIFFICULTY_NAMES.update(DIFFICULTY_WORDS)
stored_text.register(*DIFFICULTY_WORDS.values())


def difficulty_words(name: str) -> dict[str, Any]:
    """A named difficulty as the log stores it: in each reader's words."""
    return words(f"caerbannog_difficulty:{name}")


def difficulty_option(name: str) -> str:
    """A named difficulty as a select offers it: "przeciętny (average, 3)"."""
    return str(DIFFICULTY_OPTIONS[name]) % {"n": caerbannog.DIFFICULTIES[name]}


class DifficultyField(forms.Field):
    """The difficulty and its name: a named one, or any whole number from 0 to MAX_DIFFICULTY
    (the GM's own number, set on the card, stands as it is)."""

    def __init__(self):
        super().__init__(required=False)
        self.gms = False

    def clean(self, value: Any) -> tuple[int, str | dict]:
        if self.gms:
            return value, _difficulty_name(value)
        raw = str(value or "").strip() or "przeciętny"
        if raw in caerbannog.DIFFICULTIES:
            return caerbannog.DIFFICULTIES[raw], difficulty_words(raw)
        try:
            number = int(raw)
        except ValueError:
            number = None
        if number is None or not 0 <= number <= MAX_DIFFICULTY:
            names = ", ".join(difficulty_option(name) for name in caerbannog.DIFFICULTIES)
            raise ValidationError(
                _("Choose a difficulty (%(names)s) or a whole number from 0 to %(max)s.")
                % {"names": names, "max": MAX_DIFFICULTY}
            )
        return number, _difficulty_name(number)


def _difficulty_name(value: int) -> dict:
    for name, number in caerbannog.DIFFICULTIES.items():
        if number == value:
            return difficulty_words(name)
    return words("set_by_number")


def difficulty_choices(current: int) -> list[tuple[str, str, bool]]:
    """The select's options: every number from 0 to the maximum, the named ones by name (and the
    GM's difficulty when it is set above the maximum)."""
    named = {number: name for name, number in caerbannog.DIFFICULTIES.items()}
    options = []
    for number in range(max(MAX_DIFFICULTY, current) + 1):
        if number in named:
            options.append((named[number], difficulty_option(named[number]), number == current))
        elif number <= MAX_DIFFICULTY or number == current:
            options.append((str(number), str(number), number == current))
    return options
