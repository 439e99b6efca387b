"""What a system may add to the GM's dashboard (``campaigns.systems.Part``s), beside what every
system's dashboard has. A system lists the ones its rules call for in its ``parts``; the
dashboard shows a part only where the system has it (``rules.offered.<key>`` in a template).
The turns of a fight are ``rolls.turns.fight.Turns``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar


@dataclass(frozen=True)
class AfterRollStrip:
    """The strip of what the GM may apply after each of the latest tests (FastTest: a combat
    wound, the magic die), under the log (``templates/rolls/dashboard/_after_roll.html``)."""

    key: ClassVar[str] = "after_roll_strip"
    #: ``items(campaign, session)``: the open session's latest tests, newest first, each a dict
    #: the strip's template reads (``roll``, ``combat``, ``applied``: a combat wound still to
    #: apply keeps it open), [] for none.
    items: Callable[[Any, Any], list[dict[str, Any]]]


@dataclass(frozen=True)
class GmBox:
    """A box of what the GM applies from the latest entries (Caerbannog's damage, healing and
    states): its ``template``, and ``context(campaign, session)`` for it."""

    key: ClassVar[str] = "gm_box"
    template: str
    context: Callable[[Any, Any], dict[str, Any]]


@dataclass(frozen=True)
class NpcBox:
    """What the rules keep for the GM's NPCs together, shown in the dashboard's "NPCs at hand"
    (Caerbannog: the Rozmach pool they may share, and the boost after the latest NPC's roll):
    its ``template``, which starts with ``id="npc-box"``, and ``context(campaign, session)``."""

    key: ClassVar[str] = "npc_box"
    template: str
    context: Callable[[Any, Any], dict[str, Any]]


@dataclass(frozen=True)
class CardTools:
    """The GM's tools on a party card: ``tools(character, campaign)``, a dict the card's
    template reads (FastTest's night's rest, Caerbannog's Rozmach at the start of a turn),
    without a query (the card's character is loaded)."""

    key: ClassVar[str] = "card_tools"
    tools: Callable[[Any, Any], dict[str, Any]]


def card_tools_of(system, character, campaign) -> dict[str, Any]:
    part = system.part(CardTools)
    return part.tools(character, campaign) if part is not None else {}


def after_roll_items(system, campaign, session) -> list[dict[str, Any]]:
    strip = system.part(AfterRollStrip)
    return strip.items(campaign, session) if strip is not None else []
