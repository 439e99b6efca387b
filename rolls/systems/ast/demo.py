"""The AST campaign of the demo table (``rolls.demo``): name, characters."""

from __future__ import annotations

NAME = "Sagi Północy (AST)"
SETTINGS: dict = {}
NPCS: dict = {}

#: (player, character name, sheet data)
CHARACTERS = [
    (
        player,
        name,
        {
            "attributes": [{"name": a} for a in attrs],
            "advantages": [{"name": a} for a in advantages],
            "equipment": [{"name": e} for e in equipment],
            "positive_states": [],
            "negative_states": [],
            "funt": 1,
        },
    )
    for player, name, attrs, advantages, equipment in [
        # Olaf as the seed draws him: five white dice against the bear (example 1).
        (
            "Ala",
            "Olaf",
            ["Ciało: silny", "Umysł: sprytny"],
            ["walka toporem", "orientacja w terenie"],
            ["ostry topór", "bogato zdobiona skórznia"],
        ),
        ("Bartek", "Ingrid", ["Ciało: zwinna", "Duch: odważna"], ["łucznictwo"], ["długi łuk"]),
        (
            "Celina",
            "Sigrun",
            ["Umysł: mądra", "Duch: spokojna"],
            ["zielarstwo"],
            ["torba ziół"],
        ),
    ]
]

#: The GM's random tables (``rolls.tables.random_tables``): name, dice, when offered, quick entry.
TABLES = [
    (
        "Na szlaku (d66)",
        "d66",
        "",
        "11-16: Zamarznięty strumień, a pod lodem coś błyszczy.\n"
        "21-26: Dwóch kupców kłóci się o zdechłego konia.\n"
        "31-36: Kruki krążą nad wzgórzem i nie chcą odlecieć.\n"
        "41-46: Ślady bosych stóp na śniegu, prowadzące donikąd.\n"
        "51-56: Stary kamień runiczny, świeżo oczyszczony z mchu.\n"
        "61-66: Mgła, w której słychać własne imię.",
    ),
]
