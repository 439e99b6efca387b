"""Settling in turn (``OpposedRules.settle_in_turn``, Caerbannog): once both sides have rolled,
the initiator settles their modifiers and reveals their final result, then the opponent; what
the initiator declares blind is made once settling reveals the opponent's roll, in the same
transaction. The result entry follows (rolls.opposed.actions)."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from rolls.actions import ActionRefused
from rolls.log.reading import may_see
from rolls.models import OpposedTest, PendingTest, Roll
from rolls.opposed.actions import (
    a_settled,
    final_roll,
    resolve_if_ready,
    reveal_opponent,
    rules_or_refuse,
    side_of_roll,
    side_roll,
    tell_sides,
)
from rolls.opposed.rules import OpposedRules, rules_of

#: Idempotency keys of what a declaration made in the initiator's settle logs, one per settle
#: request's key (the page's key may have served a boost on the same page: it is not reused).
_DECLARED_KEYS = uuid.UUID("0b6f5d7e-4f0c-4a47-9f3e-2a51c6c8d2b4")


def settled_in_turn(roll: Roll) -> bool:
    """``roll`` is (a follow-up of) a side of an opposed test whose sides settle in turn: what
    may follow it is offered beside the opposed test (``settle_view``), not under the roll."""
    rules = rules_of(roll.system)
    return rules is not None and rules.settle_in_turn and side_of_roll(roll)[0] is not None


def settle_refusal(roll: Roll) -> str:
    """Why nothing may follow ``roll`` now ("" when it may): in turn, the initiator's side
    changes its roll until it settles, then the opponent's, and nothing after its own settling
    or once the opposed test is over."""
    rules = rules_of(roll.system)
    if rules is None or not rules.settle_in_turn:
        return ""
    opposed, side = side_of_roll(roll)
    if opposed is None:
        return ""
    if opposed.status != OpposedTest.Status.OPEN:
        return _("The opposed test is over; its result stands.")
    if side_roll(opposed, "b" if side == "a" else "a") is None:
        return _("Both sides roll first; then each settles their modifiers in turn.")
    if side == "a" and opposed.initiator_settled:
        return _("You have settled your side of the opposed test; its result stands.")
    if side == "b":
        if not a_settled(opposed):
            return _wait_for_initiator()
        if opposed.opponent_settled:
            return _("You have settled your side of the opposed test; its result stands.")
    return ""


def _wait_for_initiator() -> str:
    return _(
        "The initiator settles their modifiers first; wait until they reveal their final result."
    )


# An NPC's side has no Rozmach and no abilities to spend after the roll (the seed: "Przeciwnicy
# ... nie posiadają swojego Rozmachu"): its roll is its final result, settled as it lands.


@transaction.atomic
def settle_side(
    *,
    opposed_id: int,
    user,
    side: str,
    declared: Mapping[str, Any] | None = None,
    key: uuid.UUID | None = None,
) -> OpposedTest:
    """``side`` ("a" or "b") settles its modifiers: its roll as it stands now is its final
    result; the initiator's first, then the opponent's, and the result follows both.

    ``declared``: the choices of what the initiator declares blind as they settle
    (``OpposedRules.declared``), checked before anything changes and made, once the opponent's
    roll is revealed, in this transaction; a request sent again with its ``key`` gets the
    opposed test as that first request left it."""
    # Only the opposed test's own row is locked: its sides may be missing (an NPC's), and
    # PostgreSQL locks no row of an outer join's nullable side.
    opposed = (
        OpposedTest.objects.select_for_update(of=("self",))
        .select_related("session__campaign", "initiator__character", "opponent__character")
        .get(pk=opposed_id)
    )
    rules = rules_or_refuse(opposed.session)
    if not rules.settle_in_turn:
        raise ActionRefused(_("In this game the result follows both rolls at once."))
    pending = opposed.initiator if side == "a" else opposed.opponent
    if pending is None:
        raise ActionRefused(_("The NPC's roll is its final result; nothing to settle."))
    gm = opposed.session.campaign.gm_id == user.pk
    if not gm and pending.character.owner_id != user.pk:
        raise ActionRefused(_("Only that side's player (or the GM) settles it."))
    declared_key = uuid.uuid5(_DECLARED_KEYS, str(key)) if key is not None else None
    if declared is not None and declared_key is not None:
        done = Roll.objects.filter(session_id=opposed.session_id, idempotency_key=declared_key)
        if done.exists():
            return opposed  # sent again: the first request made it, and nothing else is done
    if opposed.status != OpposedTest.Status.OPEN:
        raise ActionRefused(_("The opposed test is over; its result stands."))
    if declared is not None and side != "a":
        raise ActionRefused(_("Only the initiator of an opposed test may do that."))
    if side_roll(opposed, "a") is None or side_roll(opposed, "b") is None:
        raise ActionRefused(_("Both sides roll first; then each settles their modifiers."))
    if not may_see(final_roll(side_roll(opposed, side)), user, gm):
        raise ActionRefused(_("The GM rolled this side hidden; the GM settles it."))
    if side == "b" and not a_settled(opposed):
        raise ActionRefused(_wait_for_initiator())
    field_name = "initiator_settled" if side == "a" else "opponent_settled"
    if getattr(opposed, field_name):
        raise ActionRefused(_("You have settled your side of the opposed test; its result stands."))
    if declared is not None:
        _check_declared(opposed, rules, pending, declared)
    if side == "a":
        reveal_opponent(opposed)  # the initiator's final result is out: now the opponent's
        if declared is not None:
            # Priced from the opponent's roll now revealed, before the side counts as settled
            # (what follows the initiator's roll reads it in their turn alone).
            rules.declared.settle(
                final_roll(side_roll(opposed, "a")),
                pending.character,
                opposed.session.campaign,
                declared,
                actor=user,
                key=declared_key or uuid.uuid4(),
            )
    setattr(opposed, field_name, True)
    if side == "a" and final_roll(side_roll(opposed, "a")).kind in rules.settles_both:
        opposed.opponent_settled = opposed.opponent_id is not None
    opposed.save(update_fields=["initiator_settled", "opponent_settled"])
    resolve_if_ready(opposed)
    tell_sides(opposed, rolled_too=True)
    return opposed


def _check_declared(
    opposed: OpposedTest, rules: OpposedRules, pending: PendingTest, declared: Mapping[str, Any]
) -> None:
    """Refuse a declaration the rules do not allow here, before anything is revealed."""
    if rules.declared is None:
        raise ActionRefused(_("In this game nothing is declared before the reveal."))
    campaign = opposed.session.campaign
    final = final_roll(side_roll(opposed, "a"))
    refusal = rules.declared.refusal(final, pending.character, campaign, declared)
    if refusal:
        raise ActionRefused(refusal)
