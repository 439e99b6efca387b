"""Settling in turn (``OpposedRules.settle_in_turn``, Caerbannog): once both sides have rolled,
the initiator settles their modifiers and reveals their final result, then the opponent; what
the initiator declares blind is made once settling reveals the opponent's roll, in the same
transaction. The result entry follows (rolls.opposed.actions)."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
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
    this = Side(opposed, side)
    if not this.initiator and not a_settled(opposed):
        return _wait_for_initiator()
    if this.settled:
        return _("You have settled your side of the opposed test; its result stands.")
    return ""


def _wait_for_initiator() -> str:
    return _(
        "The initiator settles their modifiers first; wait until they reveal their final result."
    )


# An NPC's side has no Rozmach and no abilities to spend after the roll (the seed: "Przeciwnicy
# ... nie posiadają swojego Rozmachu"): its roll is its final result, settled as it lands.


@dataclass(frozen=True)
class Side:
    """One side of an opposed test settling in turn: the initiator's ("a"), who settles first,
    or the opponent's ("b")."""

    opposed: OpposedTest
    name: str

    @property
    def initiator(self) -> bool:
        return self.name == "a"

    @property
    def pending(self) -> PendingTest | None:
        """The side's called test; None for an NPC's side."""
        return self.opposed.initiator if self.initiator else self.opposed.opponent

    @property
    def settled(self) -> bool:
        return self.opposed.initiator_settled if self.initiator else self.opposed.opponent_settled

    def final(self) -> Roll:
        """The side's roll as it stands now (its last re-roll or boost)."""
        roll = side_roll(self.opposed, self.name)
        assert roll is not None  # both sides have rolled before either settles
        return final_roll(roll)

    def not_theirs(self, user, rules: OpposedRules) -> str:
        """Why ``user`` may not settle this side at all ("" when they may): the rules settle
        both at once, it is an NPC's, or it is another player's."""
        if not rules.settle_in_turn:
            return _("In this game the result follows both rolls at once.")
        if self.pending is None:
            return _("The NPC's roll is its final result; nothing to settle.")
        if not self._by_gm(user) and self.pending.character.owner_id != user.pk:
            return _("Only that side's player (or the GM) settles it.")
        return ""

    def refusal(self, user, declared: Mapping[str, Any] | None) -> str:
        """Why the side may not settle now ("" when it may): the test is over, something is
        declared by the opponent, a side has not rolled, the GM hid its roll, the initiator has
        not settled yet, or the side already has."""
        opposed = self.opposed
        if opposed.status != OpposedTest.Status.OPEN:
            return _("The opposed test is over; its result stands.")
        if declared is not None and not self.initiator:
            return _("Only the initiator of an opposed test may do that.")
        if side_roll(opposed, "a") is None or side_roll(opposed, "b") is None:
            return _("Both sides roll first; then each settles their modifiers.")
        if not may_see(self.final(), user, self._by_gm(user)):
            return _("The GM rolled this side hidden; the GM settles it.")
        if not self.initiator and not a_settled(opposed):
            return _wait_for_initiator()
        if self.settled:
            return _("You have settled your side of the opposed test; its result stands.")
        return ""

    def settle(self, rules: OpposedRules) -> None:
        """The side's roll is its final result; an initiator's that settles both (a heroic
        effort's) settles the opponent's too."""
        opposed = self.opposed
        if self.initiator:
            opposed.initiator_settled = True
            if self.final().kind in rules.settles_both:
                opposed.opponent_settled = opposed.opponent_id is not None
        else:
            opposed.opponent_settled = True
        opposed.save(update_fields=["initiator_settled", "opponent_settled"])

    def _by_gm(self, user) -> bool:
        return self.opposed.session.campaign.gm_id == user.pk


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
    this = Side(opposed, side)
    if refusal := this.not_theirs(user, rules):
        raise ActionRefused(refusal)
    declared_key = uuid.uuid5(_DECLARED_KEYS, str(key)) if key is not None else None
    if declared is not None and _made_before(opposed, declared_key):
        return opposed  # sent again: the first request made it, and nothing else is done
    if refusal := this.refusal(user, declared):
        raise ActionRefused(refusal)
    if declared is not None:
        _check_declared(opposed, rules, this, declared)
    if this.initiator:
        reveal_opponent(opposed)  # the initiator's final result is out: now the opponent's
    if declared is not None:
        # Priced from the opponent's roll now revealed, before the side counts as settled
        # (what follows the initiator's roll reads it in their turn alone).
        rules.declared.settle(
            this.final(), this.pending.character, opposed.session.campaign, declared,
            actor=user, key=declared_key or uuid.uuid4(),
        )  # fmt: skip
    this.settle(rules)
    resolve_if_ready(opposed)
    tell_sides(opposed, rolled_too=True)
    return opposed


def _made_before(opposed: OpposedTest, declared_key: uuid.UUID | None) -> bool:
    """A declaration under this key was made already (its request sent again)."""
    return declared_key is not None and (
        Roll.objects.filter(session_id=opposed.session_id, idempotency_key=declared_key).exists()
    )


def _check_declared(
    opposed: OpposedTest, rules: OpposedRules, side: Side, declared: Mapping[str, Any]
) -> None:
    """Refuse a declaration the rules do not allow here, before anything is revealed."""
    if rules.declared is None:
        raise ActionRefused(_("In this game nothing is declared before the reveal."))
    campaign = opposed.session.campaign
    refusal = rules.declared.refusal(side.final(), side.pending.character, campaign, declared)
    if refusal:
        raise ActionRefused(refusal)
