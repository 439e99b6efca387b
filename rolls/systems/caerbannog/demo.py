"""The Caerbannog campaign of the demo table (``rolls.demo``): name, characters."""

from __future__ import annotations

NAME = "Caerbannog 2026"


def _caerbannog(skills, bonuses):
    return {
        "skills": [{"name": n, "category": c, "level": lvl} for n, c, lvl in skills],
        "category_bonuses": bonuses,
        "defences": {
            "Blok": 1,
            "Odporność": 1,
            "Unik": 2,
            "Intuicja": 1,
            "Koncentracja": 1,
            "Opanowanie": 1,
        },
        "resources": {
            "wytrzymalosc": 8,
            "determinacja": 6,
            "zywotnosc": 10,
            "zdrowie": 10,
            "kapital_spoleczny": 2,
            "pd": 0,
            "rozmach": 0,
        },
    }


SETTINGS: dict = {}
NPCS: dict = {}

#: (player, character name, sheet data)
CHARACTERS = [
    (
        "Ala",
        "Julio",
        _caerbannog(
            [
                ("Dociekliwość", "practical", 2),
                ("Percepcja", "practical", 1),
                ("Jazda", "physical", 2),
                ("Walka Wręcz", "combat", 1),
            ],
            {
                "physical": 2,
                "practical": 3,
                "combat": 1,
                "social": 1,
                "knowledge": 1,
                "specialist": 0,
                "mystic": 0,
            },
        ),
    ),
    (
        "Bartek",
        "Morgana",
        _caerbannog(
            [
                ("Charyzma", "social", 0),
                ("Przebiegłość", "social", 2),
                ("Ukrycie", "physical", 2),
                ("Walka Dystansowa", "combat", 1),
            ],
            {
                "physical": 2,
                "practical": 1,
                "combat": 2,
                "social": 3,
                "knowledge": 0,
                "specialist": 0,
                "mystic": 0,
            },
        ),
    ),
    (
        "Celina",
        "Tristan",
        _caerbannog(
            [
                ("Medycyna", "specialist", 2),
                ("Wiedza Mistyczna", "knowledge", 2),
                ("Walka Bezpośrednia", "combat", 1),
            ],
            {
                "physical": 1,
                "practical": 1,
                "combat": 1,
                "social": 1,
                "knowledge": 3,
                "specialist": 2,
                "mystic": 0,
            },
        ),
    ),
]

#: The GM's random tables (``rolls.tables.random_tables``): name, dice, when offered, quick entry.
TABLES = [
    (
        "Kto siedzi w karczmie",
        "1d20",
        "",
        "1-4: Zmęczony poborca podatków, który nikomu nie ufa.\n"
        "5-8: Trzy siostry grające w kości o cudze pieniądze.\n"
        "9-12: Rycerz bez konia, z opowieścią o królu.\n"
        "13-16: Mnich, który za dużo wie o miejscowym zamku.\n"
        "17-19: Dziecko sprzedające mapy do niczego.\n"
        "20: Ktoś, kogo bohaterowie na pewno już kiedyś widzieli.",
    ),
]
