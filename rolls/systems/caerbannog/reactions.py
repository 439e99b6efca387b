"""When a Caerbannog reaction may be made (RULES.md 4.12, "Reactions"): only outside the
character's own turn, at most once per round, and at its cost from the GM's table each time
(the cost is ``rozmach.plan``'s). The app refuses a reaction that breaks one, with the reason.

Decisions (the rules leave them open):

- In combat means a turn was started, or a round called, in the current scene
  (``rolls.turns.fight``: the GM's "Turn starts" and "New round" on the dashboard, or the
  scene's turn order's "Next turn" and "Next round"). Outside combat no turn limits a
  reaction: it is paid at its cost, as before.
- The GM's NPCs react under the same limits when they share a Rozmach pool (``npc_rozmach``):
  each NPC outside its own turn of the order, once per round.
- A reaction is a test made with one (its log entry names it, ``rozmach.sources``); what
  follows that test (a boost, a re-roll) is the same reaction, not another. The character's
  entries after the round's first mark are that round's.
- The panel asks before it offers one, and says why it does not; the roll asks again inside
  its transaction, after the session's lock that every roll and every turn takes, so two
  reactions sent at once (two tabs, the player and the GM) cannot both pass.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext as _

from rolls.actions import ActionRefused
from rolls.models import Roll
from rolls.systems.caerbannog import rozmach
from rolls.turns.fight import Fight, current
from sheets.models import NPC


def refusal(character, fight: Fight | None, *, made=None) -> str:
    """Why ``character`` (or one of the GM's NPCs) may not react now, in the rule's words; ""
    when it may. ``made``: the entry being rolled, which is not an earlier reaction."""
    if fight is None:
        return ""
    npc = isinstance(character, NPC)
    if fight.npc_id == character.pk if npc else fight.is_turn_of(character):
        return _(
            "Reactions only outside your own turn: it is %(name)s's turn (round %(round)s)."
        ) % {"name": character.name, "round": fight.round}
    earlier = Roll.objects.filter(
        session_id=fight.session_id,
        parent__isnull=True,
        seq__gt=fight.round_after_seq,
        **{"npc" if npc else "character": character},
    )
    if made is not None:
        earlier = earlier.exclude(pk=made.pk)
    if any(rozmach.is_reaction(sources) for sources in earlier.values_list("sources", flat=True)):
        return _(
            "Already reacted this round (round %(round)s): %(name)s may react once per round."
        ) % {"name": character.name, "round": fight.round}
    return ""


def now(character, campaign) -> tuple[Fight | None, str]:
    """The fight as it stands and why ``character`` may not react in it ("" when it may)."""
    fight = current(campaign.pk)
    return fight, refusal(character, fight)


def guard(character, campaign, refused: str) -> Callable[[Roll], None]:
    """The panel's ``after`` part for a test posted as a reaction: refused with the reason the
    panel gave (``refused``, the reaction is not in the test it showed), else asked again as
    the roll is saved, so nothing is spent or logged when the reaction breaks a condition."""

    def after(roll: Roll) -> None:
        reason = refused or refusal(character, current(campaign.pk), made=roll)
        if reason:
            raise ActionRefused(reason)

    return after
