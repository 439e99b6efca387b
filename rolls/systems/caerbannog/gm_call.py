"""The GM's side of a Caerbannog test (RULES.md section 4): what the GM may change on a called
test and the ranges of those numbers, the GM's part of a called test as the panel reads it, the
"call for a test" form's fields, and the call as posted read into a target (what is tested in
order, the form of a combined test, the difficulty). The panel checks the rest of a target by
building on it (``panel.target_from_post``)."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.text import TextField
from rolls.engine import caerbannog
from rolls.panels import Limit, Names, PanelForm
from rolls.systems.caerbannog import rozmach
from rolls.systems.caerbannog.choices import (
    ADDED,
    COMBINED,
    MAX_MODIFIER,
    PLACES,
    distinct,
    is_int,
    testable_defences,
    testable_skills,
)
from rolls.systems.caerbannog.difficulty import MAX_DIFFICULTY, difficulty_option
from sheets.templatetags.sheet_tags import roman

#: What the GM may change on a pending Caerbannog test (see rolls.pending.actions.OPERATIONS).
GM_CONTROLS = (
    "difficulty",
    "easing",
    "hindering",
    "modifier",
    "surprise",
    "forced",
    "heroic_other",
)
#: Easing or hindering factors the GM sets on one called test.
GM_FACTORS = 10
#: The GM's numbers and their ranges: the difficulty as the call form lists it (never below 0,
#: RULES.md section 4), the factors, a fixed modifier as the player's own field takes it.
GM_LIMITS = {
    "difficulty": Limit(
        0,
        MAX_DIFFICULTY,
        gettext_lazy(
            "A Caerbannog difficulty is a whole number from %(low)s to %(high)s "
            "(łatwy 2, przeciętny 3, wymagający 4, trudny 5)."
        ),
    ),
    "easing": Limit(
        0, GM_FACTORS, gettext_lazy("Easing factors are a whole number from %(low)s to %(high)s.")
    ),
    "hindering": Limit(
        0,
        GM_FACTORS,
        gettext_lazy("Hindering factors are a whole number from %(low)s to %(high)s."),
    ),
    "modifier": Limit(
        -MAX_MODIFIER,
        MAX_MODIFIER,
        gettext_lazy("A fixed modifier is a whole number from -%(high)s to %(high)s, not 0."),
        nonzero=True,
    ),
}


def gm_modifiers(modifiers: dict[str, Any]) -> dict[str, Any]:
    """The GM's part of a called test, read defensively (the operations checked it on the way
    in): the difficulty or None, the factor counts and the fixed modifiers with their sources."""
    difficulty = modifiers.get("difficulty")
    surprise = modifiers.get("surprise") or ""
    entries = [
        {"amount": entry["amount"], "source": str(entry.get("source", ""))}
        for entry in modifiers.get("dice", [])
        if isinstance(entry, dict)
        and entry.get("kind") == "modifier"
        and is_int(entry.get("amount"))
        and entry["amount"]
    ]
    return {
        "difficulty": difficulty if is_int(difficulty) and difficulty >= 0 else None,
        "easing": _gm_count(modifiers.get("easing")),
        "hindering": _gm_count(modifiers.get("hindering")),
        "entries": entries,
        "surprise": surprise if surprise in rozmach.SURPRISE_LABELS else "",
    }


def _gm_count(value: Any) -> int:
    return value if is_int(value) and value > 0 else 0


#: The sheet's numbers the GM may name as the other resource heroic effort is paid with
#: (RULES.md 4.12: "where the resource is a number on the sheet (Kapitał Społeczny) that much
#: is taken off"), each with the names a GM may type for it (diacritics and case aside).
#: **Decision**: the sheet's resources (Zasoby) but PD and Rozmach: PD are spent at Rest, and
#: Rozmach is spent by its own rules (a boost, a reaction, a re-roll's cost).
OTHER_ON_SHEET = {
    "kapital_spoleczny": ("kapitał społeczny", "social capital"),
    "zywotnosc": ("żywotność", "vitality"),
    "zdrowie": ("zdrowie", "health"),
    "wytrzymalosc": ("wytrzymałość", "endurance"),
    "determinacja": ("determinacja", "determination"),
}
#: The most of a sheet's number heroic effort may cost (the sheet holds at most 99).
OTHER_PRICE_MAX = 99


@dataclass(frozen=True)
class HeroicOther:
    """The other resource the GM allowed heroic effort to be paid with on a called test, as the
    GM named it and its price; ``resource`` is the sheet's key when it is a number on the sheet,
    and ``amount`` then the whole number taken off it."""

    name: str
    price: str
    resource: str = ""
    amount: int = 0

    @property
    def on_sheet(self) -> bool:
        return bool(self.resource)

    def as_words(self) -> dict[str, Any]:
        return {"name": self.name, "price": self.price}


def _plain(text: str) -> str:
    """``text`` as names are compared: lower case, without diacritics, single spaces."""
    text = text.casefold().replace("ł", "l").replace("_", " ")
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return " ".join(text.split())


_NAMES = {_plain(name): key for key, names in OTHER_ON_SHEET.items() for name in (key, *names)}


def sheet_resource(name: str) -> str:
    """The sheet's key of the resource ``name`` names ("Kapitał Społeczny", "kapital
    spoleczny", "Kapitał Społeczny (social capital)"), or "" when it names none of them."""
    plain = _plain(name)
    return _NAMES.get(plain) or _NAMES.get(plain.partition("(")[0].strip(), "")


def heroic_other(modifiers: Any) -> tuple[HeroicOther | None, str]:
    """The other resource the GM allowed on a called test (its ``modifiers``), read
    defensively, and why it cannot be paid ("" when it can): a number on the sheet needs its
    price as a whole number, the amount taken off."""
    allowed = modifiers.get("heroic_other") if isinstance(modifiers, dict) else None
    if not isinstance(allowed, dict):
        return None, ""
    name, price = allowed.get("name"), allowed.get("price")
    if not (isinstance(name, str) and isinstance(price, str) and name and price):
        return None, ""
    resource = sheet_resource(name)
    if not resource:
        return HeroicOther(name, price), ""
    amount = int(price) if price.isascii() and price.isdigit() else 0
    if not 1 <= amount <= OTHER_PRICE_MAX:
        return None, _(
            "%(name)s is a number on the sheet: give its price as a whole number from 1 to "
            "%(max)s (e.g. 2), the amount heroic effort then takes off the sheet."
        ) % {"name": name, "max": OTHER_PRICE_MAX}
    return HeroicOther(name, price, resource, amount), ""


def target_fields(character, campaign) -> list[dict[str, Any]]:
    """The fields of the GM's "call for a test" form: what is tested in order (a skill or a
    defence in each place, the first the main one, the others for a combined test), the form of
    a combined test and the difficulty (przeciętny first: the default)."""
    skills = testable_skills(character.data)
    defences = testable_defences(character.data)
    names = list(caerbannog.DIFFICULTIES)
    names.remove("przeciętny")
    difficulties = [("przeciętny", difficulty_option("przeciętny"))]
    difficulties += [(name, difficulty_option(name)) for name in names]
    difficulties += [(str(n), str(n)) for n in range(MAX_DIFFICULTY + 1)]
    tested = [
        (f"skill:{name}", f"{name} {roman(row['level'])} (d{row['die']})")
        for name, row in skills.items()
    ] + [
        (f"defence:{name}", _("%(name)s %(level)s (d%(die)s, defence)")
         % {"name": name, "level": roman(row["level"]), "die": row["die"]})
        for name, row in defences.items()
    ]  # fmt: skip
    places = [
        {
            "name": "tested",
            "label": _("Tested (the main one; a skill or a defence)"),
            "type": "select",
            "choices": tested,
        }
    ] + [
        {
            "name": name,
            "label": _("Combined with, place %(place)s") % {"place": index},
            "type": "select",
            "choices": [("", _("none"))] + tested,
        }
        for index, name in enumerate(PLACES[1:], start=2)
    ]
    return places + [
        {
            "name": "form",
            "label": _("Form of a combined test"),
            "type": "select",
            "choices": [
                (COMBINED, _("Combined (test łączony)")),
                (ADDED, _("With others added (z dodatkiem)")),
            ],
        },
        {
            "name": "difficulty",
            "label": _("Difficulty (Trudność)"),
            "type": "select",
            "choices": difficulties,
        },
    ]


class Choice(TextField):
    """One select of the call as posted, without surrounding spaces; "" when left empty."""

    def __init__(self) -> None:
        super().__init__(required=False)


@dataclass(frozen=True)
class Tested:
    """One thing a call tests, as a place of the form posts it: ``kind:name`` ("skill:Walka",
    "defence:Unik")."""

    token: str

    @property
    def kind(self) -> str:
        return self.token.partition(":")[0]

    @property
    def name(self) -> str:
        return self.token.partition(":")[2]


class CallForm(PanelForm):
    """The GM's call as posted, for ``character``: what is tested, in its places (``tested``,
    ``tested_2``..., each ``skill:name`` or ``defence:name``), or as plain lists of skills and a
    defence (a call made by a link or a script, in the order posted); the form and the
    difficulty. Valid when the sheet holds what is tested; ``target`` is the call as read
    either way, and the panel built on it checks the rest (``panel.target_from_post``)."""

    skill = Names()
    defence = Names()
    tested = Choice()
    tested_2 = Choice()
    tested_3 = Choice()
    tested_4 = Choice()
    form = Choice()
    difficulty = Choice()

    def __init__(self, choices=None, *, character=None, **kwargs) -> None:
        super().__init__(choices, **kwargs)
        data = character.data if character is not None else {}
        self.held = {"skill": testable_skills(data), "defence": testable_defences(data)}
        self.target: dict[str, Any] = {}

    def clean_form(self) -> str:
        return self.cleaned_data["form"] or COMBINED

    def clean_difficulty(self) -> str:
        return self.cleaned_data["difficulty"] or "przeciętny"

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        tested = self._tested(cleaned)
        held = [t for t in tested if t.name in self.held.get(t.kind, ())]
        self.target = {
            "skill": [t.name for t in held if t.kind == "skill"],
            "defence": [t.name for t in held if t.kind == "defence"],
            "order": [t.token for t in held],
            "form": cleaned.get("form", ""),
            "difficulty": cleaned.get("difficulty", ""),
        }
        for refusal in self._refusals(tested, held):
            self.add_error(None, refusal)
        return cleaned

    def _tested(self, cleaned: dict[str, Any]) -> list[Tested]:
        """What the call tests, each once, in order: its places, else the plain lists."""
        tokens = distinct([cleaned.get(name, "") for name in PLACES])
        if not tokens:
            tokens = [f"skill:{name}" for name in distinct(cleaned.get("skill", []))]
            tokens += [f"defence:{name}" for name in distinct(cleaned.get("defence", []))]
        return [Tested(token) for token in tokens]

    def _refusals(self, tested: list[Tested], held: list[Tested]) -> list[str]:
        """What the sheet refuses of the call: what it does not hold (the skills together, the
        first defence), a form of test there is not, nothing to test."""
        unknown = [t for t in tested if t not in held]
        refusals = []
        if skills := [t.name or t.kind for t in unknown if t.kind != "defence"]:
            names = ", ".join(skills)[:200]
            refusals.append(_("Not a skill on this sheet: %(names)s.") % {"names": names})
        if defences := [t.name for t in unknown if t.kind == "defence"]:
            name = defences[0][:60]
            refusals.append(_("Not a defence on this sheet: %(name)s.") % {"name": name})
        if self.target["form"] not in (COMBINED, ADDED):
            refusals.append(_("Choose the form of the test: combined, or with others added."))
        if not tested:
            refusals.append(_("Choose a skill (several for a combined test) or a defence to test."))
        return refusals


def called_target(post, character, prefix: str = "") -> tuple[dict[str, Any], list[str]]:
    """The target the GM chose as posted (its fields under ``prefix``), and the messages saying
    what is wrong with it that the sheet tells (``CallForm``); ``panel.target_from_post`` then
    checks it against the panel built on it."""
    called = CallForm(post, character=character, prefix=prefix)
    if called.is_valid():
        return called.target, []
    return called.target, [
        str(message) for messages in called.errors.values() for message in messages
    ]
