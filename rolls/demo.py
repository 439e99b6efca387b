"""The demo table: one campaign per rule system, a GM and three players, ready characters.

Each system brings its own campaign (``System.demo``: a module with ``NAME``, ``CHARACTERS`` and
optional ``SETTINGS`` and ``NPCS``, e.g. ``rolls/systems/fasttest/demo.py``).

It lives in rolls, the app that builds on the others: it makes campaigns, characters, NPCs and
random tables.

Idempotent: running it again finds what it made before (by name) and leaves it as it is, so a
newcomer's `make run` never duplicates or overwrites a table they already played on.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

from campaigns.models import Campaign, Membership
from campaigns.systems import all_systems, get_system
from rolls.engine.tables import parse_table
from rolls.models import RandomTable
from sheets.models import NPC, Character

DEMO_PASSWORD = "demo-table"
GM = "gm"
PLAYERS = ("ala", "bartek", "celina")


def _user(username: str):
    user, created = get_user_model().objects.get_or_create(username=username)
    if created:
        user.set_password(DEMO_PASSWORD)
        user.save(update_fields=["password"])
    return user


@transaction.atomic
def seed_demo() -> list[Campaign]:
    """Create the demo table if it is missing; return its campaigns."""
    gm = _user(GM)
    players = {name.capitalize(): _user(name) for name in PLAYERS}
    campaigns = []
    for system in all_systems():
        demo = system.demo
        if demo is None:
            continue
        settings = demo.SETTINGS
        campaign, _ = Campaign.objects.get_or_create(
            name=demo.NAME,
            gm=gm,
            defaults={"system": system.key, "settings": {system.key: settings} if settings else {}},
        )
        Membership.objects.get_or_create(
            campaign=campaign, user=gm, defaults={"role": Membership.Role.GM}
        )
        for player_name, character_name, data in demo.CHARACTERS:
            player = players[player_name]
            Membership.objects.get_or_create(campaign=campaign, user=player)
            Character.objects.get_or_create(
                campaign=campaign, owner=player, name=character_name, defaults={"data": data}
            )
        stats = getattr(demo, "NPC_STATS", {})
        for npc_name, traits in demo.NPCS.items():
            NPC.objects.get_or_create(
                campaign=campaign,
                name=npc_name,
                defaults={
                    "traits": [{"name": n, "dice": d} for n, d in traits],
                    "stats": stats.get(npc_name, {}),
                },
            )
        _tables(campaign, getattr(demo, "TABLES", ()))
        campaigns.append(campaign)
    return campaigns


def _tables(campaign: Campaign, tables) -> None:
    """The demo's random tables, read by the engine like the GM's quick entry."""
    for name, dice, purpose, text in tables:
        parsed, rows, problems = parse_table(dice, text)
        if problems:  # a demo table the engine refuses is a bug of this file
            raise ValueError(f"The demo table {name!r} does not read: {problems}")
        RandomTable.objects.get_or_create(
            campaign=campaign,
            name=name,
            defaults={
                "dice": parsed.expression,
                "purpose": purpose,
                "rows": [[row.low, row.high, row.text] for row in rows],
            },
        )


class _DemoCharacters:
    """``DEMO_CHARACTERS[key]``: the demo characters of a system (read from the registry)."""

    def __getitem__(self, key: str) -> list:
        return get_system(key).demo.CHARACTERS


DEMO_CHARACTERS = _DemoCharacters()
