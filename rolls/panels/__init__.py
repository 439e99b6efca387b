"""Test panels: what a player is about to roll, built from the sheet, the player's choices and
the GM's modifiers, with exact odds. One module per system (``rolls/systems/<key>/panel.py``);
the views only call ``build``.

Each module (a system's ``campaigns.systems.System.panel``) offers ``build(character, campaign,
choices, pending=None) -> Panel``: ``choices`` is the panel form as posted (a ``QueryDict`` or a
dict of lists), ``pending`` the GM's modifiers of a pending test. The server always rebuilds the
panel from the posted choices, so a roll uses exactly what the panel showed and nothing the
client could forge beyond its choices.

Each system reads its choices through its own ``PanelForm`` (typed fields below: ``WholeNumber``,
``Name``, ``Names``...), built by the form's ``read`` from the sheet and the pending test: what
the GM fixed on a called test (its target, the GM's numbers) is a disabled field, so a posted
value cannot override it, and each refusal is the rule's own sentence at its field. ``build``
then goes from the clean choices to the params, the sources and the odds.

Where the rules allow something after a roll (a re-roll, a boost, heroic effort), the system
has a ``FollowUps`` part (below): ``offered(roll, character, campaign) -> list[FollowUp]``
(what may be done now with that roll: an empty list when nothing may) and ``build(kind, roll,
character, campaign, choices) -> Panel``, a panel whose ``resolver`` re-reads or re-rolls the
parent's dice; where they let the GM act after a roll (AST), its ``gm``, a ``GmFollowUps`` of
the same shape. The follow-up is logged as its own entry linked to the roll it follows; entries are
never edited.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, ClassVar, TypeVar

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.text import TextField, text_problem


@dataclass
class Panel:
    """A test ready to roll (``params`` set) or not yet (``errors`` say why)."""

    system: str
    template: str
    # Plain text or words as data (rolls.labels), rendered in each reader's language.
    label: str | dict[str, Any] = ""
    params: dict[str, Any] | None = None
    sources: list[dict[str, Any]] = field(default_factory=list)
    errors: dict[str, list[str]] = field(default_factory=dict)
    odds: list[tuple[str, float]] = field(default_factory=list)
    success: float | None = None
    context: dict[str, Any] = field(default_factory=dict)
    # Sheet counters the roll spends (e.g. {"experience_dice": 2}), refused if they fell short.
    spend: dict[str, int] = field(default_factory=dict)
    # ``on_result(sheet_data, engine_result)`` updates the locked sheet after the roll, inside
    # its transaction (AST: FUNT gained; Caerbannog: the Rozmach pool after the roll).
    on_result: Callable[[dict[str, Any], Any], object] | None = None
    # For follow-ups: ``resolver(module, params, rng)`` (see rolls.actions.record_roll).
    resolver: Callable[[Any, Any, Any], Any] | None = None
    # A panel opened from the sheet may itself be a follow-up of an earlier roll (FastTest's
    # magic die after a spell): the log's kind and the roll it follows, None for a new test.
    kind: str = "test"
    parent: Any = None
    # ``after(roll)`` is what the rules do once the roll is saved, inside its transaction
    # (FastTest: ignoring wounds adds a wound and calls the consciousness test).
    after: Callable[[Any], None] | None = None

    @property
    def ready(self) -> bool:
        return self.params is not None and not self.errors


@dataclass(frozen=True)
class FollowUp:
    """Something the rules allow after a roll: its kind (a key of rolls.labels.KIND_LABELS),
    the button's words, and the extra fields its small form asks for (e.g. dice to re-roll)."""

    kind: str
    label: str
    fields: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True)
class GmFollowUps:
    """What the rules let the GM do after a test's roll, called or free (AST: read another die
    when hindered), a ``FollowUps``' ``gm``; the dashboard's box of the latest free rolls shows
    it (``rolls.dashboard.gm_readings``)."""

    #: ``offered(roll, character, campaign) -> list[FollowUp]``: what the GM may do now.
    offered: Callable[..., list[FollowUp]]
    #: ``build(kind, roll, character, campaign, choices) -> Panel``.
    build: Callable[..., Any]
    #: Why the GM may do nothing after a roll the rules offer the GM nothing on.
    refusal: Any = gettext_lazy("That can no longer be done with this roll.")


@dataclass(frozen=True)
class FollowUps:
    """A system's part (``campaigns.systems.Part``): what the rules allow after a roll, the
    roller (a re-roll, a boost, heroic effort), the GM (``gm``) and a menu of options to pick
    (``menu``, T10's: ``rolls.roll_options``); None for what they do not allow."""

    key: ClassVar[str] = "follow_ups"
    #: ``offered(roll, character, campaign) -> list[FollowUp]``: what may be done now.
    offered: Callable[..., list[FollowUp]] | None = None
    #: ``build(kind, roll, character, campaign, choices) -> Panel``: the panel of one of them.
    build: Callable[..., Any] | None = None
    #: What the rules let the GM do after a roll.
    gm: GmFollowUps | None = None
    #: ``menu(roll, tables=None)``: the menu after ``roll``, None when there is none (its shape
    #: is ``rolls.roll_options``').
    menu: Callable[..., Mapping[str, Any] | None] | None = None


def gm_follow_ups_of(system) -> GmFollowUps | None:
    """What the rules let the GM do after a roll, None in a system where nothing."""
    part = system.part(FollowUps)
    return part.gm if part is not None else None


def follow_ups_after(system, roll, character, campaign) -> list[FollowUp]:
    """What the rules allow the roller after ``roll`` now, [] for a system without any."""
    part = system.part(FollowUps)
    if part is None or part.offered is None:
        return []
    return part.offered(roll, character, campaign)


def gm_follow_ups_after(system, roll, character, campaign) -> list[FollowUp]:
    """What the rules let the GM do after ``roll`` now, [] for a system without any."""
    part = gm_follow_ups_of(system)
    return part.offered(roll, character, campaign) if part is not None else []


def not_on_sheet(name: str) -> str:
    """The message for a posted choice the sheet does not hold (forged, or renamed since)."""
    return text_problem(name) or _(
        "There is no “%(name)s” on this sheet; reload the page to see what it holds."
    ) % {"name": name[:60]}


@dataclass(frozen=True)
class Limit:
    """The range of one number the GM sets on a called test, with the rule's own words.

    One place per system (its ``GM_LIMITS``, and ``gm_dynamic_limits(panel, pending)`` where the
    range depends on the test): the operations refuse outside it, the GM's card shows it as the
    field's min and max, and the call form lists the same numbers. ``message`` may use
    ``%(low)s`` and ``%(high)s``.
    """

    low: int
    high: int
    message: Any
    nonzero: bool = False

    def refusal(self, value: Any) -> str | None:
        """None when ``value`` is allowed, else the sentence that says why it is not."""
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or not self.low <= value <= self.high
            or (self.nonzero and value == 0)
        ):
            return str(self.message) % {"low": self.low, "high": self.high}
        return None


def gm_limits(module: ModuleType, panel: Panel | None = None, pending=None) -> dict[str, Limit]:
    """The system's ranges for the GM's numbers; the dynamic ones need the card's panel."""
    limits = dict(getattr(module, "GM_LIMITS", {}))
    dynamic = getattr(module, "gm_dynamic_limits", None)
    if dynamic is not None and panel is not None:
        limits |= dynamic(panel, pending)
    return limits


def source(kind: str, amount: int, text: str | dict[str, Any] = "") -> dict[str, Any]:
    """One modifier with where it came from, as the log shows it: ``text`` is what someone
    typed (shown as it is) or the app's own words as data (rolls.labels.words)."""
    return {"kind": kind, "amount": amount, "source": text}


FieldT = TypeVar("FieldT", bound=forms.Field)


class PanelForm(forms.Form):
    """A panel's choices as posted, read through the system's form.

    ``fixed`` holds what is not the player's to choose on a called test (the GM's target and
    numbers): those fields are ``disabled``, so Django cleans the GM's value whatever was
    posted, and a page (or a forged request) cannot put a value of its own into them. The
    form cleans itself when first asked; ``messages`` are its errors as the panel shows them.
    """

    def __init__(self, choices=None, *, fixed: Mapping[str, Any] | None = None, **kwargs):
        fixed = dict(fixed or {})
        super().__init__(data=posted(choices), initial=fixed, **kwargs)
        for name in fixed:
            if name in self.fields:
                self.fields[name].disabled = True

    def field_of(self, name: str, kind: type[FieldT]) -> FieldT:
        """The field ``name``, of ``kind``: a field whose range or words the sheet sets."""
        field = self.fields[name]
        if not isinstance(field, kind):
            raise TypeError(f"{name} is a {type(field).__name__}, not a {kind.__name__}.")
        return field

    def value(self, name: str) -> Any:
        """The clean value, or what was posted when it did not clean (the page shows it again)."""
        if name in self.cleaned:
            return self.cleaned[name]
        return self.raw(name)

    def raw(self, name: str) -> Any:
        """What was posted for ``name`` (the GM's value when the field is fixed)."""
        return self[name].value()

    @property
    def cleaned(self) -> dict[str, Any]:
        """``cleaned_data``, cleaning the form first if it was not yet."""
        return self.cleaned_data if self.errors is not None else {}

    @property
    def messages(self) -> dict[str, list[str]]:
        """The errors by field, the form's own under ``""`` (as ``Panel.errors`` keeps them)."""
        return {
            ("" if name == NON_FIELD_ERRORS else name): [str(error) for error in errors]
            for name, errors in self.errors.items()
        }


class WholeNumber(forms.IntegerField):
    """A whole number from ``low`` to ``high``, ``empty`` when left blank; whatever is wrong with
    it gets the one sentence of the rule (``message`` % ``params``), never Django's own."""

    def __init__(self, low: int, high: int, message: Any, *, empty: Any = 0, **params: Any):
        super().__init__(required=False)
        self.low, self.high, self.empty = low, high, empty
        self.message, self.params = message, params

    def clean(self, value: Any) -> Any:
        try:
            number = super().clean(value)
        except ValidationError:
            raise self.refusal() from None
        if number is None:
            return self.empty
        if not self.low <= number <= self.high:
            raise self.refusal()
        return number

    def to_python(self, value: Any) -> int | None:
        return _whole(super(), value)

    def refusal(self) -> ValidationError:
        return ValidationError(str(self.message) % self.params, code="range")


class Key(forms.Field):
    """A request's idempotency key: a UUID, or ``message`` when it is missing or is not one."""

    def __init__(self, message):
        super().__init__(required=False)
        self.message = message

    def clean(self, value) -> uuid.UUID:
        try:
            return uuid.UUID(str(value or ""))
        except ValueError:
            raise ValidationError(self.message) from None


class WholeNumberOrNone(forms.IntegerField):
    """A whole number where anything else means "not chosen" (None): a stale or forged value
    falls back to the default rather than refusing the test."""

    def __init__(self, **kwargs: Any):
        super().__init__(required=False, **kwargs)

    def to_python(self, value: Any) -> int | None:
        return _whole(super(), value)

    def clean(self, value: Any) -> int | None:
        try:
            return super().clean(value)
        except ValidationError:
            return None


def _whole(field: Any, value: Any) -> int | None:
    # Django reads "7.0" as 7; a panel's number is written as a whole number or refused.
    if isinstance(value, str) and "." in value:
        raise ValidationError("", code="invalid")
    return field.to_python(value)


class Name(TextField):
    """One name posted as it is (a name on the sheet is matched exactly), empty when none.
    Which names are allowed, and the sentence for one that is not, are the form's."""

    def __init__(self, **kwargs: Any):
        super().__init__(required=False, strip=False, **kwargs)


class SourceText(TextField):
    """Where a modifier comes from, as typed: spaces collapsed, at most ``limit`` characters
    (``message`` % ``params`` says so), under the one text rule."""

    def __init__(self, limit: int, message: Any, **params: Any):
        super().__init__(required=False, strip=False)
        self.limit, self.message, self.params = limit, message, params

    def clean(self, value: Any) -> str:
        text = " ".join(str(value or "").split())
        if len(text) > self.limit:
            raise ValidationError(str(self.message) % self.params, code="too_long")
        if problem := text_problem(text):
            raise ValidationError(problem, code="unsafe_text")
        return text


class Names(forms.Field):
    """Every value posted under one name (ticked boxes), as text; which of them the sheet
    holds is the form's to say."""

    widget = forms.MultipleHiddenInput

    def __init__(self, **kwargs: Any):
        super().__init__(required=False, **kwargs)

    def to_python(self, value: Any) -> list[str]:
        return _posted(value)


def _posted(value: Any) -> list[str]:
    if value in (None, ""):
        return []
    values = value if isinstance(value, (list, tuple)) else [value]
    return [str(item) for item in values]


class Indices(forms.Field):
    """Every whole number posted under one name (dice to re-roll); anything else is ignored,
    as a box the page never offered."""

    widget = forms.MultipleHiddenInput

    def __init__(self, **kwargs: Any):
        super().__init__(required=False, **kwargs)

    def to_python(self, value: Any) -> list[int]:
        out = []
        for item in _posted(value):
            try:
                out.append(int(item))
            except ValueError:
                continue
        return out


def posted(choices) -> QueryDict:
    """The choices as a ``QueryDict``: a request's own, or a dict of lists (a saved draft, a
    target) with each value as text, junk included (the form refuses it with its message)."""
    if isinstance(choices, QueryDict):
        return choices
    data = QueryDict(mutable=True)
    for name, values in (choices or {}).items():
        values = values if isinstance(values, (list, tuple)) else [values]
        data.setlist(name, [str(value) for value in values])
    return data


def with_target(choices, target: Mapping[str, Any]) -> QueryDict:
    """The posted choices with a test's target on top (the stat a panel stays on)."""
    merged = posted(choices).copy()
    for name, value in (target or {}).items():
        merged.setlist(name, [str(v) for v in (value if isinstance(value, list) else [value])])
    return merged
