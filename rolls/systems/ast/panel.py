"""The Alternative Test System test panel (RULES.md section 2): the applicable items of the sheet
as white dice, FUNT spent as more of them, negative states and other hindrances on the test
level, the black die's six levels against the white dice, and the exact odds.

A test the GM calls for (a pending test) names nothing fixed: the player still ticks what
applies; the GM adds challenge points (Punkty Wyzwań) taken from the scene, and temporary
hindrances, on the test level. The player's temporary advantages (one white die each) and the
temporary hindrances cancel each other one for one (RULES.md 2.7): the sources list both and the
pairs cancelled.

What may follow the roll (the FUNT re-roll, another white die read, the player's when eased
and the GM's when hindered) is in ``rolls.systems.ast.follow_ups``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy

from campaigns.models import Scene
from rolls.conditions import actions as conditions
from rolls.conditions import in_force
from rolls.engine import EngineError
from rolls.engine import ast as engine
from rolls.engine.core import OUTCOMES, SUCCESSES
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
from sheets.systems import ast as sheet
from sheets.systems.ast import view as read_sheet
from sheets.systems.named_lists import NAME_MAX

TEMPLATE = "systems/ast/panel.html"
#: Other hindrances a player may type for one test (the sheet's own states go up to 10 each).
MAX_HINDRANCE = 20
#: Temporary advantages a player may claim for one test (one white die each).
MAX_ADVANTAGE = 20
#: Lists whose entries give one white die each (positive states too: RULES.md 2, Sheet).
ITEM_LISTS = tuple(spec.key for spec in sheet.LISTS if spec.positive)


def build(character, campaign, choices, pending: dict[str, Any] | None = None) -> Panel:
    cleaned, _errors = sheet.validate(character.data, campaign, creating=False)
    form = ASTChoices.read(choices, cleaned, pending)
    form.in_force = in_force.active(character)
    panel = Panel(system="ast", template=TEMPLATE, errors=form.messages)
    modifiers = (pending or {}).get("modifiers") or {}
    found = conditions.shaping(form, modifiers)
    panel.context = _context(form, cleaned, pending) | {
        "conditions": conditions.panel_rows(found, form.raw("use") or [], form.raw("attempt") or [])
    }
    if panel.errors:
        return panel
    sources = _sources(form, cleaned, modifiers, found.applied)
    params = _params(sources)
    try:
        parsed = engine.parse_params(params)
        odds = engine.odds(parsed)["odds"]
    except EngineError as error:
        panel.errors.setdefault("", []).append(str(error))
        return panel
    _show(panel, params, sources, parsed, odds)
    panel.spend = {"funt": form.cleaned["funt"]} if form.cleaned["funt"] else {}
    panel.on_result = gain_funt(0)
    panel.after = conditions.after_roll(found, form, lambda outcome: outcome in SUCCESSES)
    return panel


class ASTChoices(conditions.ConditionChoices, PanelForm):
    """An AST test as the player chooses it: what applies, ticked in the sheet's lists, FUNT spent
    and other hindrances. On a called test the temporary hindrances are the GM's, who adds
    challenge points to the test level instead: the player's own field stays 0 (the sheet's
    negative states still count, ticked by the player like every other item).

    Each ticked entry is posted as ``item=<list>:<name>``. A panel opened from an entry of the
    sheet gets its roll target instead (``list=<list>&item=<name>``) and starts with it ticked.
    """

    list = Name()
    item = Names()
    funt = WholeNumber(0, 0, gettext_lazy("You can spend from 0 to %(n)s FUNT."))
    hindrance = WholeNumber(
        0,
        MAX_HINDRANCE,
        gettext_lazy("Other hindrances must be a whole number from 0 to %(max)s."),
        max=MAX_HINDRANCE,
    )
    hindrance_source = SourceText(
        NAME_MAX,
        gettext_lazy("Say where the hindrance comes from in at most %(max)s characters."),
        max=NAME_MAX,
    )
    advantage = WholeNumber(
        0,
        MAX_ADVANTAGE,
        gettext_lazy("Temporary advantages must be a whole number from 0 to %(max)s."),
        max=MAX_ADVANTAGE,
    )
    advantage_source = SourceText(
        NAME_MAX,
        gettext_lazy("Say where the advantage comes from in at most %(max)s characters."),
        max=NAME_MAX,
    )

    # The names in each of the sheet's lists, as ``read`` finds them.
    names: dict[str, set[str]]

    @classmethod
    def read(cls, choices, cleaned: Mapping[str, Any], pending=None) -> ASTChoices:
        """The choices for this sheet; on a called test the hindrances fixed at none."""
        fixed = {"hindrance": 0, "hindrance_source": ""} if pending is not None else {}
        form = cls(choices, fixed=fixed)
        form.names = {spec.key: {e["name"] for e in cleaned[spec.key]} for spec in sheet.LISTS}
        funt = form.field_of("funt", WholeNumber)
        funt.high, funt.params = cleaned["funt"], {"n": cleaned["funt"]}
        return form

    def clean_item(self) -> dict[str, set[str]]:
        """The names ticked in each list; a posted one the sheet does not hold (forged, or
        renamed since the page was loaded) is refused."""
        ticked: dict[str, set[str]] = {key: set() for key in self.names}
        opened_list = self.cleaned_data.get("list", "")
        for value in self.cleaned_data["item"]:
            key, _colon, name = value.partition(":")
            if key in self.names and name in self.names[key]:
                ticked[key].add(name)
            elif opened_list in self.names and value in self.names[opened_list]:
                ticked[opened_list].add(value)
            elif value:
                raise ValidationError(not_on_sheet(name or value))
        return ticked

    def ticked(self) -> dict[str, set[str]]:
        """What the page shows ticked: the clean choice, or what was valid of a refused one."""
        if "item" in self.cleaned:
            return self.cleaned["item"]
        ticked: dict[str, set[str]] = {key: set() for key in self.names}
        opened_list = self.value("list")
        for value in self.value("item") or []:
            key, _colon, name = value.partition(":")
            if key in self.names and name in self.names[key]:
                ticked[key].add(name)
            elif opened_list in self.names and value in self.names[opened_list]:
                ticked[opened_list].add(value)
        return ticked


def _context(form: ASTChoices, cleaned: Mapping[str, Any], pending) -> dict[str, Any]:
    """What the panel shows of the choices, as chosen (or as posted, where they are wrong)."""
    ticked = form.ticked()
    return {
        "lists": [
            (spec, [(entry, entry["name"] in ticked[spec.key]) for entry in cleaned[spec.key]])
            for spec in sheet.LISTS
        ],
        "funt": form.cleaned.get("funt", 0),
        "funt_available": cleaned["funt"],
        "hindrance": form.value("hindrance"),
        "hindrance_source": " ".join(str(form.value("hindrance_source") or "").split()),
        "advantage": form.value("advantage"),
        "advantage_source": " ".join(str(form.value("advantage_source") or "").split()),
        "max_advantage": MAX_ADVANTAGE,
        "max_hindrance": MAX_HINDRANCE,
        "name_max": NAME_MAX,
        "pending": pending,
    }


def _sources(
    form: ASTChoices, cleaned: Mapping[str, Any], modifiers, lasting=()
) -> list[dict[str, Any]]:
    """The white dice (items, positive states, FUNT, temporary advantages) and the test level's
    modifiers (negative states, temporary hindrances, the GM's challenge points), each with where
    it comes from; then the advantage-and-hindrance pairs that cancel (RULES.md 2.7). ``lasting``
    are the character's conditions on this test: temporary advantages and hindrances left by an
    earlier outcome (issue 15), which cancel like the others."""
    ticked = form.cleaned["item"]
    chosen = {key: [e for e in cleaned[key] if e["name"] in ticked[key]] for key in ticked}
    items = [entry for key in ITEM_LISTS for entry in chosen[key]]
    negatives = chosen["negative_states"]
    funt, hindrance = form.cleaned["funt"], form.cleaned["hindrance"]
    advantage = form.cleaned["advantage"]
    sources = []
    if items:
        names = ", ".join(entry["name"] for entry in items)
        sources.append(source("white", len(items), names))
    if funt:
        sources.append(source("funt", funt, words("one_white_die_each")))
    if advantage:
        said = form.cleaned["advantage_source"]
        sources.append(source("advantage", advantage, said or words("temporary_advantages")))
    if negatives:
        total = sum(state["value"] for state in negatives)
        sources.append(source("level", total, ", ".join(map(_valued, negatives))))
    if hindrance:
        said = form.cleaned["hindrance_source"]
        sources.append(source("level", hindrance, said or words("other_hindrances")))
    gm_hindrances = _gm_hindrances(modifiers)
    sources += [source("hindrance", entry["amount"], entry["source"]) for entry in gm_hindrances]
    challenge = _challenge(modifiers)
    if challenge:
        sources.append(source("challenge", challenge))
    left = [in_force.as_source(condition) for condition in lasting]
    sources += left
    advantage += sum(entry["amount"] for entry in left if entry["kind"] == "advantage")
    hindrance += sum(entry["amount"] for entry in left if entry["kind"] == "hindrance")
    # Only temporary ones cancel: the sheet's negative states and challenge points stay.
    cancelled = min(advantage, hindrance + sum(entry["amount"] for entry in gm_hindrances))
    if cancelled:
        sources.append(source("cancelled", cancelled, words("cancel_one_for_one")))
    return sources


def _params(sources: list[dict[str, Any]]) -> dict[str, int]:
    """White dice from the white, FUNT and advantage sources; the level from the rest; each
    cancelled pair takes one from both."""
    amounts = {kind: 0 for kind in WHITE_KINDS + LEVEL_KINDS + ("cancelled",)}
    for entry in sources:
        amounts[entry["kind"]] += entry["amount"]
    cancelled = amounts["cancelled"]
    white = sum(amounts[kind] for kind in WHITE_KINDS) - cancelled
    level_mod = sum(amounts[kind] for kind in LEVEL_KINDS) - cancelled
    return {"white": white, "level_mod": level_mod}


#: Source kinds that give white dice, and those that raise the test level.
WHITE_KINDS = ("white", "funt", "advantage")
LEVEL_KINDS = ("level", "hindrance", "challenge")


def _gm_hindrances(modifiers: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The GM's temporary hindrances on a called test (``add_dice`` of kind ``hindrance``)."""
    entries = modifiers.get("dice") or []
    return [
        entry
        for entry in entries
        if isinstance(entry, dict)
        and entry.get("kind") == "hindrance"
        and isinstance(entry.get("amount"), int)
        and not isinstance(entry.get("amount"), bool)
        and entry["amount"] > 0
    ]


def _show(panel: Panel, params, sources, parsed: engine.Params, odds) -> None:
    """The ready panel: its label, the roll's params, the odds and the black die's levels."""
    white, level_mod = params["white"], params["level_mod"]
    panel.label = _label(white, level_mod)
    panel.params = params
    panel.sources = sources
    panel.odds = [(key, odds[key]) for key in reversed(OUTCOMES)]
    panel.success = sum(odds[key] for key in SUCCESSES)
    panel.context |= {
        "white": white,
        "rolled_white": parsed.rolled_white,
        "level_mod": level_mod,
        "level_low": 1 + level_mod,
        "level_high": engine.SIDES + level_mod,
        "levels": _levels(parsed),
        "modes": _modes(parsed),
    }


def _challenge(modifiers: Mapping[str, Any]) -> int:
    value = modifiers.get("challenge", 0)
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


# --- The GM's side: calling for a test and shaping it -------------------------------------------

#: What the GM may change on a pending AST test (see rolls.pending.actions.OPERATIONS): challenge
#: points and temporary hindrances, each on the test level.
GM_CONTROLS = ("challenge", "hindrance")

GM_LIMITS = {
    "hindrance": Limit(
        1,
        MAX_HINDRANCE,
        gettext_lazy("A temporary hindrance raises the test level by %(low)s to %(high)s."),
    ),
}


def gm_dynamic_limits(panel: Panel, pending) -> dict[str, Limit]:
    """Challenge points: what this test holds plus what is left in the scene's pool (RULES.md:
    one per player at the start of each scene)."""
    held = (pending.modifiers or {}).get("challenge", 0) if pending is not None else 0
    held = held if isinstance(held, int) and not isinstance(held, bool) else 0
    scene = Scene.objects.filter(session_id=getattr(pending, "session_id", None))
    left = scene.order_by("-number").values_list("challenge_points", flat=True).first() or 0
    message = gettext_lazy(
        "Challenge points: from %(low)s to %(high)s (what this test holds and what is left "
        "in the scene)."
    )
    return {"challenge": Limit(0, held + left, message)}


def target_fields(character, campaign) -> list[dict[str, Any]]:
    """An AST test fixes nothing beforehand: the player ticks what applies to it."""
    return []


def target_from_post(
    post, character, campaign, prefix: str = ""
) -> tuple[dict[str, Any], list[str]]:
    """Nothing to read, under any ``prefix``: an AST call fixes nothing."""
    return {}, []


# --- the test -------------------------------------------------------------------------------


def _valued(state: Mapping[str, Any]) -> str:
    return state["name"] if state["value"] == 1 else f"{state['name']} {state['value']}"


def _label(white: int, level_mod: int) -> dict[str, Any]:
    dice = words("white_dice", n=white) if white else words("no_white_dice")
    level = words("black_d6_plus", n=level_mod) if level_mod else words("black_d6")
    return words("ast_test", dice=dice, level=level)


def _levels(params: engine.Params) -> list[dict[str, Any]]:
    """Each face of the black die: the test level it makes and the mode that follows."""
    return [
        {"black": black, "level": black + params.level_mod, "mode": _mode(params, black)}
        for black in range(1, engine.SIDES + 1)
    ]


def _mode(params: engine.Params, black: int) -> str:
    return engine.mode_for(params.white, black + params.level_mod)


def _modes(params: engine.Params) -> list[dict[str, Any]]:
    """Eased, even and hindered with the black faces that give each, and their chance."""
    out = []
    for mode in (engine.EASED, engine.EVEN, engine.HINDERED):
        faces = [b for b in range(1, engine.SIDES + 1) if _mode(params, b) == mode]
        if faces:
            span = str(faces[0]) if len(faces) == 1 else f"{faces[0]}–{faces[-1]}"
            out.append({"mode": mode, "faces": span, "p": len(faces) / engine.SIDES})
    return out


# --- the FUNT a roll gives (the test's and each reading that follows it) ------------------


def gain_funt(replaced: int):
    """``on_result``: the FUNT a multiple gives, less what the reading it replaces gave."""

    def gain(data: dict[str, Any], result: engine.Result) -> None:
        change = result.funt_gained - replaced
        if change:
            data["funt"] = max(sheet.FUNT_MIN, min(sheet.FUNT_MAX, read_sheet(data).funt + change))

    return gain
