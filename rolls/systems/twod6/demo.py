"""The 2d6 campaign of the demo table (``rolls.demo``): name, characters."""

from __future__ import annotations

NAME = "Pustkowia (2d6)"
SETTINGS: dict = {}
NPCS: dict = {}

#: (player, character name, sheet data)
CHARACTERS = [
    (
        player,
        name,
        {
            "attributes": [{"name": n, "value": v} for n, v in attrs.items()],
            "skills": [{"name": n, "value": v} for n, v in skills.items()],
            "specialisations": [{"name": special[0], "skill": special[1]}],
            "advantages": [{"name": adv, "category": "personal", "modifier": 1}],
        },
    )
    for player, name, attrs, skills, special, adv in [
        (
            "Ala",
            "Aoife",
            {"Siła": 6, "Zręczność": 7, "Umysł": 5, "Charyzma": 4},
            {"Skradanie": 8, "Strzelanie": 5},
            ("W ruinach", "Skradanie"),
            "Czujna",
        ),
        (
            "Bartek",
            "Rurik",
            {"Siła": 8, "Zręczność": 5, "Umysł": 4, "Charyzma": 5},
            {"Walka": 6, "Przetrwanie": 5},
            ("Topór", "Walka"),
            "Twardziel",
        ),
        (
            "Celina",
            "Mila",
            {"Siła": 4, "Zręczność": 5, "Umysł": 8, "Charyzma": 6},
            {"Wiedza": 7, "Medycyna": 6},
            ("Choroby", "Medycyna"),
            "Bibliotekarka",
        ),
    ]
]

#: The GM's random tables (``rolls.tables.random_tables``): name, dice, when offered, quick entry.
TABLES = [
    (
        "Pogłoski z pustkowi",
        "1d6",
        "",
        "1-2: Za wydmami ktoś znalazł działającą studnię.\n"
        "3-4: Konwój z północy spóźnia się trzeci dzień.\n"
        "5: W ruinach stacji znów pali się światło.\n"
        "6: Ktoś płaci wodą za wieści o zaginionym synu.",
    ),
]
