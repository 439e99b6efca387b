"""FastTest's sheet checked (RULES.md section 1, "Character sheet"): its bounds, at creation
and after, and ``validate``, which every write of a sheet goes through, a typed form's and an
import's alike (the shape is in ``sheets.systems.fasttest``, which offers ``validate`` as the
sheet module's). A trait is checked by a form of its own, ``TraitCheck``."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from campaigns.system_settings import system_settings
from config.text import text_problem
from rolls.engine import fasttest_combat
from rolls.engine.fasttest_sheet import MAGIC_DICE, starting_magic_die
from sheets.systems.checks import Errors, bounded, is_int, out_of_bounds

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

SEVERITIES = fasttest_combat.SEVERITIES


def _stored_name(value: Any, what: str) -> str:
    """A name as the sheet keeps it, stripped; ``ValidationError`` says what is wrong with it."""
    if not isinstance(value, str) or not value.strip():
        raise ValidationError(_("Give the %(what)s a name.") % {"what": what})
    if len(value.strip()) > NAME_MAX:
        raise ValidationError(_("Keep the name to %(max)d characters.") % {"max": NAME_MAX})
    if problem := text_problem(value):
        raise ValidationError(problem)
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


class Stored(forms.Field):
    """A value of a sheet as stored or imported, any JSON, for its form's ``clean_<name>``."""

    def __init__(self) -> None:
        super().__init__(required=False)

    def to_python(self, value: Any) -> Any:
        return value


class TraitCheck(forms.Form):
    """One trait of a sheet as stored or imported, checked: its name, not one a trait before it
    took (``taken``, case aside), its level (at creation at most ``TRAIT_LEVEL_MAX_CREATING``)
    and its magic mark, true or false. The sheet's form shows its errors at the trait's fields,
    the magic mark's beside the name."""

    name = Stored()
    level = Stored()
    magic = Stored()

    def __init__(self, trait: dict[str, Any], *, creating: bool, taken: set[str]) -> None:
        super().__init__(data={"magic": False, **trait})  # a trait without the mark is not magic
        self.creating, self.taken = creating, taken

    def clean_name(self) -> str:
        name = _stored_name(self.cleaned_data["name"], _("trait"))
        if name.casefold() in self.taken:
            raise ValidationError(_("“%(name)s” is already a trait.") % {"name": name})
        return name

    def clean_level(self) -> int:
        level, name = self.cleaned_data["level"], self.cleaned_data.get("name")
        label = _("Level of “%(name)s”") % {"name": name} if name else _("Trait level")
        if refusal := out_of_bounds(label, level, TRAIT_LEVEL_RANGE):
            raise ValidationError(refusal)
        if self.creating and level > TRAIT_LEVEL_MAX_CREATING:
            raise ValidationError(
                _("“%(name)s” has %(level)d levels; at creation a trait has at most %(max)d.")
                % {"max": TRAIT_LEVEL_MAX_CREATING, "name": name or _("This trait"), "level": level}
            )
        return level

    def clean_magic(self) -> Any:
        magic = self.cleaned_data["magic"]
        if not isinstance(magic, bool):
            self.add_error("name", _("The magic mark must be true or false."))
        return magic


def _validate_traits(data: dict, creating: bool, errors: Errors) -> tuple[list, str | None]:
    """The traits, each checked by ``TraitCheck`` (a refused one is left out), and the flaw:
    neither a trait's name, and at creation the trait points spent exactly."""
    flaw = _flaw(data, errors)
    rows = data.get("traits")
    if refusal := _trait_list_refusal(rows):
        errors.add("traits", refusal)
        return [], flaw
    if not rows:
        errors.add("traits", _("Write at least the first trait: your concept or profession."))
    clean = _traits(rows, creating, errors)
    if flaw and flaw.casefold() in {trait["name"].casefold() for trait in clean}:
        errors.add("flaw", _("The flaw cannot also be a trait."))
    if creating and clean and len(clean) == len(rows):
        _spend_exactly(clean, flaw, errors)
    return clean, flaw


def _traits(rows: list, creating: bool, errors: Errors) -> list[dict[str, Any]]:
    """Each row as ``TraitCheck`` cleans it, the refused ones left out (their errors at their
    fields, ``trait_<index>_name`` and ``_level``)."""
    clean: list[dict[str, Any]] = []
    taken: set[str] = set()
    for index, row in enumerate(rows):
        if (trait := _trait(row, f"trait_{index}", creating, taken, errors)) is not None:
            clean.append(trait)
            taken.add(trait["name"].casefold())
    return clean


def _spend_exactly(traits: list[dict[str, Any]], flaw: str | None, errors: Errors) -> None:
    target = TRAIT_POINTS_WITH_FLAW if flaw else TRAIT_POINTS
    spent = sum(trait["level"] for trait in traits)
    if spent != target:
        errors.add("traits", _trait_points_message(spent, target, bool(flaw)))


def _flaw(data: dict, errors: Errors) -> str | None:
    if data.get("flaw") is None:
        return None
    try:
        return _stored_name(data["flaw"], _("flaw"))
    except ValidationError as refusal:
        errors.add("flaw", refusal.message)
        return None


def _trait_list_refusal(rows: Any) -> str | None:
    if not isinstance(rows, list):
        return _("The traits must be a list.")
    if len(rows) > MAX_TRAITS:
        return _("A sheet holds at most %(max)d traits.") % {"max": MAX_TRAITS}
    return None


def _trait(row: Any, key: str, creating: bool, taken: set[str], errors: Errors) -> dict | None:
    """One trait as ``TraitCheck`` cleans it, None when refused (its errors at ``key``'s
    fields)."""
    if not isinstance(row, dict):
        errors.add(f"{key}_name", _("Each trait needs a name and a level."))
        return None
    check = TraitCheck(row, creating=creating, taken=taken)
    if check.is_valid():
        return check.cleaned_data
    for field, messages in check.errors.items():
        for message in messages:
            errors.add(f"{key}_{field}", message)
    return None


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
        clean["magic_die"] = starting_die(clean, settings) if creating else None
    return (clean if not errors else {}), dict(errors)


def starting_die(data: dict, settings: dict) -> int | None:
    attributes = data.get("attributes")
    duch = attributes.get("DUCH") if isinstance(attributes, dict) else None
    if not settings["magic"] or not is_int(duch):
        return None
    traits = data.get("traits") if isinstance(data.get("traits"), list) else []
    magic = sum(1 for trait in traits if isinstance(trait, dict) and trait.get("magic") is True)
    return starting_magic_die(duch, magic)
