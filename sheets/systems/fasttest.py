"""The FastTest sheet (RULES.md section 1: "Character sheet", "Magic", "Development").

Shape of ``Character.data``::

    {"attributes": {"BUDOWA": 7, "ZRĘCZNOŚĆ": 5, "UMYSŁ": 4, "DUCH": 4},
     "skills": {"WALKA": 2, ...},                 # the campaign's six names
     "traits": [{"name": "Rycerz", "level": 2, "magic": false}, ...],   # first = concept
     "flaw": "chciwy" | null,
     "wounds": [{"label": "cut", "severity": "light", "bandaged": false}],
     "armor": 1, "magic_die": 10 | null, "xp": 0, "experience_dice": 0}

Creation applies the seed's rules. Afterwards (the decision of this module, shown on the sheet):
attributes, skills and traits are changed by the GM only, or by the owner through development
(a new trait or +1 level for XP); the owner keeps armor, the magic die and wounds up to date, and
XP and experience dice are given by the GM. After creation the bounds widen where the seed's own
examples go beyond the creation ranges (BUDOWA 8, BUDOWA 2): attributes 1..10, trait levels
1..10. Those bounds, and ``validate`` that holds a sheet to them, are in
``sheets.systems.fasttest_checks``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns import stored_text
from campaigns.system_settings import system_settings
from campaigns.systems import SheetView
from rolls.engine import fasttest_combat
from rolls.engine.fasttest_sheet import MAGIC_DICE, development_cost
from sheets.systems import Section, Total
from sheets.systems.checks import is_int, number
from sheets.systems.fasttest_checks import (
    ARMOR_RANGE,
    ATTRIBUTE_SUM,
    ATTRIBUTES,
    SEVERITIES,
    SKILL_SUM,
    TRAIT_POINTS,
    TRAIT_POINTS_WITH_FLAW,
    starting_die,
)
from sheets.systems.fasttest_checks import validate as validate
from sheets.systems.sheet_forms import Number, RowForm, SheetForm, Ticked, Typed, read_rows

FORM_TEMPLATE = "sheets/fasttest/form.html"
SHEET_TEMPLATE = "sheets/fasttest/sheet.html"

#: The labels of the wounds the app adds itself (rolls.systems.fasttest.wounds), written in the
#: language of the request that adds them: a label is text on the sheet, which its player may
#: change, so each reader reads the app's own in theirs (``wound_label``).
COMBAT_WOUND = gettext_lazy("combat, #%(seq)s")
IGNORED_WOUNDS = gettext_lazy("wounds ignored, #%(seq)s")
stored_text.register(COMBAT_WOUND, IGNORED_WOUNDS)

SEVERITY_LABELS = {
    fasttest_combat.SCRATCH: gettext_lazy("Draśnięcie (scratch)"),
    fasttest_combat.LIGHT: gettext_lazy("Lekka (light)"),
    fasttest_combat.HEAVY: gettext_lazy("Ciężka (heavy)"),
    fasttest_combat.DEADLY: gettext_lazy("Śmiertelna (deadly)"),
}
#: The engine's attribute keys, for the wound penalty of a test on each attribute.
ENGINE_ATTRIBUTES = dict(zip(ATTRIBUTES, fasttest_combat.ATTRIBUTES, strict=True))

#: The whole numbers play changes on the sheet (a roll spends or gains them), by key, named for
#: the reader (a strike gives them back: rolls.strikes).
NUMBER_LABELS = {
    "magic_die": gettext_lazy("Magic die (Kość magii)"),
    "experience_dice": gettext_lazy("Experience dice"),
    "xp": gettext_lazy("XP"),
}

SECTIONS = (
    Section(
        "attributes",
        gettext_lazy("Attributes (Cechy)"),
        "sheets/fasttest/_attributes.html",
        ("attributes",),
        gm_only=True,
        refreshes=("magic",),
    ),
    Section(
        "skills",
        gettext_lazy("Skills (Umiejętności)"),
        "sheets/fasttest/_skills.html",
        ("skills",),
        gm_only=True,
    ),
    Section(
        "traits",
        gettext_lazy("Traits (Wyróżniki)"),
        "sheets/fasttest/_traits.html",
        ("traits", "flaw"),
        gm_only=True,
        refreshes=("magic", "experience"),
    ),
    Section(
        "wounds",
        gettext_lazy("Wounds (Rany)"),
        "sheets/fasttest/_wounds.html",
        refreshes=("attributes",),
    ),
    Section("armor", gettext_lazy("Armor (Pancerz)"), "sheets/fasttest/_armor.html", ("armor",)),
    Section(
        "magic",
        gettext_lazy("Magic die (Kość magii)"),
        "sheets/fasttest/_magic.html",
        ("magic_die",),
        setting="magic",
    ),
    Section(
        "experience",
        gettext_lazy("Experience (Doświadczenie)"),
        "sheets/fasttest/_experience.html",
        ("xp", "experience_dice"),
        gm_only=True,
        refreshes=("traits", "magic"),  # development raises traits, possibly magic ones
    ),
)


@dataclass(frozen=True, slots=True)
class Trait:
    """One trait (Wyróżnik) of the sheet: its name, level and whether it is magic."""

    name: str
    level: int
    magic: bool = False


class FastTestSheet(SheetView):
    """The FastTest sheet read through its schema (the shape in this module's docstring)."""

    __slots__ = ()

    @property
    def attributes(self) -> dict[str, Any]:
        """{attribute: value}, the four attributes (a missing one reads None from ``get``)."""
        return self._mapping("attributes")

    def attribute(self, name: str) -> Any:
        return self.attributes.get(name)

    @property
    def skills(self) -> dict[str, Any]:
        return self._mapping("skills")

    def skill(self, name: str) -> Any:
        """A skill's level; one the sheet does not list is 0."""
        return self.skills.get(name, 0)

    @property
    def traits(self) -> tuple[Trait, ...]:
        return tuple(
            Trait(row.get("name", ""), row.get("level", 0), row.get("magic") is True)
            for row in self._rows("traits")
        )

    @property
    def magic_traits(self) -> int:
        return sum(1 for trait in self.traits if trait.magic)

    @property
    def flaw(self) -> str | None:
        flaw = self._data.get("flaw")
        return flaw if isinstance(flaw, str) and flaw else None

    @property
    def wounds(self) -> tuple[fasttest_combat.Wound, ...]:
        """The wounds in sheet order, as the engine counts them."""
        return tuple(
            fasttest_combat.Wound(
                row["severity"], row.get("bandaged") is True, row.get("label", "")
            )
            for row in self._rows("wounds")
            if row.get("severity") in SEVERITIES
        )

    @property
    def armor(self) -> int:
        """The armor worn; a value out of the sheet's bounds reads as none."""
        armor = self._int("armor")
        return armor if ARMOR_RANGE[0] <= armor <= ARMOR_RANGE[1] else 0

    @property
    def magic_die(self) -> int | None:
        """The magic die's sides, None without one (or with a die the rules do not know)."""
        die = self._data.get("magic_die")
        return die if is_int(die) and die in MAGIC_DICE else None

    @property
    def xp(self) -> int:
        return self._int("xp")

    @property
    def experience_dice(self) -> int:
        return self._int("experience_dice")


def view(data: Any) -> FastTestSheet:
    return FastTestSheet(data)


def skill_names(campaign) -> list[str]:
    return list(system_settings(campaign)["skills"])


def default_data(campaign) -> dict:
    return {
        "attributes": {name: 5 for name in ATTRIBUTES},
        "skills": {name: 0 for name in skill_names(campaign)},
        "traits": [],
        "flaw": None,
        "wounds": [],
        "armor": 0,
        "magic_die": None,
        "xp": 0,
        "experience_dice": 0,
    }


# Reading the form ---------------------------------------------------------------------------


class MagicDie(Typed):
    """The magic die as chosen (``"8"``, typed ``"d8"`` too): its sides, None for none."""

    def to_python(self, value: Any) -> Any:
        raw = super().to_python(value).strip().lower().removeprefix("d")
        return None if raw in ("", "none") else number(raw)


class FastTestForm(SheetForm):
    """The sheet's fields (``attr_<name>``, ``skill_<index>`` of the campaign's skills, ``flaw``
    and the boxes of their own); the traits are rows (``TraitRow``). Armor, XP, experience dice
    and the magic die are read only when the post holds them (their own boxes)."""

    flaw = Typed(strip=True, empty_value=None)
    armor = Number(if_sent=True)
    xp = Number(if_sent=True)
    experience_dice = Number(if_sent=True)
    magic_die = MagicDie(if_sent=True)

    def __init__(self, data=None, *, skills: list[str] | tuple[str, ...] = (), **kwargs):
        super().__init__(data, **kwargs)
        for name in ATTRIBUTES:
            self.fields[f"attr_{name}"] = Number()
        for index in range(len(skills)):
            self.fields[f"skill_{index}"] = Number()


class TraitRow(RowForm):
    """A trait as typed: ``trait_<index>_name``, ``_level`` and ``_magic`` (a ticked box)."""

    separator = "_"
    index_digits = 3
    name = Typed(strip=True)
    level = Number()
    magic = Ticked(value="on")


def data_from_post(post, campaign) -> dict:
    names = skill_names(campaign)
    values = FastTestForm(post, skills=names).values()
    data: dict[str, Any] = {
        "attributes": {name: values[f"attr_{name}"] for name in ATTRIBUTES},
        "skills": {name: values[f"skill_{index}"] for index, name in enumerate(names)},
        "flaw": values["flaw"],
        "traits": read_rows(post, "trait", TraitRow),
    }
    for key in ("armor", "xp", "experience_dice", "magic_die"):
        if key in values:
            data[key] = values[key]
    return data


# Running totals and derived values -------------------------------------------------------------


def _sum_ints(values) -> int:
    return sum(value for value in values if is_int(value))


def totals(data: dict, campaign) -> list[Total]:
    attributes = data.get("attributes") if isinstance(data.get("attributes"), dict) else {}
    skills = data.get("skills") if isinstance(data.get("skills"), dict) else {}
    traits = data.get("traits") if isinstance(data.get("traits"), list) else []
    attribute_sum = _sum_ints(attributes.values())
    skill_sum = _sum_ints(skills.values())
    points = _sum_ints(trait.get("level") for trait in traits if isinstance(trait, dict))
    target = TRAIT_POINTS_WITH_FLAW if data.get("flaw") else TRAIT_POINTS
    return [
        Total(_("Attributes"), attribute_sum, str(ATTRIBUTE_SUM), attribute_sum == ATTRIBUTE_SUM),
        Total(_("Skills"), skill_sum, str(SKILL_SUM), skill_sum == SKILL_SUM, signed=True),
        Total(_("Trait points"), points, str(target), points == target),
    ]


def derived(data: dict, campaign) -> dict:
    settings = system_settings(campaign)
    traits = data.get("traits") if isinstance(data.get("traits"), list) else []
    levels = [t["level"] for t in traits if isinstance(t, dict) and is_int(t.get("level"))]
    wounds = [
        fasttest_combat.Wound(w["severity"], w.get("bandaged") is True, w.get("label", ""))
        for w in data.get("wounds") or []
        if isinstance(w, dict) and w.get("severity") in SEVERITIES
    ]
    cost = development_cost([level for level in levels if level >= 1])
    xp = data.get("xp", 0)
    return {
        "starting_magic_die": starting_die(data, settings),
        "development_cost": cost,
        "can_develop": is_int(xp) and xp >= cost,
        "trait_points": sum(levels),
        "wound_dice": {
            name: fasttest_combat.wounds_for_test(ENGINE_ATTRIBUTES[name], wounds)
            for name in ATTRIBUTES
        },
    }
