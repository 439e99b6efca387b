"""The GM rolls an NPC's own test, in any system: logged with the NPC, hidden by default.

FastTest NPCs are trait lists and RULES.md gives them no rolls of their own (their traits are
penalty dice against the players), so the GM types a chance (1-9) and bonus or penalty dice: a
plain FastTest test. The other systems get one small form each, mapped to the engine's params:
Caerbannog a skill level (three dice of its size), a difficulty and easing; T10 a pool and a
difficulty; AST white dice and what is added to the test level; 2d6 attribute, skill and
difficulty. The engine checks the params again; nothing is rolled that it refuses. A difficulty
takes the same range as the system's called tests (its panel's ``GM_LIMITS``).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.models import Campaign, GameSession
from campaigns.systems import get_system
from config.text import text_problem
from rolls.actions import ActionRefused, record_roll
from rolls.engine import EngineError, caerbannog, fasttest, t10
from rolls.engine.core import OUTCOMES
from rolls.models import Roll, Visibility
from rolls.panels import source
from rolls.pending.forms import Text, WholeNumber, whole
from rolls.systems.caerbannog import panel as caerbannog_panel
from rolls.systems.twod6 import panel as twod6_panel
from rolls.words import joined, words
from sheets.models import NPC
from sheets.systems.fasttest import ATTRIBUTES as FASTTEST_ATTRIBUTES

WHAT_MAX = 80
MAX_DICE_TYPED = 20
ROMAN = ("0", "I", "II", "III", "IV")
DEFAULT_CAERBANNOG_DIFFICULTY = caerbannog.DIFFICULTIES["przeciętny"]
RANKS = {key: rank for rank, key in enumerate(OUTCOMES)}


@dataclass(frozen=True)
class Field:
    """One number of the form; a select when it has ``choices``."""

    name: str
    label: Any
    low: int
    high: int
    default: int
    choices: tuple[tuple[int, Any], ...] = ()


# Each system's own form (``System.npc_fields``), with its builder (``System.npc_params``).
FASTTEST_FIELDS: tuple[Field, ...] = (
    Field("chance", gettext_lazy("Chance (1–9)"), fasttest.CHANCE_MIN, fasttest.CHANCE_MAX, 5),
    Field("bonus", gettext_lazy("Bonus dice"), 0, MAX_DICE_TYPED, 0),
    Field("penalty", gettext_lazy("Penalty dice"), 0, MAX_DICE_TYPED, 0),
)
CAERBANNOG_FIELDS: tuple[Field, ...] = (
    Field(
        "level",
        gettext_lazy("Skill level"),
        0,
        len(caerbannog.SKILL_DICE) - 1,
        1,
        tuple(
            (index, f"{ROMAN[index]} (3k{sides})")
            for index, sides in enumerate(caerbannog.SKILL_DICE)
        ),
    ),
    Field(
        "difficulty",
        gettext_lazy("Difficulty"),
        caerbannog_panel.GM_LIMITS["difficulty"].low,
        caerbannog_panel.GM_LIMITS["difficulty"].high,
        DEFAULT_CAERBANNOG_DIFFICULTY,
    ),
    Field(
        "ease",
        gettext_lazy("Eased or hindered"),
        -1,
        1,
        0,
        (
            (0, gettext_lazy("neither")),
            (1, gettext_lazy("eased: read the highest die")),
            (-1, gettext_lazy("hindered: read the lowest die")),
        ),
    ),
)
T10_FIELDS: tuple[Field, ...] = (
    Field("pool", gettext_lazy("Dice in the pool"), 0, 30, 4),
    Field(
        "difficulty",
        gettext_lazy("Difficulty"),
        t10.MIN_DIFFICULTY,
        t10.MAX_DIFFICULTY,
        t10.DEFAULT_DIFFICULTY,
    ),
)
AST_FIELDS: tuple[Field, ...] = (
    Field("white", gettext_lazy("White dice"), 0, MAX_DICE_TYPED, 2),
    Field("level_mod", gettext_lazy("Added to the test level"), 0, MAX_DICE_TYPED, 0),
)
TWOD6_FIELDS: tuple[Field, ...] = (
    Field("attribute", gettext_lazy("Attribute"), 0, 20, 5),
    Field("skill", gettext_lazy("Skill"), 0, 20, 3),
    Field(
        "difficulty",
        gettext_lazy("Difficulty"),
        twod6_panel.GM_LIMITS["difficulty"].low,
        twod6_panel.GM_LIMITS["difficulty"].high,
        twod6_panel.DEFAULT_DIFFICULTY,
    ),
)

VISIBILITIES = (
    (Visibility.HIDDEN, Visibility.HIDDEN.label),
    (Visibility.PUBLIC, Visibility.PUBLIC.label),
)


@dataclass
class NPCRollForm:
    """The form as typed: each field with its value and errors; ``params`` once it is valid."""

    system: str
    values: dict[str, Any]
    npc: NPC | None = None
    what: str = ""
    visibility: str = Visibility.HIDDEN
    errors: dict[str, list[str]] = field(default_factory=dict)
    params: dict[str, Any] | None = None
    sources: list[dict[str, Any]] = field(default_factory=list)
    # The exact odds of the test as typed (the engine's own ``odds``), best outcome first.
    odds: list[tuple[str, float]] = field(default_factory=list)

    @property
    def rows(self) -> list[dict[str, Any]]:
        return [
            {
                "field": spec,
                "value": self.values.get(spec.name, spec.default),
                "errors": self.errors.get(spec.name, []),
            }
            for spec in get_system(self.system).npc_roll_fields(self.npc)
        ]

    @property
    def ready(self) -> bool:
        return self.params is not None and not self.errors


def blank_form(system: str, npc: NPC | None = None) -> NPCRollForm:
    """The form before the GM types anything, with the odds of its defaults."""
    fields = get_system(system).npc_roll_fields(npc)
    form = NPCRollForm(system=system, values={f.name: f.default for f in fields}, npc=npc)
    _ready(form)
    return form


class Bounded(WholeNumber):
    """One number of an NPC's test, read like the panels read theirs: empty is its default."""

    def __init__(self, spec: Field) -> None:
        super().__init__()
        self.spec = spec

    def to_python(self, value: Any) -> Any:
        value = super().to_python(value)
        return self.spec.default if value is None else value

    def validate(self, value: Any) -> None:
        spec = self.spec
        allowed = [v for v, _label in spec.choices] if spec.choices else None
        if (
            not whole(value)
            or not spec.low <= value <= spec.high
            or (allowed is not None and value not in allowed)
        ):
            raise ValidationError(
                _("%(label)s must be a whole number from %(low)s to %(high)s.")
                % {"label": spec.label, "low": spec.low, "high": spec.high}
            )


class NPCTestPost(forms.Form):
    """The posted numbers of the system's form (``System.npc_fields``), what is tested and who
    may see the roll, in that order (the order a refusal lists them)."""

    def __init__(self, data=None, specs: tuple[Field, ...] = ()) -> None:
        super().__init__(data)
        for spec in specs:
            self.fields[spec.name] = Bounded(spec)
        self.fields["what"] = Text()
        self.fields["visibility"] = Text()

    def typed(self, name: str) -> Any:
        """What was posted under ``name``, read by its field (kept in the form when refused)."""
        return self.fields[name].to_python(self[name].data)

    def clean_what(self) -> str:
        what = " ".join((self.cleaned_data["what"] or "").split())
        if len(what) > WHAT_MAX:
            raise ValidationError(_("Keep it to %(max)s characters.") % {"max": WHAT_MAX})
        if problem := text_problem(what):
            raise ValidationError(problem)
        return what

    def clean_visibility(self) -> str:
        visibility = self.cleaned_data["visibility"]
        visibility = Visibility.HIDDEN if visibility is None else visibility
        if visibility not in dict(VISIBILITIES):
            raise ValidationError(_("Choose who may see this roll."))
        return visibility


def read_form(system: str, post, npc: NPC | None = None) -> NPCRollForm:
    """Read the posted form: every number within its bounds, then the engine's params."""
    rules = get_system(system)
    specs = tuple(rules.npc_roll_fields(npc))
    posted = NPCTestPost(post, specs)
    valid = posted.is_valid()
    form = NPCRollForm(
        system=system,
        values={spec.name: posted.typed(spec.name) for spec in specs},
        npc=npc,
        what=" ".join((posted.typed("what") or "").split()),
        visibility=posted.cleaned_data.get("visibility", posted.typed("visibility")),
        errors={name: list(messages) for name, messages in posted.errors.items()},
    )
    if not valid:
        return form
    _ready(form)
    return form


def _ready(form: NPCRollForm) -> None:
    """The engine's params, sources and exact odds of the form's values, or its refusal."""
    rules = get_system(form.system)
    params, sources = rules.npc_roll_params(form.values, form.npc)
    try:
        parsed = rules.engine.parse_params(params)
        answer = rules.engine.odds(parsed)
    except EngineError as error:
        form.errors.setdefault("", []).append(str(error))
        return
    form.params, form.sources = params, sources
    odds = answer.get("odds") if isinstance(answer, dict) else None
    if isinstance(odds, dict):
        form.odds = sorted(odds.items(), key=lambda item: -RANKS.get(item[0], -1))


def fasttest_params(v: dict[str, int]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    params: dict[str, Any] = {
        "attribute": v["chance"], "skills": [], "bonus": v["bonus"], "penalty": v["penalty"],
    }  # fmt: skip
    _best_split(params)
    sources = [source("attribute", v["chance"], words("chance_typed_by_gm"))]
    if v["bonus"]:
        sources.append(source("bonus", v["bonus"], words("typed_by_gm")))
    if v["penalty"]:
        sources.append(source("penalty", v["penalty"], words("typed_by_gm")))
    return params, sources


def fasttest_stats(npc: NPC | None) -> tuple[tuple[str, int], ...] | None:
    """A full-stat NPC's attributes in sheet order, None for a trait-only NPC."""
    stats = npc.stats if npc is not None and isinstance(npc.stats, dict) else {}
    attributes = stats.get("attributes")
    if not isinstance(attributes, dict) or not attributes:
        return None
    # In the sheet's order, never the stored one (PostgreSQL's jsonb keeps no key order).
    return tuple(
        (name, attributes[name]) for name in FASTTEST_ATTRIBUTES if whole(attributes.get(name))
    )


def fasttest_skills(npc: NPC, skill_names) -> tuple[tuple[str, int], ...]:
    """The campaign's skills with the NPC's values (a skill it does not list is 0)."""
    skills = npc.stats.get("skills") if isinstance(npc.stats.get("skills"), dict) else {}
    return tuple((name, skills[name] if whole(skills.get(name)) else 0) for name in skill_names)


def fasttest_stat_fields(npc: NPC, skill_names) -> tuple[Field, ...]:
    """The form of a full-stat NPC's test, like a player's: an attribute, a skill (or none), and
    the GM's bonus and penalty dice (its traits that apply, circumstances)."""
    attributes = fasttest_stats(npc) or ()
    skills = fasttest_skills(npc, skill_names)
    return (
        Field(
            "attribute",
            gettext_lazy("Attribute"),
            0,
            len(attributes) - 1,
            0,
            tuple((i, f"{name} {value}") for i, (name, value) in enumerate(attributes)),
        ),
        Field(
            "skill",
            gettext_lazy("Skill"),
            0,
            len(skills),
            0,
            ((0, gettext_lazy("none")),)
            + tuple((i + 1, f"{name} {value:+d}") for i, (name, value) in enumerate(skills)),
        ),
    ) + FASTTEST_FIELDS[1:]


def fasttest_stat_params(
    v: dict[str, int], npc: NPC, skill_names
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The engine's params of a full-stat NPC's test: its attribute and skill read from its
    stats, the split of bonus dice the best one (as the panel recommends to players)."""
    name, attribute = (fasttest_stats(npc) or ())[v["attribute"]]
    skills = fasttest_skills(npc, skill_names)
    skill = skills[v["skill"] - 1] if v["skill"] else None
    params: dict[str, Any] = {
        "attribute": attribute,
        "skills": [skill[1]] if skill else [],
        "bonus": v["bonus"],
        "penalty": v["penalty"],
    }
    parsed = _best_split(params)
    sources = [source("attribute", attribute, name)]
    if skill:
        sources.append(source("skill", skill[1], skill[0]))
    if v["bonus"]:
        sources.append(source("bonus", v["bonus"], words("typed_by_gm")))
    if v["penalty"]:
        sources.append(source("penalty", v["penalty"], words("typed_by_gm")))
    # As on a player's panel: points above 9 or below 1 are bonus or penalty dice.
    if parsed.overflow_bonus:
        sources.append(source("bonus", parsed.overflow_bonus, words("chance_above_9")))
    if parsed.overflow_penalty:
        sources.append(source("penalty", parsed.overflow_penalty, words("chance_below_1")))
    return params, sources


def _best_split(params: dict[str, Any]) -> fasttest.Params:
    parsed = fasttest.parse_params(params)
    if parsed.net > 0:
        # Bonus dice: the split with the best odds, as the panel recommends to players. Penalty
        # dice stay all d10 (RULES.md's Decision for the GM's choice).
        params["extra_d10"] = fasttest.choose_split(fasttest.split_odds(parsed)).extra_d10
    return parsed


def caerbannog_params(v: dict[str, int]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    sides = caerbannog.SKILL_DICE[v["level"]]
    params = {"dice": [sides] * 3, "difficulty": v["difficulty"], "ease": v["ease"]}
    sources = [
        source("rolled", 3, f"{ROMAN[v['level']]} (3d{sides})"),
        source("difficulty", v["difficulty"]),
    ]
    if v["ease"]:
        sources.append(source("ease" if v["ease"] > 0 else "hinder", 1))
    return params, sources


def t10_params(v: dict[str, int]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    params = {"pool": v["pool"], "difficulty": v["difficulty"]}
    return params, [source("pool", v["pool"]), source("difficulty", v["difficulty"])]


def ast_params(v: dict[str, int]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    params = {"white": v["white"], "level_mod": v["level_mod"]}
    sources = [source("white", v["white"])]
    if v["level_mod"]:
        sources.append(source("level", v["level_mod"]))
    return params, sources


def twod6_params(v: dict[str, int]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    params = {"attribute": v["attribute"], "skill": v["skill"], "difficulty": v["difficulty"]}
    sources = [
        source("attribute", v["attribute"]),
        source("skill", v["skill"]),
        source("difficulty", v["difficulty"]),
    ]
    return params, sources


def npc_label(npc: NPC, what: str) -> dict[str, Any]:
    """The entry's label: the NPC's name and what the GM typed, or "test" in each reader's words."""
    return joined([npc.name, what or words("test")], ": ")


def roll_npc_test(
    *, campaign: Campaign, npc: NPC, gm, form: NPCRollForm, key: uuid.UUID,
    nonce: str | None = None,
) -> tuple[Roll, bool]:  # fmt: skip
    """Roll the NPC's test in the open session; no character, the NPC named on the entry."""
    if not form.ready:
        raise ActionRefused(_("Correct the NPC's test first."))
    session = GameSession.objects.open().filter(campaign=campaign).first()
    if session is None:
        raise ActionRefused(_("No game session is running; start one to roll."))
    return record_roll(
        session=session,
        actor=gm,
        system=campaign.system,
        params=form.params,
        key=key,
        label=npc_label(npc, form.what),
        sources=form.sources,
        npc=npc,
        visibility=form.visibility,
        nonce=nonce,
    )
