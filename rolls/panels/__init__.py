"""Test panels: what a player is about to roll, built from the sheet, the player's choices and
the GM's modifiers, with exact odds. One module per system (``rolls/systems/<key>/panel.py``);
the views only call ``build``.

Each module (a system's ``campaigns.systems.System.panel``) offers ``build(character, campaign,
choices, pending=None) -> Panel``: ``choices`` is the panel form as posted (a ``QueryDict`` or a
dict of lists), ``pending`` the GM's modifiers of a pending test. The server always rebuilds the
panel from the posted choices, so a roll uses exactly what the panel showed and nothing the
client could forge beyond its choices.

Where the rules allow something after a roll (a re-roll, a boost, heroic effort), the system
says so (``System.has_follow_ups``) and offers ``follow_ups(roll, character, campaign) ->
list[FollowUp]`` (what may be done now with that roll: an empty list when nothing may) and
``build_follow_up(kind, roll, character, campaign, choices) -> Panel``, a panel whose
``resolver`` re-reads or re-rolls the parent's dice. The follow-up is logged as its own entry
linked to the roll it follows; entries are never edited.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from django import forms
from django.utils.translation import gettext as _

from config.text import text_problem


@dataclass
class Panel:
    """A test ready to roll (``params`` set) or not yet (``errors`` say why)."""

    system: str
    template: str
    # Plain text or words as data (rolls.words), rendered in each reader's language.
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
    on_result: Callable[[dict[str, Any], Any], None] | None = None
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
    typed (shown as it is) or the app's own words as data (rolls.words.words)."""
    return {"kind": kind, "amount": amount, "source": text}


def ints(choices, name: str) -> list[int]:
    """Every whole number posted under ``name``; anything else is ignored (forged input)."""
    values = choices.getlist(name) if hasattr(choices, "getlist") else choices.get(name, [])
    if isinstance(values, (str, int)):
        values = [values]
    out = []
    for value in values:
        try:
            out.append(int(value))
        except (TypeError, ValueError):
            continue
    return out


def one_int(choices, name: str, default: int = 0) -> int | str:
    """The posted whole number, the default when empty, or the raw text when it is not one."""
    raw = choices.get(name, "") if hasattr(choices, "get") else ""
    if isinstance(raw, list):
        raw = raw[0] if raw else ""
    raw = str(raw).strip()
    if raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        return raw


def one_str(choices, name: str, default: str = "") -> str:
    raw = choices.get(name, default) if hasattr(choices, "get") else default
    if isinstance(raw, list):
        raw = raw[0] if raw else default
    return str(raw)


class Choices(dict):
    """A dict of lists that answers like a QueryDict (``get`` gives the last, ``getlist`` all)."""

    def get(self, key, default=None):
        values = super().get(key)
        return values[-1] if values else default

    def getlist(self, key):
        return list(super().get(key, []))


def with_target(choices, target: dict[str, Any]):
    """The posted choices with the GM's target on top (a player cannot re-aim a called test)."""
    if not target:
        return choices
    getlist = choices.getlist if hasattr(choices, "getlist") else None
    merged = {key: getlist(key) if getlist else _as_list(choices[key]) for key in choices}
    merged.update({key: _as_list(value) for key, value in target.items()})
    return Choices(merged)


def gm_fixed(choices, form_class: type[forms.Form], initial: dict[str, Any] | None = None):
    """The posted choices with the GM's fields of a called test at the GM's values.

    ``form_class`` holds those fields, each ``disabled``: Django then cleans the form's initial
    value whatever was posted, so a page (or a forged request) cannot put a number of its own
    into a field the GM owns. What is left to the player is left as posted.
    """
    form = form_class(data=Choices(), initial=initial or {})
    form.is_valid()
    fixed = {
        name: form.cleaned_data.get(name, field.initial) for name, field in form.fields.items()
    }
    return with_target(choices, {name: "" if v is None else v for name, v in fixed.items()})


def _as_list(value: Any) -> list:
    return value if isinstance(value, list) else [value]
