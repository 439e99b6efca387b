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
1..10.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns import stored_text
from campaigns.system_settings import system_settings
from campaigns.systems import SheetView
from config.text import text_problem
from rolls.engine import fasttest_combat
from rolls.engine.fasttest_sheet import MAGIC_DICE, development_cost, starting_magic_die
from sheets.systems import Section, Total
from sheets.systems.checks import Errors, bounded, is_int, number
from sheets.systems.sheet_forms import Number, RowForm, SheetForm, Ticked, Typed, read_rows

FORM_TEMPLATE = "sheets/fasttest/form.html"
SHEET_TEMPLATE = "sheets/fasttest/sheet.html"

ATTRIBUTES: tuple[str, ...] = ("BUDOWA", "ZRĘCZNOŚĆ", "UMYSŁ", "DUCH")
ATTRIBUTE_SUM = 20
ATTRIBUTE_RANGE_CREATING = (3, 7)
ATTRIBUTE_RANGE = (1, 10)
SKILL_COUNT = 6
SKILL_SUM = 0
SKILL_RANGE = (-2, 2)
TRAIT_POINTS = 3
TRAIT_POINTS_WITH_FLAW = 4
TRAIT_LEVEL_MAX_CREATING = 2
TRAIT_LEVEL_RANGE = (1, 10)
MAX_TRAITS = 30
MAX_WOUNDS = 20
NAME_MAX = 60
ARMOR_RANGE = (0, 10)
XP_RANGE = (0, 999)
EXPERIENCE_DICE_RANGE = (0, 20)

#: The labels of the wounds the app adds itself (rolls.systems.fasttest.wounds), written in the
#: language of the request that adds them: a label is text on the sheet, which its player may
#: change, so each reader reads the app's own in theirs (``wound_label``).
COMBAT_WOUND = gettext_lazy("combat, #%(seq)s")
IGNORED_WOUNDS = gettext_lazy("wounds ignored, #%(seq)s")
stored_text.register(COMBAT_WOUND, IGNORED_WOUNDS)

SEVERITIES = fasttest_combat.SEVERITIES
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


# Validation ---------------------------------------------------------------------------------


def _name(errors: Errors, key: str, value: Any, what: str) -> str | None:
    if not isinstance(value, str) or not value.strip():
        errors.add(key, _("Give the %(what)s a name.") % {"what": what})
        return None
    if len(value.strip()) > NAME_MAX:
        errors.add(key, _("Keep the name to %(max)d characters.") % {"max": NAME_MAX})
        return None
    if problem := text_problem(value):
        errors.add(key, problem)
        return None
    return value.strip()


def _validate_attributes(data: dict, creating: bool, errors: Errors) -> dict:
    raw = data.get("attributes")
    if not isinstance(raw, dict):
        errors.add("attributes", _("The attributes must be an object of four numbers."))
        return {}
    unknown = sorted(str(key) for key in raw if key not in ATTRIBUTES)
    if unknown:
        errors.add("attributes", _("Unknown attribute: %(names)s.") % {"names": ", ".join(unknown)})
    bounds = ATTRIBUTE_RANGE_CREATING if creating else ATTRIBUTE_RANGE
    clean = {}
    for name in ATTRIBUTES:
        if bounded(errors, f"attr_{name}", name, raw.get(name), bounds):
            clean[name] = raw[name]
    if creating and len(clean) == len(ATTRIBUTES) and sum(clean.values()) != ATTRIBUTE_SUM:
        errors.add(
            "attributes",
            _("The attributes must sum to exactly %(target)d; they sum to %(sum)d.")
            % {"target": ATTRIBUTE_SUM, "sum": sum(clean.values())},
        )
    return clean


def _validate_skills(data: dict, names: list[str], creating: bool, errors: Errors) -> dict:
    raw = data.get("skills")
    if not isinstance(raw, dict):
        errors.add("skills", _("The skills must be an object of six numbers."))
        return {}
    unknown = sorted(str(key) for key in raw if key not in names)
    if unknown and creating:
        errors.add(
            "skills",
            _("This campaign's skills are %(names)s; unknown: %(unknown)s.")
            % {"names": ", ".join(names), "unknown": ", ".join(unknown)},
        )
    clean = {}
    for index, name in enumerate(names):
        if name not in raw and not creating:
            continue  # the GM renamed a skill after this sheet was made; the GM re-enters it
        if bounded(errors, f"skill_{index}", name, raw.get(name), SKILL_RANGE):
            clean[name] = raw[name]
    if creating and len(clean) == len(names) and sum(clean.values()) != SKILL_SUM:
        errors.add(
            "skills",
            _("The skills must sum to exactly %(target)d; they sum to %(sum)+d.")
            % {"target": SKILL_SUM, "sum": sum(clean.values())},
        )
    return clean


def _validate_traits(data: dict, creating: bool, errors: Errors) -> tuple[list, str | None]:
    raw = data.get("traits")
    flaw_raw = data.get("flaw")
    flaw = None
    if flaw_raw is not None:
        flaw = _name(errors, "flaw", flaw_raw, _("flaw"))
    if not isinstance(raw, list):
        errors.add("traits", _("The traits must be a list."))
        return [], flaw
    if len(raw) > MAX_TRAITS:
        errors.add("traits", _("A sheet holds at most %(max)d traits.") % {"max": MAX_TRAITS})
        return [], flaw
    if not raw:
        errors.add("traits", _("Write at least the first trait: your concept or profession."))
    clean, seen, all_good = [], set(), True
    for index, trait in enumerate(raw):
        key = f"trait_{index}"
        if not isinstance(trait, dict):
            errors.add(f"{key}_name", _("Each trait needs a name and a level."))
            all_good = False
            continue
        name = _name(errors, f"{key}_name", trait.get("name"), _("trait"))
        if name and name.casefold() in seen:
            errors.add(f"{key}_name", _("“%(name)s” is already a trait.") % {"name": name})
            name = None
        level = trait.get("level")
        label = _("Level of “%(name)s”") % {"name": name} if name else _("Trait level")
        good_level = bounded(errors, f"{key}_level", label, level, TRAIT_LEVEL_RANGE)
        if good_level and creating and level > TRAIT_LEVEL_MAX_CREATING:
            errors.add(
                f"{key}_level",
                _("“%(name)s” has %(level)d levels; at creation a trait has at most %(max)d.")
                % {
                    "max": TRAIT_LEVEL_MAX_CREATING,
                    "name": name or _("This trait"),
                    "level": level,
                },
            )
            good_level = False
        magic = trait.get("magic", False)
        if not isinstance(magic, bool):
            errors.add(f"{key}_name", _("The magic mark must be true or false."))
            good_level = False
        if name is None or not good_level:
            all_good = False
            continue
        seen.add(name.casefold())
        clean.append({"name": name, "level": level, "magic": magic})
    if flaw and flaw.casefold() in seen:
        errors.add("flaw", _("The flaw cannot also be a trait."))
    if creating and all_good and clean:
        target = TRAIT_POINTS_WITH_FLAW if flaw else TRAIT_POINTS
        spent = sum(trait["level"] for trait in clean)
        if spent != target:
            errors.add("traits", _trait_points_message(spent, target, bool(flaw)))
    return clean, flaw


def _trait_points_message(spent: int, target: int, flaw: bool) -> str:
    values = {"target": target, "spent": spent}
    if flaw:
        return (
            _("With a flaw, spend exactly %(target)d trait points; you spent %(spent)d.") % values
        )
    return _("Spend exactly %(target)d trait points; you spent %(spent)d.") % values


def _validate_wounds(data: dict, errors: Errors) -> list:
    raw = data.get("wounds", [])
    if not isinstance(raw, list):
        errors.add("wounds", _("The wounds must be a list."))
        return []
    if len(raw) > MAX_WOUNDS:
        errors.add("wounds", _("A sheet holds at most %(max)d wounds.") % {"max": MAX_WOUNDS})
        return []
    clean = []
    for wound in raw:
        if not isinstance(wound, dict):
            errors.add("wounds", _("Each wound needs a severity."))
            continue
        label = wound.get("label", "")
        severity = wound.get("severity")
        bandaged = wound.get("bandaged", False)
        if not isinstance(label, str) or len(label.strip()) > NAME_MAX:
            errors.add(
                "wounds",
                _("A wound's label is text of at most %(max)d characters.") % {"max": NAME_MAX},
            )
        elif problem := text_problem(label):
            errors.add("wounds", problem)
        elif severity not in SEVERITIES:
            errors.add(
                "wounds",
                _("A wound's severity is one of: %(keys)s.") % {"keys": ", ".join(SEVERITIES)},
            )
        elif not isinstance(bandaged, bool):
            errors.add("wounds", _("A wound is bandaged (true) or not (false)."))
        else:
            clean.append({"label": label.strip(), "severity": severity, "bandaged": bandaged})
    return clean


def validate(data: Any, campaign, *, creating: bool) -> tuple[dict, dict[str, list[str]]]:
    errors = Errors()
    if not isinstance(data, dict):
        errors.add("", _("The sheet must be a JSON object."))
        return {}, dict(errors)
    settings = system_settings(campaign)
    clean: dict[str, Any] = {
        "attributes": _validate_attributes(data, creating, errors),
        "skills": _validate_skills(data, list(settings["skills"]), creating, errors),
    }
    clean["traits"], clean["flaw"] = _validate_traits(data, creating, errors)
    clean["wounds"] = _validate_wounds(data, errors)
    labels = {
        "armor": (_("Armor"), ARMOR_RANGE),
        "xp": (_("XP"), XP_RANGE),
        "experience_dice": (_("Experience dice"), EXPERIENCE_DICE_RANGE),
    }
    for key, (label, bounds) in labels.items():
        value = data.get(key, 0)
        if bounded(errors, key, label, value, bounds):
            clean[key] = value
    if "magic_die" in data:
        die = data["magic_die"]
        if die is not None and (not is_int(die) or die not in MAGIC_DICE):
            errors.add("magic_die", _("The magic die is none, d4, d6, d8, d10 or d12."))
        clean["magic_die"] = die
    else:
        clean["magic_die"] = _starting_die(clean, settings) if creating else None
    return (clean if not errors else {}), dict(errors)


def _starting_die(data: dict, settings: dict) -> int | None:
    attributes = data.get("attributes")
    duch = attributes.get("DUCH") if isinstance(attributes, dict) else None
    if not settings["magic"] or not is_int(duch):
        return None
    traits = data.get("traits") if isinstance(data.get("traits"), list) else []
    magic = sum(1 for trait in traits if isinstance(trait, dict) and trait.get("magic") is True)
    return starting_magic_die(duch, magic)


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
        "starting_magic_die": _starting_die(data, settings),
        "development_cost": cost,
        "can_develop": is_int(xp) and xp >= cost,
        "trait_points": sum(levels),
        "wound_dice": {
            name: fasttest_combat.wounds_for_test(ENGINE_ATTRIBUTES[name], wounds)
            for name in ATTRIBUTES
        },
    }
