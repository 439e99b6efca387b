"""The Caerbannog 2026 test panel (RULES.md section 4): a skill (or a combined test of several,
or a defence), the difficulty by name or number, easing and hindering factors, a fixed modifier,
the Rozmach pool from the sheet, the exact odds; after the roll a boost, heroic effort and
re-rolls from abilities, each logged as its own entry linked to the roll it follows.

Decisions of this panel (the rules leave them open):

- A defence may be tested on its own (three dice of its level's size) or join a combined test
  (RULES.md 8: "z różnych umiejętności lub obron"). What is tested is kept in the order it was
  named: the first is the main one, whether a skill or a defence. The player orders them on the
  panel (each moves up or down; a new one joins last); on a called test the GM's order stands.
- A defence has no category bonus, so a test whose main one is a defence offers no boost. A
  combined test's boost adds the main skill's category bonus, and a skill whose category bonus
  is 0 offers no boost (it would cost Rozmach for nothing).
- A test and its follow-ups form a chain: each follow-up follows the newest entry of the chain
  and carries the test's state (its faces and its boost). Follow-ups are offered only while the
  entry is the character's latest roll, in the session's current scene, and the sheet's Rozmach
  is still what that entry left; otherwise a later roll, a new scene or an edit of the sheet
  would be overwritten by an old test's pool.
- A re-roll comes from an ability (RULES.md's Decision), so a re-roll may follow a re-roll.
  Each names its ability (as the player writes it: the sheet keeps no list of abilities), the
  dice it re-rolls (none ticked means all of them) and its cost in Rozmach, paid when it is
  made. It replaces the dice and resolves them afresh from the pool the test started with, less
  the re-rolls' costs, so only the final roll generates Rozmach: the Rozmach the replaced dice
  gained never existed and cannot pay for a re-roll (**Decision**). A boost taken before the
  re-roll is undone with it (its Rozmach is not spent) and may be taken again on the new dice:
  the result is the same as carrying it over, but a boost can never land on a critical failure
  or on an empty pool.
- Heroic effort settles the test: nothing follows it, so it comes after any boost or re-roll.

A test the GM calls for (a pending test) fixes what is tested (skills and defences, in the GM's
order: the first is the main one), the form of a combined test (the "added" form is the GM's to
allow) and the difficulty. The GM's own controls: the difficulty (0..MAX_DIFFICULTY, as the call
form lists it), easing and hindering factors, and fixed modifiers each with its source.
**Decision**: on a called test those are the GM's alone (issue 13: a player must not override the
GM): a factor or modifier the player's ability or armour gives is told to the GM, who adds it on
the card with its source. The player's fields show the GM's values, disabled, and the server
ignores any value posted for them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import groupby
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import Max
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns import stored_text
from config.text import text_problem
from rolls.actions import ActionRefused
from rolls.conditions import actions as conditions
from rolls.conditions import in_force
from rolls.engine import EngineError, caerbannog
from rolls.engine.caerbannog_group import added_dice, combined_dice, draw_reroll
from rolls.labels import DIFFICULTY_NAMES, WORDS
from rolls.models import PendingTest, Roll
from rolls.opposed.actions import initiators_difficulty
from rolls.panels import (
    FollowUp,
    Indices,
    Limit,
    Name,
    Names,
    Panel,
    PanelForm,
    WholeNumber,
    not_on_sheet,
    source,
)
from rolls.systems.caerbannog import reactions, rozmach
from rolls.words import joined, words
from sheets.systems.caerbannog import DEFENCE_NAMES, defence_groups, skill_groups
from sheets.systems.caerbannog import view as read_sheet
from sheets.templatetags.sheet_tags import roman

TEMPLATE = "systems/caerbannog/panel.html"
MAX_FACTORS = 20  # easing or hindering factors a player may count in one test
MAX_DIFFICULTY = 20
MAX_MODIFIER = 20
SOURCE_MAX = 60
#: The most Rozmach one re-roll may cost (the pool never holds more, RULES.md).
REROLL_COST_MAX = 10
COMBINED, ADDED = "combined", "added"
#: What heroic effort may be paid with: the sheet's resource key and its name.
HEROIC_RESOURCES = ("wytrzymalosc", "determinacja")
#: Heroic effort paid with another resource, the one the GM allowed on a called test.
OTHER = "other"
FOLLOW_UP_KINDS = ("test", "reroll", "boost", "heroic")
#: The GM's call form names what is tested in ordered places, the first the main one; the
#: fourth is the one "above the third" that adds a die (RULES.md 8).
PLACES = ("tested", "tested_2", "tested_3", "tested_4")


def build(character, campaign, choices, pending: dict[str, Any] | None = None) -> Panel:
    """The panel for the posted choices; for a test the GM called (``pending``) its target is
    fixed and the GM's difficulty, factors and modifiers apply, each with its source."""
    data = character.data
    gm = _gm_modifiers((pending or {}).get("modifiers") or {})
    form = CaerbannogChoices.read(choices, data, pending, gm["difficulty"])
    form.in_force = in_force.active(character)
    panel = Panel(system="caerbannog", template=TEMPLATE, errors=form.messages)
    found = _states(form, pending)
    panel.context = _context(form, data, gm, pending) | {
        "conditions": conditions.panel_rows(found, form.raw("use") or [], form.raw("attempt") or [])
    }
    spending, guard = _spending(panel, form, character, campaign, gm)
    if panel.errors or not form.in_order():
        return panel
    tested, dice, bonus, what = _tested(form)
    states = len(found.applied)
    params = {
        "dice": list(dice),
        "difficulty": form.cleaned["difficulty"][0],
        "ease": _ease(form, gm, states),
        "modifier": form.cleaned["modifier"] + sum(entry["amount"] for entry in gm["entries"]),
        "bonus": bonus,
        "rozmach": spending.start,
    }
    try:
        odds = caerbannog.odds(caerbannog.parse_params(params))
    except EngineError as error:
        panel.errors.setdefault("", []).append(str(error))
        return panel
    panel.label = words(
        "caerbannog_test", what=what, dice=dice_text(dice), difficulty=params["difficulty"]
    )
    panel.params = params
    panel.sources = (
        _sources(form, gm, tested, dice, params["ease"], states)
        + [in_force.as_source(condition) for condition in found.applied]
        + rozmach.sources(spending)
    )
    _show(panel, form, params, odds)
    panel.after = conditions.after_roll(found, form, lambda outcome: outcome == caerbannog.SUCCESS)
    if guard is not None:
        panel.after = _then(guard, panel.after)
    if spending.changes:
        keep, pay = _keep_rozmach(spending.pool), rozmach.pay_lacking(spending.lacking)
        panel.on_result = lambda sheet, result: (keep(sheet, result), pay(sheet, result))
    return panel


def _spending(
    panel: Panel, form: CaerbannogChoices, character, campaign, gm
) -> tuple[rozmach.Spending, Callable[[Any], None] | None]:
    """Surprise (the GM's, on a called test) and a reaction's cost, before the dice; the panel
    shows them and says why it refuses one, or why it offers none now (RULES.md 4.12: only
    outside the character's own turn, once per round). With the spending, the roll's check of
    a reaction posted (``reactions.guard``), None when none was."""
    data = character.data
    costs = rozmach.reaction_costs(campaign)
    reaction = form.cleaned.get("reaction", "")
    if reaction and reaction not in costs:
        panel.errors.setdefault("reaction", []).append(
            _("“%(reaction)s” is not in the GM's Reaction-cost table.") % {"reaction": reaction}
        )
        reaction = ""
    fight, not_now = reactions.now(character, campaign) if costs else (None, "")
    guard = reactions.guard(character, campaign, not_now) if reaction else None
    if not_now:
        # Not offered, so not in the test shown either: what the Roll button rolls is what the
        # panel shows, and a reaction posted all the same (an older page) is refused.
        reaction = ""
    spending, errors = rozmach.plan(
        pool=_rozmach(data),
        determinacja=read_sheet(data).resource("determinacja"),
        surprise=gm["surprise"],
        reaction=reaction,
        cost=costs.get(reaction, 0),
        forced=bool(form.cleaned.get("forced")),
    )
    for field, messages in errors.items():
        panel.errors.setdefault(field, []).extend(messages)
    panel.context |= {
        "reactions": sorted(costs.items()),
        "reaction": reaction or str(form.raw("reaction") or ""),
        "reaction_refusal": not_now,
        "fight": fight,
        "forced": bool(form.cleaned.get("forced")),
        "spending": spending,
        "surprise_label": rozmach.SURPRISE_LABELS.get(spending.surprise, ""),
    }
    return spending, guard


def _then(first: Callable[[Any], None], second: Callable[[Any], None] | None):
    """A panel's ``after`` that runs ``first``, then ``second`` (if any)."""
    if second is None:
        return first

    def after(roll) -> None:
        first(roll)
        second(roll)

    return after


#: The seed's named difficulties (RULES.md 4) in the reader's words, the Polish name kept: the
#: log's message for each (``difficulty_words``), and the select's option with its number.
DIFFICULTY_WORDS = {
    "łatwy": gettext_lazy("łatwy (easy)"),
    "przeciętny": gettext_lazy("przeciętny (average)"),
    "wymagający": gettext_lazy("wymagający (demanding)"),
    "trudny": gettext_lazy("trudny (hard)"),
}
DIFFICULTY_OPTIONS = {
    "łatwy": gettext_lazy("łatwy (easy, %(n)s)"),
    "przeciętny": gettext_lazy("przeciętny (average, %(n)s)"),
    "wymagający": gettext_lazy("wymagający (demanding, %(n)s)"),
    "trudny": gettext_lazy("trudny (hard, %(n)s)"),
}
WORDS.update({f"caerbannog_difficulty:{name}": text for name, text in DIFFICULTY_WORDS.items()})
# A called test's target holds the bare name, and so do the sources of the tests logged before
# these words: both read in the reader's words too.
DIFFICULTY_NAMES.update(DIFFICULTY_WORDS)
stored_text.register(*DIFFICULTY_WORDS.values())


def difficulty_words(name: str) -> dict[str, Any]:
    """A named difficulty as the log stores it: in each reader's words."""
    return words(f"caerbannog_difficulty:{name}")


def difficulty_option(name: str) -> str:
    """A named difficulty as a select offers it: "przeciętny (average, 3)"."""
    return str(DIFFICULTY_OPTIONS[name]) % {"n": caerbannog.DIFFICULTIES[name]}


class _Difficulty(forms.Field):
    """The difficulty and its name: a named one, or any whole number from 0 to MAX_DIFFICULTY
    (the GM's own number, set on the card, stands as it is)."""

    def __init__(self):
        super().__init__(required=False)
        self.gms = False

    def clean(self, value: Any) -> tuple[int, str | dict]:
        if self.gms:
            return value, _difficulty_name(value)
        raw = str(value or "").strip() or "przeciętny"
        if raw in caerbannog.DIFFICULTIES:
            return caerbannog.DIFFICULTIES[raw], difficulty_words(raw)
        try:
            number = int(raw)
        except ValueError:
            number = None
        if number is None or not 0 <= number <= MAX_DIFFICULTY:
            names = ", ".join(difficulty_option(name) for name in caerbannog.DIFFICULTIES)
            raise ValidationError(
                _("Choose a difficulty (%(names)s) or a whole number from 0 to %(max)s.")
                % {"names": names, "max": MAX_DIFFICULTY}
            )
        return number, _difficulty_name(number)


def _factors(label: Any) -> WholeNumber:
    message = gettext_lazy("%(label)s must be a whole number from 0 to %(max)s.")
    return WholeNumber(0, MAX_FACTORS, message, label=label, max=MAX_FACTORS)


def _states(form: CaerbannogChoices, pending) -> in_force.ForTest:
    """The states on the sheet that concern this test: those of all tests, and those of the
    main skill or defence tested (RULES.md 8: the first named)."""
    tested = form.in_order()
    modifiers = (pending or {}).get("modifiers") or {}
    return conditions.shaping(form, modifiers, skill=tested[0]["name"] if tested else "")


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
    difficulty = _Difficulty()
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

    @classmethod
    def read(cls, choices, data: dict, pending=None, gm_difficulty=None) -> CaerbannogChoices:
        """The choices for this sheet; ``pending``'s target and the GM's numbers fixed."""
        target = (pending or {}).get("target") or {}
        fixed = dict(target)
        if _calls_tested(target):
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
        form.skills, form.defences = _skills(data), _defences(data)
        form.fields["difficulty"].gms = gm_difficulty is not None
        return form

    def chosen_skills(self) -> list[str]:
        """The skills ticked that the sheet holds, in the order posted."""
        return [name for name in _distinct(self.raw("skill")) if name in self.skills]

    def chosen_defences(self) -> list[str]:
        return [name for name in _distinct(self.raw("defence")) if name in self.defences]

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
        tokens = ordered(list(rows), places + _distinct(self.raw("order")))
        main = f"skill:{self.raw('main') or ''}"
        if main in rows:
            tokens = [main] + [token for token in tokens if token != main]
        tokens = moved(tokens, str(self.raw("up") or ""), -1)
        tokens = moved(tokens, str(self.raw("down") or ""), 1)
        return [{**rows[t][1], "kind": rows[t][0], "token": t} for t in tokens]

    def places(self) -> list[str]:
        """The call form's places filled (``skill:name`` or ``defence:name``), in order."""
        return _distinct([str(self.raw(name) or "").strip() for name in PLACES])

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
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


def _distinct(values: Any) -> list[str]:
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


def _calls_tested(target: dict[str, Any]) -> bool:
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


def _ease(form: CaerbannogChoices, gm: dict[str, Any], states: int = 0) -> int:
    """The factors' verdict; each state on the sheet concerning the test is one hindering
    factor (the system's Decision, rolls.systems.caerbannog.system.STATES)."""
    easing, hindering = form.cleaned.get("easing", 0), form.cleaned.get("hindering", 0)
    return caerbannog.net_ease(easing + gm["easing"], hindering + gm["hindering"] + states)


def _context(form: CaerbannogChoices, data: dict, gm: dict[str, Any], pending) -> dict:
    """What the panel shows of the choices, as chosen (or as typed, where they are wrong)."""
    target = (pending or {}).get("target") or {}
    tested = form.in_order()
    chosen = {row["name"] for row in tested if row["kind"] == "skill"}
    picked = {row["name"] for row in tested if row["kind"] == "defence"}
    difficulty = form.cleaned.get("difficulty", (caerbannog.DIFFICULTIES["przeciętny"], ""))[0]
    return {
        "skill_groups": [
            {**group, "skills": [s for s in group["skills"] if s["name"] not in chosen]}
            for group in _groups(data)
        ],
        "defence_groups": [
            {**group, "defences": [d for d in group["defences"] if d["name"] not in picked]}
            for group in defence_groups(data)
        ],
        "tested": tested,
        "main_is_defence": bool(tested) and tested[0]["kind"] == "defence",
        "form": form.cleaned.get("form", COMBINED),
        "difficulties": _difficulty_choices(difficulty),
        "difficulty": difficulty,
        "easing": form.value("easing"),
        "hindering": form.value("hindering"),
        "net_ease": _ease(form, gm),
        "modifier": form.value("modifier"),
        "modifier_source": str(form.raw("modifier_source") or "").strip(),
        "rozmach": _rozmach(data),
        "max_factors": MAX_FACTORS,
        "max_modifier": MAX_MODIFIER,
        "pending": pending,
        "gm": gm,
        "gm_modifier": sum(entry["amount"] for entry in gm["entries"]),
        "fixed": {
            "tested": _calls_tested(target),
            "form": pending is not None,
            "difficulty": "difficulty" in target or gm["difficulty"] is not None,
        },
    }


def _tested(form: CaerbannogChoices) -> tuple[list[dict], tuple[int, ...], int, Any]:
    """What is rolled: the skills and defences tested (the main one first), their dice, the
    boost's category bonus (none when a defence leads) and the words for the label."""
    tested, how = form.in_order(), form.cleaned["form"]
    sizes = [entry["die"] for entry in tested]
    dice = added_dice(sizes[0], sizes[1:]) if how == ADDED else combined_dice(sizes)
    named = [_named(entry) for entry in tested]
    if how == COMBINED or len(tested) == 1:
        what = joined(named, " + ")
    else:
        what = words("skill_with_added", main=named[0], others=joined(named[1:]))
    return tested, dice, _main_bonus(tested), what


def _main_bonus(tested: list[dict]) -> int:
    """The category bonus a boost adds: the main skill's; a defence has none."""
    return tested[0]["bonus"] if tested[0]["kind"] == "skill" else 0


def _named(entry: dict) -> str:
    return f"{entry['name']} {roman(entry['level'])}"


def _sources(
    form: CaerbannogChoices, gm, tested, dice, ease: int, states: int = 0
) -> list[dict[str, Any]]:
    """The difficulty, the pool when several skills make it, the factors (a state's hindering
    factor among the player's own: the state itself is listed after) and the modifiers."""
    easing, hindering = form.cleaned["easing"], form.cleaned["hindering"] + states
    modifier, said = form.cleaned["modifier"], form.cleaned["modifier_source"]
    difficulty, difficulty_name = form.cleaned["difficulty"]
    sources = [source("difficulty", difficulty, difficulty_name)]
    if len(tested) > 1:
        sources.append(source("rolled", len(dice), _pool_text(tested, form.cleaned["form"])))
    if easing + gm["easing"] or hindering + gm["hindering"]:
        kind = "hinder" if ease < 0 else "ease"
        text = _ease_text(easing, hindering, ease)
        if gm["easing"] or gm["hindering"]:
            text = _gm_ease_text(gm["easing"], gm["hindering"], easing, hindering, ease)
        sources.append(source(kind, abs(ease), text))
    if modifier:
        sources.append(source("modifier", modifier, said or words("fixed_modifier")))
    for entry in gm["entries"]:
        sources.append(source("modifier", entry["amount"], entry["source"]))
    return sources


def _show(panel: Panel, form: CaerbannogChoices, params, odds) -> None:
    """The ready panel: the odds of each outcome and result, and the Rozmach pool kept."""
    dice, main = params["dice"], form.in_order()[0]
    outcomes = odds["odds"]
    panel.odds = [(key, outcomes[key]) for key in caerbannog_outcomes()]
    panel.success = outcomes[caerbannog.SUCCESS]
    panel.on_result = _keep_rozmach(params["rozmach"])
    results = [(int(key), p) for key, p in odds["result_odds"].items()]
    tallest = max(p for _key, p in results)
    panel.context |= {
        "dice": tuple(dice),
        "dice_text": dice_text(dice),
        "ease": params["ease"],
        "mode": caerbannog.ease_mode(params["ease"]),
        "bonus": params["bonus"],
        "boost_category": main.get("category_label", ""),
        "results": [(value, p, p / tallest) for value, p in results],
        "rozmach_mean": odds["rozmach_mean"],
        "even": len(dice) % 2 == 0,
    }


def caerbannog_outcomes() -> tuple[str, ...]:
    """Outcome keys best first."""
    return (caerbannog.SUCCESS, caerbannog.FAILURE, caerbannog.CRITICAL_FAILURE)


def dice_text(dice: Sequence[int]) -> str:
    """Dice as a player writes them: (8, 8, 6) -> "2d8+1d6"."""
    return "+".join(f"{len(list(run))}d{sides}" for sides, run in groupby(dice))


# --- Reading the sheet and the choices ----------------------------------------------------------


def _groups(data: dict) -> list[dict]:
    """The sheet's skill groups, each skill with a known die (a broken level is left out)."""
    groups = []
    for group in skill_groups(data):
        bonus = group["bonus"] if _is_int(group["bonus"]) else 0
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


def _skills(data: dict) -> dict[str, dict]:
    """Every testable skill by name, in sheet order."""
    return {row["name"]: row for group in _groups(data) for row in group["skills"]}


def _defences(data: dict) -> dict[str, dict]:
    return {
        row["name"]: row
        for group in defence_groups(data)
        for row in group["defences"]
        if row["die"] is not None
    }


def _difficulty_name(value: int) -> dict:
    for name, number in caerbannog.DIFFICULTIES.items():
        if number == value:
            return difficulty_words(name)
    return words("set_by_number")


def _difficulty_choices(current: int) -> list[tuple[str, str, bool]]:
    """The select's options: every number from 0 to the maximum, the named ones by name (and the
    GM's difficulty when it is set above the maximum)."""
    named = {number: name for name, number in caerbannog.DIFFICULTIES.items()}
    options = []
    for number in range(max(MAX_DIFFICULTY, current) + 1):
        if number in named:
            options.append((named[number], difficulty_option(named[number]), number == current))
        elif number <= MAX_DIFFICULTY or number == current:
            options.append((str(number), str(number), number == current))
    return options


def _rozmach(data: dict) -> int:
    return read_sheet(data).rozmach


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _pool_text(tested: list[dict], form: str) -> dict:
    """Each skill's dice as they were rolled: the main skill's first, then one per other skill
    (RULES.md, Caerbannog 8: "Jazda 3d8 + Dociekliwość 1d6" with others added)."""
    if form == ADDED:
        counts = [3] + [1] * (len(tested) - 1)
    elif len(tested) == 2:
        counts = [2, 1]
    else:
        counts = [1] * len(tested)
    parts = joined(
        [
            f"{entry['name']} {count}d{entry['die']}"
            for entry, count in zip(tested, counts, strict=True)
        ],
        " + ",
    )
    return words("pool_added" if form == ADDED else "pool_combined", parts=parts)


_VERDICTS = {1: "eased", -1: "hindered", 0: "cancel_out"}


def _ease_text(easing: int, hindering: int, ease: int) -> dict:
    return words("factors", e=easing, h=hindering, verdict=words(_VERDICTS[ease]))


def _gm_ease_text(
    gm_easing: int, gm_hindering: int, easing: int, hindering: int, ease: int
) -> dict:
    """The factors of a called test: the GM's, the player's own, and which side wins."""
    parts = [words("gm_factors", e=gm_easing, h=gm_hindering)]
    if easing or hindering:
        parts.append(words("own_factors", e=easing, h=hindering))
    return words("factors_verdict", parts=joined(parts, "; "), verdict=words(_VERDICTS[ease]))


# --- The GM's side: calling for a test and shaping it -------------------------------------------


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


def _gm_modifiers(modifiers: dict[str, Any]) -> dict[str, Any]:
    """The GM's part of a called test, read defensively (the operations checked it on the way
    in): the difficulty or None, the factor counts and the fixed modifiers with their sources."""
    difficulty = modifiers.get("difficulty")
    surprise = modifiers.get("surprise") or ""
    entries = [
        {"amount": entry["amount"], "source": str(entry.get("source", ""))}
        for entry in modifiers.get("dice", [])
        if isinstance(entry, dict)
        and entry.get("kind") == "modifier"
        and _is_int(entry.get("amount"))
        and entry["amount"]
    ]
    return {
        "difficulty": difficulty if _is_int(difficulty) and difficulty >= 0 else None,
        "easing": _gm_count(modifiers.get("easing")),
        "hindering": _gm_count(modifiers.get("hindering")),
        "entries": entries,
        "surprise": surprise if surprise in rozmach.SURPRISE_LABELS else "",
    }


def _gm_count(value: Any) -> int:
    return value if _is_int(value) and value > 0 else 0


def target_fields(character, campaign) -> list[dict[str, Any]]:
    """The fields of the GM's "call for a test" form: what is tested in order (a skill or a
    defence in each place, the first the main one, the others for a combined test), the form of
    a combined test and the difficulty (przeciętny first: the default)."""
    skills = _skills(character.data)
    defences = _defences(character.data)
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


class CallForm(PanelForm):
    """The GM's call as posted: what is tested, in its places (``tested``, ``tested_2``...,
    each ``skill:name`` or ``defence:name``), or as plain lists of skills and a defence (a call
    made by a link or a script, in the order posted); the form and the difficulty (what the sheet
    holds is checked below, and by the panel built on it)."""

    skill = Names()
    defence = Names()
    form = Name()
    difficulty = Name()

    def places(self) -> list[str]:
        """The tokens of the places filled, in order, each once."""
        return _distinct([str(self.data.get(name) or "").strip() for name in PLACES])


def target_from_post(post, character, campaign) -> tuple[dict[str, Any], list[str]]:
    """The target the GM chose, or the messages saying what is wrong with it."""
    skills, defences = _skills(character.data), _defences(character.data)
    called = CallForm(post)
    places = called.places()
    if not places:
        places = [f"skill:{name}" for name in _distinct(called.raw("skill"))]
        places += [f"defence:{name}" for name in _distinct(called.raw("defence"))]
    form, difficulty = (str(called.raw(name) or "").strip() for name in ("form", "difficulty"))
    form, difficulty = form or COMBINED, difficulty or "przeciętny"
    held = {"skill": skills, "defence": defences}
    order = [t for t in places if t.partition(":")[2] in held.get(t.partition(":")[0], ())]
    target = {
        "skill": [t.partition(":")[2] for t in order if t.startswith("skill:")],
        "defence": [t.partition(":")[2] for t in order if t.startswith("defence:")],
        "order": order,
        "form": form,
        "difficulty": difficulty,
    }
    wrong = []
    unknown = [t.partition(":") for t in places if t not in order]
    if names := [name or kind for kind, _sep, name in unknown if kind != "defence"]:
        wrong.append(_("Not a skill on this sheet: %(names)s.") % {"names": ", ".join(names)[:200]})
    for name in [name for kind, _sep, name in unknown if kind == "defence"][:1]:
        wrong.append(_("Not a defence on this sheet: %(name)s.") % {"name": name[:60]})
    if form not in (COMBINED, ADDED):
        wrong.append(_("Choose the form of the test: combined, or with others added."))
    if not places:
        wrong.append(_("Choose a skill (several for a combined test) or a defence to test."))
    if wrong:
        return target, wrong
    panel = build(character, campaign, {}, pending={"target": target, "modifiers": {}})
    wrong = [m for messages in panel.errors.values() for m in messages]
    return target, wrong


# --- After the roll -----------------------------------------------------------------------------


def _keep_rozmach(expected: int):
    """``on_result``: the sheet's Rozmach becomes the pool the engine left (gain, cap, spending).

    ``expected`` is the pool the test was built on; if the sheet changed meanwhile (another roll
    or an edit in the same instant) the roll is refused rather than overwriting it.
    """

    def on_result(sheet: dict, result: Any) -> None:
        resources = sheet.setdefault("resources", {})
        if _rozmach(sheet) != expected:
            raise ActionRefused(
                _("The Rozmach pool changed meanwhile; look at the sheet and roll again.")
            )
        resources["rozmach"] = result.rozmach

    return on_result


def follow_ups(roll: Roll, character, campaign) -> list[FollowUp]:
    """What may follow ``roll`` now: a re-roll, a boost, heroic effort (see the module's notes)."""
    state = _chain_state(roll, character)
    if state is None:
        return []
    params, answer = state["params"], roll.result["answer"]
    critical = answer["critical_failure"]
    offers = [
        FollowUp(
            "reroll",
            _("Re-roll (an ability allows it)"),
            (
                {
                    "type": "text",
                    "name": "ability",
                    "label": _("Ability that allows it"),
                    "max": SOURCE_MAX,
                },
                {
                    "type": "checkboxes",
                    "name": "die",
                    "label": _("Dice to re-roll (none ticked: all of them)"),
                    "choices": [
                        (index, f"d{sides}: {face}")
                        for index, (sides, face) in enumerate(
                            zip(params.dice, roll.faces, strict=True)
                        )
                    ],
                },
                {
                    "type": "number",
                    "name": "cost",
                    "label": _("Its cost in Rozmach (%(have)s to pay with)")
                    % {"have": params.rozmach},
                    "min": 0,
                    "max": min(REROLL_COST_MAX, params.rozmach),
                },
            ),
        )
    ]
    if not critical and not params.boost and params.bonus > 0 and answer["rozmach"] >= 1:
        offers.append(
            FollowUp(
                "boost",
                _("Boost: spend 1 Rozmach for %(bonus)s (category bonus)")
                % {"bonus": f"+{params.bonus}"},
            )
        )
    against = opponents_result(roll)
    cost = heroic_cost(answer, against)
    if cost is not None:
        offers.append(
            FollowUp(
                "heroic",
                _("Heroic effort: pay %(cost)s for exactly 1 success") % {"cost": cost},
                (heroic_field(roll, character, cost),),
            )
        )
    return offers


def heroic_cost(answer: dict[str, Any], against: int | None) -> int | None:
    """What heroic effort costs after a test whose engine answer is ``answer``, read against
    ``against`` (the opponent's result, or 0): the failure plus 1 (RULES.md 4.6); None when
    there is none to make (no failure, a critical failure, or nothing to read it against)."""
    if against is None or answer["critical_failure"] or answer["result"] - against > 0:
        return None
    return 1 - (answer["result"] - against)


def heroic_field(roll: Roll, character, cost: int | None) -> dict[str, Any]:
    """The heroic offer's "Pay with" choice: the sheet's resources (each with what the sheet
    holds, and "not enough" below ``cost``; None: a cost not known yet) and the other resource
    the GM allowed on the called test, if any."""
    sheet = read_sheet(character.data)
    names = resource_names()
    choices = [
        (key, _resource_choice(names[key], sheet.resource(key), cost or 0))
        for key in HEROIC_RESOURCES
    ]
    if (other := heroic_other(roll)) is not None:
        choices.append((OTHER, _other_choice(other)))
    if cost is not None:
        # What the player can pay first (the first choice is the one ticked), the sheet's before
        # the GM's; what the sheet cannot pay last.
        short = {key for key in HEROIC_RESOURCES if sheet.resource(key) < cost}
        choices.sort(key=lambda choice: choice[0] in short)
    return {"type": "radio", "name": "resource", "label": _("Pay with"), "choices": choices}


def build_follow_up(kind: str, roll: Roll, character, campaign, choices) -> Panel:
    """The follow-up's panel: the parent's params changed as ``kind`` says, and a resolver that
    re-reads (boost, heroic effort) or re-rolls (re-roll) the parent's dice."""
    panel = Panel(system="caerbannog", template=TEMPLATE, label=roll.label_words)
    state = _chain_state(roll, character)
    if state is None or kind not in ("reroll", "boost", "heroic"):
        panel.errors[""] = [_("That can no longer be done with this roll.")]
        return panel
    # Paid for from the pool the parent left; the roll is refused if the sheet's has changed.
    panel.on_result = _keep_rozmach(roll.result["answer"]["rozmach"])
    if kind == "boost":
        _boost(panel, roll)
    elif kind == "heroic":
        _heroic(panel, roll, character, choices)
    else:
        _reroll(panel, roll, choices)
    return panel


def _boost(panel: Panel, roll: Roll) -> None:
    """Spend 1 Rozmach for the category bonus: the same dice read again with it."""
    panel.params = {**roll.params, "boost": True}
    panel.sources = list(roll.sources) + [
        source("boost", roll.params["bonus"], words("boost_spent"))
    ]
    panel.resolver = _reread(list(roll.faces))


def _heroic(panel: Panel, roll: Roll, character, choices) -> None:
    """Pay for exactly 1 success from the resource chosen, if the sheet holds enough of it."""
    params, faces = {**roll.params, "heroic": True}, list(roll.faces)
    against = opponents_result(roll)
    if against is None:  # not offered (``follow_ups``): its cost would tell the hidden result
        panel.errors[""] = [_("That can no longer be done with this roll.")]
        return
    if against:
        params["difficulty"] = against
    other = heroic_other(roll)
    paid_with = HeroicChoice.read(choices, other)
    if paid_with.messages:
        panel.errors |= paid_with.messages
        return
    resource = paid_with.cleaned["resource"]
    try:
        cost = caerbannog.resolve(caerbannog.parse_params(params), faces).heroic_cost
    except EngineError as error:
        panel.errors[""] = [str(error)]
        return
    if resource == OTHER:
        # The GM's resource and price (RULES.md 4.12): nothing is taken from the sheet, the log
        # says what was paid; the Rozmach is kept as for any follow-up (``build_follow_up``).
        panel.params = params
        panel.sources = list(roll.sources) + [
            *([source("difficulty", against)] if against else []),
            source("heroic", cost, words("paid_with_other", **other)),
        ]
        panel.resolver = _reread(faces)
        return
    name = resource_names()[resource]
    have = read_sheet(character.data).resource(resource)
    if have < cost:
        panel.errors["resource"] = [
            _("Heroic effort costs %(cost)s %(name)s; the sheet has %(have)s.")
            % {"cost": cost, "name": name, "have": have}
        ]
        return
    panel.params = params
    panel.sources = list(roll.sources) + [
        *([source("difficulty", against)] if against else []),
        source("heroic", cost, words("paid_with", name=words(resource))),
    ]
    panel.resolver = _reread(faces)
    panel.on_result = _pay_heroic(panel.on_result, resource, name)


def _reroll(panel: Panel, roll: Roll, choices) -> None:
    """Re-roll the dice ticked (none: all of them) by an ability, paying its cost."""
    # The pool the test started with: the re-rolled dice alone generate Rozmach, and a boost
    # taken before is undone with the dice it was taken on (see the module's notes).
    params = {**roll.params, "boost": False, "heroic": False}
    faces = list(roll.faces)
    sources = [s for s in roll.sources if s.get("kind") not in ("boost", "heroic")]
    have = params["rozmach"]
    reroll = RerollChoices.read(choices, have, len(faces))
    if reroll.messages:
        panel.errors |= reroll.messages
        return
    ability, cost, which = (reroll.cleaned[name] for name in ("ability", "cost", "die"))
    if len(which) in (0, len(faces)):
        dice_words = words("all_dice")
        count, which_arg = len(faces), None
    else:
        dice_words = ", ".join(f"d{params['dice'][i]} ({faces[i]})" for i in which)
        count, which_arg = len(which), which
    sources.append(source("reroll", count, words("rerolled_by", ability=ability, dice=dice_words)))
    if cost:
        params["rozmach"] = have - cost
        sources.append(source("rozmach_spent", cost, words("reroll_cost", ability=ability)))
    panel.params = params
    panel.sources = sources
    panel.resolver = _redraw(faces, which_arg)


class HeroicChoice(PanelForm):
    """What heroic effort is paid with: a resource of the sheet, or ``OTHER`` when the GM allowed
    another one on the called test (``other``, see ``heroic_other``)."""

    resource = Name()

    @classmethod
    def read(cls, choices, other: dict[str, str] | None) -> HeroicChoice:
        form = cls(choices)
        form.other = other
        return form

    def clean_resource(self) -> str:
        resource = self.cleaned_data["resource"]
        if resource == OTHER and self.other is None:
            raise ValidationError(
                _("The GM has not allowed heroic effort with another resource on this test.")
            )
        if resource != OTHER and resource not in HEROIC_RESOURCES:
            raise ValidationError(_("Choose what heroic effort is paid with."))
        return resource


def heroic_other(roll: Roll) -> dict[str, str] | None:
    """The other resource the GM allowed heroic effort to be paid with on the called test
    ``roll`` belongs to, ``{"name", "price"}`` (RULES.md 4.12), or None. Read defensively: the
    operation (``rolls.pending.forms.HeroicOtherForm``) checked it on the way in."""
    root = roll
    while root.parent_id is not None and root.kind in ("reroll", "boost", "heroic"):
        root = root.parent
    called = PendingTest.objects.filter(roll=root).only("modifiers").first()
    modifiers = called.modifiers if called is not None else None
    allowed = modifiers.get("heroic_other") if isinstance(modifiers, dict) else None
    if not isinstance(allowed, dict):
        return None
    name, price = allowed.get("name"), allowed.get("price")
    if not (isinstance(name, str) and isinstance(price, str) and name and price):
        return None
    return {"name": name, "price": price}


class RerollChoices(PanelForm):
    """A re-roll: the ability that allows it, its cost in Rozmach (paid from ``have``, the pool
    the test started with) and the dice it re-rolls (a box the roll never had is ignored)."""

    ability = Name()
    cost = WholeNumber(
        0,
        REROLL_COST_MAX,
        gettext_lazy("A re-roll costs a whole number of Rozmach from 0 to %(max)s."),
        max=REROLL_COST_MAX,
    )
    die = Indices()

    @classmethod
    def read(cls, choices, have: int, dice: int) -> RerollChoices:
        form = cls(choices)
        form.have, form.dice = have, dice
        return form

    def clean_ability(self) -> str:
        ability = self.cleaned_data["ability"].strip()
        if not ability:
            raise ValidationError(
                _("Name the ability that allows this re-roll (e.g. Inspirująca osobowość).")
            )
        if len(ability) > SOURCE_MAX:
            raise ValidationError(
                _("Keep the ability's name to %(max)s characters.") % {"max": SOURCE_MAX}
            )
        return ability

    def clean_cost(self) -> int:
        cost = self.cleaned_data["cost"]
        if cost > self.have:
            raise ValidationError(
                _(
                    "This re-roll costs %(cost)s Rozmach and %(have)s is there to pay with "
                    "(what the replaced dice gained does not count)."
                )
                % {"cost": cost, "have": self.have}
            )
        return cost

    def clean_die(self) -> list[int]:
        return sorted({i for i in self.cleaned_data["die"] if 0 <= i < self.dice})


def _reread(faces: list[int]):
    def resolver(module, params, rng):
        return module.resolve(params, module.parse_faces(params, faces))

    return resolver


def _redraw(faces: list[int], which: list[int] | None):
    def resolver(module, params, rng):
        return draw_reroll(params, faces, rng, which)

    return resolver


def _pay_heroic(keep_rozmach, resource: str, name: str):
    def on_result(sheet: dict, result: Any) -> None:
        keep_rozmach(sheet, result)
        resources = sheet.setdefault("resources", {})
        have = read_sheet(sheet).resource(resource)
        if have < result.heroic_cost:
            raise ActionRefused(
                _("Heroic effort costs %(cost)s %(name)s; the sheet has %(have)s.")
                % {"cost": result.heroic_cost, "name": name, "have": have}
            )
        resources[resource] = have - result.heroic_cost

    return on_result


def may_follow(roll: Roll, character) -> bool:
    """Whether something may still follow ``roll`` (``_chain_state``)."""
    return _chain_state(roll, character) is not None


def _chain_state(roll: Roll, character) -> dict[str, Any] | None:
    """The test ``roll`` belongs to, if something may still follow it, else None.

    Something may follow only the newest entry of a test that has not been settled by heroic
    effort, while it is the character's latest roll in the session's current scene and the
    sheet still holds the Rozmach it left.
    """
    if roll.system != "caerbannog" or roll.kind not in FOLLOW_UP_KINDS:
        return None
    try:
        params = caerbannog.parse_params(roll.params)
        caerbannog.parse_faces(params, roll.faces)
        answer = roll.result["answer"]
        pool_left = answer["rozmach"]
    except (EngineError, KeyError, TypeError):
        return None
    if params.heroic or roll.follow_ups.exists():
        return None
    latest = (
        Roll.objects.filter(session_id=roll.session_id, character_id=character.pk)
        .order_by("-seq")
        .values_list("pk", flat=True)
        .first()
    )
    if latest != roll.pk:
        return None
    current_scene = roll.session.scenes.aggregate(last=Max("number"))["last"]
    if roll.scene is not None and roll.scene.number != current_scene:
        return None
    if _rozmach(character.data) != pool_left:
        return None
    return {"params": params}


def opponents_result(roll: Roll) -> int | None:
    """In an opposed test, the opponent's result is the initiator's difficulty (the seed: "może
    też być wynikiem testu wykonanego przez oponenta"); heroic effort reads the failure against
    it. **Decision**: a result below 0 is a difficulty of 0 (a difficulty never is below 0).
    0 outside an opposed test's turn to settle; None when the opponent's roll is hidden from
    someone who sees ``roll``: heroic effort's cost would tell its result (issue 23)."""
    against = initiators_difficulty(roll)
    if against is None:
        return 0
    if against.roll is None:
        return None
    try:
        return max(0, int(against.roll.result["answer"]["result"]))
    except (KeyError, TypeError, ValueError):
        return 0


def resource_names() -> dict[str, str]:
    return {"wytrzymalosc": _("Wytrzymałość"), "determinacja": _("Determinacja")}


def _other_choice(other: dict[str, str]) -> str:
    return _("%(name)s, allowed by the GM: %(price)s") % other


def _resource_choice(name: str, have: int, cost: int) -> str:
    if have < cost:
        return _("%(name)s (you have %(have)s: not enough)") % {"name": name, "have": have}
    return _("%(name)s (you have %(have)s)") % {"name": name, "have": have}
