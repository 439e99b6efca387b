"""What a system's rules say about opposed tests (its ``OpposedRules`` part): how to read two
rolls into an ``Outcome``, the exact odds of winning, and whether the sides settle and reveal in
turn.
The actions (rolls.opposed.actions) and the pages (rolls.opposed.readers_views) follow these."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from django.utils.translation import gettext_lazy

from campaigns.systems import get_system
from rolls import labels
from rolls.models import Roll

# The log's words for opposed tests: the one entry that says who won, the NPC's side, and the
# rules' names for a margin.
labels.register(
    kinds={"opposed": gettext_lazy("opposed test")},
    words={
        "opposed_won": gettext_lazy(
            "Opposed test (#%(a_seq)s against #%(b_seq)s): %(winner)s beats %(loser)s "
            "by %(margin)s — %(how)s"
        ),
        "opposed_won_plain": gettext_lazy(
            "Opposed test (#%(a_seq)s against #%(b_seq)s): %(winner)s beats %(loser)s by %(margin)s"
        ),
        "opposed_draw": gettext_lazy(
            "Opposed test (#%(a_seq)s against #%(b_seq)s): %(a)s and %(b)s draw"
        ),
        "opposed_npc_side": gettext_lazy("%(name)s: the NPC's side of an opposed test"),
        "opposed_minor": gettext_lazy("minor victory"),
        "opposed_win": gettext_lazy("victory"),
        "opposed_clear_win": gettext_lazy("clear victory"),
        "opposed_critical_win": gettext_lazy("critical victory"),
    },
)


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

    key: ClassVar[str] = "opposed"
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
    return get_system(system_key).part(OpposedRules)
