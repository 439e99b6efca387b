"""Opposed tests: the GM starts one between two sides, each side rolls, one entry says who won.

Each side is a character's pending test or, on one side (the initiator's or the opponent's), an
NPC with its own numbers, rolled by the GM. A character's side is shaped and rolled like any
called test (``rolls.pending``); once both have rolled, the system's rules (its
``OpposedRules`` part) read the two rolls with the engine's opposed resolution, and ``record_roll``
logs one entry of kind "opposed", a follow-up of the initiator's roll naming both sides' seqs.
Where the rules settle in turn (Caerbannog), the entry waits until the initiator, then the
opponent, has settled their modifiers, and reads each side's final roll. The odds of winning are
exact: the convolution of the two sides' outcome distributions.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import GameSession
from campaigns.systems import get_system
from rolls.actions import ActionRefused, RollSpec, record_roll, reveal
from rolls.engine import EngineError
from rolls.engine.note import NOTE_KINDS
from rolls.labels import words
from rolls.log.reading import shown_wherever
from rolls.models import OpposedTest, PendingTest, Roll, Visibility
from rolls.opposed.rules import OpposedRules, rules_of
from rolls.pending.actions import _announce as announce
from rolls.pending.actions import call_test

#: Idempotency keys of the result entries: one per opposed test, whoever rolls last, whenever.
_RESULT_KEYS = uuid.UUID("5d1c1d52-5a3e-4c55-9a49-0f3b1b6a0e01")


def rules_or_refuse(session: GameSession) -> OpposedRules:
    rules = rules_of(session.campaign.system)
    if rules is None:
        raise ActionRefused(_("The rules of this game have no opposed tests."))
    return rules


@transaction.atomic
def start_opposed(
    *,
    session: GameSession,
    gm,
    initiator,
    initiator_target: dict[str, Any],
    opponent=None,
    opponent_target: dict[str, Any] | None = None,
    npc=None,
    npc_params: dict[str, Any] | None = None,
    npc_sources: list[dict[str, Any]] | None = None,
    difficulty: int | None = None,
    npc_initiates: bool = False,
) -> OpposedTest:
    """Start an opposed test: the initiator's side and the opponent's (a character or an NPC)
    are called like any test; both take the rules' fixed numbers. ``npc_initiates``: the NPC
    acts and ``initiator`` (the character) resists, so the NPC's side is the initiator's."""
    rules = rules_or_refuse(session)
    if (opponent is None) == (npc is None):
        raise ActionRefused(_("Choose the opponent: another character or an NPC."))
    if npc_initiates and npc is None:
        raise ActionRefused(_("Only an NPC opponent can be made the initiator; choose an NPC."))
    if opponent is not None and opponent.pk == initiator.pk:
        raise ActionRefused(_("A character cannot oppose itself; choose another opponent."))
    fixed = dict(rules.fixed)
    if rules.shared_difficulty:
        if difficulty is None:
            raise ActionRefused(_("Give the difficulty both sides test against."))
        fixed["difficulty"] = difficulty
    sides = [(initiator, initiator_target)]
    if opponent is not None:
        sides.append((opponent, opponent_target or {}))
    called = []
    for character, target in sides:
        pending = call_test(session=session, character=character, gm=gm, target=target)
        pending.modifiers.update(fixed)
        pending.save(update_fields=["modifiers", "updated_at"])
        called.append(pending)
    params = dict(npc_params or {})
    if npc is not None:
        params.update(fixed)
        engine = get_system(session.campaign.system).engine
        try:
            engine.parse_params(params)
        except EngineError as error:  # the engine's message says what is wrong
            raise ActionRefused(str(error)) from error
    opposed = OpposedTest.objects.create(
        session=session,
        initiator=None if npc_initiates else called[0],
        opponent=called[0] if npc_initiates else (called[1] if opponent is not None else None),
        npc=npc,
        npc_name=npc.name if npc is not None else "",
        npc_params=params,
        npc_sources=list(npc_sources or []),
        started_by=gm,
    )
    return opposed


def opposed_of(pending: PendingTest) -> tuple[OpposedTest | None, str]:
    """The open opposed test ``pending`` is a side of, and which side ("a" or "b")."""
    found = OpposedTest.objects.filter(initiator=pending).first()
    if found is not None:
        return found, "a"
    return OpposedTest.objects.filter(opponent=pending).first(), "b"


def sealed_side(sender, pending: PendingTest, **kwargs) -> tuple[int, ...] | None:
    """Who besides the GM sees the opponent's roll about to be made while the initiator has
    not revealed their final result, where the rules reveal in turn (its player alone); None:
    it is not sealed. Answers ``rolls.pending.actions.before_pending_roll`` (rolls.apps)."""
    opposed, side = opposed_of(pending)
    if opposed is None or side != "b" or not _seals(opposed):
        return None
    return (pending.character.owner_id,)


def _seals(opposed: OpposedTest) -> bool:
    """Whether the opponent's roll made now is sealed: the rules reveal in turn and the
    initiator has not revealed their final result yet."""
    rules = rules_of(opposed.session.campaign.system)
    return (
        rules is not None
        and rules.reveals_in_turn
        and opposed.status == OpposedTest.Status.OPEN
        and not _a_revealed(opposed)
    )


def _a_revealed(opposed: OpposedTest) -> bool:
    """The initiator's final result is out: they settled (an NPC's roll settles as it lands)."""
    return a_settled(opposed) and side_roll(opposed, "a") is not None


def reveal_opponent(opposed: OpposedTest) -> None:
    """The initiator revealed (or the test is over): the opponent's roll, sealed until now, is
    shown to everyone who may see it (RULES.md 4.10)."""
    b_roll = side_roll(opposed, "b")
    if b_roll is not None:
        reveal([b_roll])


def initiator_only(roll: Roll, kind: str) -> bool:
    """``kind`` may not follow ``roll``: it is (a follow-up of) an opposed test's opponent
    side's roll and the rules keep that follow-up for the initiator (Caerbannog's heroic
    effort)."""
    rules = rules_of(roll.system)
    if rules is None or kind not in rules.initiator_only:
        return False
    return OpposedTest.objects.filter(opponent__roll=_root(roll)).exists()


def _root(roll: Roll) -> Roll:
    """The test a chain of follow-ups (boost, re-roll...) started from."""
    while roll.parent_id is not None and roll.kind != "opposed":
        roll = roll.parent
    return roll


_NOT_CHAIN = ("opposed", *NOTE_KINDS)


def final_roll(roll: Roll) -> Roll:
    """The newest entry of the chain ``roll`` starts (the result entry is no part of it, nor a
    note that follows a roll without changing it)."""
    while True:
        newer = roll.follow_ups.exclude(kind__in=_NOT_CHAIN).order_by("-seq").first()
        if newer is None:
            return roll
        roll = newer


def side_of_roll(roll: Roll) -> tuple[OpposedTest | None, str]:
    """The opposed test whose side's chain ``roll`` is in, and which side."""
    root = _root(roll)
    found = OpposedTest.objects.filter(initiator__roll=root).first()
    if found is not None:
        return found, "a"
    return OpposedTest.objects.filter(opponent__roll=root).first(), "b"


@dataclass(frozen=True)
class Against:
    """What the initiator's side reads its result against in its turn to settle: the
    opponent's final roll, or None when someone who sees the initiator's roll may not see it
    (the GM rolled it hidden, or it is sealed): then no offer, cost or entry may be computed
    from it. ``after_reveal``: it is kept from them by its seal alone, so what is declared now
    may be priced from it once the initiator's settling reveals it."""

    roll: Roll | None
    after_reveal: bool = False


def initiators_difficulty(roll: Roll) -> Against | None:
    """The opponent's final roll, when ``roll`` is (a follow-up of) the initiator's side of an
    opposed test settled in turn, both have rolled and it is the initiator's turn: the
    opponent's result is the initiator's difficulty (what heroic effort reads its failure
    against). None otherwise."""
    rules = rules_of(roll.system)
    if rules is None or not rules.settle_in_turn:
        return None
    opposed, side = side_of_roll(roll)
    if opposed is None or side != "a" or opposed.initiator_settled:
        return None
    other = side_roll(opposed, "b")
    if other is None:
        return None
    final = final_roll(other)
    if shown_wherever(final, roll):
        return Against(final)
    return Against(None, after_reveal=shown_wherever(final, roll, unsealed=True))


def a_settled(opposed: OpposedTest) -> bool:
    return opposed.initiator_settled or opposed.initiator_id is None


def _b_settled(opposed: OpposedTest) -> bool:
    return opposed.opponent_settled or opposed.opponent_id is None


def _sides_settled(opposed: OpposedTest, rules: OpposedRules) -> bool:
    return not rules.settle_in_turn or (a_settled(opposed) and _b_settled(opposed))


def side_rolled(sender, pending: PendingTest, **kwargs) -> None:
    """Inside a side's roll transaction: once both sides have rolled, log who won; a side
    still to roll is told, so its panel shows the new odds of winning. Listens to
    ``rolls.pending.actions.after_pending_roll`` (rolls.apps)."""
    opposed, _side = opposed_of(pending)
    if opposed is not None:
        locked = OpposedTest.objects.select_for_update().get(pk=opposed.pk)
        resolve_if_ready(locked)
        tell_sides(locked)


def tell_sides(opposed: OpposedTest, rolled_too: bool | None = None) -> None:
    """Tell each side's page (and the GM's) that the opposed test moved on. A side already
    rolled is told only where the sides settle in turn (its page shows whose turn it is); its
    entry and what may follow it stay as they are."""
    if rolled_too is None:
        rules = rules_of(opposed.session.campaign.system)
        rolled_too = rules is not None and rules.settle_in_turn
    gm_id = opposed.session.campaign.gm_id
    sides = {"a": side_pending(opposed, "a"), "b": side_pending(opposed, "b")}
    for key, side in sides.items():
        if side is None:
            continue
        if side.status == PendingTest.Status.OPEN or (
            rolled_too and side.status == PendingTest.Status.ROLLED
        ):
            announce(side, gm_id, **_event_fields(opposed, sides["b" if key == "a" else "a"]))


def _event_fields(opposed: OpposedTest, other: PendingTest | None) -> dict[str, Any]:
    """What a side's ``table.pending`` event says besides the side itself: its opposed test
    and the other side's test and character (None for an NPC's side)."""
    return {
        "opposed": opposed.pk,
        "other_pending": other.pk if other is not None else None,
        "other_character": other.character_id if other is not None else None,
    }


def side_shaped(sender, pending: PendingTest, **kwargs):
    """A side's test changed shape (a GM change, its player's draft): its event names the
    opposed test and the other side, and the other side, still to roll, is told too, since its
    odds of winning follow this side's choices. Answers ``rolls.pending.actions.pending_shaped``
    (connected in rolls.apps)."""
    opposed, side = opposed_of(pending)
    if opposed is None or opposed.status != OpposedTest.Status.OPEN:
        return None
    other = side_pending(opposed, "b" if side == "a" else "a")
    told = []
    if other is not None and other.status == PendingTest.Status.OPEN:
        told.append((other, _event_fields(opposed, pending)))
    return _event_fields(opposed, other), told


@transaction.atomic
def roll_npc_side(
    *, opposed_id: int, gm, key: uuid.UUID, nonce: str | None = None, shape=None
) -> Roll:
    """The GM rolls the NPC's side with its own numbers, in the open like the players' sides.
    ``shape(campaign, npc, values, params, sources) -> (params, sources, on_result)``: what the
    rules make of an NPC's roll as it is made, as for any NPC's (the dashboard's
    ``npc_rolls.at_roll``: Caerbannog's NPCs' Rozmach, or the words that they have none)."""
    opposed = (
        OpposedTest.objects.select_for_update(of=("self",))
        .select_related("session__campaign", "initiator")
        .get(pk=opposed_id)
    )
    if opposed.status != OpposedTest.Status.OPEN or opposed.npc_roll_id is not None:
        raise ActionRefused(_("This side has already been rolled or called off."))
    if npc_side(opposed) is None:
        raise ActionRefused(_("This opposed test has no NPC side."))
    # The NPC opponent's roll waits for the initiator's final result (RULES.md 4.10).
    sealed = () if npc_side(opposed) == "b" and _seals(opposed) else None
    params, sources, on_result = opposed.npc_params, opposed.npc_sources, None
    if shape is not None:
        params, sources, on_result = shape(
            opposed.session.campaign, opposed.npc, {}, params, sources
        )
    roll, _created = record_roll(
        RollSpec(
            session=opposed.session,
            actor=gm,
            system=opposed.session.campaign.system,
            params=params,
            key=key,
            label=words("opposed_npc_side", name=opposed.npc_name),
            sources=sources,
            npc=opposed.npc,
            nonce=nonce,
            sealed_for=sealed,
            on_result=on_result,
        )
    )
    opposed.npc_roll = roll
    opposed.save(update_fields=["npc_roll"])
    if npc_side(opposed) == "a":
        reveal_opponent(opposed)  # the NPC's roll is its final result, revealed as it lands
    resolve_if_ready(opposed)
    tell_sides(opposed)
    return roll


def side_called_off(sender, pending: PendingTest, **kwargs) -> None:
    """A side called off (or replaced by a new call) calls off its opposed test. Listens to
    ``rolls.pending.actions.pending_called_off`` (rolls.apps)."""
    found, _side = opposed_of(pending)
    if found is not None:
        cancel_opposed(found)


def cancel_opposed(opposed: OpposedTest) -> None:
    """A side called off calls off the opposed test (its other side stays a plain call), and
    the other side's page is told, so its panel no longer shows the opposed test."""
    if opposed.status == OpposedTest.Status.OPEN:
        opposed.status = OpposedTest.Status.CANCELLED
        opposed.save(update_fields=["status"])
        reveal_opponent(opposed)  # nothing is left for the initiator to decide
        tell_sides(opposed)


def npc_side(opposed: OpposedTest) -> str | None:
    """Which side ("a", the initiator's, or "b") is the NPC's, rolled by the GM; None."""
    if opposed.initiator_id is None:
        return "a"
    return "b" if opposed.opponent_id is None else None


def side_pending(opposed: OpposedTest, side: str) -> PendingTest | None:
    """A character's side: its pending test; None for the NPC's side."""
    pending_id = opposed.initiator_id if side == "a" else opposed.opponent_id
    if pending_id is None:
        return None
    return PendingTest.objects.select_related("character", "roll").get(pk=pending_id)


def side_roll(opposed: OpposedTest, side: str) -> Roll | None:
    pending = side_pending(opposed, side)
    return opposed.npc_roll if pending is None else pending.roll


def _side_name(opposed: OpposedTest, roll: Roll) -> str:
    return roll.character_name or opposed.npc_name


class _Entry:
    """What ``record_roll`` stores of the result: the engine's opposed answer, no dice."""

    dice = ()

    def __init__(self, answer: dict[str, Any]) -> None:
        self._answer = answer

    def contract(self) -> dict[str, Any]:
        return self._answer


def resolve_if_ready(opposed: OpposedTest) -> None:
    if opposed.status != OpposedTest.Status.OPEN:
        return
    a_roll, b_roll = side_roll(opposed, "a"), side_roll(opposed, "b")
    if a_roll is None or b_roll is None:
        return
    session = GameSession.objects.select_related("campaign").get(pk=opposed.session_id)
    system = get_system(session.campaign.system)
    rules = rules_of(session.campaign.system)
    if not _sides_settled(opposed, rules):
        return
    if rules.settle_in_turn:
        # Each side's final result: its roll with the boosts and re-rolls that followed it.
        a_roll, b_roll = final_roll(a_roll), final_roll(b_roll)
    outcome = rules.resolve(system.engine, a_roll, b_roll)
    names = {"a": _side_name(opposed, a_roll), "b": _side_name(opposed, b_roll)}
    how = words(outcome.label) if outcome.label else ""
    if outcome.winner is None:
        label = words(
            "opposed_draw", a=names["a"], b=names["b"], a_seq=a_roll.seq, b_seq=b_roll.seq
        )
    else:
        loser = "b" if outcome.winner == "a" else "a"
        label = words(
            "opposed_won" if how else "opposed_won_plain",
            winner=names[outcome.winner],
            loser=names[loser],
            margin=outcome.margin,
            how=how,
            a_seq=a_roll.seq,
            b_seq=b_roll.seq,
        )
    answer = {
        "winner": outcome.winner,
        "margin": outcome.margin,
        "label": outcome.label,
        "a_seq": a_roll.seq,
        "b_seq": b_roll.seq,
        "outcome": "",
        **dict(outcome.answer),
    }
    # Both sides public: the table sees who won; else only the GM (a side some cannot see).
    public = a_roll.visibility == Visibility.PUBLIC and b_roll.visibility == Visibility.PUBLIC
    result, _created = record_roll(
        RollSpec(
            session=session,
            actor=opposed.started_by,
            system=session.campaign.system,
            params=a_roll.params,
            key=uuid.uuid5(_RESULT_KEYS, str(opposed.pk)),
            label=label,
            kind="opposed",
            parent=a_roll,
            visibility=Visibility.PUBLIC if public else Visibility.HIDDEN,
            resolver=lambda module, params, rng: _Entry(answer),
        )
    )
    opposed.result = result
    opposed.status = OpposedTest.Status.RESOLVED
    opposed.save(update_fields=["result", "status"])
