"""The Alternative Test System test panel (RULES.md section 2): the applicable items of the sheet
as white dice, FUNT spent as more of them, negative states and other hindrances on the test
level, the black die's six levels against the white dice, and the exact odds.

A test the GM calls for (a pending test) names nothing fixed: the player still ticks what
applies; the GM adds challenge points (Punkty Wyzwań) taken from the scene, and temporary
hindrances, on the test level. The player's temporary advantages (one white die each) and the
temporary hindrances cancel each other one for one (RULES.md 2.7): the sources list both and the
pairs cancelled.

After the roll: the FUNT re-roll (once per test, N FUNTs re-roll N white dice) and, when the
test is eased, the player's choice of the white die read ("choose": the same faces read again
with another die). Either one settles the test's first entry; a re-roll may still be read with
another die when eased. The FUNT a multiple gives follows the test's final reading: a reading
that replaces another adds or takes back the difference (never below 0).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from campaigns.models import Scene
from rolls.conditions import actions as conditions
from rolls.conditions import in_force
from rolls.engine import EngineError
from rolls.engine import ast as engine
from rolls.engine.core import OUTCOMES, RANK, SUCCESSES
from rolls.labels import OUTCOME_LABELS
from rolls.panels import (
    FollowUp,
    Indices,
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
from rolls.words import words
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
    panel.on_result = _gain_funt(0)
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

    @classmethod
    def read(cls, choices, cleaned: Mapping[str, Any], pending=None) -> ASTChoices:
        """The choices for this sheet; on a called test the hindrances fixed at none."""
        fixed = {"hindrance": 0, "hindrance_source": ""} if pending is not None else {}
        form = cls(choices, fixed=fixed)
        form.names = {spec.key: {e["name"] for e in cleaned[spec.key]} for spec in sheet.LISTS}
        form.fields["funt"].high = cleaned["funt"]
        form.fields["funt"].params = {"n": cleaned["funt"]}
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


def follow_ups(roll, character, campaign) -> list[FollowUp]:
    """What the rules allow after this entry: nothing once something followed it."""
    if roll.system != "ast" or roll.kind not in ("test", "reroll") or roll.follow_ups.exists():
        return []
    try:
        first = _rebuild(roll)
    except EngineError:
        return []
    offered = []
    funt = _sheet_funt(character)
    if roll.kind == "test" and funt >= 1:
        dice = [
            (str(index), _die_text(index, face, index == first.read_index))
            for index, face in enumerate(first.white)
        ]
        offered.append(
            FollowUp(
                "reroll",
                _("Re-roll the ticked dice with FUNT"),
                (
                    {
                        "type": "checkboxes",
                        "name": "die",
                        "label": _(
                            "FUNT re-roll, once per test: tick the white dice to re-roll, "
                            "one FUNT each (you have %(n)s)"
                        )
                        % {"n": funt},
                        "choices": dice,
                    },
                ),
            )
        )
    readings = _other_readings(first)
    if readings:
        offered.append(
            FollowUp(
                "choose",
                _("Read this die instead"),
                (
                    {
                        "type": "radio",
                        "name": "choice",
                        "label": _(
                            "Eased: you choose the white die read. Reading another one settles "
                            "the test (no re-roll afterwards)."
                        ),
                        "choices": readings,
                    },
                ),
            )
        )
    return offered


def build_follow_up(kind: str, roll, character, campaign, choices) -> Panel:
    panel = Panel(system="ast", template=TEMPLATE, label=roll.label_words)
    try:
        first = _rebuild(roll)
    except EngineError as error:
        panel.errors[""] = [str(error)]
        return panel
    if kind == "reroll":
        _reroll(panel, roll, first, character, choices)
    elif kind == "choose":
        _choose(panel, roll, first, choices)
    else:
        panel.errors[""] = [_("That can no longer be done with this roll.")]
    return panel


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


def target_from_post(post, character, campaign) -> tuple[dict[str, Any], list[str]]:
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


# --- after the roll -------------------------------------------------------------------------


def _rebuild(roll) -> engine.Result:
    """The entry's result, re-resolved from its stored params and faces."""
    params = engine.parse_params(roll.params)
    return engine.resolve(params, engine.parse_faces(params, roll.faces))


def _sheet_funt(character) -> int:
    return read_sheet(character.data).funt


def _die_text(index: int, face: int, read: bool) -> str:
    text = _("die %(n)s: %(face)s") % {"n": index + 1, "face": face}
    return _("%(die)s (read)") % {"die": text} if read else text


def _other_readings(first: engine.Result, mode: str = engine.EASED) -> list[tuple[str, str]]:
    """When the test is ``mode`` and a white die is read, one white die per other face that may
    be read instead: best first when eased (the player's choice), worst first when hindered
    (the GM's)."""
    if first.mode != mode or first.read != "white":
        return []
    readings = []
    seen = {first.face}
    sign = -1 if mode == engine.EASED else 1
    order = sorted(range(len(first.white)), key=lambda i: sign * RANK[_outcome(first.white[i])])
    for index in order:
        face = first.white[index]
        if face in seen:
            continue
        seen.add(face)
        text = _("%(face)s: %(outcome)s") % {
            "face": face,
            "outcome": OUTCOME_LABELS[_outcome(face)],
        }
        extra = first.white.count(face) - 1
        if extra:
            text += " " + _("(+%(n)s “and”, +1 FUNT)") % {"n": extra}
        readings.append((str(index), text))
    return readings


def _outcome(face: int) -> str:
    return engine.FACE_OUTCOME[face]


class DiceToReroll(PanelForm):
    """The white dice ticked for the FUNT re-roll, one FUNT each; a box the roll never had is
    ignored."""

    die = Indices()

    @classmethod
    def read(cls, choices, dice: int, funt: int) -> DiceToReroll:
        form = cls(choices)
        form.dice, form.funt = dice, funt
        return form

    def clean_die(self) -> list[int]:
        indices = sorted({i for i in self.cleaned_data["die"] if 0 <= i < self.dice})
        if not indices:
            raise ValidationError(_("Tick the white dice to re-roll (one FUNT each)."))
        if len(indices) > self.funt:
            raise ValidationError(
                ngettext(
                    "Re-rolling %(n)s die costs %(n)s FUNT; you have %(have)s.",
                    "Re-rolling %(n)s dice costs %(n)s FUNT; you have %(have)s.",
                    len(indices),
                )
                % {"n": len(indices), "have": self.funt}
            )
        return indices


def _reroll(panel: Panel, roll, first: engine.Result, character, choices) -> None:
    form = DiceToReroll.read(choices, len(first.white), _sheet_funt(character))
    if form.messages:
        panel.errors |= form.messages
        return
    indices = form.cleaned["die"]
    dice = ", ".join(f"{i + 1} ({first.white[i]})" for i in indices)
    panel.params = {key: value for key, value in roll.params.items() if key != "choice"}
    panel.sources = [source("funt", len(indices), words("rerolled_white_dice", dice=dice))]
    panel.spend = {"funt": len(indices)}
    panel.on_result = _gain_funt(first.funt_gained)
    panel.resolver = lambda module, params, rng: engine.roll_reroll(first, indices, rng)


class DieToRead(PanelForm):
    """Which of the white dice offered is read instead: the player's choice when eased, the
    GM's when hindered."""

    choice = Name()

    @classmethod
    def read(cls, choices, offered: set[str]) -> DieToRead:
        form = cls(choices)
        form.offered = offered
        return form

    def clean_choice(self) -> int:
        try:
            index = int(self.cleaned_data["choice"])
        except ValueError:
            index = None
        if index is None or str(index) not in self.offered:
            raise ValidationError(_("Choose one of the white dice offered."))
        return index


def _choose(panel: Panel, roll, first: engine.Result, choices) -> None:
    _read_instead(panel, roll, first, choices, engine.EASED)


def _read_instead(panel: Panel, roll, first: engine.Result, choices, mode: str) -> None:
    """Another white die of the same faces read: the player's when eased, the GM's when
    hindered; the FUNT of a multiple follows the new reading."""
    form = DieToRead.read(choices, {value for value, _text in _other_readings(first, mode)})
    if form.messages:
        panel.errors |= form.messages
        return
    index = form.cleaned["choice"]
    faces = engine.Faces(first.black, first.white)
    panel.params = {**roll.params, "choice": index}
    if mode == engine.HINDERED:
        # The log names the GM's pick: which white die, and the face it shows.
        panel.sources = [source("gm_read", first.white[index], words("white_die_n", n=index + 1))]
    panel.on_result = _gain_funt(first.funt_gained)
    panel.resolver = lambda module, params, rng: engine.resolve(params, faces)


# --- the GM's choice of the white die read, when hindered ----------------------------------------

#: The log's kind of the GM's reading of another white die (rolls.labels.KIND_LABELS).
GM_CHOOSE = "gm_choose"
#: Why the GM has nothing to choose after a roll: only a hindered test's white die is the GM's.
GM_NOTHING_TO_CHOOSE = gettext_lazy(
    "This roll is not hindered, or its white dice all show one face: there is no die for you "
    "to choose."
)


def gm_follow_ups(roll, character, campaign) -> list[FollowUp]:
    """Hindered, the GM chooses the white die read (RULES.md 2.3; the worst is read by default):
    offered on the test or its re-roll until something follows it."""
    if roll.system != "ast" or roll.kind not in ("test", "reroll") or roll.follow_ups.exists():
        return []
    try:
        first = _rebuild(roll)
    except EngineError:
        return []
    readings = _other_readings(first, engine.HINDERED)
    if not readings:
        return []
    label = _(
        "Hindered: you choose the white die read (now %(face)s: %(outcome)s, the worst). "
        "Reading another one settles the test."
    ) % {"face": first.face, "outcome": OUTCOME_LABELS[first.outcome]}
    field = {"type": "radio", "name": "choice", "label": label, "choices": readings}
    return [FollowUp(GM_CHOOSE, _("Read this die instead"), (field,))]


def build_gm_follow_up(kind: str, roll, character, campaign, choices) -> Panel:
    """The GM's reading of another white die of a hindered test: the same faces read again."""
    panel = Panel(system="ast", template=TEMPLATE, label=roll.label_words)
    try:
        first = _rebuild(roll)
    except EngineError as error:
        panel.errors[""] = [str(error)]
        return panel
    if kind != GM_CHOOSE:
        panel.errors[""] = [_("That can no longer be done with this roll.")]
        return panel
    _read_instead(panel, roll, first, choices, engine.HINDERED)
    return panel


def _gain_funt(replaced: int):
    """``on_result``: the FUNT a multiple gives, less what the reading it replaces gave."""

    def gain(data: dict[str, Any], result: engine.Result) -> None:
        change = result.funt_gained - replaced
        if change:
            data["funt"] = max(sheet.FUNT_MIN, min(sheet.FUNT_MAX, read_sheet(data).funt + change))

    return gain
