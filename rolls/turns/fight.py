"""Whose turn it is and which round: the GM marks each combatant's turn (the party card's "Turn
starts") and may call a new round (the dashboard's "New round"), where the system keeps turns
(its ``Turns`` part, below). The state is ``Turn`` rows in the database, never process memory,
so every worker reads the same.

Decisions:

- Combat is a scene where a turn was started or a round called: the scene's latest row says
  where the fight stands. A new scene has none, so turns end with their scene (as Caerbannog's
  Rozmach does), and a session that ended has no current scene at all.
- A round is every combatant's turn once: the second turn start of a character in a round
  starts the next round, with that turn. The GM's "New round" starts the next one at once,
  with nobody's turn until the GM starts one. The first turn of a scene is round 1.
- Each row keeps the session's last log entry when it was made (``after_seq``): the entries
  after a round's first row happened in that round. Rows are made under the session's row
  lock, the one every roll takes, so a turn and a roll are always in one order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from django.db import transaction
from django.db.models import OuterRef, Subquery
from django.utils.translation import gettext as _

from campaigns.actions import ActionRefused
from campaigns.live import broadcast_on_commit, campaign_group
from campaigns.models import GameSession, Scene
from rolls.discord import outbox
from rolls.models import Turn


def _grants_nothing(character, campaign) -> None:
    return None


@dataclass(frozen=True)
class Turns:
    """A system's part (``campaigns.systems.Part``): the GM marks combat turns and rounds on
    the dashboard ("Turn starts" on each party card, "New round"), and the rules count on them
    (Caerbannog's reactions).

    ``started(character, campaign)``: what the rules grant when a character's turn starts,
    inside the transaction that marks it, as (granted, before, after); None when they grant
    this character nothing now."""

    key: ClassVar[str] = "turns"
    started: Callable[[Any, Any], tuple[int, int, int] | None] = _grants_nothing


def keeps_turns(system) -> bool:
    return system.part(Turns) is not None


@dataclass(frozen=True)
class Fight:
    """Where the fight of the current scene stands: its round, whose turn it is (None right
    after the GM's "New round"), and the last log entry before the round began."""

    session_id: int
    scene_id: int
    round: int
    character_id: int | None
    character_name: str
    round_after_seq: int
    # An NPC's turn (from the scene's turn order): its name is the GM's until it is shown.
    npc_id: int | None = None
    npc_name: str = ""
    npc_shown: bool = False

    def is_turn_of(self, character) -> bool:
        return self.character_id is not None and self.character_id == character.pk

    @property
    def key(self) -> str:
        """Whose turn it is as the order names its places ("character-3", "npc-7")."""
        if self.character_id is not None:
            return f"character-{self.character_id}"
        return f"npc-{self.npc_id}" if self.npc_id is not None else ""

    @property
    def name(self) -> str:
        """Whose turn it is, as the GM reads it ("" when it is nobody's)."""
        return self.character_name or self.npc_name


def open_scenes(campaign_id: int):
    """The scenes of the campaign's open session, its current scene first."""
    return Scene.objects.filter(
        session__campaign_id=campaign_id, session__ended_at__isnull=True
    ).order_by("-number")


def current(campaign_id: int) -> Fight | None:
    """The fight in the open session's current scene, None outside combat (one query)."""
    last = (
        Turn.objects.filter(scene=Subquery(open_scenes(campaign_id).values("pk")[:1]))
        .select_related("character", "npc", "scene")
        .annotate(
            round_after_seq=Subquery(
                Turn.objects.filter(scene=OuterRef("scene"), round=OuterRef("round"))
                .order_by("number")
                .values("after_seq")[:1]
            )
        )
        .order_by("-number")
        .first()
    )
    if last is None:
        return None
    return Fight(
        session_id=last.scene.session_id,
        scene_id=last.scene_id,
        round=last.round,
        character_id=last.character_id,
        character_name=last.character.name if last.character else "",
        round_after_seq=last.round_after_seq,
        npc_id=last.npc_id,
        npc_name=last.npc.name if last.npc else "",
        npc_shown=bool(last.npc and last.npc.revealed),
    )


@transaction.atomic
def start_turn(session: GameSession, character) -> Fight:
    """``character``'s turn starts in the session's current scene: in this round, or in the
    next one when it has had its turn in this one already."""
    locked, scene, last = where(session)
    round_ = last.round if last is not None else 1
    if last is not None and scene.turns.filter(round=round_, character=character).exists():
        round_ += 1
    return mark(locked, scene, last, round_, character)


@transaction.atomic
def new_round(session: GameSession) -> Fight:
    """The GM starts the next round in the session's current scene (the first, if no turn was
    started yet), with nobody's turn until the GM starts one."""
    locked, scene, last = where(session)
    return mark(locked, scene, last, last.round + 1 if last is not None else 1, None)


def where(session: GameSession) -> tuple[GameSession, Scene, Turn | None]:
    # The session's row lock is the one every roll takes: a turn falls between two entries.
    locked = GameSession.objects.select_for_update().get(pk=session.pk)
    if not locked.is_open:
        raise ActionRefused(_("This session has ended; the GM can start a new one."))
    scene = locked.scenes.order_by("-number").first()
    if scene is None:
        raise ActionRefused(_("Start a scene first: turns belong to a scene."))
    return locked, scene, scene.turns.order_by("-number").first()


def mark(
    locked: GameSession, scene: Scene, last: Turn | None, round_: int, character, npc=None
) -> Fight:
    Turn.objects.create(
        scene=scene,
        number=last.number + 1 if last is not None else 1,
        round=round_,
        character=character,
        npc=npc,
        after_seq=locked.last_seq,
    )
    broadcast_on_commit(
        campaign_group(locked.campaign_id),
        {
            "type": "table.turn",
            "session": locked.pk,
            "scene": scene.number,
            "round": round_,
            "character": character.pk if character is not None else None,
            # Whether an NPC acts, never which: every page of the table hears this, and a
            # player knows nothing of a hidden NPC but "an NPC" (the bar says as much).
            "npc": npc is not None,
        },
    )
    outbox.queue_turn(locked, round_, character, npc)
    return current(locked.campaign_id)
