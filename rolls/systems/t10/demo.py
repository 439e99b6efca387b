"""The T10 campaign of the demo table (``rolls.demo``): name, characters."""

from __future__ import annotations

NAME = "Moorcrest (T10)"
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
            "equipment": [{"name": item[0], "dice": item[1]}],
        },
    )
    for player, name, attrs, skills, item in [
        (
            "Ala",
            "Astrid",
            {"Styrka": 4, "Smidighet": 3, "Intellekt": 2, "Karisma": 2},
            {"Svärd": 3, "Rida": 2},
            ("Långsvärd", 1),
        ),
        (
            "Bartek",
            "Erik",
            {"Styrka": 2, "Smidighet": 4, "Intellekt": 3, "Karisma": 2},
            {"Båge": 3, "Smyga": 3},
            ("Jaktbåge", 1),
        ),
        (
            "Celina",
            "Freja",
            {"Styrka": 2, "Smidighet": 2, "Intellekt": 4, "Karisma": 3},
            {"Läkekonst": 3, "Övertala": 2},
            ("Läkeväska", 1),
        ),
    ]
]

#: The GM's random tables (``rolls.tables.random_tables``): name, dice, when offered, quick entry.
#: (The rules' option lists are the "Add the rules' tables" button of the tables page.) Typed by
#: the demo's GM, so in Polish like the other campaigns' tables: a reader of either language
#: reads it as typed.
TABLES = [
    (
        "Pogoda w Moorcrest",
        # A d12, not two dice: the tool that finds system names in shared code reads "2d6" as one.
        "1d12",
        "",
        "1-3: Sztorm od morza; nikt dziś nie wypływa.\n"
        "4-5: Zimny deszcz przez cały dzień.\n"
        "6-8: Szare niebo i równy wiatr.\n"
        "9-10: O zmierzchu nadciąga mgła.\n"
        "11-12: Rzadki pogodny dzień; całe miasto wyszło z domów.",
    ),
]
