"""What a Caerbannog test names and how the player's choices are read (RULES.md section 4):
the choices form (skills and defences in the order named, the first the main one; the form of
a combined test, the difficulty, factors and a fixed modifier; on a called test the GM's target
and numbers fixed), the helpers that keep that order, and the sheet's skills and defences a test
may name, each with its die."""

from __future__ import annotations

from typing import Any, TypeGuard

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.text import text_problem
from rolls.conditions import actions as conditions
from rolls.panels import Name, Names, PanelForm, WholeNumber, not_on_sheet
from rolls.systems.caerbannog.difficulty import DifficultyField
from sheets.systems.caerbannog import DEFENCE_NAMES, defence_groups, skill_groups
from sheets.systems.caerbannog import view as read_sheet

MAX_FACTORS = 20  # easing or hindering factors a player may count in one test
MAX_MODIFIER = 20
SOURCE_MAX = 60
COMBINED, ADDED = "combined", "added"
#: The GM's call form names what is tested in ordered places, the first the main one; the
#: fourth is the one "above the third" that adds a die (RULES.md 8).
PLACES = ("tested", "tested_2", "tested_3", "tested_4")


def _factors(label: Any) -> WholeNumber:
    message = gettext_lazy("%(label)s must be a whole number from 0 to %(max)s.")
    return WholeNumber(0, MAX_FACTORS, message, label=label, max=MAX_FACTORS)


class CaerbannogChoices(conditions.ConditionChoices, PanelForm):
    """A Caerbannog test as the player chooses it: skills and defences in the order named (the
    first is the main one), the form of a combined test, the difficulty, factors and a fixed
    modifier. On a called test what is tested, its order, the form and the difficulty are the
    GM's target, and the factors and fixed modifiers the GM's (the card's controls): whatever is
    posted for them, the player's own stay 0 and the GM's values stand.

    ``order`` lists what is tested as ``kind:name`` tokens (``skill:Jazda``, ``defence:Unik``: a
    skill may share a defence's name); one ticked but not in it joins last, as posted. ``main``
    names the skill that goes first (a link's way of saying it), ``up`` and ``down`` a token
    that moves one place (the panel's buttons)."""

    skill = Names()
    defence = Names()
    order = Names()
    main = Name()
    up = Name()
    down = Name()
    # The GM's call form's places (PLACES), for a target or a post in its shape.
    tested = Name()
    tested_2 = Name()
    tested_3 = Name()
    tested_4 = Name()
    form = Name()
    difficulty = DifficultyField()
    easing = _factors(gettext_lazy("Easing factors"))
    hindering = _factors(gettext_lazy("Hindering factors"))
    modifier = WholeNumber(
        -MAX_MODIFIER,
        MAX_MODIFIER,
        gettext_lazy("The modifier must be a whole number from −%(max)s to %(max)s."),
        max=MAX_MODIFIER,
    )
    modifier_source = Name()
    #: A reaction from the GM's Reaction-cost table, paid in Rozmach before the dice; ``forced``
    #: when the GM forces the spending on a called test (what the pool lacks costs Determinacja).
    reaction = Name()
    forced = forms.BooleanField(required=False)

    # What the sheet may test, as ``read`` finds it.
    skills: dict[str, dict[str, Any]]
    defences: dict[str, dict[str, Any]]

    @classmethod
    def read(cls, choices, data: dict, pending=None, gm_difficulty=None) -> CaerbannogChoices:
        """The choices for this sheet; ``pending``'s target and the GM's numbers fixed."""
        target = (pending or {}).get("target") or {}
        fixed = dict(target)
        if calls_tested(target):
            # What the GM named, in the GM's order, stands: nothing posted adds to it or moves it.
            fixed |= {name: target.get(name, []) for name in ("skill", "defence", "order")}
            fixed |= {name: target.get(name, "") for name in PLACES}
            fixed |= {"main": "", "up": "", "down": ""}
        if pending is not None:
            fixed |= {"easing": 0, "hindering": 0, "modifier": 0, "modifier_source": ""}
            fixed["form"] = target.get("form", COMBINED)
            fixed["difficulty"] = target.get("difficulty", "przeciętny")
            fixed["forced"] = (pending.get("modifiers") or {}).get("forced") is True
            if gm_difficulty is not None:
                fixed["difficulty"] = gm_difficulty
        else:
            # Forcing a spending is the rules' or the GM's, never the player's own choice
            # (RULES.md 4.12): the GM sets it on a called test; an own test is never forced.
            fixed["forced"] = False
        form = cls(choices, fixed=fixed)
        form.skills, form.defences = testable_skills(data), testable_defences(data)
        form.field_of("difficulty", DifficultyField).gms = gm_difficulty is not None
        return form

    def chosen_skills(self) -> list[str]:
        """The skills ticked that the sheet holds, in the order posted."""
        return [name for name in distinct(self.raw("skill")) if name in self.skills]

    def chosen_defences(self) -> list[str]:
        return [name for name in distinct(self.raw("defence")) if name in self.defences]

    def in_order(self) -> list[dict]:
        """What is tested, in the order named (the first is the main one), each with its
        ``kind`` and ``token``; a name the sheet does not hold is left out (refused below)."""
        held = {"skill": self.skills, "defence": self.defences}
        rows = {f"skill:{name}": ("skill", self.skills[name]) for name in self.chosen_skills()}
        rows |= {f"defence:{n}": ("defence", self.defences[n]) for n in self.chosen_defences()}
        places = self.places()
        for token in places:
            kind, _sep, name = token.partition(":")
            if name in held.get(kind, {}):
                rows.setdefault(token, (kind, held[kind][name]))
        tokens = ordered(list(rows), places + distinct(self.raw("order")))
        main = f"skill:{self.raw('main') or ''}"
        if main in rows:
            tokens = [main] + [token for token in tokens if token != main]
        tokens = moved(tokens, str(self.raw("up") or ""), -1)
        tokens = moved(tokens, str(self.raw("down") or ""), 1)
        return [{**rows[t][1], "kind": rows[t][0], "token": t} for t in tokens]

    def places(self) -> list[str]:
        """The call form's places filled (``skill:name`` or ``defence:name``), in order."""
        return distinct([str(self.raw(name) or "").strip() for name in PLACES])

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        held = {"skill": self.skills, "defence": self.defences}
        for token in self.places():
            kind, _sep, name = token.partition(":")
            if name not in held.get(kind, {}):
                self.add_error(None, not_on_sheet(name or token))
                break
        return cleaned

    def clean_skill(self) -> list[str]:
        for name in [n for n in self.cleaned_data["skill"] if n and n not in self.skills][:1]:
            raise ValidationError(not_on_sheet(name))
        return self.chosen_skills()

    def clean_defence(self) -> list[str]:
        posted = self.cleaned_data["defence"]
        for name in [n for n in posted if n and n not in DEFENCE_NAMES][:1]:
            raise ValidationError(not_on_sheet(name))
        return self.chosen_defences()

    def clean_form(self) -> str:
        form = self.cleaned_data["form"] or COMBINED
        return form if form in (COMBINED, ADDED) else COMBINED

    def clean_modifier_source(self) -> str:
        said = self.cleaned_data["modifier_source"].strip()
        if len(said) > SOURCE_MAX:
            raise ValidationError(
                _("Keep where the modifier comes from to %(max)s characters.") % {"max": SOURCE_MAX}
            )
        if problem := text_problem(said):
            raise ValidationError(problem)
        return said


def distinct(values: Any) -> list[str]:
    """Posted names once each, in the order posted."""
    values = values if isinstance(values, (list, tuple)) else [values]
    return list(dict.fromkeys(str(value) for value in values if value))


def ordered(tokens: list[str], order: list[str]) -> list[str]:
    """``tokens`` in ``order`` (where first named); one it does not name comes after, as it
    was."""
    rank: dict[str, int] = {}
    for index, token in enumerate(order):
        rank.setdefault(token, index)
    return sorted(tokens, key=lambda token: rank.get(token, len(order)))


def calls_tested(target: dict[str, Any]) -> bool:
    """Whether a test's target names what is tested (the GM's call), in any of its shapes."""
    return any(target.get(name) for name in ("skill", "defence", "order", *PLACES))


def moved(tokens: list[str], token: str, step: int) -> list[str]:
    """``tokens`` with ``token`` moved ``step`` places (not past either end)."""
    if token not in tokens:
        return tokens
    index = tokens.index(token)
    rest = tokens[:index] + tokens[index + 1 :]
    place = max(0, min(len(rest), index + step))
    return rest[:place] + [token] + rest[place:]


# --- Reading the sheet ---------------------------------------------------------------------------


def testable_groups(data: dict) -> list[dict]:
    """The sheet's skill groups, each skill with a known die (a broken level is left out)."""
    groups = []
    for group in skill_groups(data):
        bonus = group["bonus"] if is_int(group["bonus"]) else 0
        rows = [
            {
                "name": row["name"],
                "level": row["level"],
                "die": row["die"],
                "category": group["key"],
                "category_label": str(group["label"]),
                "bonus": bonus,
            }
            for row in group["skills"]
            if row["die"] is not None and row["name"]
        ]
        groups.append({"key": group["key"], "label": group["label"], "bonus": bonus,
                       "skills": rows})  # fmt: skip
    return groups


def testable_skills(data: dict) -> dict[str, dict]:
    """Every testable skill by name, in sheet order."""
    return {row["name"]: row for group in testable_groups(data) for row in group["skills"]}


def testable_defences(data: dict) -> dict[str, dict]:
    return {
        row["name"]: row
        for group in defence_groups(data)
        for row in group["defences"]
        if row["die"] is not None
    }


def rozmach_pool(data: dict) -> int:
    return read_sheet(data).rozmach


def is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
