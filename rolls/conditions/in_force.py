"""What a condition is (``Spec``, the rules' own presets) and which are in force: those on a
character, those that concern a test (``for_test``), and the words that name them in each
reader's language. Writing them is rolls.conditions.actions."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from django.db import connection
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns import stored_text
from campaigns.systems import all_systems
from rolls import labels
from rolls.actions import ActionRefused
from rolls.labels import WORDS, words
from rolls.models import Condition
from rolls.panels import source
from sheets.models import Character

# The log's words for conditions: their entries, and each one among a test's sources.
labels.register(
    kinds={
        "condition": gettext_lazy("condition added"),
        "condition_cleared": gettext_lazy("condition cleared"),
    },
    words={
        "condition_added": gettext_lazy("%(name)s (%(concerns)s, %(until)s)"),
        "condition_cleared": gettext_lazy("%(name)s: %(why)s"),
        "condition_source": gettext_lazy("%(name)s (condition, #%(seq)s)"),
        "concerns_all": gettext_lazy("all tests"),
        "concerns_attribute": gettext_lazy("tests of %(name)s"),
        "concerns_skill": gettext_lazy("tests of %(name)s"),
        "concerns_target": gettext_lazy("tests against %(name)s"),
        "until_hand": gettext_lazy("until the GM clears it"),
        "until_scene": gettext_lazy("until the scene ends"),
        "until_session": gettext_lazy("until the session ends"),
        "until_next_test": gettext_lazy("for the next test it applies to"),
        "until_success": gettext_lazy("until “%(test)s” succeeds"),
        "cleared_by_hand": gettext_lazy("cleared by the GM"),
        "cleared_after_test": gettext_lazy("used up by the test #%(seq)s"),
        "cleared_by_success": gettext_lazy("“%(test)s” succeeded (#%(seq)s)"),
        "cleared_scene_end": gettext_lazy("the scene ended"),
        "cleared_session_end": gettext_lazy("the session ended"),
    },
)

ADDED, CLEARED = "condition", "condition_cleared"
#: The most conditions one character carries at once (a forged loop of adds stops here).
MAX_ACTIVE = 12
NAME_MAX = 80
AMOUNT_MAX = 20


def _no_tests(condition: Condition, campaign) -> list[Mapping[str, Any]]:
    return []


@dataclass(frozen=True)
class ConditionRules:
    """A system's part (``campaigns.systems.Part``): what a condition may change in its tests,
    and the conditions its rules bring. Without it the system's panel applies no conditions."""

    key: ClassVar[str] = "conditions"
    #: What a condition may change in this system's tests ({effect key: words}), never empty.
    effects: Mapping[str, Any]
    #: The rules' own conditions, the GM's one-click list: dicts of ``key``, ``name``,
    #: ``original`` (the seed's words, with the reader's translation beside them where the seed
    #: is in another language: one message whose Polish keeps a Polish seed's words alone),
    #: ``effect``, ``amount``, ``scope``, ``scope_name``, ``lasts``, ``ends_with``
    #: (``rolls.models.Condition``'s fields).
    presets: tuple[Mapping[str, Any], ...] = ()
    #: The lowest and highest amount of one condition (AST's states: 1 to 10, never below 1).
    amounts: tuple[int, int] = (-AMOUNT_MAX, AMOUNT_MAX)
    #: The tests a condition on the sheet offers in one click (FastTest's waking test):
    #: ``tests(condition, campaign)``, dicts of ``label`` and ``roll`` (the panel's choices a
    #: click opens).
    tests: Callable[[Condition, Any], list[Mapping[str, Any]]] = _no_tests


#: A system without the part: no condition changes its tests.
NO_CONDITIONS = ConditionRules(effects={})


def condition_rules(system) -> ConditionRules:
    return system.part(ConditionRules) or NO_CONDITIONS


@dataclass(frozen=True)
class Spec:
    """What a condition is, before it is on a sheet: the system's own (``preset``) or the GM's."""

    name: str
    effect: str
    amount: int
    scope: str = Condition.Scope.ALL
    scope_name: str = ""
    lasts: str = Condition.Lasts.HAND
    ends_with: str = ""
    preset: str = ""


def preset_spec(system, key: str) -> Spec:
    """The system's own condition ``key`` (``ConditionRules.presets``) as a Spec."""
    for preset in condition_rules(system).presets:
        if preset["key"] == key:
            return Spec(
                name=str(preset["name"])[:NAME_MAX],
                effect=preset["effect"],
                amount=preset["amount"],
                scope=preset.get("scope", Condition.Scope.ALL),
                scope_name=str(preset.get("scope_name", ""))[:NAME_MAX],
                lasts=preset.get("lasts", Condition.Lasts.HAND),
                ends_with=str(preset.get("ends_with", ""))[:NAME_MAX],
                preset=key,
            )
    raise ActionRefused(_("These rules have no such condition; reload the page to see theirs."))


def active(character: Character) -> list[Condition]:
    """The character's conditions in force, oldest first, with their entries.

    Every panel, and so every roll, asks, and most characters have none: a plain SQL check
    answers that (a hundredth of the ORM's cost of building the joined query in Python, which
    was a fifth of a roll's CPU), and the joined query runs only when there are some.
    """
    if character.pk is None or not _any_in_force(character.pk):
        return []
    # Through the character's own manager: each condition gets this character (and the campaign
    # it holds) back, so what a condition's line asks of them (the waking tests) costs nothing.
    return list(
        character.conditions.filter(cleared_entry=None).select_related("added_entry", "source")
    )


def _any_in_force(character_id: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute(_ANY_IN_FORCE, [character_id])
        return cursor.fetchone() is not None


_ANY_IN_FORCE = (
    'SELECT 1 FROM "rolls_condition" WHERE "character_id" = %s AND "cleared_entry_id" IS NULL '
    "LIMIT 1"
)


def active_in(campaign) -> dict[int, list[Condition]]:
    """Every character's conditions in force at the campaign's table, by character (one
    query for the whole party card grid)."""
    found: dict[int, list[Condition]] = {}
    in_force = Condition.objects.filter(
        character__campaign=campaign, cleared_entry=None
    ).select_related("added_entry", "source")
    for condition in in_force:
        found.setdefault(condition.character_id, []).append(condition)
    return found


def name_words(condition: Condition | Spec) -> Any:
    """The condition's name as the log renders it: the system's own words for its own
    conditions (each reader's language), the GM's text as typed."""
    return _preset_words(condition, "name", condition.name)


def ends_with_words(condition: Condition | Spec) -> Any:
    """The test whose success ends the condition, in the same way: the system's own words for
    its own conditions ("stand up (resa dig)"), the GM's text as typed."""
    return _preset_words(condition, "ends_with", condition.ends_with)


def scope_name_words(condition: Condition | Spec) -> Any:
    """What the condition concerns, by name (T10's "the same target or case"), the same way."""
    return _preset_words(condition, "scope_name", condition.scope_name)


def _preset_words(condition: Condition | Spec, field: str, typed: str) -> Any:
    key = preset_word(condition.preset, field)
    return words(key) if condition.preset and key in WORDS else typed


def preset_word(key: str, field: str = "name") -> str:
    """The message key (rolls.labels.WORDS) of a system's own condition's name (or of its
    other words: ``ends_with``, ``scope_name``)."""
    return f"condition:{key}" if field == "name" else f"condition_{field}:{key}"


#: A rules' condition's words that a condition keeps as text (its row's ``name``, ``ends_with``
#: and ``scope_name``: a GM's own condition types them), read through its preset's words.
PRESET_TEXTS = ("name", "ends_with", "scope_name")


def register_preset_words() -> None:
    """Every system's own conditions' words as messages of the log (rolls.apps, once the
    systems are registered), so an entry names them in each reader's language; and as texts
    the app once stored in the writer's language (an older entry's "until “stand up (resa
    dig)” succeeds"), which read in the reader's (``campaigns.stored_text``)."""
    for system in all_systems():
        for preset in condition_rules(system).presets:
            found = {f: preset[f] for f in PRESET_TEXTS if preset.get(f)}
            WORDS.update({preset_word(preset["key"], f): text for f, text in found.items()})
            stored_text.register(*(found[f] for f in ("ends_with", "scope_name") if f in found))


def seq_of(condition: Condition) -> int:
    """The entry the condition came from, as "#14" names it: its roll, else its adding."""
    return (condition.source or condition.added_entry).seq


@dataclass(frozen=True)
class ForTest:
    """The conditions that shape one test: ``applied`` (in force and not switched off),
    ``off`` (switched off by the GM for this test), ``offered`` (concerning a target: they
    apply when ticked), and the ones this test may end (``attempts``: until it succeeds)."""

    applied: tuple[Condition, ...]
    off: tuple[Condition, ...]
    offered: tuple[Condition, ...]
    attempts: tuple[Condition, ...]


def for_test(
    conditions: Iterable[Condition],
    *,
    attribute: str = "",
    skill: str = "",
    used: Iterable[int] = (),
    off: Iterable[int] = (),
) -> ForTest:
    """Which ``conditions`` concern a test of ``attribute`` and ``skill``: those of all tests,
    of that attribute or that skill; one concerning a target only when ticked (``used``: the
    panel cannot know what a test is against); ``off`` are the GM's switched off."""
    used, off = set(used), set(off)
    applied, switched, offered, attempts = [], [], [], []
    for condition in conditions:
        if condition.lasts == Condition.Lasts.SUCCESS:
            attempts.append(condition)
        if condition.scope == Condition.Scope.TARGET:
            offered.append(condition)
            if condition.pk not in used:
                continue
        elif not _concerns(condition, attribute, skill):
            continue
        (switched if condition.pk in off else applied).append(condition)
    return ForTest(tuple(applied), tuple(switched), tuple(offered), tuple(attempts))


def _concerns(condition: Condition, attribute: str, skill: str) -> bool:
    if condition.scope == Condition.Scope.ATTRIBUTE:
        return bool(attribute) and condition.scope_name == attribute
    if condition.scope == Condition.Scope.SKILL:
        return bool(skill) and condition.scope_name == skill
    return condition.scope == Condition.Scope.ALL


def source_words(condition: Condition) -> dict[str, Any]:
    """Where a modifier comes from, as a panel lists it: "knocked down (condition, #14)"."""
    return words("condition_source", name=name_words(condition), seq=seq_of(condition))


def as_source(condition: Condition) -> dict[str, Any]:
    """The condition as one modifier of the test: "−2 dice in the pool: knocked down
    (condition, #14)"; its kind is the system's effect (T10's "pool")."""
    return source(condition.effect, condition.amount, source_words(condition)) | {
        "condition": condition.pk
    }


def until_words(condition: Condition | Spec) -> Any:
    if condition.lasts == Condition.Lasts.SUCCESS:
        return words("until_success", test=ends_with_words(condition))
    return words(f"until_{condition.lasts}")


def concerns_words(condition: Condition | Spec) -> Any:
    if condition.scope == Condition.Scope.ALL:
        return words("concerns_all")
    return words(f"concerns_{condition.scope}", name=scope_name_words(condition))
