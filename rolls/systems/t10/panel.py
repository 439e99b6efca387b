"""The T10 test panel (RULES.md section 3): one attribute plus one skill from the sheet, item and
circumstance dice, the difficulty, the exact odds of the six outcomes and of each net result.
A pool of 0 or less rolls nothing and fails automatically. Nothing follows a T10 roll.

A test the GM calls for (a pending test) fixes the attribute and the skill; the GM may set the
difficulty (the usual 7 until then) and add dice to the pool or take them away, each with its
source. Circumstances are the GM's on a called test: the player still ticks items.

The character's conditions (rolls.conditions) shape the test by themselves: a "pool" condition
adds or takes dice, a "difficulty" one moves the difficulty (kept to 4..10), each listed among
the sources; the GM may switch one off on a called test. A condition concerning a target
applies when the player ticks it, and one lasting until a named test succeeds ("stand up")
ends when the player marks this test as that one and it succeeds."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rolls.conditions import actions as conditions
from rolls.conditions import in_force
from rolls.engine import EngineError
from rolls.engine import t10 as engine
from rolls.labels import words
from rolls.panels import (
    Limit,
    Name,
    Names,
    Panel,
    PanelForm,
    SourceText,
    WholeNumber,
    not_on_sheet,
    source,
)
from sheets.systems import t10 as sheet
from sheets.systems.named_lists import NAME_MAX, signed

TEMPLATE = "systems/t10/panel.html"
#: Circumstance dice a player may type for one test, either way.
MAX_CIRCUMSTANCE = 20
#: Results less likely than this are folded into the "or less" / "or more" ends of the list.
RESULT_FLOOR = 0.005
SUCCESS_KEYS = ("success_but", "success", "impressive")


def build(character, campaign, choices, pending: dict[str, Any] | None = None) -> Panel:
    cleaned, _errors = sheet.validate(character.data, campaign, creating=False)
    form = T10Choices.read(choices, cleaned, pending, in_force=in_force.active(character))
    panel = Panel(system="t10", template=TEMPLATE, errors=form.messages)
    modifiers = (pending or {}).get("modifiers") or {}
    shaping = conditions.shaping(
        form,
        modifiers,
        attribute=str(form.cleaned.get("attribute") or ""),
        skill=str(form.cleaned.get("skill") or ""),
    )
    panel.context = _context(form, cleaned, pending) | {
        "conditions": conditions.panel_rows(
            shaping, form.raw("use") or [], form.raw("attempt") or []
        )
    }
    if panel.errors:
        return panel
    base = _base(form)
    sources = _sources(form, _chosen_items(form), modifiers)
    sources += [in_force.as_source(condition) for condition in shaping.applied]
    pool = base + sum(entry["amount"] for entry in sources if entry["kind"] == "pool")
    params = {"pool": pool, "difficulty": _difficulty(form, sources)}
    panel.after = conditions.after_roll(shaping, form, lambda outcome: outcome in SUCCESS_KEYS)
    try:
        odds = engine.odds(engine.parse_params(params))
    except EngineError as error:
        panel.errors.setdefault("", []).append(str(error))
        return panel
    _show(panel, form, base, params, sources, odds)
    return panel


class T10Choices(conditions.ConditionChoices, PanelForm):
    """A T10 test as the player chooses it. On a called test the attribute and the skill are the
    GM's target, and the circumstance dice and the difficulty the GM's (added on the GM's card):
    whatever is posted for them, the player's own circumstance dice stay 0."""

    attribute = Name()
    skill = Name()
    item = Names()
    circumstance = WholeNumber(
        -MAX_CIRCUMSTANCE,
        MAX_CIRCUMSTANCE,
        gettext_lazy("Circumstance dice must be a whole number from −%(max)s to +%(max)s."),
        max=MAX_CIRCUMSTANCE,
    )
    circumstance_source = SourceText(
        NAME_MAX,
        gettext_lazy("Say where the dice come from in at most %(max)s characters."),
        max=NAME_MAX,
    )
    difficulty = WholeNumber(
        engine.MIN_DIFFICULTY,
        engine.MAX_DIFFICULTY,
        gettext_lazy("The difficulty is a whole number from %(lo)s to %(hi)s."),
        empty=engine.DEFAULT_DIFFICULTY,
        lo=engine.MIN_DIFFICULTY,
        hi=engine.MAX_DIFFICULTY,
    )
    # The sheet's, as ``read`` finds them.
    attributes: dict[str, dict[str, Any]]
    skills: dict[str, dict[str, Any]]
    items: list[dict[str, Any]]
    gm_difficulty: int | None

    @classmethod
    def read(cls, choices, cleaned: Mapping[str, Any], pending=None, in_force=()) -> T10Choices:
        """The choices for this sheet; ``pending``'s target and the GM's numbers fixed;
        ``in_force`` the character's conditions (rolls.conditions.in_force.active)."""
        fixed = dict((pending or {}).get("target") or {})
        gm_difficulty = ((pending or {}).get("modifiers") or {}).get("difficulty")
        if pending is not None:
            fixed |= {
                "circumstance": 0,
                "circumstance_source": "",
                "difficulty": engine.DEFAULT_DIFFICULTY if gm_difficulty is None else gm_difficulty,
            }
        form = cls(choices, fixed=fixed)
        form.attributes = {row["name"]: row for row in cleaned["attributes"]}
        form.skills = {row["name"]: row for row in cleaned["skills"]}
        form.items = [row for row in cleaned["equipment"] if row["dice"]]
        form.gm_difficulty = gm_difficulty
        form.in_force = list(in_force)
        if gm_difficulty is not None:
            difficulty = form.field_of("difficulty", WholeNumber)
            difficulty.message = gettext_lazy(
                "The GM set difficulty %(set)s; T10 difficulties go from %(lo)s to %(hi)s."
            )
            difficulty.params |= {"set": gm_difficulty}
        return form

    def clean_attribute(self) -> str:
        name = self.cleaned_data["attribute"]
        if name not in self.attributes:
            raise ValidationError(
                _("Choose the attribute to test.")
                if self.attributes
                else _("The sheet has no attributes yet; add one to test it.")
            )
        return name

    def clean_skill(self) -> str:
        name = self.cleaned_data["skill"]
        if name and name not in self.skills:
            raise ValidationError(not_on_sheet(name))  # forged, or renamed since
        return name

    def clean_item(self) -> list[str]:
        ticked = set(self.cleaned_data["item"])
        for name in sorted(ticked - {row["name"] for row in self.items})[:1]:
            raise ValidationError(not_on_sheet(name))
        return sorted(ticked)


def _context(form: T10Choices, cleaned: Mapping[str, Any], pending) -> dict[str, Any]:
    """What the panel shows of the choices, as chosen (or as posted, where they are wrong)."""
    ticked = set(form.value("item") or [])
    return {
        "attributes": cleaned["attributes"],
        "skills": cleaned["skills"],
        "items": [(row, signed(row["dice"]), row["name"] in ticked) for row in form.items],
        "chosen_attribute": form.value("attribute"),
        "chosen_skill": form.cleaned.get("skill", ""),
        "circumstance": form.value("circumstance"),
        "circumstance_source": " ".join(str(form.value("circumstance_source") or "").split()),
        "max_circumstance": MAX_CIRCUMSTANCE,
        "name_max": NAME_MAX,
        "difficulty": form.value("difficulty"),
        "difficulties": range(engine.MIN_DIFFICULTY, engine.MAX_DIFFICULTY + 1),
        "default_difficulty": engine.DEFAULT_DIFFICULTY,
        "gm_difficulty": form.gm_difficulty,
        "pending": pending,
    }


def _difficulty(form: T10Choices, sources) -> int:
    """The difficulty chosen (or the GM's) moved by the conditions that change it, kept to
    T10's 4..10 (RULES.md 3.2: a condition cannot make a test the rules do not have)."""
    moved = form.cleaned["difficulty"] + sum(
        entry["amount"] for entry in sources if entry["kind"] == "difficulty"
    )
    return max(engine.MIN_DIFFICULTY, min(engine.MAX_DIFFICULTY, moved))


def _base(form: T10Choices) -> int:
    """Attribute plus skill: the pool before items, circumstances and the GM's dice."""
    skill = form.cleaned["skill"]
    return form.attributes[form.cleaned["attribute"]]["value"] + (
        form.skills[skill]["value"] if skill else 0
    )


def _chosen_items(form: T10Choices) -> list[dict[str, Any]]:
    ticked = set(form.cleaned["item"])
    return [row for row in form.items if row["name"] in ticked]


def _sources(form: T10Choices, chosen_items, modifiers: Mapping[str, Any]) -> list:
    """Every die added to or taken from the pool, with where it comes from."""
    sources = [source("pool", row["dice"], row["name"]) for row in chosen_items]
    circumstance = form.cleaned["circumstance"]
    if circumstance:
        said = form.cleaned["circumstance_source"]
        sources.append(source("pool", circumstance, said or words("circumstances")))
    return sources + _gm_dice(modifiers)


def _show(panel: Panel, form: T10Choices, base: int, params, sources, odds) -> None:
    """The ready panel: its label, the roll's params and the odds of each outcome and result."""
    attribute, skill = form.cleaned["attribute"], form.cleaned["skill"]
    pool, difficulty = params["pool"], params["difficulty"]
    panel.label = _label(
        attribute, form.attributes[attribute]["value"], skill, form.skills, pool, difficulty
    )
    panel.params = params
    panel.sources = sources
    panel.odds = [(key, odds["odds"][key]) for key in reversed(engine.OUTCOME_KEYS)]
    panel.success = sum(odds["odds"][key] for key in SUCCESS_KEYS)
    panel.context |= {
        "base": base,
        "pool": pool,
        "automatic": pool <= 0,
        # What the dice are read against, conditions included (the select shows the choice).
        "effective_difficulty": difficulty,
        "results": _results(odds["result_odds"]),
        "average": sum(int(result) * p for result, p in odds["result_odds"].items()),
    }


def _gm_dice(modifiers: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The GM's dice of a pending test: bonus dice join the pool, penalty dice leave it."""
    sources = []
    for entry in modifiers.get("dice", []):
        sign = {"bonus": 1, "penalty": -1}.get(entry.get("kind"))
        if sign is not None:
            sources.append(source("pool", sign * entry["amount"], entry["source"]))
    return sources


# --- The GM's side: calling for a test and shaping it -------------------------------------------

#: What the GM may change on a pending T10 test (see rolls.pending.actions.OPERATIONS).
GM_CONTROLS = ("bonus", "penalty", "difficulty")
#: The GM's numbers and their ranges (RULES.md section 3: 4..10, usually 7).
GM_LIMITS = {
    "difficulty": Limit(
        engine.MIN_DIFFICULTY,
        engine.MAX_DIFFICULTY,
        gettext_lazy("A T10 difficulty is a whole number from %(low)s to %(high)s (usually 7)."),
    ),
}


def target_fields(character, campaign) -> list[dict[str, Any]]:
    """The fields of the GM's "call for a test" form: the attribute and the skill."""
    cleaned, _errors = sheet.validate(character.data, campaign, creating=False)
    return [
        {
            "name": "attribute",
            "label": _("Attribute (Grundegenskap)"),
            "type": "select",
            "choices": [
                (row["name"], f"{row['name']} {row['value']}") for row in cleaned["attributes"]
            ],
        },
        {
            "name": "skill",
            "label": _("Skill (Färdighet)"),
            "type": "select",
            "choices": [("", _("none"))]
            + [(row["name"], f"{row['name']} {row['value']}") for row in cleaned["skills"]],
        },
    ]


class T10Target(PanelForm):
    """The GM's call: an attribute of the sheet and one of its skills, or none."""

    attribute = Name()
    skill = Name()
    # The sheet's names, as ``target_from_post`` finds them.
    attributes: set[str]
    skills: set[str]

    def clean_attribute(self) -> str:
        if self.cleaned_data["attribute"] not in self.attributes:
            raise ValidationError(_("Choose the attribute to test."))
        return self.cleaned_data["attribute"]

    def clean_skill(self) -> str:
        if self.cleaned_data["skill"] and self.cleaned_data["skill"] not in self.skills:
            raise ValidationError(_("Choose one of the character's skills, or none."))
        return self.cleaned_data["skill"]


def target_from_post(
    post, character, campaign, prefix: str = ""
) -> tuple[dict[str, Any], list[str]]:
    """The target the GM chose, or the messages saying what is wrong with it; its fields under
    ``prefix`` (a Django form's: ``a`` reads ``a-attribute``)."""
    cleaned, _errors = sheet.validate(character.data, campaign, creating=False)
    form = T10Target(post, prefix=prefix)
    form.attributes = {row["name"] for row in cleaned["attributes"]}
    form.skills = {row["name"] for row in cleaned["skills"]}
    target = {name: str(form.raw(name) or "") for name in ("attribute", "skill")}
    return target, [message for messages in form.messages.values() for message in messages]


def _label(attribute: str, value: int, skill: str, skills: Mapping, pool: int, difficulty: int):
    parts = f"{attribute} {value}"
    if skill:
        parts += f" + {skill} {skills[skill]['value']}"
    return words("t10_test", parts=parts, pool=pool, difficulty=difficulty)


def _results(result_odds: Mapping[str, float]) -> list[dict[str, Any]]:
    """The net results worth a glance, worst first: rare ends folded into "or less"/"or more"."""
    results = sorted((int(result), p) for result, p in result_odds.items())
    shown = [r for r, p in results if p >= RESULT_FLOOR] or [max(results, key=lambda rp: rp[1])[0]]
    low, high = min(shown), max(shown)
    rows: list[dict[str, Any]] = []
    for result in range(low, high + 1):
        if result == low:
            p = sum(q for r, q in results if r <= low)
        elif result == high:
            p = sum(q for r, q in results if r >= high)
        else:
            p = next((q for r, q in results if r == result), 0.0)
        rows.append(
            {
                "result": result,
                "p": p,
                "scale": 0.0,
                "outcome": engine.outcome_for(result),
                "or_less": result == low and results[0][0] < low,
                "or_more": result == high and results[-1][0] > high,
            }
        )
    tallest = max(row["p"] for row in rows)
    for row in rows:
        row["scale"] = row["p"] / tallest  # bar heights: the likeliest result fills its bar
    return rows
