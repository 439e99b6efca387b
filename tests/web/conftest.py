"""The web tests' table and dice: one factory for a table of any shape, one way to script dice.

``make_table(...)`` seats the GM and the players in a new campaign, gives each player named in
``characters`` their character, adds the NPCs and starts a session. The ``table`` fixture is one
call to it, shaped by a module's (or a test's) mark: ``pytestmark = pytest.mark.table("t10",
characters=[("Astrid", SHEET)])`` passes those arguments, so no module writes a fixture of its
own for its table. ``dice`` feeds faces to the rolls the server makes (tests/web/dice.py).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.test import Client

from campaigns.models import Campaign, GameSession
from campaigns.sessions import start_session
from sheets.models import NPC, Character
from tests.web.dice import ScriptedDice
from tests.web.live import seat


@dataclass
class Table:
    """A campaign with its GM and players seated, their characters, NPCs and the session."""

    campaign: Campaign
    gm: Any
    players: list[Any]
    characters: list[Character]
    npcs: list[NPC] = field(default_factory=list)
    session: GameSession | None = None

    @property
    def hero(self) -> Character:
        """The first player's character."""
        return self.characters[0]

    @property
    def npc(self) -> NPC:
        return self.npcs[0]

    def client(self, user) -> Client:
        """A fresh client logged in as ``user`` (for a second person at the same table)."""
        client = Client()
        client.force_login(user)
        return client


@pytest.fixture
def make_table(gm, player, request):
    """``make_table(system, characters=[(name, data), ...], ...)``: the ``gm`` runs the table
    (or another user given as ``gm``); character *i* belongs to the *i*-th player (the
    ``player``, then the ``other_player``; ``players`` names others, or a number seats only
    that many of these two). ``session``: True starts it after the characters exist,
    ``"first"`` before them (a new scene resets per-scene fields, so a sheet that must keep
    them comes after), False leaves the table without one."""

    def make(
        system: str = "fasttest",
        *,
        name: str = "Stół",
        settings: dict | None = None,
        characters: Sequence[tuple[str, dict]] = (("Brunhilda", {}),),
        npcs: Sequence[tuple[str, list]] = (),
        players: Sequence[Any] | int | None = None,
        gm: Any = gm,
        session: bool | str = True,
        title: str = "",
    ) -> Table:
        if players is None:
            players = 2
        if isinstance(players, int):  # the other player's user exists only if seated
            players = (
                [player, request.getfixturevalue("other_player")][:players]
                if players > 1
                else [player]
            )
        extra = {} if settings is None else {"settings": copy.deepcopy(settings)}
        campaign = Campaign.objects.create(name=name, system=system, gm=gm, **extra)
        seat(campaign, gm, *players)
        table = Table(campaign, gm, list(players), [])
        if session == "first":
            table.session = start_session(campaign, title)
        for owner, (character, data) in zip(players, characters, strict=False):
            table.characters.append(
                Character.objects.create(
                    campaign=campaign, owner=owner, name=character, data=copy.deepcopy(data)
                )
            )
        table.npcs = [
            NPC.objects.create(campaign=campaign, name=npc, traits=copy.deepcopy(traits))
            for npc, traits in npcs
        ]
        if session is True:
            table.session = start_session(campaign, title)
        return table

    return make


@pytest.fixture
def table(make_table, request) -> Table:
    """``make_table`` with the arguments of the closest ``table`` mark (a test's before its
    module's), or its defaults without one. A player given by name in ``players`` is the fixture
    of that name (``"third_player"``), as a mark cannot hold a fixture's user."""
    mark = request.node.get_closest_marker("table")
    args, kwargs = (mark.args, dict(mark.kwargs)) if mark else ((), {})
    if kwargs.get("players") is not None and not isinstance(kwargs["players"], int):
        kwargs["players"] = [
            request.getfixturevalue(user) if isinstance(user, str) else user
            for user in kwargs["players"]
        ]
    return make_table(*args, **kwargs)


@pytest.fixture
def third_player(make_user):
    return make_user("third")


@pytest.fixture
def third(make_user, table):
    """A third player seated at the ``table``, who is neither author nor reader of anything
    whispered between the first two."""
    from campaigns.models import Membership

    user = make_user("trzeci")
    Membership.objects.create(campaign=table.campaign, user=user)
    return user


@pytest.fixture
def dice(monkeypatch) -> ScriptedDice:
    """``dice(4, 4, 1)``: the rolls the server makes from now on deal these faces;
    ``dice.queue()``: one scripted source they all draw from (tests/web/dice.py)."""
    return ScriptedDice(monkeypatch)
