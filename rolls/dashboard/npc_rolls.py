"""The GM rolls an NPC's own test, in any system: logged with the NPC, hidden by default.

FastTest NPCs are trait lists and RULES.md gives them no rolls of their own (their traits are
penalty dice against the players), so the GM types a chance (1-9) and bonus or penalty dice: a
plain FastTest test. The other systems get one small form each, mapped to the engine's params:
Caerbannog a skill level (three dice of its size), a difficulty and easing; T10 a pool and a
difficulty; AST white dice and what is added to the test level; 2d6 attribute, skill and
difficulty. Each system's form and its params are in its own folder
(``rolls/systems/<key>/npc_test.py``, listed as the system's ``NpcTests`` part); this
module reads and rolls any of them. The engine checks the params again; nothing is rolled that it
refuses. A difficulty takes the same range as the system's called tests (its panel's
``GM_LIMITS``).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from campaigns.models import Campaign, GameSession
from campaigns.systems import get_system
from config.text import text_problem
from rolls import real_dice
from rolls.actions import ActionRefused, RollSpec, record_roll
from rolls.engine import EngineError
from rolls.engine.core import OUTCOMES
from rolls.engine.typed import TypedDice
from rolls.forms import Text, WholeNumber, whole
from rolls.labels import joined, words
from rolls.models import Roll, Visibility
from sheets.models import NPC

WHAT_MAX = 80
MAX_DICE_TYPED = 20
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


def _typed_as_they_are(values: Mapping[str, int]) -> tuple[dict[str, Any], list[dict]]:
    return dict(values), []


#: ``at_roll(campaign, npc, values, params, sources) -> (params, sources, on_result)``.
AtRoll = Callable[
    [Campaign, NPC | None, Mapping[str, Any], dict[str, Any], list[dict]],
    tuple[dict[str, Any], list[dict], Callable[[Any, Roll], None] | None],
]


@dataclass(frozen=True)
class NpcTests:
    """A system's part (``campaigns.systems.Part``): the GM's form for an NPC's own test and
    the engine's params it makes; ``for_npc`` where an NPC may carry stats like a player's
    (FastTest's second kind of NPC), read in place of the plain form's numbers."""

    key: ClassVar[str] = "npc_tests"
    #: The numbers of the form.
    fields: tuple[Field, ...] = ()
    #: ``params(values) -> (engine params, the log's sources)`` of the numbers typed.
    params: Callable[[Mapping[str, int]], tuple[dict[str, Any], list[dict]]] = _typed_as_they_are
    #: ``for_npc(npc) -> NpcTests | None``: the form of this NPC's stats, None for the plain one.
    for_npc: Callable[[NPC | None], NpcTests | None] | None = None
    #: ``campaign_fields(campaign) -> fields``: numbers the campaign's settings add to the form
    #: (Caerbannog: a reaction paid from the NPCs' shared Rozmach), after the others.
    campaign_fields: Callable[[Campaign], tuple[Field, ...]] | None = None
    #: What the rules make of an NPC's roll as it is made (``AtRoll``): the params and sources
    #: it is rolled with, and ``on_result(result, roll)`` run in the roll's transaction, under
    #: the session's lock (Caerbannog: the NPCs' Rozmach, or the words that they have none).
    #: It raises ActionRefused for what the rules refuse; None: rolled as typed.
    at_roll: AtRoll | None = None

    def of(self, npc: NPC | None) -> NpcTests:
        """The form for ``npc``: its own where it carries stats, else this one."""
        own = self.for_npc(npc) if self.for_npc is not None and npc is not None else None
        return own or self

    def fields_for(self, npc: NPC | None, campaign: Campaign | None) -> tuple[Field, ...]:
        """The form's numbers for ``npc``, with those ``campaign``'s settings add."""
        extra = self.campaign_fields(campaign) if self.campaign_fields and campaign else ()
        return tuple(self.of(npc).fields) + tuple(extra)


#: A system without the part: a form of no numbers, its values the params as they are.
NO_NPC_TESTS = NpcTests()


def npc_tests(system, npc: NPC | None = None) -> NpcTests:
    """The GM's form of an NPC's test in ``system`` (for ``npc``, where it has its own)."""
    return (system.part(NpcTests) or NO_NPC_TESTS).of(npc)


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
    #: The campaign whose settings add fields (``NpcTests.campaign_fields``), None for none.
    campaign: Campaign | None = None
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
            for spec in _fields(self.system, self.npc, self.campaign)
        ]

    @property
    def ready(self) -> bool:
        return self.params is not None and not self.errors


def _fields(system: str, npc: NPC | None, campaign: Campaign | None) -> tuple[Field, ...]:
    return (get_system(system).part(NpcTests) or NO_NPC_TESTS).fields_for(npc, campaign)


def blank_form(
    system: str, npc: NPC | None = None, campaign: Campaign | None = None
) -> NPCRollForm:
    """The form before the GM types anything, with the odds of its defaults."""
    fields = _fields(system, npc, campaign)
    form = NPCRollForm(
        system=system, values={f.name: f.default for f in fields}, npc=npc, campaign=campaign
    )
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
    """The posted numbers of the system's form (``NpcTests.fields``), what is tested and who
    may see the roll, in that order (the order a refusal lists them); under ``prefix`` when
    the form is one part of a larger one (an opposed test's NPC side)."""

    def __init__(self, data=None, specs: tuple[Field, ...] = (), prefix: str = "") -> None:
        super().__init__(data, prefix=prefix)
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


def read_form(
    system: str, post, npc: NPC | None = None, prefix: str = "", campaign: Campaign | None = None
) -> NPCRollForm:
    """Read the posted form (its fields under ``prefix``, a Django form's: ``npc`` reads
    ``npc-what``): every number within its bounds, then the engine's params. ``campaign``: the
    one whose settings add fields to it (``NpcTests.campaign_fields``)."""
    specs = _fields(system, npc, campaign)
    posted = NPCTestPost(post, specs, prefix=prefix)
    valid = posted.is_valid()
    form = NPCRollForm(
        system=system,
        values={spec.name: posted.typed(spec.name) for spec in specs},
        npc=npc,
        campaign=campaign,
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
    params, sources = npc_tests(rules, form.npc).params(form.values)
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


def npc_label(npc: NPC, what: str) -> dict[str, Any]:
    """The entry's label: the NPC's name and what the GM typed, or "test" in each reader's words."""
    return joined([npc.name, what or words("test")], ": ")


def at_roll(
    campaign: Campaign, npc: NPC | None, values: Mapping[str, Any], params, sources
) -> tuple[dict[str, Any], list[dict], Callable[[Any, Roll], None] | None]:
    """An NPC's roll as the system's rules make it (``NpcTests.at_roll``): its params, sources
    and what runs on its result; as typed where the rules add nothing."""
    tests = get_system(campaign.system).part(NpcTests)
    if tests is None or tests.at_roll is None:
        return params, sources, None
    return tests.at_roll(campaign, npc, values, params, sources)


def roll_npc_test(
    *, campaign: Campaign, npc: NPC, gm, form: NPCRollForm, key: uuid.UUID,
    nonce: str | None = None, typed: list[str] | None = None,
) -> tuple[Roll, bool]:  # fmt: skip
    """Roll the NPC's test in the open session; no character, the NPC named on the entry.
    ``typed``: the faces of real dice the GM rolled behind the screen (rolls.real_dice), read
    against the dice the test rolls once the rules have made it (``at_roll``)."""
    if not form.ready:
        raise ActionRefused(_("Correct the NPC's test first."))
    session = GameSession.objects.open_of(campaign.pk)
    if session is None:
        raise ActionRefused(_("No game session is running; start one to roll."))
    existing = Roll.objects.filter(session=session, idempotency_key=key).first()
    if existing is not None:  # sent again: the roll it made, whatever the rules say now
        return existing, False
    params, sources, on_result = at_roll(campaign, npc, form.values, form.params, form.sources)
    faces = None
    if typed is not None:
        faces = real_dice.faces(real_dice.Test(campaign.system, params), typed)
    return record_roll(
        RollSpec(
            session=session,
            actor=gm,
            system=campaign.system,
            params=params,
            key=key,
            label=npc_label(npc, form.what),
            sources=sources,
            npc=npc,
            visibility=form.visibility,
            nonce=nonce,
            on_result=on_result,
            typed=faces is not None,
        ),
        rng=None if faces is None else TypedDice(faces),
    )
