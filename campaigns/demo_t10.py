"""The T10 campaign of the demo table (``campaigns.demo``): name, characters."""

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
