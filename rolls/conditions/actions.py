"""Conditions: what a roll (or the GM) leaves on a character and what then shapes every test it
concerns by itself, until it is cleared (RULES.md 3.6; issue 15).

The one place that writes them (``add_condition``, ``clear_condition``) and reads which of them
concern a test (``for_test``). Adding and clearing are each an entry of the session's log,
through ``record_roll`` like every roll (seq, visibility, broadcast once committed, replay on
reconnect), with the note engine (``rolls.engine.note``: no dice). How a condition shapes a test
is its system's: a panel asks ``for_test`` and turns each one into a modifier of its own kind
(T10: dice off the pool), listed among the sources with the entry it came from.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.live import broadcast_on_commit, campaign_group
from campaigns.models import GameSession
from campaigns.systems import get_system
from rolls.actions import ActionRefused, record_note
from rolls.conditions.in_force import (
    ADDED,
    CLEARED,
    MAX_ACTIVE,
    NAME_MAX,
    ForTest,
    Spec,
    active,
    as_source,
    concerns_words,
    condition_rules,
    ends_with_words,
    for_test,
    name_words,
    scope_name_words,
    until_words,
)
from rolls.labels import render, source_line, words
from rolls.models import Condition, Roll, Visibility
from rolls.panels import Names, source
from sheets.models import Character

# --- Writing ----------------------------------------------------------------------------------


def _open_session(character: Character) -> GameSession:
    session = GameSession.objects.open().filter(campaign_id=character.campaign_id).first()
    if session is None:
        raise ActionRefused(_("Conditions are added and cleared during a session; start one."))
    return session


def _changed(character: Character) -> None:
    """The character's pages follow: the sheet, its open panel, the GM's party card."""
    broadcast_on_commit(
        campaign_group(character.campaign_id), {"type": "table.sheet", "character": character.pk}
    )


def check_spec(system, spec: Spec) -> None:
    """Refuse what the rules cannot apply (the forms say it first; this is the last word)."""
    rules = condition_rules(system)
    if spec.effect not in rules.effects:
        raise ActionRefused(_("These rules have no conditions that change that."))
    if not spec.name.strip() or len(spec.name) > NAME_MAX:
        raise ActionRefused(_("Give the condition a name of at most 80 characters."))
    low, high = rules.amounts
    if not low <= spec.amount <= high or spec.amount == 0:
        raise ActionRefused(
            _("A condition of these rules changes a test by %(low)s to %(high)s, never by 0.")
            % {"low": low, "high": high}
        )
    if spec.scope not in Condition.Scope.values or spec.lasts not in Condition.Lasts.values:
        raise ActionRefused(_("Choose what the condition concerns and until when it lasts."))
    if spec.scope != Condition.Scope.ALL and not spec.scope_name.strip():
        raise ActionRefused(_("Name the attribute, skill or target the condition concerns."))
    if spec.lasts == Condition.Lasts.SUCCESS and not spec.ends_with.strip():
        raise ActionRefused(_("Name the test whose success ends the condition."))


@transaction.atomic
def add_condition(
    *,
    character: Character,
    actor,
    spec: Spec,
    source_roll: Roll | None = None,
    on_target: bool = False,
) -> Condition:
    """Put ``spec`` on the character and log it (linked to the roll it came from, if any: the
    character's own, or with ``on_target`` any roll of the session, a state one character's
    test puts on another)."""
    character = Character.objects.select_for_update().get(pk=character.pk)
    system = get_system(character.campaign.system)
    check_spec(system, spec)
    session = _open_session(character)
    if source_roll is not None and (
        source_roll.session_id != session.pk
        or (source_roll.character_id != character.pk and not on_target)
    ):
        raise ActionRefused(_("That roll is not this character's in this session."))
    if Condition.objects.filter(character=character, cleared_entry=None).count() >= MAX_ACTIVE:
        raise ActionRefused(
            _("%(name)s already carries %(n)s conditions; clear one first.")
            % {"name": character.name, "n": MAX_ACTIVE}
        )
    condition = Condition(
        character=character, session=session, added_by=actor, source=source_roll,
        **{name: getattr(spec, name) for name in (
            "preset", "name", "effect", "amount", "scope", "scope_name", "lasts", "ends_with")},
    )  # fmt: skip
    condition.added_entry = _log(
        session, actor, character, condition, ADDED, parent=source_roll,
        label=words("condition_added", name=name_words(condition),
                    concerns=concerns_words(condition), until=until_words(condition)),
    )  # fmt: skip
    condition.scene_id = condition.added_entry.scene_id
    condition.save()
    _changed(character)
    return condition


@transaction.atomic
def clear_condition(
    *, condition_id: int, actor, why: Any = None, parent: Roll | None = None
) -> Condition:
    """End a condition, once: the entry says who, why and after which roll (``parent``)."""
    condition = (
        # Only the condition's row is locked (PostgreSQL locks no nullable side of a join).
        Condition.objects.select_for_update(of=("self",))
        .select_related("character__campaign", "added_entry", "source")
        .get(pk=condition_id)
    )
    if not condition.active:
        raise ActionRefused(_("This condition has already been cleared."))
    character = condition.character
    session = _open_session(character)
    condition.cleared_entry = _log(
        session, actor, character, condition, CLEARED, parent=parent,
        label=words("condition_cleared", name=name_words(condition),
                    why=why or words("cleared_by_hand")),
    )  # fmt: skip
    condition.save(update_fields=["cleared_entry"])
    _changed(character)
    return condition


def _log(session, actor, character, condition, kind, *, parent, label) -> Roll:
    roll, _created = record_note(
        kind=kind,
        facts={
            "name": condition.name[:NAME_MAX],
            "effect": condition.effect,
            "amount": condition.amount,
            "scope": condition.scope,
            "lasts": condition.lasts,
        },
        session=session,
        actor=actor,
        system=session.campaign.system,
        key=uuid.uuid4(),
        label=label,
        sources=[source(condition.effect, condition.amount, name_words(condition))],
        character=character,
        visibility=Visibility.PUBLIC,
        parent=parent,
    )
    return roll


# --- What ends a condition by itself ----------------------------------------------------------


def after_test(
    roll: Roll, *, applied: Iterable[Condition], attempted: Iterable[Condition], succeeded: bool
) -> None:
    """Inside the roll's transaction: a condition for the next test ends with the test it was
    applied to; one until a named test succeeds ends when this test was that one and succeeded."""
    for condition in applied:
        if condition.lasts == Condition.Lasts.NEXT_TEST:
            clear_condition(
                condition_id=condition.pk, actor=roll.actor,
                why=words("cleared_after_test", seq=roll.seq), parent=roll,
            )  # fmt: skip
    if not succeeded:
        return
    for condition in attempted:
        if Condition.objects.filter(pk=condition.pk, cleared_entry=None).exists():
            clear_condition(
                condition_id=condition.pk, actor=roll.actor,
                why=words("cleared_by_success", test=ends_with_words(condition), seq=roll.seq),
                parent=roll,
            )  # fmt: skip


def _clear_lasting(session: GameSession, lasts: str, why: Any, scene_id=None) -> None:
    conditions = Condition.objects.filter(
        character__campaign_id=session.campaign_id, cleared_entry=None, lasts=lasts
    )
    if scene_id is not None:
        conditions = conditions.exclude(scene_id=scene_id)
    for condition in conditions:
        clear_condition(condition_id=condition.pk, actor=session.campaign.gm, why=why)


def scene_started(sender, session: GameSession, scene, **kwargs) -> None:
    """A new scene: the conditions that lasted until the end of the scene before it end."""
    _clear_lasting(session, Condition.Lasts.SCENE, words("cleared_scene_end"), scene_id=scene.pk)


def session_ending(sender, session: GameSession, **kwargs) -> None:
    """The session is about to end (still open, so the clearing is logged in it): the
    conditions that lasted until its end end, and so do those of its scenes."""
    _clear_lasting(session, Condition.Lasts.SCENE, words("cleared_scene_end"))
    _clear_lasting(session, Condition.Lasts.SESSION, words("cleared_session_end"))


# --- What a panel reads, shows and does after its roll ------------------------------------------


class ConditionChoices(forms.Form):
    """The panel form's part of the conditions (a base of a system's ``PanelForm``: put it
    first, so its fields join the form's): the ids
    of the conditions concerning a target the player says this test is against (``use``) and
    of those whose ending test this test is (``attempt``). The form sets ``in_force``
    (``active(character)``) before it is cleaned."""

    use = Names()
    attempt = Names()
    in_force: Sequence[Condition] = ()

    def clean_use(self) -> list[int]:
        return self._conditions("use", lambda c: c.scope == Condition.Scope.TARGET)

    def clean_attempt(self) -> list[int]:
        return self._conditions("attempt", lambda c: c.lasts == Condition.Lasts.SUCCESS)

    def _conditions(self, name: str, offered) -> list[int]:
        """Ids of conditions in force that this choice offers; another (cleared since, or
        forged) is refused with the sentence that says so."""
        ids = {str(c.pk): c.pk for c in self.in_force if offered(c)}
        posted = self.cleaned_data[name]
        if any(value not in ids for value in posted):
            raise ValidationError(
                _("That condition is no longer on the sheet; reload the page to see its own.")
            )
        return sorted({ids[value] for value in posted})


def without_ended(choices, character: Character):
    """The panel's ``choices`` less the conditions ticked in them (``use``, ``attempt``) that
    are no longer in force: for the page's own refresh after the sheet changed, where the roll
    just made may have ended one (the test that ends it succeeded). A choice the player sends
    (a change, a roll) keeps them, and is refused with the sentence that says why."""
    ticked = {name: choices.getlist(name) for name in ("use", "attempt") if name in choices}
    if not ticked:
        return choices
    in_force = {str(condition.pk) for condition in active(character)}
    kept = choices.copy()
    for name, values in ticked.items():
        kept.setlist(name, [value for value in values if value in in_force])
    return kept


def shaping(form, modifiers, *, attribute: str = "", skill: str = "") -> ForTest:
    """The conditions that shape a panel's test: those concerning its attribute or skill,
    those concerning a target the player ticked, less those the GM switched off for it."""
    off = [value for value in (modifiers or {}).get("conditions_off", []) if isinstance(value, int)]
    return for_test(
        form.in_force, attribute=attribute, skill=skill, used=form.cleaned.get("use", []), off=off
    )


def after_roll(found: ForTest, form, succeeded):
    """The panel's ``after``: a next-test condition is used up by the roll, and one until a
    named test succeeds ends when this was that test and ``succeeded(outcome)``; None when the
    roll ends none."""
    attempted = [c for c in found.attempts if c.pk in form.cleaned.get("attempt", [])]
    if not attempted and not any(c.lasts == Condition.Lasts.NEXT_TEST for c in found.applied):
        return None

    def after(roll) -> None:
        outcome = (roll.result.get("answer") or {}).get("outcome")
        after_test(roll, applied=found.applied, attempted=attempted, succeeded=succeeded(outcome))

    return after


def panel_rows(shaping: ForTest, used: Iterable[Any] = (), attempted: Iterable[Any] = ()) -> list:
    """The conditions as a panel lists them (rolls/conditions/_panel.html): each with its
    modifier line, whether it applies, and the boxes it offers (a target, an ending test)."""
    applied = {c.pk for c in shaping.applied}
    off = {c.pk for c in shaping.off}
    used = {str(value) for value in used}
    attempted = {str(value) for value in attempted}
    seen, rows = set(), []
    for condition in (*shaping.applied, *shaping.off, *shaping.offered, *shaping.attempts):
        if condition.pk in seen:
            continue
        seen.add(condition.pk)
        rows.append(
            {
                "id": condition.pk,
                "source": as_source(condition),
                "state": "applied" if condition.pk in applied else (
                    "off" if condition.pk in off else "offered"),
                "target": render(scope_name_words(condition))
                if condition.scope == Condition.Scope.TARGET else "",
                "used": str(condition.pk) in used,
                "ends_with": render(ends_with_words(condition))
                if condition.lasts == Condition.Lasts.SUCCESS else "",
                "attempting": str(condition.pk) in attempted,
            }
        )  # fmt: skip
    return rows


def line(condition: Condition) -> str:
    """The condition in one line of the reader's language, as the sheet and the party card
    show it: "−2 dice in the pool: knocked down (condition, #14) · all tests, until “stand
    up” succeeds"."""
    return (
        f"{source_line(as_source(condition))} · {render(concerns_words(condition))}, "
        f"{render(until_words(condition))}"
    )
