"""What a system may add to the GM's dashboard (``campaigns.systems.Part``s), beside what every
system's dashboard has: boxes of its own (``DashboardBoxes``) and tools on each party card
(``CardTools``). A system lists the ones its rules call for in its ``parts``; the dashboard
shows them only where the system has them. The turns of a fight are ``rolls.turns.fight.Turns``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

#: Where the dashboard holds a box of a system's own, each a live part of its own (``id``):
#: after each of the latest tests, what the GM applies then (``after_roll``, ``id="after-roll"``:
#: FastTest's wound, magic die and experience die); results the GM applies from the latest
#: entries (``results``, ``id="roll-results"``: Caerbannog's damage, healing and states); and
#: the GM's NPCs together, in "NPCs at hand" (``npcs``, ``id="npc-box"``: Caerbannog's shared
#: Rozmach).
PLACES = ("after_roll", "results", "npcs")


@dataclass(frozen=True)
class Box:
    """One box of a system's own on the dashboard: its ``place`` (one of ``PLACES``), its
    ``template``, which starts with the place's element, and ``context(campaign, session)``."""

    place: str
    template: str
    context: Callable[[Any, Any], dict[str, Any]]


@dataclass(frozen=True)
class DashboardBoxes:
    """The dashboard's boxes of a system's own, one at each place it fills."""

    key: ClassVar[str] = "dashboard_boxes"
    boxes: tuple[Box, ...]

    def __post_init__(self) -> None:
        places = [box.place for box in self.boxes]
        if unknown := set(places) - set(PLACES):
            raise ValueError(f"No place on the dashboard is called {sorted(unknown)}.")
        if len(set(places)) < len(places):
            raise ValueError("A place on the dashboard holds one box.")

    def at(self, place: str) -> Box | None:
        return next((box for box in self.boxes if box.place == place), None)


def box_context(system, place: str, campaign, session) -> dict[str, Any]:
    """The system's box at ``place`` as the dashboard's include reads it: its template under
    ``<place>_box`` ("" where the system has none) and its context."""
    boxes = system.part(DashboardBoxes)
    box = boxes.at(place) if boxes is not None else None
    if box is None:
        return {f"{place}_box": ""}
    return {f"{place}_box": box.template, **box.context(campaign, session)}


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
