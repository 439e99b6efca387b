"""The scene's turn order: the GM gives each combatant (a character of the party, an NPC) a
number, higher acts first, then moves the fight on with "Next turn" and "Next round". Every page
of the table shows whose turn it is (``rolls/turns/_bar.html``); the turns themselves are the
fight's ``Turn`` rows (``rolls.turns.fight``), so Caerbannog's reactions and Rozmach read them as
they read a turn the GM started on a party card.

Decisions:

- The order belongs to the session's current scene and ends with it, as the turns do. Setting it
  again replaces it; the fight goes on from whoever's turn it is.
- Ties keep the party before the NPCs, then the names in alphabetical order.
- "Next turn" after the last of the order starts the next round with the first. "Next round"
  starts the next round at once, with the first of the order.
- When whoever has the turn is no longer in the order (the GM set it again without them), the
  next turn is the first of the order, in the same round.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.actions import ActionRefused
from campaigns.live import broadcast_on_commit, campaign_group
from campaigns.models import GameSession, Scene
from rolls import labels
from rolls.actions import RollSpec, record_roll
from rolls.engine import dice
from rolls.labels import words
from rolls.models import Combatant, Turn, Visibility
from rolls.turns import fight
from sheets.models import NPC, Character

#: The numbers a GM may give (a typed initiative, or a roll's total, kept within them).
LOWEST, HIGHEST = -99, 999

labels.register(words={"initiative_roll": gettext_lazy("Initiative: %(expression)s")})


@dataclass(frozen=True)
class Place:
    """One combatant as the order shows it."""

    place: int
    initiative: int
    character: Character | None
    npc: NPC | None

    @property
    def key(self) -> str:
        return f"character-{self.character.pk}" if self.character else f"npc-{self.npc.pk}"

    @property
    def name(self) -> str:
        return self.character.name if self.character else self.npc.name

    @property
    def shown(self) -> bool:
        """Whether a player may read its name (an NPC the GM has not shown is "an NPC")."""
        return self.character is not None or self.npc.revealed


def current_scene(campaign_id: int) -> Scene | None:
    return fight.open_scenes(campaign_id).first()


def order_of(scene: Scene | int | None) -> list[Place]:
    """The scene's (or the scene of that pk's) order, first to act first (one query)."""
    if scene is None:
        return []
    rows = Combatant.objects.filter(scene=scene).select_related("character", "npc")
    return [Place(row.place, row.initiative, row.character, row.npc) for row in rows]


def rolled(session: GameSession, gm, given: dict, key: uuid.UUID | None) -> dict:
    """The dice the GM gave each combatant, rolled into the log as quick dice for it (a hidden
    NPC's seen by the GM alone): each one's total, kept within the numbers allowed. Each roll's
    key comes from ``key``, so the same request sent twice rolls once."""
    numbers = {}
    for who, params in given.items():
        character = who if isinstance(who, Character) else None
        shown = character is not None or who.revealed
        roll, _made = record_roll(
            RollSpec(
                session=session,
                actor=gm,
                system=session.campaign.system,
                engine=dice,
                params={"expression": params.expression},
                key=uuid.uuid5(key, f"{type(who).__name__}-{who.pk}"),
                label=words("initiative_roll", expression=params.expression),
                character=character,
                npc=None if character is not None else who,
                visibility=Visibility.PUBLIC if shown else Visibility.HIDDEN,
                kind=dice.QUICK_KIND,
            )
        )
        numbers[who] = max(LOWEST, min(HIGHEST, roll.result["answer"]["total"]))
    return numbers


def _ranked(numbers: dict[Character | NPC, int]) -> list[tuple[Character | NPC, int]]:
    def rank(item):
        who, number = item
        return (-number, isinstance(who, NPC), who.name.casefold(), who.pk)

    return sorted(numbers.items(), key=rank)


@transaction.atomic
def set_order(session: GameSession, numbers: dict[Character | NPC, int]) -> list[Place]:
    """The scene's order from each combatant's number (the campaign's own, checked by the
    form); whoever has no number stays out of the fight."""
    if not numbers:
        raise ActionRefused(_("Give at least one combatant a number."))
    locked, scene, _last = fight.where(session)
    Combatant.objects.filter(scene=scene).delete()
    Combatant.objects.bulk_create(
        Combatant(
            scene=scene,
            place=place,
            initiative=number,
            character=who if isinstance(who, Character) else None,
            npc=who if isinstance(who, NPC) else None,
        )
        for place, (who, number) in enumerate(_ranked(numbers), start=1)
    )
    _tell(locked, scene)
    return order_of(scene)


@transaction.atomic
def next_turn(session: GameSession) -> tuple[fight.Fight, Place]:
    """The turn of the next in the order: the first after whoever's turn it is, or, after the
    last, the first in the next round."""
    locked, scene, last = fight.where(session)
    order = _order_or_refuse(scene)
    if last is None:
        return _turn_of(locked, scene, last, 1, order[0])
    after = _after(order, last)
    if after is None:
        return _turn_of(locked, scene, last, last.round + 1, order[0])
    return _turn_of(locked, scene, last, last.round, after)


@transaction.atomic
def next_round(session: GameSession) -> tuple[fight.Fight, Place]:
    """The next round starts at once, with the first of the order."""
    locked, scene, last = fight.where(session)
    order = _order_or_refuse(scene)
    return _turn_of(locked, scene, last, last.round + 1 if last is not None else 1, order[0])


def _order_or_refuse(scene: Scene) -> list[Place]:
    order = order_of(scene)
    if not order:
        raise ActionRefused(_("Set the turn order first: give the combatants their numbers."))
    return order


def _after(order: list[Place], last: Turn) -> Place | None:
    """The first in the order after the one whose turn ``last`` is; the first of all after a
    new round's mark; None when it was the last one's turn."""
    if last.character_id is None and last.npc_id is None:
        return order[0]
    for index, place in enumerate(order):
        if (place.character and place.character.pk == last.character_id) or (
            place.npc and place.npc.pk == last.npc_id
        ):
            return order[index + 1] if index + 1 < len(order) else None
    return order[0]  # whoever had the turn left the order: it starts again from the top


def _turn_of(locked, scene, last, round_: int, place: Place) -> tuple[fight.Fight, Place]:
    now = fight.mark(locked, scene, last, round_, place.character, place.npc)
    return now, place


def _tell(locked: GameSession, scene: Scene) -> None:
    """Every page of the table shows the order again (the turn bar, the dashboard's box)."""
    broadcast_on_commit(
        campaign_group(locked.campaign_id),
        {"type": "table.turn", "session": locked.pk, "scene": scene.number, "order": True},
    )
