"""The GM's pending tests: call one, shape it live, and roll it exactly as the player saw it.

Every change is a small operation applied under the pending test's row lock, so two GM changes
at once are applied one after the other and neither is lost; each bumps ``revision`` and tells
the player's pages (their user group) and the GM's, which fetch the fresh panel.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.dispatch import Signal
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from campaigns.models import GameSession, Scene
from campaigns.systems import get_system
from config.text import text_problem
from rolls.actions import (
    ActionRefused,
    broadcast_on_commit,
    roll_from_panel,
    user_group,
)
from rolls.models import PendingTest
from rolls.panels import Limit, gm_limits, panel_module
from sheets.models import NPC

MAX_DICE_ENTRIES = 20
MAX_AMOUNT = 20
#: The mark of a combat test in a pending test's modifiers: only after such a test does the GM
#: apply a combat wound (rolls.after_roll).
COMBAT = "combat"

# What other tests built on pending tests (rolls.opposed) do at a pending test's moments; they
# listen (rolls.apps), so this module does not know them. Each is sent with ``pending``, inside
# the transaction of the change.
#: An open test was called off, or replaced by a new call for its character.
pending_called_off = Signal()
#: A test is about to be rolled; a receiver refuses the roll by raising ``ActionRefused``.
before_pending_roll = Signal()
#: A test was rolled and its system's rules have followed through.
after_pending_roll = Signal()


def _announce(pending: PendingTest, gm_id: int) -> None:
    event = {
        "type": "table.pending",
        "pending": pending.pk,
        "character": pending.character_id,
        "revision": pending.revision,
        "status": pending.status,
    }
    for user_id in {pending.character.owner_id, gm_id}:
        broadcast_on_commit(user_group(user_id), event)


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
def change_test(pending_id: int, gm, operation: str, **args: Any) -> PendingTest:
    """Apply one GM operation to an open pending test and bump its revision."""
    pending = (
        PendingTest.objects.select_for_update()
        .select_related("character", "session__campaign")
        .get(pk=pending_id)
    )
    if pending.status != PendingTest.Status.OPEN:
        raise ActionRefused(_("This test has already been rolled or called off."))
    apply = OPERATIONS.get(operation)
    if apply is None:
        raise ActionRefused(_("Unknown change to a test."))
    module = panel_module(pending.session.campaign.system)
    # An operation the system's card does not offer would be stored and silently ignored (a
    # T10 test has no NPC traits, a FastTest one no fixed modifier): refused instead.
    needed = KIND_CONTROL.get(args.get("kind")) if operation == "add_dice" else None
    needed = needed or OPERATION_CONTROL.get(operation)
    if needed is not None and needed not in getattr(module, "GM_CONTROLS", ()):
        raise ActionRefused(_("Tests of this system have no such setting."))
    before = _card_panel(module, pending)
    # The operations read the system's ranges from here (see ``_limit``).
    pending.limits = gm_limits(module, before, pending)
    apply(pending, pending.modifiers, **args)
    # No change may leave the player a test that cannot be rolled (the engine's caps, a range a
    # system checks only when it builds the test): it is refused here, at the GM's card.
    after = _card_panel(module, pending)
    if before.ready and not after.ready:
        raise ActionRefused(" ".join(m for ms in after.errors.values() for m in ms))
    pending.revision += 1
    pending.save(update_fields=["modifiers", "target", "revision", "updated_at"])
    _announce(pending, gm.pk)
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
def roll_pending(*, pending_id: int, revision: int, actor, choices, key, visibility, nonce=None):
    """Roll a pending test if the player saw its latest revision; else refuse, losing nothing."""
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
    before_pending_roll.send(sender=PendingTest, pending=pending)
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
        kind=system.pending_roll_kind(pending),
        nonce=nonce,
        defer_after=True,
    )
    if created:
        pending.status = PendingTest.Status.ROLLED
        pending.roll = roll
        pending.save(update_fields=["status", "roll", "updated_at"])
        # The rules' follow-through, in the same transaction (FastTest reads a wound test).
        system.pending_rolled(pending, roll)
        after_pending_roll.send(sender=PendingTest, pending=pending)
        if panel.after is not None:
            # Only now: a test it calls must not call off this one, already rolled.
            panel.after(roll)
        _announce(pending, campaign.gm_id)
    return roll, created


def _card_panel(module, pending: PendingTest):
    """The test as the GM's card shows it: the GM's modifiers, none of the player's choices."""
    return module.build(
        pending.character, pending.session.campaign, {}, pending=pending_view(pending)
    )


#: A draft is the panel form as posted, kept small: what the GM's card needs, never more.
DRAFT_SKIP = frozenset({"csrfmiddlewaretoken", "key", "pending", "revision"})
DRAFT_KEYS, DRAFT_VALUES, DRAFT_CHARS = 80, 40, 100


def save_draft(pending: PendingTest, choices, gm_id: int) -> bool:
    """Keep the player's current choices on an open called test and tell the GM's pages, so the
    GM's card shows the odds the player will roll. Not a change to the test: the revision stays,
    and the player's own pages are not told (they are where the choices come from)."""
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
        event = {
            "type": "table.pending",
            "pending": pending.pk,
            "character": pending.character_id,
            "revision": pending.revision,
            "status": pending.status,
            "draft": True,
        }
        broadcast_on_commit(user_group(gm_id), event)
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


# --- Operations -----------------------------------------------------------------------------


def _amount(value: Any, low: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= MAX_AMOUNT:
        raise ActionRefused(
            _("A number of dice must be from %(low)s to %(high)s.")
            % {"low": low, "high": MAX_AMOUNT}
        )
    return value


def _text(value: Any) -> str | dict:
    if isinstance(value, dict) and "w" in value:
        return value  # the app's own words (rolls.words), e.g. the armor of a wound test
    text = str(value or "").strip()[:80]
    if not text:
        raise ActionRefused(_("Say where the modifier comes from (e.g. darkness)."))
    if problem := text_problem(value):
        raise ActionRefused(problem)
    return text


def _add_dice(pending, modifiers, kind: str, amount: Any, source: str = "") -> None:
    if kind not in ("bonus", "penalty", "level", "pool", "circumstance", "modifier"):
        raise ActionRefused(_("Unknown kind of modifier."))
    entries = modifiers.setdefault("dice", [])
    if len(entries) >= MAX_DICE_ENTRIES:
        raise ActionRefused(_("That is as many modifiers as one test can hold."))
    limit = _limit(pending, kind)
    if limit is not None:
        refusal = limit.refusal(amount)
        if refusal:
            raise ActionRefused(refusal)
    else:
        low = -MAX_AMOUNT if kind in ("pool", "circumstance", "modifier") else 1
        amount = _amount(amount, low)
    entries.append({"kind": kind, "amount": amount, "source": _text(source)})


def _remove_dice(pending, modifiers, index: Any) -> None:
    entries = modifiers.get("dice", [])
    if not isinstance(index, int) or not 0 <= index < len(entries):
        raise ActionRefused(_("That modifier is no longer there; look again."))
    entries.pop(index)


def _set_npc(pending, modifiers, npc_id: Any, traits: Any) -> None:
    """Tick an NPC's applicable traits (FastTest: the highest plus 1 for each other)."""
    if isinstance(npc_id, bool) or not isinstance(npc_id, int):
        raise ActionRefused(_("Choose an NPC of this campaign."))
    npc = NPC.objects.filter(pk=npc_id, campaign_id=pending.session.campaign_id).first()
    if npc is None:
        raise ActionRefused(_("No such NPC in this campaign."))
    chosen = sorted({i for i in traits if isinstance(i, int) and 0 <= i < len(npc.traits)})
    if not chosen:
        modifiers.pop("npc", None)
        return
    modifiers["npc"] = {
        "id": npc.pk,
        "name": npc.name,
        "traits": [{"name": npc.traits[i]["name"], "dice": npc.traits[i]["dice"]} for i in chosen],
    }


def _clear_npc(pending, modifiers) -> None:
    modifiers.pop("npc", None)


def _limit(pending: PendingTest, name: str) -> Limit | None:
    """The system's range for one of the GM's numbers (set by ``change_test``)."""
    return getattr(pending, "limits", {}).get(name)


def _set_number(name: str):
    """Set (or, with None, clear) one of the GM's numbers within the system's range for it."""

    def setter(pending, modifiers, value: Any) -> None:
        if value is None:
            modifiers.pop(name, None)
            return
        limit = _limit(pending, name)
        if limit is None:
            raise ActionRefused(_("Tests of this system have no such setting."))
        refusal = limit.refusal(value)
        if refusal:
            raise ActionRefused(refusal)
        modifiers[name] = value

    return setter


def _set_combat(pending, modifiers, value: Any) -> None:
    """Mark the test as a combat test, or not (only systems with combat wounds offer it)."""
    if value not in (True, False):
        raise ActionRefused(_("Say whether this is a combat test: yes or no."))
    if value:
        modifiers[COMBAT] = True
    else:
        modifiers.pop(COMBAT, None)


def is_combat(modifiers: Any) -> bool:
    return isinstance(modifiers, dict) and modifiers.get(COMBAT) is True


def _set_target(pending, modifiers, target: Any) -> None:
    if not isinstance(target, dict):
        raise ActionRefused(_("Choose what is tested."))
    pending.target = target


def _set_challenge(pending, modifiers, value: Any) -> None:
    """AST: challenge points the GM puts into this test, taken from the scene's pool."""
    scene = (
        Scene.objects.select_for_update()
        .filter(session=pending.session)
        .order_by("-number")
        .first()
    )
    if scene is None:
        raise ActionRefused(_("There is no scene to take challenge points from."))
    current = modifiers.get("challenge", 0)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ActionRefused(_("Challenge points must be a whole number, 0 or more."))
    if value - current > scene.challenge_points:
        raise ActionRefused(
            ngettext(
                "Only %(n)s challenge point is left in this scene.",
                "Only %(n)s challenge points are left in this scene.",
                scene.challenge_points,
            )
            % {"n": scene.challenge_points}
        )
    scene.challenge_points -= value - current
    scene.save(update_fields=["challenge_points"])
    modifiers["challenge"] = value


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


OPERATIONS = {
    "add_dice": _add_dice,
    "remove_dice": _remove_dice,
    "set_npc": _set_npc,
    "clear_npc": _clear_npc,
    "set_difficulty": _set_number("difficulty"),
    "set_easing": _set_number("easing"),
    "set_hindering": _set_number("hindering"),
    "set_extra_d10": _set_number("extra_d10"),
    "set_challenge": _set_challenge,
    "set_combat": _set_combat,
    "set_target": _set_target,
}


# 2d6: a GM's modifier in any of the four categories (rolls.systems.twod6.panel's Decision).
def _add_category_modifier(
    pending, modifiers, category: Any, amount: Any, source: Any = ""
) -> None:
    """2d6: a modifier of −5..+5 in one category, kept with the dice entries (so the card lists
    it and ``remove_dice`` takes it away); the panel adds it to its category before the clamp."""
    from rolls.engine import twod6

    if category not in twod6.CATEGORIES:
        raise ActionRefused(
            _("Choose the category: circumstance, personal, equipment or supernatural.")
        )
    limit = twod6.MOD_LIMIT
    if isinstance(amount, bool) or not isinstance(amount, int) or not -limit <= amount <= limit:
        raise ActionRefused(
            _("A modifier must be a whole number from −%(n)s to +%(n)s.") % {"n": limit}
        )
    if amount == 0:
        raise ActionRefused(_("A modifier of 0 changes nothing; give it a sign and a size."))
    entries = modifiers.setdefault("dice", [])
    if len(entries) >= MAX_DICE_ENTRIES:
        raise ActionRefused(_("That is as many modifiers as one test can hold."))
    entries.append({"kind": category, "amount": amount, "source": _text(source)})


OPERATIONS["add_category_modifier"] = _add_category_modifier

#: The entry of a system's ``GM_CONTROLS`` each operation needs; ``add_dice`` by its kind.
OPERATION_CONTROL = {
    "set_npc": "npc",
    "clear_npc": "npc",
    "set_extra_d10": "extra_d10",
    "set_challenge": "challenge",
    "set_combat": COMBAT,
    "add_category_modifier": "category_modifier",
}
KIND_CONTROL = {
    "bonus": "bonus",
    "penalty": "penalty",
    "modifier": "modifier",
    "circumstance": "category_modifier",
}
