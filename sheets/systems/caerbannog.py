"""The Caerbannog 2026 sheet (RULES.md section 4, "Sheet").

Shape of ``Character.data``::

    {"skills": [{"name": "Jazda", "category": "physical", "level": 2}, ...],
     "category_bonuses": {"physical": 2, "practical": 3, ...},
     "defences": {"Blok": 1, "Odporność": 1, "Unik": 2, "Intuicja": 1, ...},
     "resources": {"wytrzymalosc": 8, "determinacja": 6, "zywotnosc": 10, "zdrowie": 10,
                   "kapital_spoleczny": 2, "pd": 0, "rozmach": 0}}

The skills of the physical, practical, social, combat and knowledge categories are printed on
the sheet: a sheet that leaves one out has it at level 0 (d4). Specialist and mystic skills are
written in by the player, as many as needed. The seed gives no creation budget, so creation and
later edits apply the same bounds: levels 0..IV, category bonuses 0..10 (**Decision**: the seed
names no maximum; 10 matches the Rozmach cap), resources 0..99, PD 0..999, Rozmach 0..10.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.system_settings import system_settings
from campaigns.systems import SheetView
from config.text import text_problem
from rolls.engine.caerbannog import ROZMACH_MAX, SKILL_DICE
from sheets.systems import Section, Total
from sheets.systems.checks import Errors, bounded, is_int
from sheets.systems.sheet_forms import Number, RowForm, SheetForm, Typed, read_rows

FORM_TEMPLATE = "sheets/caerbannog/form.html"
SHEET_TEMPLATE = "sheets/caerbannog/sheet.html"

LEVEL_RANGE = (0, len(SKILL_DICE) - 1)
BONUS_RANGE = (0, 10)
NAME_MAX = 60
#: Specialist and mystic skills one sheet may hold.
MAX_ADDED_SKILLS = 20
#: Blank rows the form offers under the specialist and mystic categories.
BLANK_ROWS = 2

#: Categories in the order of the paper sheet; ``None`` lists mean "written in by the player".
CATEGORIES: dict[str, tuple[str, ...] | None] = {
    "physical": ("Atletyka", "Jazda", "Ukrycie", "Zwinność"),
    "practical": ("Dociekliwość", "Percepcja", "Surwiwal", "Wyczucie"),
    "social": ("Charyzma", "Przebiegłość", "Tresura", "Zastraszanie"),
    "combat": ("Walka Bezpośrednia", "Walka Dystansowa", "Walka Wręcz"),
    "knowledge": (
        "Wiedza Ogólna",
        "Wiedza Mistyczna",
        "Wiedza Przyrodnicza",
        "Wiedza Społeczna",
        "Wiedza Ścisła",
    ),
    "specialist": None,
    "mystic": None,
}
ADDED_CATEGORIES = ("specialist", "mystic")
#: The specialist skills the seed describes, offered as suggestions (others may be written in).
SPECIALIST_SUGGESTIONS = (
    "Alchemia",
    "Artyzm",
    "Marynarstwo",
    "Medycyna",
    "Rzemiosło",
    "Zarządzanie",
    "Złodziejstwo",
)
CATEGORY_LABELS = {
    "physical": gettext_lazy("Fizyczne (physical)"),
    "practical": gettext_lazy("Praktyczne (practical)"),
    "social": gettext_lazy("Socjalne (social)"),
    "combat": gettext_lazy("Walki (combat)"),
    "knowledge": gettext_lazy("Wiedzy (knowledge)"),
    "specialist": gettext_lazy("Specjalistyczne (specialist)"),
    "mystic": gettext_lazy("Mistyczne (mystic)"),
}
#: Every printed skill in sheet order, its index naming its form field ``std_<index>``.
STANDARD_SKILLS: tuple[tuple[str, str], ...] = tuple(
    (name, category) for category, names in CATEGORIES.items() for name in names or ()
)
_STANDARD_INDEX = {name.casefold(): index for index, (name, _c) in enumerate(STANDARD_SKILLS)}

DEFENCES: dict[str, tuple[str, ...]] = {
    "physical": ("Blok", "Odporność", "Unik"),
    "mental": ("Intuicja", "Koncentracja", "Opanowanie"),
}
DEFENCE_NAMES: tuple[str, ...] = DEFENCES["physical"] + DEFENCES["mental"]
DEFENCE_LABELS = {
    "physical": gettext_lazy("Fizyczne (physical)"),
    "mental": gettext_lazy("Mentalne (mental)"),
}

#: Resources: key, label, bounds.
RESOURCES: tuple[tuple[str, Any, tuple[int, int]], ...] = (
    ("wytrzymalosc", gettext_lazy("Wytrzymałość (endurance)"), (0, 99)),
    ("determinacja", gettext_lazy("Determinacja (determination)"), (0, 99)),
    ("zywotnosc", gettext_lazy("Żywotność (vitality)"), (0, 99)),
    ("zdrowie", gettext_lazy("Zdrowie (health)"), (0, 99)),
    ("kapital_spoleczny", gettext_lazy("Kapitał Społeczny (social capital)"), (0, 99)),
    ("pd", gettext_lazy("PD (experience points)"), (0, 999)),
    ("rozmach", gettext_lazy("Rozmach (momentum)"), (0, ROZMACH_MAX)),
)
POOL_RESOURCES = ("wytrzymalosc", "determinacja", "zywotnosc", "zdrowie", "kapital_spoleczny")

#: The whole numbers play changes on the sheet, by key, named for the reader (rolls.strikes).
NUMBER_LABELS = {key: label for key, label, _bounds in RESOURCES}

SECTIONS = (
    Section(
        "skills",
        gettext_lazy("Skills (Umiejętności)"),
        "sheets/caerbannog/_skills.html",
        ("skills", "category_bonuses"),
    ),
    Section(
        "defences", gettext_lazy("Defences (Obrony)"), "sheets/caerbannog/_defences.html",
        ("defences",),
    ),
    Section(
        "resources",
        gettext_lazy("Resources (Zasoby)"),
        "sheets/caerbannog/_resources.html",
        tuple(f"resources.{key}" for key in (*POOL_RESOURCES, "pd")),
    ),
    Section(
        "rozmach",
        gettext_lazy("Rozmach (momentum)"),
        "sheets/caerbannog/_rozmach.html",
        ("resources.rozmach",),
    ),
)  # fmt: skip


class CaerbannogSheet(SheetView):
    """The Caerbannog sheet read through its schema (the shape in this module's docstring)."""

    __slots__ = ()

    @property
    def resources(self) -> dict[str, Any]:
        return self._mapping("resources")

    def resource(self, key: str) -> int:
        """One resource (a key of ``RESOURCES``); a value that is not a number reads as 0."""
        value = self.resources.get(key, 0)
        return value if is_int(value) else 0

    @property
    def rozmach(self) -> int:
        """The Rozmach pool, within 0..ROZMACH_MAX."""
        return max(0, min(ROZMACH_MAX, self.resource("rozmach")))

    @property
    def skill_groups(self) -> list[dict]:
        return skill_groups(self._data)

    @property
    def defence_groups(self) -> list[dict]:
        return defence_groups(self._data)


def view(data: Any) -> CaerbannogSheet:
    return CaerbannogSheet(data)


def default_data(campaign) -> dict:
    return {
        "skills": [
            {"name": name, "category": category, "level": 0} for name, category in STANDARD_SKILLS
        ],
        "category_bonuses": {category: 0 for category in CATEGORIES},
        "defences": {name: 0 for name in DEFENCE_NAMES},
        "resources": {key: 0 for key, _label, _bounds in RESOURCES},
    }


# Reading the form ---------------------------------------------------------------------------


class CaerbannogForm(SheetForm):
    """The sheet's numbers: ``std_<index>`` (printed skills), ``bonus_<category>``,
    ``defence_<index>`` and ``res_<key>``; the written-in skills are rows (``AddedSkillRow``)."""

    def __init__(self, data=None, **kwargs):
        super().__init__(data, **kwargs)
        names = (
            *(f"std_{index}" for index in range(len(STANDARD_SKILLS))),
            *(f"bonus_{category}" for category in CATEGORIES),
            *(f"defence_{index}" for index in range(len(DEFENCE_NAMES))),
            *(f"res_{key}" for key, _label, _bounds in RESOURCES),
        )
        for name in names:
            self.fields[name] = Number()


class AddedSkillRow(RowForm):
    """A specialist or mystic skill as typed: ``<category>_<index>_name`` and ``_level``."""

    separator = "_"
    index_digits = 3
    name = Typed(strip=True)
    level = Number()


def data_from_post(post, campaign) -> dict:
    values = CaerbannogForm(post).values()
    skills: list[dict[str, Any]] = [
        {"name": name, "category": category, "level": values[f"std_{index}"]}
        for index, (name, category) in enumerate(STANDARD_SKILLS)
    ]
    for category in ADDED_CATEGORIES:
        skills += [
            {"name": row["name"], "category": category, "level": row["level"]}
            for row in read_rows(post, category, AddedSkillRow)
        ]
    return {
        "skills": skills,
        "category_bonuses": {category: values[f"bonus_{category}"] for category in CATEGORIES},
        "defences": {name: values[f"defence_{index}"] for index, name in enumerate(DEFENCE_NAMES)},
        "resources": {key: values[f"res_{key}"] for key, _label, _bounds in RESOURCES},
    }


# Validation ---------------------------------------------------------------------------------


def _level(errors: Errors, key: str, label: str, value: Any) -> bool:
    if is_int(value) and LEVEL_RANGE[0] <= value <= LEVEL_RANGE[1]:
        return True
    errors.add(key, _("%(name)s: the level is 0, I, II, III or IV (0 to 4).") % {"name": label})
    return False


def _validate_skills(data: dict, errors: Errors) -> list[dict]:
    raw = data.get("skills")
    if not isinstance(raw, list):
        errors.add("skills", _("The skills must be a list."))
        return []
    levels: dict[int, int] = {}
    added: list[dict] = []
    counts = {category: 0 for category in ADDED_CATEGORIES}
    seen: set[str] = set()
    for skill in raw:
        if not isinstance(skill, dict):
            errors.add("skills", _("Each skill needs a name, a category and a level."))
            continue
        name, category, level = skill.get("name"), skill.get("category"), skill.get("level")
        if category not in CATEGORIES:
            errors.add(
                "skills",
                _("Unknown skill category “%(category)s”; use one of: %(keys)s.")
                % {"category": category, "keys": ", ".join(CATEGORIES)},
            )
            continue
        if category in ADDED_CATEGORIES:
            row = f"{category}_{counts[category]}"
            counts[category] += 1
            label = _check_added_name(errors, f"{row}_name", name, seen)
            if _level(errors, f"{row}_level", label or _("Skill"), level) and label:
                added.append({"name": label, "category": category, "level": level})
            continue
        if problem := text_problem(name):
            errors.add("skills", problem)
            continue
        index = _STANDARD_INDEX.get(name.strip().casefold()) if isinstance(name, str) else None
        if index is None or STANDARD_SKILLS[index][1] != category:
            errors.add(
                "skills",
                _("“%(name)s” is not a skill of the %(category)s category; only specialist and "
                  "mystic skills are written in.") % {"name": name, "category": category},
            )  # fmt: skip
            continue
        standard = STANDARD_SKILLS[index][0]
        if standard.casefold() in seen:
            errors.add(f"std_{index}", _("%(name)s is listed twice.") % {"name": standard})
            continue
        seen.add(standard.casefold())
        if _level(errors, f"std_{index}", standard, level):
            levels[index] = level
    for category, count in counts.items():
        if count > MAX_ADDED_SKILLS:
            errors.add(
                "skills",
                _("At most %(max)d %(category)s skills.")
                % {"max": MAX_ADDED_SKILLS, "category": CATEGORY_LABELS[category]},
            )
    printed = [
        {"name": name, "category": category, "level": levels.get(index, 0)}
        for index, (name, category) in enumerate(STANDARD_SKILLS)
    ]
    return printed + added


def _check_added_name(errors: Errors, key: str, name: Any, seen: set[str]) -> str | None:
    if not isinstance(name, str) or not name.strip():
        errors.add(key, _("Give the skill a name."))
        return None
    name = name.strip()
    if len(name) > NAME_MAX:
        errors.add(key, _("Keep the name to %(max)d characters.") % {"max": NAME_MAX})
        return None
    if problem := text_problem(name):
        errors.add(key, problem)
        return None
    if name.casefold() in _STANDARD_INDEX or name.casefold() in seen:
        errors.add(key, _("“%(name)s” is already on the sheet.") % {"name": name})
        return None
    seen.add(name.casefold())
    return name


def _validate_mapping(
    data: dict, key: str, names, field, label, check, errors: Errors, *, default=None
) -> dict:
    raw = data.get(key, default)
    if not isinstance(raw, dict):
        errors.add(key, _("“%(key)s” must be an object.") % {"key": key})
        return {}
    unknown = sorted(str(name) for name in raw if name not in names)
    if unknown:
        errors.add(key, _("Unknown entries: %(names)s.") % {"names": ", ".join(unknown)})
    clean = {}
    for index, name in enumerate(names):
        if check(errors, field(index, name), label(name), raw.get(name, 0)):
            clean[name] = raw.get(name, 0)
    return clean


def validate(data: Any, campaign, *, creating: bool) -> tuple[dict, dict[str, list[str]]]:
    errors = Errors()
    if not isinstance(data, dict):
        errors.add("", _("The sheet must be a JSON object."))
        return {}, dict(errors)
    clean = {"skills": _validate_skills(data, errors)}
    clean["category_bonuses"] = _validate_mapping(
        data, "category_bonuses", tuple(CATEGORIES),
        lambda _i, category: f"bonus_{category}",
        lambda category: _("Bonus %(category)s") % {"category": CATEGORY_LABELS[category]},
        lambda e, k, label, v: bounded(e, k, label, v, BONUS_RANGE),
        errors,
    )  # fmt: skip
    clean["defences"] = _validate_mapping(
        data, "defences", DEFENCE_NAMES,
        lambda index, _name: f"defence_{index}",
        str,
        _level,
        errors,
    )  # fmt: skip
    bounds = {key: (label, limits) for key, label, limits in RESOURCES}
    clean["resources"] = _validate_mapping(
        data, "resources", tuple(bounds),
        lambda _i, key: f"res_{key}",
        lambda key: str(bounds[key][0]),
        lambda e, k, label, v: bounded(e, k, label, v, bounds[k.removeprefix("res_")][1]),
        errors,
    )  # fmt: skip
    return (clean if not errors else {}), dict(errors)


# Running totals and derived values ------------------------------------------------------------


def totals(data: dict, campaign) -> list[Total]:
    skills = data.get("skills") if isinstance(data.get("skills"), list) else []
    defences = data.get("defences") if isinstance(data.get("defences"), dict) else {}
    resources = data.get("resources") if isinstance(data.get("resources"), dict) else {}
    skill_levels = sum(
        s.get("level") for s in skills if isinstance(s, dict) and is_int(s.get("level"))
    )
    defence_levels = sum(value for value in defences.values() if is_int(value))
    rozmach = resources.get("rozmach")
    rozmach = rozmach if is_int(rozmach) else 0
    return [
        Total(_("Skill levels"), skill_levels, "", True),
        Total(_("Defence levels"), defence_levels, "", True),
        Total(_("Rozmach"), rozmach, str(ROZMACH_MAX), 0 <= rozmach <= ROZMACH_MAX),
    ]


def _die(level: Any) -> int | None:
    return SKILL_DICE[level] if is_int(level) and 0 <= level < len(SKILL_DICE) else None


def skill_groups(data: dict) -> list[dict]:
    """The skills by category in sheet order, with their form field names and dice.

    Works on stored sheets (a printed skill left out is level 0) and on values as typed.
    """
    skills = data.get("skills") if isinstance(data.get("skills"), list) else []
    bonuses = data.get("category_bonuses")
    bonuses = bonuses if isinstance(bonuses, dict) else {}
    printed: dict[int, Any] = {}
    added: dict[str, list[dict]] = {category: [] for category in ADDED_CATEGORIES}
    for skill in skills:
        if not isinstance(skill, dict):
            continue
        category = skill.get("category")
        if category in added:
            added[category].append(skill)
        elif isinstance(skill.get("name"), str):
            index = _STANDARD_INDEX.get(skill["name"].strip().casefold())
            if index is not None:
                printed[index] = skill.get("level")
    groups = []
    for category, names in CATEGORIES.items():
        rows = []
        if names is None:
            for number, skill in enumerate(added[category]):
                rows.append(_row(skill.get("name", ""), category, skill.get("level"),
                                 f"{category}_{number}"))  # fmt: skip
            blanks = [
                {"field": f"{category}_{number}", "name": "", "level": ""}
                for number in range(len(rows), len(rows) + BLANK_ROWS)
            ]
        else:
            blanks = []
            for index, (name, _category) in enumerate(STANDARD_SKILLS):
                if _category == category:
                    rows.append(_row(name, category, printed.get(index, 0), f"std_{index}"))
        groups.append(
            {
                "key": category,
                "label": CATEGORY_LABELS[category],
                "bonus": bonuses.get(category, 0),
                "bonus_field": f"bonus_{category}",
                "written_in": names is None,
                "skills": rows,
                "blanks": blanks,
            }
        )
    return groups


def _row(name: str, category: str, level: Any, field: str) -> dict:
    die = _die(level)
    return {
        "name": name,
        "level": level,
        "die": die,
        "field": field,
        "roll": {"skill": name, "category": category, "die": die},
    }


def defence_groups(data: dict) -> list[dict]:
    defences = data.get("defences") if isinstance(data.get("defences"), dict) else {}
    groups = []
    for key, names in DEFENCES.items():
        rows = []
        for name in names:
            level = defences.get(name, 0)
            rows.append(
                {
                    "name": name,
                    "level": level,
                    "die": _die(level),
                    "field": f"defence_{DEFENCE_NAMES.index(name)}",
                    "roll": {"defence": name, "die": _die(level)},
                }
            )
        groups.append({"key": key, "label": DEFENCE_LABELS[key], "defences": rows})
    return groups


def resource_rows(data: dict) -> list[dict]:
    resources = data.get("resources") if isinstance(data.get("resources"), dict) else {}
    return [
        {"key": key, "label": label, "value": resources.get(key, 0), "field": f"res_{key}",
         "min": bounds[0], "max": bounds[1]}
        for key, label, bounds in RESOURCES
        if key != "rozmach"
    ]  # fmt: skip


def pd_rozmach(pd: int, table: list) -> int | None:
    """Rozmach the GM's PD table grants for ``pd`` (the highest threshold reached); None when
    the campaign has not filled the table in (RULES.md: the seed lacks it; do not invent)."""
    rows = [row for row in table if isinstance(row, dict) and is_int(row.get("pd"))]
    if not rows:
        return None
    reached = [row for row in rows if row["pd"] <= pd and is_int(row.get("rozmach"))]
    return max(reached, key=lambda row: row["pd"])["rozmach"] if reached else 0


def derived(data: dict, campaign) -> dict:
    settings = system_settings(campaign)
    resources = data.get("resources") if isinstance(data.get("resources"), dict) else {}
    pd = resources.get("pd", 0)
    return {
        "skill_groups": skill_groups(data),
        "defence_groups": defence_groups(data),
        "rozmach_track": list(range(ROZMACH_MAX + 1)),
        "pd_rozmach": pd_rozmach(pd, settings["pd_rozmach"]) if is_int(pd) else None,
    }
