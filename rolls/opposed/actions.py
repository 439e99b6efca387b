"""Opposed tests: the GM starts one between two sides, each side rolls, one entry says who won.

Each side is a character's pending test or, on one side (the initiator's or the opponent's), an
NPC with its own numbers, rolled by the GM. A character's side is shaped and rolled like any
called test (``rolls.pending``); once both have rolled, the system's rules (``System.opposed``, an
``OpposedRules``) read the two rolls with the engine's opposed resolution, and ``record_roll``
logs one entry of kind "opposed", a follow-up of the initiator's roll naming both sides' seqs.
Where the rules settle in turn (Caerbannog), the entry waits until the initiator, then the
opponent, has settled their modifiers, and reads each side's final roll. The odds of winning are
exact: the convolution of the two sides' outcome distributions.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from campaigns.models import GameSession
from campaigns.systems import get_system
from rolls.actions import ActionRefused, record_roll, reveal
from rolls.engine import EngineError
from rolls.engine.note import NOTE_KINDS
from rolls.log.reading import may_see, shown_wherever
from rolls.models import OpposedTest, PendingTest, Roll, Visibility
from rolls.pending.actions import _announce as announce
from rolls.pending.actions import call_test, card_panel, pending_view
from rolls.words import words

#: Idempotency keys of the result entries: one per opposed test, whoever rolls last, whenever.
_RESULT_KEYS = uuid.UUID("5d1c1d52-5a3e-4c55-9a49-0f3b1b6a0e01")
#: Idempotency keys of what a declaration made in the initiator's settle logs, one per settle
#: request's key (the page's key may have served a boost on the same page: it is not reused).
_DECLARED_KEYS = uuid.UUID("0b6f5d7e-4f0c-4a47-9f3e-2a51c6c8d2b4")


@dataclass(frozen=True)
class Outcome:
    """Who won an opposed test: "a" (the initiator), "b" or None (a draw), by how much, and the
    rules' name for the margin (a message of ``rolls.labels.WORDS``, "" when it has none)."""

    winner: str | None
    margin: int
    label: str = ""
    answer: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Declared:
    """A follow-up the initiator may declare as they settle while the opponent's roll is still
    sealed, priced and made (or logged as not made) once settling reveals that roll, in the
    same transaction (Caerbannog's heroic effort "if it fails"; docs/rules-decisions.md,
    "Decisions taken for these tests"). Each takes the initiator's final roll and its character:

    ``offer(roll, character, campaign)``: what the settle box offers (a ``FollowUp``), None
    when nothing may be declared now; ``refusal(roll, character, campaign, choices)``: why the
    posted declaration is refused ("" when it is not), asked before anything is revealed;
    ``settle(roll, character, campaign, choices, actor=, key=)``: once the opponent's roll is
    revealed, makes the follow-up or logs why it was not made; returns the entry.
    """

    offer: Callable[..., Any]
    refusal: Callable[..., str]
    settle: Callable[..., Roll]


@dataclass(frozen=True)
class OpposedRules:
    """What a system's rules say about opposed tests.

    ``win_odds(a, b, a_result=None, b_result=None)`` takes the engine's parsed params of both
    sides (and the engine's result of a side already rolled, which then stands for its
    distribution) and answers the exact ``{"a", "b", "draw"}`` probabilities;
    ``resolve(engine, a_roll, b_roll)`` reads two stored rolls into an ``Outcome``; ``fixed``
    are the numbers both sides' tests take (a difficulty of 0 when the other side's result is
    the difficulty); ``shared_difficulty`` asks the GM for one difficulty both sides test
    against; ``initiator_only``: follow-ups the opponent may not make.
    """

    win_odds: Callable[..., dict[str, float]]
    resolve: Callable[[Any, Roll, Roll], Outcome]
    fixed: Mapping[str, Any] = field(default_factory=dict)
    shared_difficulty: bool = False
    #: Follow-ups only the initiator's side may make (Caerbannog: heroic effort).
    initiator_only: tuple[str, ...] = ()
    #: Once both have rolled, the initiator settles their modifiers (the follow-ups of their
    #: roll) and reveals the final result, then the opponent; the result entry reads the final
    #: roll of each side's chain, after both settled (Caerbannog).
    settle_in_turn: bool = False
    #: Follow-ups after which the initiator's result no longer depends on the opponent's
    #: (Caerbannog's heroic effort: exactly 1 success): settling the initiator settles both.
    settles_both: tuple[str, ...] = ()
    #: The results are revealed in turn (Caerbannog, RULES.md 4.10): the opponent's roll is
    #: sealed (rolls.models.Seal), seen whole by the GM and the opponent's player alone, until
    #: the initiator has settled and revealed their final result; the initiator decides
    #: without it. Needs ``settle_in_turn``.
    reveals_in_turn: bool = False
    #: What the initiator may declare blind as they settle (``Declared``), None for nothing.
    declared: Declared | None = None


def rules_of(system_key: str) -> OpposedRules | None:
    return get_system(system_key).opposed


def _rules(session: GameSession) -> OpposedRules:
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
    rules = _rules(session)
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
    return _a_settled(opposed) and _side_roll(opposed, "a") is not None


def _reveal_opponent(opposed: OpposedTest) -> None:
    """The initiator revealed (or the test is over): the opponent's roll, sealed until now, is
    shown to everyone who may see it (RULES.md 4.10)."""
    b_roll = _side_roll(opposed, "b")
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


def _final(roll: Roll) -> Roll:
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
    other = _side_roll(opposed, "b")
    if other is None:
        return None
    final = _final(other)
    if shown_wherever(final, roll):
        return Against(final)
    return Against(None, after_reveal=shown_wherever(final, roll, unsealed=True))


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
    if _side_roll(opposed, "b" if side == "a" else "a") is None:
        return _("Both sides roll first; then each settles their modifiers in turn.")
    if side == "a" and opposed.initiator_settled:
        return _("You have settled your side of the opposed test; its result stands.")
    if side == "b":
        if not _a_settled(opposed):
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
def _a_settled(opposed: OpposedTest) -> bool:
    return opposed.initiator_settled or opposed.initiator_id is None


def _b_settled(opposed: OpposedTest) -> bool:
    return opposed.opponent_settled or opposed.opponent_id is None


def _sides_settled(opposed: OpposedTest, rules: OpposedRules) -> bool:
    return not rules.settle_in_turn or (_a_settled(opposed) and _b_settled(opposed))


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
    rules = _rules(opposed.session)
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
    if _side_roll(opposed, "a") is None or _side_roll(opposed, "b") is None:
        raise ActionRefused(_("Both sides roll first; then each settles their modifiers."))
    if not may_see(_final(_side_roll(opposed, side)), user, gm):
        raise ActionRefused(_("The GM rolled this side hidden; the GM settles it."))
    if side == "b" and not _a_settled(opposed):
        raise ActionRefused(_wait_for_initiator())
    field_name = "initiator_settled" if side == "a" else "opponent_settled"
    if getattr(opposed, field_name):
        raise ActionRefused(_("You have settled your side of the opposed test; its result stands."))
    if declared is not None:
        _check_declared(opposed, rules, pending, declared)
    if side == "a":
        _reveal_opponent(opposed)  # the initiator's final result is out: now the opponent's
        if declared is not None:
            # Priced from the opponent's roll now revealed, before the side counts as settled
            # (what follows the initiator's roll reads it in their turn alone).
            rules.declared.settle(
                _final(_side_roll(opposed, "a")),
                pending.character,
                opposed.session.campaign,
                declared,
                actor=user,
                key=declared_key or uuid.uuid4(),
            )
    setattr(opposed, field_name, True)
    if side == "a" and _final(_side_roll(opposed, "a")).kind in rules.settles_both:
        opposed.opponent_settled = opposed.opponent_id is not None
    opposed.save(update_fields=["initiator_settled", "opponent_settled"])
    _resolve_if_ready(opposed)
    _tell_sides(opposed, rolled_too=True)
    return opposed


def _check_declared(
    opposed: OpposedTest, rules: OpposedRules, pending: PendingTest, declared: Mapping[str, Any]
) -> None:
    """Refuse a declaration the rules do not allow here, before anything is revealed."""
    if rules.declared is None:
        raise ActionRefused(_("In this game nothing is declared before the reveal."))
    campaign = opposed.session.campaign
    final = _final(_side_roll(opposed, "a"))
    refusal = rules.declared.refusal(final, pending.character, campaign, declared)
    if refusal:
        raise ActionRefused(refusal)


def side_rolled(sender, pending: PendingTest, **kwargs) -> None:
    """Inside a side's roll transaction: once both sides have rolled, log who won; a side
    still to roll is told, so its panel shows the new odds of winning. Listens to
    ``rolls.pending.actions.after_pending_roll`` (rolls.apps)."""
    opposed, _side = opposed_of(pending)
    if opposed is not None:
        locked = OpposedTest.objects.select_for_update().get(pk=opposed.pk)
        _resolve_if_ready(locked)
        _tell_sides(locked)


def _tell_sides(opposed: OpposedTest, rolled_too: bool | None = None) -> None:
    """Tell each side's page (and the GM's) that the opposed test moved on. A side already
    rolled is told only where the sides settle in turn (its page shows whose turn it is); its
    entry and what may follow it stay as they are."""
    if rolled_too is None:
        rules = rules_of(opposed.session.campaign.system)
        rolled_too = rules is not None and rules.settle_in_turn
    gm_id = opposed.session.campaign.gm_id
    sides = {"a": _side_pending(opposed, "a"), "b": _side_pending(opposed, "b")}
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
    other = _side_pending(opposed, "b" if side == "a" else "a")
    told = []
    if other is not None and other.status == PendingTest.Status.OPEN:
        told.append((other, _event_fields(opposed, pending)))
    return _event_fields(opposed, other), told


@transaction.atomic
def roll_npc_side(*, opposed_id: int, gm, key: uuid.UUID, nonce: str | None = None) -> Roll:
    """The GM rolls the NPC's side with its own numbers, in the open like the players' sides."""
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
    roll, _created = record_roll(
        session=opposed.session,
        actor=gm,
        system=opposed.session.campaign.system,
        params=opposed.npc_params,
        key=key,
        label=words("opposed_npc_side", name=opposed.npc_name),
        sources=opposed.npc_sources,
        npc=opposed.npc,
        nonce=nonce,
        sealed_for=sealed,
    )
    opposed.npc_roll = roll
    opposed.save(update_fields=["npc_roll"])
    if npc_side(opposed) == "a":
        _reveal_opponent(opposed)  # the NPC's roll is its final result, revealed as it lands
    _resolve_if_ready(opposed)
    _tell_sides(opposed)
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
        _reveal_opponent(opposed)  # nothing is left for the initiator to decide
        _tell_sides(opposed)


def npc_side(opposed: OpposedTest) -> str | None:
    """Which side ("a", the initiator's, or "b") is the NPC's, rolled by the GM; None."""
    if opposed.initiator_id is None:
        return "a"
    return "b" if opposed.opponent_id is None else None


def _side_pending(opposed: OpposedTest, side: str) -> PendingTest | None:
    """A character's side: its pending test; None for the NPC's side."""
    pending_id = opposed.initiator_id if side == "a" else opposed.opponent_id
    if pending_id is None:
        return None
    return PendingTest.objects.select_related("character", "roll").get(pk=pending_id)


def _side_roll(opposed: OpposedTest, side: str) -> Roll | None:
    pending = _side_pending(opposed, side)
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


def _resolve_if_ready(opposed: OpposedTest) -> None:
    if opposed.status != OpposedTest.Status.OPEN:
        return
    a_roll, b_roll = _side_roll(opposed, "a"), _side_roll(opposed, "b")
    if a_roll is None or b_roll is None:
        return
    session = GameSession.objects.select_related("campaign").get(pk=opposed.session_id)
    system = get_system(session.campaign.system)
    if not _sides_settled(opposed, system.opposed):
        return
    if system.opposed.settle_in_turn:
        # Each side's final result: its roll with the boosts and re-rolls that followed it.
        a_roll, b_roll = _final(a_roll), _final(b_roll)
    outcome = system.opposed.resolve(system.engine, a_roll, b_roll)
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
    opposed.result = result
    opposed.status = OpposedTest.Status.RESOLVED
    opposed.save(update_fields=["result", "status"])


# --- The odds of winning ------------------------------------------------------------------------


def _side_params(opposed: OpposedTest, side: str, choices: Mapping[str, Any] | None):
    """The engine's params of one side before its roll: its panel's now, with the viewer's own
    ``choices`` when it is their side, else with its player's draft (the choices their panel
    shows: the called defaults only until they change one), or the NPC's numbers."""
    campaign = opposed.session.campaign
    system = get_system(campaign.system)
    pending = _side_pending(opposed, side)
    if pending is None:
        return system.engine.parse_params(opposed.npc_params)
    if choices is None:
        panel = card_panel(system, campaign, pending)
    else:
        panel = system.panel.build(
            pending.character, campaign, choices, pending=pending_view(pending)
        )
    if not panel.ready:
        return None
    return system.engine.parse_params(panel.params)


def _seen_result(opposed: OpposedTest, side: str, rules: OpposedRules, viewer) -> tuple | None:
    """``(params, result)`` of a side already rolled, as the result entry will read it (its
    final roll where the sides settle in turn), when ``viewer`` may see that roll; else None:
    a roll hidden from them must not move their numbers, or the numbers would tell it."""
    roll = _side_roll(opposed, side)
    if roll is None:
        return None
    if rules.settle_in_turn:
        roll = _final(roll)
    if not may_see(roll, viewer, opposed.session.campaign.gm_id == viewer.pk):
        return None
    engine = get_system(opposed.session.campaign.system).engine
    params = engine.parse_params(roll.params)
    return params, engine.resolve(params, engine.parse_faces(params, roll.faces))


def win_odds(
    opposed: OpposedTest,
    side: str | None = None,
    choices: Mapping[str, Any] | None = None,
    *,
    viewer,
) -> dict[str, float] | None:
    """The exact odds of each side winning (and of a draw) as ``viewer`` may know them:
    ``choices`` are the panel's of ``side`` (the player looking at their own side), the other
    side's are its player's draft; a side rolled where the viewer sees it counts with its
    result. None when a side cannot be rolled yet."""
    rules = rules_of(opposed.session.campaign.system)
    if rules is None:
        return None
    params: dict[str, Any] = {}
    results: dict[str, Any] = {}
    for key in ("a", "b"):
        seen = _seen_result(opposed, key, rules, viewer)
        if seen is not None:
            params[key], results[f"{key}_result"] = seen
        else:
            params[key] = _side_params(opposed, key, choices if side == key else None)
    if params["a"] is None or params["b"] is None:
        return None
    return rules.win_odds(params["a"], params["b"], **results)


def view(opposed: OpposedTest, side: str | None = None, choices=None, *, viewer) -> dict[str, Any]:
    """The opposed test as ``viewer``'s page shows it: both sides, who has rolled, the odds of
    winning."""
    a_roll, b_roll = _side_roll(opposed, "a"), _side_roll(opposed, "b")
    names = {
        key: pending.character.name if pending is not None else opposed.npc_name
        for key, pending in (("a", _side_pending(opposed, "a")), ("b", _side_pending(opposed, "b")))
    }
    open_ = opposed.status == "open"
    odds = win_odds(opposed, side, choices, viewer=viewer) if open_ else None
    other = {"a": "b", "b": "a"}.get(side or "")
    return {
        **_settling(opposed, a_roll, b_roll),
        "opposed": opposed,
        "side": side,
        "mine": odds[side] if odds and side else None,
        "theirs": odds[other] if odds and other else None,
        "initiator_name": names["a"],
        "opponent_name": names["b"],
        "a_roll": a_roll,
        "b_roll": b_roll,
        "odds": odds,
        "npc_side": npc_side(opposed),
    }


def _settling(opposed: OpposedTest, a_roll: Roll | None, b_roll: Roll | None) -> dict:
    """Whose turn it is to settle (sides settled in turn, both rolled): "a", "b" or None, and
    each side's final roll so far (its last boost or re-roll)."""
    rules = rules_of(opposed.session.campaign.system)
    settling = (
        rules is not None
        and rules.settle_in_turn
        and opposed.status == OpposedTest.Status.OPEN
        and a_roll is not None
        and b_roll is not None
    )
    if not settling:
        return {"settling": False, "turn": None}
    turn = "b" if _a_settled(opposed) else "a"
    return {
        "settling": True,
        "turn": turn,
        "a_final": _final(a_roll),
        "b_final": _final(b_roll),
    }


def settle_view(character, user) -> dict[str, Any] | None:
    """The opposed test ``character``'s rolled side waits in, to settle in turn, as its
    player's panel shows it (may they settle now?); None when there is none."""
    rules = rules_of(character.campaign.system)
    if rules is None or not rules.settle_in_turn:
        return None  # no query on a panel whose rules settle nothing in turn
    found = (
        OpposedTest.objects.filter(status=OpposedTest.Status.OPEN)
        .filter(
            Q(initiator__character=character, initiator__roll__isnull=False)
            | Q(opponent__character=character, opponent__roll__isnull=False)
        )
        .select_related("session__campaign", "initiator")
        .first()
    )
    if found is None:
        return None
    side = (
        "a" if found.initiator is not None and found.initiator.character_id == character.pk else "b"
    )
    shown = view(found, side, viewer=user)
    if not shown["settling"]:
        return None
    campaign = found.session.campaign
    final = shown["a_final" if side == "a" else "b_final"]
    # A side the GM rolled hidden is the GM's to settle: its follow-ups would show its faces.
    mine = (
        shown["turn"] == side
        and user.pk in (character.owner_id, campaign.gm_id)
        and may_see(final, user, campaign.gm_id == user.pk)
    )
    offered, declare = [], None
    if mine:
        offered = [
            f
            for f in get_system(campaign.system).follow_ups(final, character, campaign)
            if not initiator_only(final, f.kind)
        ]
        if side == "a" and rules.declared is not None:
            declare = rules.declared.offer(final, character, campaign)
    return shown | {"may_settle": mine, "final": final, "follow_ups": offered, "declare": declare}


def panel_view(pending: PendingTest | None, choices=None, *, viewer) -> dict[str, Any] | None:
    """The opposed test a player's panel shows beside their side, to ``viewer``: with their own
    choices in the odds of winning. None when ``pending`` is no side of one."""
    if pending is None:
        return None
    opposed, side = opposed_of(pending)
    if opposed is None:
        return None
    return view(opposed, side, choices, viewer=viewer)


def dashboard_view(session: GameSession | None) -> list[dict[str, Any]]:
    """The session's opposed tests as the GM's dashboard lists them (waiting ones first)."""
    if session is None or rules_of(session.campaign.system) is None:
        return []
    tests = (
        OpposedTest.objects.filter(session=session)
        .exclude(status=OpposedTest.Status.CANCELLED)
        .select_related(
            "session__campaign__gm",
            "initiator__character",
            "opponent__character",
            "npc_roll",
            "result",
        )
        .order_by("status", "-created_at")[:6]
    )
    return [_gm_view(opposed) for opposed in tests]


def _gm_view(opposed: OpposedTest) -> dict[str, Any]:
    # The GM may settle the side whose turn it is for its player (a player away from the table).
    shown = view(opposed, viewer=opposed.session.campaign.gm)
    return shown | {"may_settle": shown["settling"]}
