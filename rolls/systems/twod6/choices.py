"""The player's choices of a 2d6 test as the panel reads them: the typed fields (a whole number
as the sheet takes it, a modifier's source), the form with each category's free modifiers, the
helpers, the difficulty and the cap raise, and the bounds it holds them to, which the panel, the
GM's limits and the NPC test share (why these bounds: ``rolls.systems.twod6.panel``'s decisions).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.text import text_problem
from rolls.conditions import actions as conditions
from rolls.engine import twod6
from rolls.panels import Name, Names, PanelForm
from sheets.systems.named_lists import NAME_MAX, check_int
from sheets.systems.twod6 import CATEGORY_LABELS

MAX_FREE = 5  # free modifiers a player may type per category
DEFAULT_DIFFICULTY = 15
DIFFICULTY_MIN, DIFFICULTY_MAX = 1, 60  # 10 + 10 + 4 × 5 + 12 = 52 is the best total a sheet allows
MAX_CAP_RAISE = 10


class _Number(forms.Field):
    """A whole number as the sheet's fields take it (``check_int``: a typed minus sign too),
    ``default`` when blank; ``say(message)`` puts the rule's message in the field's words. A
    typed modifier is read from its first 12 characters (``clip``), as its row shows it."""

    def __init__(self, lo, hi, default: int | None, say: Callable[[str], str], clip=False):
        super().__init__(required=False)
        self.lo, self.hi, self.default, self.say, self.clip = lo, hi, default, say, clip

    def clean(self, value: Any) -> int | None:
        raw = str("" if value is None else value).strip()
        raw = raw[:12] if self.clip else raw
        if raw == "":
            return self.default
        number, message = check_int(raw, self.lo, self.hi)
        if message:
            raise ValidationError(self.say(message))
        return number


class _SourceOfRow(forms.Field):
    """Where a typed modifier comes from: any text but what the one text rule refuses."""

    def __init__(self):
        super().__init__(required=False)

    def clean(self, value: Any) -> str:
        text = "" if value is None else str(value)
        if problem := text_problem(text):
            raise ValidationError(problem)
        return clean_text(text)


def _labelled(label: Any) -> Callable[[str], str]:
    return lambda message: f"{label}: {message}"


def _modifier_of(category: str, index: int) -> Callable[[str], str]:
    def say(message: str) -> str:
        return _("%(category)s, modifier %(n)s: %(message)s") % {
            "category": CATEGORY_LABELS[category],
            "n": index + 1,
            "message": message,
        }

    return say


def _free_fields() -> dict[str, forms.Field]:
    """Up to MAX_FREE typed modifiers per category (``mod-<category>-<n>-value`` and
    ``-source``), then helpers, the difficulty and the cap raise with its source."""
    fields: dict[str, forms.Field] = {}
    for category in twod6.CATEGORIES:
        for index in range(MAX_FREE):
            say = _modifier_of(category, index)
            limit = twod6.MOD_LIMIT
            fields[f"mod-{category}-{index}-value"] = _Number(-limit, limit, None, say, clip=True)
            fields[f"mod-{category}-{index}-source"] = _SourceOfRow()
    return fields | {
        "helpers": _Number(0, twod6.MAX_HELPERS, 0, _labelled(gettext_lazy("Helpers"))),
        "difficulty": _Number(
            DIFFICULTY_MIN,
            DIFFICULTY_MAX,
            DEFAULT_DIFFICULTY,
            _labelled(gettext_lazy("The difficulty")),
        ),
        "cap_raise": _Number(0, MAX_CAP_RAISE, 0, _labelled(gettext_lazy("The cap raise"))),
        "cap_source": Name(),
    }


class _TwoD6Test(conditions.ConditionChoices, PanelForm):
    attribute = Name()
    skill = Name()
    specialisation = Name()
    advantage = Names()
    #: Characters of the table helping in a joint test, named in the log (each counts as one).
    helper = Names()
    #: Who may be named: the other characters of the table (``build`` sets them).
    table: tuple[str, ...] | list[str] = ()

    # The sheet's, as ``read`` finds them.
    attributes: dict[str, int]
    skills: dict[str, int]
    specialisations: list[dict[str, Any]]

    @classmethod
    def read(cls, choices, sheet: Mapping[str, Any], pending=None, gm_difficulty=None):
        """The choices for this sheet; ``pending``'s target and the GM's fields fixed."""
        target = (pending or {}).get("target") or {}
        fixed = dict(target)
        if pending is not None:
            fixed |= {name: "" for name in cls.base_fields if name.startswith("mod-")}
            # The helpers the GM named on the call, fixed as the rest (none when none named).
            helper = target.get("helper")
            named = [str(n) for n in helper] if isinstance(helper, list) else []
            fixed |= {"helpers": 0, "helper": named, "cap_raise": 0, "cap_source": ""}
            difficulty = target.get("difficulty", str(DEFAULT_DIFFICULTY))
            fixed["difficulty"] = difficulty if gm_difficulty is None else gm_difficulty
        form = cls(choices, fixed=fixed)
        form.attributes = {row["name"]: row["value"] for row in sheet["attributes"]}
        form.skills = {row["name"]: row["value"] for row in sheet["skills"]}
        form.specialisations = sheet["specialisations"]
        return form

    def clean_attribute(self) -> str:
        if self.cleaned_data["attribute"] not in self.attributes:
            raise ValidationError(
                _("Choose the attribute to test.")
                if self.attributes
                else _("This sheet has no attributes yet; add them on the sheet first.")
            )
        return self.cleaned_data["attribute"]

    def clean_skill(self) -> str:
        skill = self.cleaned_data["skill"]
        if skill and skill not in self.skills:
            raise ValidationError(_("Choose one of the skills on this sheet."))
        return skill

    def clean_specialisation(self) -> str:
        """Only one of the chosen skill counts: one posted for another skill (left over from
        switching skills) is ignored."""
        name = self.cleaned_data["specialisation"]
        return name if name in self.skill_specialisations() else ""

    def skill_specialisations(self) -> list[str]:
        skill = self.cleaned_data.get("skill", "")
        return [s["name"] for s in self.specialisations if s["skill"] == skill]

    def clean_helper(self) -> list[str]:
        named = list(dict.fromkeys(self.cleaned_data["helper"]))
        if any(name not in self.table for name in named):
            raise ValidationError(_("A named helper must be another character of this table."))
        return named

    def clean(self):
        super().clean()
        data = self.cleaned_data
        helpers = (data.get("helpers") or 0) + len(data.get("helper") or [])
        if "helpers" in data and helpers > twod6.MAX_HELPERS:
            self.add_error(
                "helpers",
                _("A joint test takes at most %(n)s helpers, named ones included.")
                % {"n": twod6.MAX_HELPERS},
            )
        return data

    def clean_cap_source(self) -> str:
        return clean_text(self.cleaned_data["cap_source"])


#: A 2d6 test as the player chooses it. On a called test every typed modifier is the GM's, as
#: are helpers, the cap raise and the difficulty: disabled fields, so the player's own stay empty
#: whatever is posted. The GM adds modifiers with their sources on the card
#: (``add_category_modifier``).
TwoD6Choices: type[_TwoD6Test] = type("TwoD6Choices", (_TwoD6Test,), _free_fields())


def clean_text(raw: str) -> str:
    """A short single line as typed, spaces collapsed, at most NAME_MAX; control characters are
    dropped from what is shown again (the panel refuses them with ``text_problem``)."""
    text = " ".join(raw.split())
    return "".join(c for c in text if unicodedata.category(c) != "Cc")[:NAME_MAX]
