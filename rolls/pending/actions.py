"""The GM's pending tests: call one, shape it live, and roll it exactly as the player saw it.

Every change is a small operation applied under the pending test's row lock, so two GM changes
at once are applied one after the other and neither is lost; each bumps ``revision`` and tells
the player's pages (their user group) and the GM's, which fetch the fresh panel.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from django.db import transaction
from django.dispatch import Signal
from django.utils.translation import gettext as _

from campaigns.live import addressed, broadcast_on_commit, user_group
from campaigns.models import GameSession, Scene
from campaigns.systems import get_system
from config.text import text_problem
from rolls import real_dice
from rolls.actions import ActionRefused, roll_follow_up, roll_from_panel
from rolls.models import PendingTest
from rolls.panels import gm_follow_ups_of, gm_limits, posted
from rolls.pending.forms import (  # noqa: F401 (MAX_DICE_ENTRIES: the cap, read by tests)
    COMBAT,
    KIND_CONTROL,
    MAX_DICE_ENTRIES,
    OPERATION_CONTROL,
    OPERATIONS,
)

# What other tests built on pending tests (rolls.opposed) and a system's own rules do at a
# pending test's moments; they listen (rolls.apps; a system's ``system.py`` with ``sender=`` its
# System, the sender of the roll's two), so this module does not know them. Each is sent with
# ``pending``, inside the transaction of the change.
#: An open test was called off, or replaced by a new call for its character.
pending_called_off = Signal()
#: A test is about to be rolled; a receiver refuses the roll by raising ``ActionRefused``, or
#: answers the users who alone (with the GM) see the roll until it is revealed (its seal,
#: ``rolls.actions.record_roll``'s ``sealed_for``), else None.
before_pending_roll = Signal()
#: A test was rolled (``roll``): the system's rules follow through (FastTest reads a wound
#: test; its receiver comes first), then what hangs on the test.
after_pending_roll = Signal()
#: An open test changed shape (a GM change, the player's draft) and so did what hangs on it.
#: A receiver answers ``(fields, others)`` or None: the fields the test's event names besides
#: it, and ``(pending, fields)`` of other tests whose own pages must be told too (rolls.opposed:
#: the opposed test and its other side, whose odds follow this one).
pending_shaped = Signal()


@dataclass(frozen=True)
class CalledTestKind:
    """A system's part (``campaigns.systems.Part``): the log's kind for the roll of a called
    test ("test" without it; FastTest's wound test called after a combat wound)."""

    key: ClassVar[str] = "called_test_kind"
    of: Callable[[PendingTest], str]


def _roll_kind(system, pending: PendingTest) -> str:
    part = system.part(CalledTestKind)
    return part.of(pending) if part is not None else "test"


def pending_event(pending: PendingTest, **fields: Any) -> dict[str, Any]:
    """The ``table.pending`` event of a test: which one, whose, at which revision, how it is."""
    return {
        "type": "table.pending",
        "pending": pending.pk,
        "character": pending.character_id,
        "revision": pending.revision,
        "status": pending.status,
        **fields,
    }


def _announce(pending: PendingTest, gm_id: int, **fields: Any) -> None:
    event = pending_event(pending, **fields)
    for user_id in {pending.character.owner_id, gm_id}:
        broadcast_on_commit(user_group(user_id), addressed(user_id, event))


def _announce_shaped(pending: PendingTest, user_ids: set[int], **fields: Any) -> None:
    """Tell ``user_ids``' pages that ``pending`` changed shape, and the players of the tests
    that follow it (``pending_shaped``) that theirs did too."""
    others = []
    for _receiver, answer in pending_shaped.send(sender=PendingTest, pending=pending):
        if answer is not None:
            fields, more = {**fields, **answer[0]}, answer[1]
            others.extend(more)
    event = pending_event(pending, **fields)
    for user_id in user_ids:
        broadcast_on_commit(user_group(user_id), addressed(user_id, event))
    for other, other_fields in others:
        owner = other.character.owner_id
        broadcast_on_commit(
            user_group(owner), addressed(owner, pending_event(other, **other_fields))
        )


@transaction.atomic
def call_test(
    *, session: GameSession, character, gm, target: dict[str, Any], combat: bool = False
) -> PendingTest:
    """Call for a test on a character; an earlier open call for it is called off. ``combat``
    marks it as a combat test (FastTest: the GM may apply the wound after it is rolled)."""
    if not session.is_open:
        raise ActionRefused(_("Start a session before calling for tests."))
    for old in PendingTest.objects.select_for_update().filter(
        character=character, status=PendingTest.Status.OPEN
    ):
        old.status = PendingTest.Status.CANCELLED
        old.save(update_fields=["status", "updated_at"])
        pending_called_off.send(sender=PendingTest, pending=old)
        _announce(old, gm.pk)
    modifiers = {COMBAT: True} if combat else {}
    pending = PendingTest.objects.create(
        session=session, character=character, called_by=gm, target=target, modifiers=modifiers
    )
    _announce(pending, gm.pk)
    return pending


@transaction.atomic
def change_test(pending_id: int, gm, operation: str, data=None, **args: Any) -> PendingTest:
    """Apply one GM operation to an open pending test and bump its revision. The operation's
    form (``rolls.pending.forms.OPERATIONS``) reads ``data`` (the dashboard's POST) or, from an
    action, the keyword ``args``."""
    pending = (
        PendingTest.objects.select_for_update()
        .select_related("character", "session__campaign")
        .get(pk=pending_id)
    )
    if pending.status != PendingTest.Status.OPEN:
        raise ActionRefused(_("This test has already been rolled or called off."))
    form_class = OPERATIONS.get(operation)
    if form_class is None:
        raise ActionRefused(_("Unknown change to a test."))
    data = args if data is None else data
    campaign = pending.session.campaign
    system = get_system(campaign.system)
    # An operation the system's card does not offer would be stored and silently ignored (a
    # T10 test has no NPC traits, a FastTest one no fixed modifier): refused instead.
    needed = KIND_CONTROL.get(data.get("kind")) if operation == "add_dice" else None
    needed = needed or OPERATION_CONTROL.get(operation)
    if needed is not None and needed not in system.gm_controls:
        raise ActionRefused(_("Tests of this system have no such setting."))
    before = card_panel(system, campaign, pending)
    form = form_class(data, pending=pending, limits=gm_limits(system.panel, before, pending))
    if not form.is_valid():
        raise ActionRefused(form.refusal())
    form.apply()
    # No change may leave the player a test that cannot be rolled (the engine's caps, a range a
    # system checks only when it builds the test): it is refused here, at the GM's card.
    after = card_panel(system, campaign, pending)
    if before.ready and not after.ready:
        raise ActionRefused(" ".join(m for ms in after.errors.values() for m in ms))
    pending.revision += 1
    pending.save(update_fields=["modifiers", "target", "revision", "updated_at"])
    _announce_shaped(pending, {pending.character.owner_id, gm.pk})
    return pending


@transaction.atomic
def cancel_test(pending_id: int, gm) -> PendingTest:
    pending = PendingTest.objects.select_for_update().select_related("character").get(pk=pending_id)
    if pending.status == PendingTest.Status.OPEN:
        pending.status = PendingTest.Status.CANCELLED
        pending.revision += 1
        pending.save(update_fields=["status", "revision", "updated_at"])
        _release_challenge(pending)
        pending_called_off.send(sender=PendingTest, pending=pending)
        _announce(pending, gm.pk)
    return pending


def call_off_waiting(sender, session, **kwargs) -> None:
    """Tests still waiting when their session ends cannot be rolled any more: called off, and
    every page told so (connected to ``campaigns.sessions.session_ended`` in rolls.apps)."""
    waiting = session.pending_tests.filter(status=PendingTest.Status.OPEN)
    for pending_id in waiting.values_list("pk", flat=True):
        cancel_test(pending_id, session.campaign.gm)


@transaction.atomic
def roll_pending(
    *, pending_id: int, revision: int, actor, choices, key, visibility, nonce=None, typed=None
):
    """Roll a pending test if the player saw its latest revision; else refuse, losing nothing.
    ``typed``: what was typed for real dice (``rolls.real_dice``), read against this panel."""
    pending = (
        PendingTest.objects.select_for_update()
        .select_related("character", "session__campaign")
        .get(pk=pending_id)
    )
    if pending.roll_id is not None and pending.roll.idempotency_key == key:
        return pending.roll, False  # sent again after its answer was lost: that roll stands
    if pending.status != PendingTest.Status.OPEN:
        raise ActionRefused(_("This test has already been rolled or called off."))
    if pending.revision != revision:
        raise StaleTest(_("The GM just changed this test — look again."))
    campaign = pending.session.campaign
    system = get_system(campaign.system)
    answers = before_pending_roll.send(sender=system, pending=pending)
    sealed = next((answer for _receiver, answer in answers if answer is not None), None)
    panel = system.panel.build(pending.character, campaign, choices, pending=pending_view(pending))
    if not panel.ready:
        raise ActionRefused(" ".join(m for ms in panel.errors.values() for m in ms))
    roll, created = roll_from_panel(
        session=pending.session,
        actor=actor,
        character=pending.character,
        panel=panel,
        key=key,
        visibility=visibility,
        kind=_roll_kind(system, pending),
        nonce=nonce,
        defer_after=True,
        sealed_for=sealed,
        typed=None if typed is None else real_dice.faces(panel, typed),
    )
    if created:
        pending.status = PendingTest.Status.ROLLED
        pending.roll = roll
        pending.save(update_fields=["status", "roll", "updated_at"])
        # The rules' follow-through, in the same transaction (FastTest reads a wound test).
        after_pending_roll.send(sender=system, pending=pending, roll=roll)
        if panel.after is not None:
            # Only now: a test it calls must not call off this one, already rolled.
            panel.after(roll)
        _announce(pending, campaign.gm_id)
    return roll, created


def latest_entry(roll):
    """The entry a rolled test stands at now: its roll, or the last of what followed it."""
    while (after := roll.follow_ups.order_by("-seq").first()) is not None:
        roll = after
    return roll


def follow_rolled_test(*, pending_id: int, gm, kind: str, choices, key, nonce=None):
    """What the rules let the GM do after a called test was rolled (AST: read another white die
    of a hindered test), from the GM's card: logged as a follow-up of the test's latest entry,
    checked again under the session's lock (``rolls.actions.roll_follow_up``)."""
    pending = PendingTest.objects.select_related(
        "character", "session__campaign", "roll__session"
    ).get(pk=pending_id)
    if pending.status != PendingTest.Status.ROLLED or pending.roll is None:
        raise ActionRefused(_("This test has not been rolled."))
    campaign = pending.session.campaign
    system = get_system(campaign.system)
    gm_follow_ups = gm_follow_ups_of(system)
    if gm_follow_ups is None:
        raise ActionRefused(_("That can no longer be done with this roll."))
    parent, character = latest_entry(pending.roll), pending.character

    def build():
        offered = {f.kind for f in gm_follow_ups.offered(parent, character, campaign)}
        if kind not in offered:
            raise ActionRefused(_("That can no longer be done with this roll."))
        panel = gm_follow_ups.build(kind, parent, character, campaign, choices)
        if not panel.ready:
            raise ActionRefused(" ".join(m for ms in panel.errors.values() for m in ms))
        return panel

    roll, created = roll_follow_up(
        parent=parent, actor=gm, character=character, kind=kind, build=build, key=key,
        nonce=nonce,
    )  # fmt: skip
    if created:
        _announce(pending, gm.pk)
    return roll, created


def card_panel(system, campaign, pending: PendingTest):
    """The test as the GM's card shows it: the player's current choices (the draft) with the
    GM's modifiers, so its odds are the ones the player will roll. The card's limits and the
    check that a change leaves the test rollable both read this one panel."""
    return system.panel.build(
        pending.character, campaign, posted(pending.draft),
        pending=pending_view(pending),
    )  # fmt: skip


#: A draft is the panel form as posted, kept small: what the GM's card needs, never more.
DRAFT_SKIP = frozenset({"csrfmiddlewaretoken", "key", "pending", "revision"})
DRAFT_KEYS, DRAFT_VALUES, DRAFT_CHARS = 80, 40, 100


def save_draft(pending: PendingTest, choices, gm_id: int) -> bool:
    """Keep the player's current choices on an open called test and tell the GM's pages, so the
    GM's card shows the odds the player will roll (and the pages of the tests whose odds follow
    it: an opposed test's other side). Not a change to the test: the revision stays, and the
    player's own pages are not told (they are where the choices come from)."""
    getlist = choices.getlist if hasattr(choices, "getlist") else lambda k: list(choices[k])
    # Values (and names) that break the one text rule are dropped, not kept: PostgreSQL refuses
    # a NUL in jsonb, and the panel refuses such a choice anyway when the player rolls.
    draft = {
        str(name)[:40]: [
            str(value)[:DRAFT_CHARS]
            for value in getlist(name)[:DRAFT_VALUES]
            if not text_problem(str(value))
        ]
        for name in list(choices)[:DRAFT_KEYS]
        if name not in DRAFT_SKIP and not text_problem(str(name))
    }
    if draft == pending.draft:
        return False
    changed = PendingTest.objects.filter(pk=pending.pk, status=PendingTest.Status.OPEN).update(
        draft=draft
    )
    if changed:
        pending.draft = draft
        _announce_shaped(pending, {gm_id}, draft=True)
    return bool(changed)


class StaleTest(ActionRefused):
    """The player's view of a pending test is older than the GM's latest change."""


def pending_view(pending: PendingTest) -> dict[str, Any]:
    """What a panel needs of a pending test: the fixed target and the GM's modifiers."""
    return {
        "id": pending.pk,
        "revision": pending.revision,
        "target": pending.target,
        "modifiers": pending.modifiers,
    }


# --- Operations ---------------------------------------------------------------------------


def is_combat(modifiers: Any) -> bool:
    return isinstance(modifiers, dict) and modifiers.get(COMBAT) is True


def _release_challenge(pending: PendingTest) -> None:
    """A called-off test gives its challenge points back to the scene."""
    spent = pending.modifiers.get("challenge", 0)
    if spent:
        scene = (
            Scene.objects.select_for_update()
            .filter(session=pending.session)
            .order_by("-number")
            .first()
        )
        if scene is not None:
            scene.challenge_points += spent
            scene.save(update_fields=["challenge_points"])
