"""One rule system, one place: the ``System`` protocol and the one registry of rule systems.

Everything that varies by rule system is reached through the object this registry holds for the
system's key (``Campaign.system``, ``Roll.system``): generic code (views, actions, the consumer,
the dashboard, templates and template tags) asks ``get_system(key)`` and never names a key.

Why here, in ``campaigns``: the apps import one way, ``campaigns <- sheets <- rolls``, and all
three need the registry (campaign settings, sheets, panels and rolls), so it lives at the bottom,
in the app that owns the model whose ``system`` field it is keyed by. This module imports nothing
of the project, so it can be imported from anywhere without a cycle: the implementations (which
import panels, sheets, engines and the GM's tools) register themselves when the ``rolls`` app is
ready (``rolls.apps``), from ``rolls/systems/<key>/system.py``; a system that exists only in
the tests registers itself from its test module (``register`` / ``unregister``).

Where a system lives: its web side is one package, ``rolls/systems/<key>/`` (the System object,
its panel, demo campaign and rules page; templates in ``templates/systems/<key>/``). Its sheet
schema stays in ``sheets/systems/<key>.py`` and its rules in ``rolls/engine/<key>.py``, because
the apps import one way, ``campaigns <- sheets <- rolls``: sheets may not import a package in
rolls, and the pure engine (standard library only) serves all. One package under ``sheets``
holding everything would have sheets import the panels, the log and the GM's tools, which all
import sheets. The registry is what ties the three places of a system together.

A system is one object implementing ``System``: a small core every system has, and ``parts``,
what it adds to the table's features beyond it. A part is an object of a type the feature
defines (``Part``): the opposed tests' ``OpposedRules``, the awards' ``Experience``, the
dashboard's ``DashboardBoxes``...; the feature asks ``system.part(ItsType)`` and offers nothing
where the answer is None, so no caller guesses with ``hasattr`` and a feature's contract is written
once, beside the feature. What a system does at the table's moments (a scene starts, a session
ends, a called test is rolled, the settings are saved) it does in receivers of the signals
sent then, connected with ``sender=`` its System. ``BaseSystem`` gives the core's defaults.
The objects the core points at keep the small interfaces documented where they are defined:

- ``engine``: the pure rules (ENGINE.md): ``parse_params``, ``roll(params, rng)`` and the
  result's ``contract()`` and ``dice``; ``odds`` for the panels.
- ``sheet``: the sheet module (``sheets.systems``' docstring): ``default_data``,
  ``data_from_post``, ``validate``, ``totals``, ``derived``, ``view``, ``FORM_TEMPLATE``,
  ``SHEET_TEMPLATE`` and optional ``SECTIONS``. Outside it a sheet is read only through
  ``System.view(data)`` (a ``SheetView``) and written only through ``sheets.actions``.
- ``panel``: the test panel module (``rolls.panels``' docstring): ``build``, ``target_fields``,
  ``target_from_post``; what may follow a roll is the ``rolls.panels.FollowUps`` part.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property
from types import ModuleType
from typing import Any, ClassVar, Protocol, TypeAlias, TypeVar, runtime_checkable

from django.urls import URLPattern, URLResolver
from django.utils.functional import Promise

#: Words a reader sees: plain text, or a message translated when shown (``gettext_lazy``).
Words: TypeAlias = str | Promise
#: The faces of a roll as the engine reads them back (ENGINE.md): a list, or lists by group.
Faces: TypeAlias = list[int] | Mapping[str, int | list[int]]
#: A JSON value as stored on a model (a sheet's, a campaign's settings, a roll's answer).
JSON: TypeAlias = Any
#: What the registry hands on without reading, and may not import because the apps import one
#: way (``campaigns <- sheets <- rolls``) and ``campaigns.models`` imports this module: the
#: models (a ``Campaign``, a ``Character``, a ``Roll``), a test panel (``rolls.panels.Panel``),
#: an engine's own params and result. Each is typed where it is defined.
Passed: TypeAlias = Any


class RandomSource(Protocol):
    """Where the engine draws a die (``rolls.engine.core.RandomSource``)."""

    def randint(self, a: int, b: int) -> int: ...


@runtime_checkable
class Engine(Protocol):
    """A system's pure rules (``rolls/engine/<key>.py``, standard library only): the engine's
    command-line contract. A module implements it as it is."""

    def parse_params(self, raw: JSON) -> Passed:
        """The params checked and typed; ``EngineError`` for anything it does not know."""

    def roll(self, params: Passed, rng: RandomSource) -> Passed:
        """A result with ``dice`` (``rolls.engine.core.Die``) and ``contract()``, the answer
        the log keeps; every die drawn from ``rng``."""

    def odds(self, params: Passed) -> Mapping[str, JSON]:
        """The exact chance of each outcome, before the roll."""

    #: Its outcome keys worst to best, which succeed, its critical and its catastrophe
    #: (``rolls.engine.core.Scale``): the night's recap (rolls.recap) measures luck by it.
    SCALE: Passed


@runtime_checkable
class SheetModule(Protocol):
    """A system's sheet (``sheets/systems/<key>.py``; the details in ``sheets.systems``)."""

    FORM_TEMPLATE: str
    SHEET_TEMPLATE: str

    def default_data(self, campaign: Passed) -> dict[str, JSON]:
        """A blank sheet for a new character of ``campaign``."""

    def data_from_post(self, post: Passed, campaign: Passed) -> dict[str, JSON]:
        """The sheet as typed in its form."""

    def validate(
        self, data: JSON, campaign: Passed, *, creating: bool
    ) -> tuple[dict[str, JSON], dict[str, list[str]]]:
        """The cleaned sheet and the errors by field."""

    def totals(self, data: JSON, campaign: Passed) -> list[Passed]:
        """The running totals shown while the player types (``sheets.systems.Total``)."""

    def derived(self, data: JSON, campaign: Passed) -> dict[str, JSON]:
        """What the sheet page shows computed from a valid sheet."""


@runtime_checkable
class PanelModule(Protocol):
    """A system's test panel (``rolls/systems/<key>/panel.py``; the details in
    ``rolls.panels``)."""

    def build(
        self, character: Passed, campaign: Passed, choices: Passed, pending: Passed = None
    ) -> Passed:
        """The ``rolls.panels.Panel`` of the player's choices (or the GM's call)."""

    def target_fields(self, character: Passed, campaign: Passed) -> list[dict[str, JSON]]:
        """The fields of the GM's "call for a test" form."""

    def target_from_post(
        self, post: Passed, character: Passed, campaign: Passed, prefix: str = ""
    ) -> tuple[dict[str, JSON], list[str]]:
        """The GM's call as posted, and what is wrong with it; its fields under ``prefix``, as a
        Django form's (``a`` reads ``a-attribute``: one side of an opposed test)."""


@runtime_checkable
class Part(Protocol):
    """What a system adds to one feature of the table beyond the core: an object of a type the
    feature defines (``rolls.opposed.rules.OpposedRules``, ``rolls.dashboard.awards.Experience``,
    ...), listed in the system's ``parts``. The feature asks ``system.part(ItsType)``; a template
    reads it as ``system.offered.<key>``. A system without the part offers nothing there."""

    #: The part's name, one per type: ``offered``'s key.
    key: ClassVar[str]


PartT = TypeVar("PartT", bound=Part)


@runtime_checkable
class System(Protocol):
    """What a rule system offers the table. Defaults for every member are in ``BaseSystem``."""

    @property
    def key(self) -> str:
        """The key stored in ``Campaign.system`` and ``Roll.system``."""

    @property
    def name(self) -> Words:
        """Its name in lists of systems and on a campaign ("FastTest")."""

    @property
    def position(self) -> int:
        """Where it comes in lists of systems (RULES.md's section number)."""

    @property
    def engine(self) -> Engine:
        """The pure engine module (or any object with its interface)."""

    @property
    def sheet(self) -> SheetModule:
        """The sheet module: defaults, form, validation, totals, templates."""

    @property
    def panel(self) -> PanelModule:
        """The test panel module: ``build``, ``target_fields``, ``target_from_post``."""

    @property
    def settings_defaults(self) -> Mapping[str, JSON]:
        """The campaign settings with their defaults (``campaigns.system_settings``)."""

    @property
    def facts(self) -> tuple[str, ...]:
        """The numbers of the engine's answer a log entry shows beside the dice."""

    @property
    def gm_controls(self) -> tuple[str, ...]:
        """What the GM may change on a pending test (the dashboard's controls on its card)."""

    @property
    def demo(self) -> ModuleType | None:
        """The demo table's campaign: a module with ``NAME``, ``SETTINGS``, ``CHARACTERS``
        (player, character name, sheet data) and ``NPCS`` (``rolls.demo``); None for none.
        The conformance suite (tests/web/system_conformance.py) plays its first character."""

    @property
    def rules_page(self) -> Passed:
        """How its test works, for its page under /rules/ (``rolls.rules.pages.RulesPage``);
        None for no page."""

    @property
    def outcome_words(self) -> Mapping[str, Words]:
        """Outcome keys the log reads in the system's own words ({"success": "Lyckat
        (success)"} in T10); the others read in the shared words (``rolls.labels``)."""

    @property
    def urls(self) -> Sequence[URLPattern | URLResolver]:
        """The URL patterns of its own views, added under ``c/<campaign_id>/`` (``rolls.urls``
        adds every registered system's); () for none. A template names one only where the
        system offers it."""

    def engine_faces(self, dice: Sequence[Mapping[str, JSON]]) -> Faces:
        """The faces of a stored roll in ENGINE.md's format (to re-resolve and check it)."""

    def view(self, data: JSON) -> SheetView:
        """The typed read-only view of a character's ``Character.data`` (``SheetView``)."""

    def vitals(self, data: JSON) -> list[tuple[Words, JSON]]:
        """(label, value) pairs of a character's card on the GM's dashboard."""

    def entry_facts(self, roll: Passed) -> tuple[str, ...]:
        """The facts ``roll``'s log entry shows: ``facts``, less any the rules give that roll
        none of (Caerbannog: an NPC without Rozmach gains none)."""

    @property
    def parts(self) -> Sequence[Part]:
        """What the system adds to the table's features beyond this core: ``Part``s, one of
        each type (docs/adding-a-system.md lists them)."""

    @property
    def offered(self) -> Mapping[str, Part]:
        """The parts by key, for templates (``campaign.rules.offered.turns``)."""

    def part(self, kind: type[PartT]) -> PartT | None:
        """The system's part of type ``kind``, None when it offers none."""


class SheetView:
    """A typed, read-only view of one character's sheet (``Character.data``).

    The JSON's shape belongs to the system's sheet module; everything else reads a sheet
    through ``get_system(key).view(data)`` (healthchecks' ``NtfyConf`` over ``Channel.value``)
    and writes it only through ``sheets.actions``. A value of the wrong type reads as its
    default, so a reader never guards against the JSON. Each sheet module subclasses this;
    this base is the generic sheet, a list of named values. Values are copies: changing what
    a view returns never changes the sheet.
    """

    __slots__ = ("_data",)
    _data: Mapping[str, JSON]

    def __init__(self, data: JSON) -> None:
        object.__setattr__(self, "_data", data if isinstance(data, Mapping) else {})

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only; write through sheets.actions.")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {dict(self._data)!r}>"

    def _int(self, key: str, default: int = 0) -> int:
        value = self._data.get(key, default)
        return value if isinstance(value, int) and not isinstance(value, bool) else default

    def _mapping(self, key: str) -> dict[str, JSON]:
        value = self._data.get(key)
        return dict(value) if isinstance(value, Mapping) else {}

    def _rows(self, key: str) -> list[Mapping[str, JSON]]:
        value = self._data.get(key)
        return [row for row in value if isinstance(row, Mapping)] if isinstance(value, list) else []

    def number(self, *path: str) -> int:
        """The whole number at ``path`` (e.g. ``rolls.dashboard.awards.Experience.path``), 0
        where there is none."""
        node: JSON = self._data
        for key in path:
            node = node.get(key) if isinstance(node, Mapping) else None
        return node if isinstance(node, int) and not isinstance(node, bool) else 0

    @property
    def attributes(self) -> tuple[tuple[str, JSON], ...]:
        """The named values, as (name, value) pairs in sheet order."""
        rows = self._data.get("attributes", [])
        if isinstance(rows, Mapping):
            return tuple(rows.items())
        rows = self._rows("attributes")
        return tuple((row.get("name", ""), row.get("value", "")) for row in rows)


class BaseSystem:
    """Defaults for every member of ``System``: a system without something offers nothing."""

    key: ClassVar[str] = ""
    position: ClassVar[int] = 100
    # A system brings its own engine, sheet and panel: None here only lets a bare system of the
    # tests be made, and register refuses it unless it has them all.
    engine: Engine = None  # type: ignore[assignment]
    sheet: SheetModule = None  # type: ignore[assignment]
    panel: PanelModule = None  # type: ignore[assignment]
    settings_defaults: ClassVar[Mapping[str, JSON]] = {}
    facts: ClassVar[tuple[str, ...]] = ()
    gm_controls: ClassVar[tuple[str, ...]] = ()
    demo: ModuleType | None = None
    rules_page: ClassVar[Passed] = None
    outcome_words: ClassVar[Mapping[str, Words]] = {}
    urls: ClassVar[Sequence[URLPattern | URLResolver]] = ()

    #: What the system adds beyond the core: ``Part``s, one of each type.
    parts: ClassVar[Sequence[Part]] = ()

    def __repr__(self) -> str:
        return f"<System {self.key}>"

    @cached_property
    def offered(self) -> dict[str, Part]:
        """The system's parts by key (a template's ``rules.offered.turns``)."""
        offered: dict[str, Part] = {}
        for part in self.parts:
            if type(part).key in offered:
                raise ValueError(f"{self.key} lists two parts of kind {type(part).key!r}.")
            offered[type(part).key] = part
        return offered

    def part(self, kind: type[PartT]) -> PartT | None:
        """The system's part of type ``kind``, None when it offers none."""
        part = self.offered.get(kind.key)
        return part if isinstance(part, kind) else None

    @property
    def name(self) -> Words:
        """A system that gives itself no name is listed by its key."""
        return self.key

    def engine_faces(self, dice: Sequence[Mapping[str, JSON]]) -> Faces:
        return [die["face"] for die in dice]

    def view(self, data: JSON) -> SheetView:
        return SheetView(data)

    def vitals(self, data: JSON) -> list[tuple[Words, JSON]]:
        return list(SheetView(data).attributes)

    def entry_facts(self, roll: Passed) -> tuple[str, ...]:
        return self.facts


_REGISTRY: dict[str, System] = {}


class UnknownSystem(LookupError):
    """A key no system is registered under."""


def register(system: System) -> System:
    """Make ``system`` the implementation of its key (a second one for a key is refused)."""
    if not isinstance(system, System):
        raise TypeError(f"{system!r} does not implement the System protocol.")
    _ = system.offered  # refuses two parts of one kind now, not at the first page that asks
    if system.key in _REGISTRY and _REGISTRY[system.key] is not system:
        raise ValueError(f"A system is already registered under {system.key!r}.")
    _REGISTRY[system.key] = system
    return system


def unregister(key: str) -> None:
    _REGISTRY.pop(key, None)


def get_system(key: str) -> System:
    try:
        return _REGISTRY[key]
    except KeyError:
        raise UnknownSystem(f"No rule system is registered under {key!r}.") from None


def all_systems() -> list[System]:
    """Every registered system, in RULES.md's order (``position``)."""
    return sorted(_REGISTRY.values(), key=lambda system: system.position)


def system_choices() -> list[tuple[str, Words]]:
    """(key, name) of every registered system, in RULES.md's order: ``Campaign.system``'s
    choices, so a new system is offered once it registers, with no list to edit."""
    return [(system.key, system.name) for system in all_systems()]
