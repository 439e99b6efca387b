"""The demo table: one campaign per rule system, a GM and three players, ready characters.

Idempotent: running it again finds what it made before (by name) and leaves it as it is, so a
newcomer's `make run` never duplicates or overwrites a table they already played on.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

from campaigns.models import Campaign, Membership, System
from sheets.models import NPC, Character

DEMO_PASSWORD = "demo-table"
GM = "gm"
PLAYERS = ("ala", "bartek", "celina")

# The four sample NPCs of the FastTest seed, traits as written there (a bare name is 1 die).
FASTTEST_NPCS = {
    "Wojownik (Warrior)": [
        ("szermierz", 4),
        ("bezczelny awanturnik", 3),
        ("pomniejszy szlachetka", 2),
        ("zwinny", 2),
        ("przystojniak", 1),
        ("jeździec", 1),
    ],
    "Troll": [
        ("wielki", 3),
        ("paskudny", 3),
        ("śmierdzący", 4),
        ("regeneracja", 2),
        ("rozbijacz łbów", 2),
        ("głodny", 1),
        ("głupawy", 1),
    ],
    "Goblin": [
        ("wojak", 1),
        ("paskudny", 2),
        ("brudas", 1),
        ("tchórz", 1),
        ("stwór ciemności", 1),
        ("złośliwy", 1),
    ],
    "Smok (Dragon)": [
        ("olbrzymi", 4),
        ("straszny", 4),
        ("ognisty", 2),
        ("opancerzony", 3),
        ("wytrzymały", 2),
        ("chciwy", 1),
        ("złośliwy", 1),
        ("zarozumiały", 1),
        ("latający", 2),
    ],
}

_FASTTEST_SKILLS = ["WALKA", "SPRAWNOŚĆ", "KULTURA", "TECHNIKA", "PRZYRODA", "EKWIPUNEK"]


def _fasttest(attrs, skills, traits, magic_die=None, flaw=None):
    return {
        "attributes": dict(zip(["BUDOWA", "ZRĘCZNOŚĆ", "UMYSŁ", "DUCH"], attrs, strict=True)),
        "skills": dict(zip(_FASTTEST_SKILLS, skills, strict=True)),
        "traits": [{"name": n, "level": lvl, "magic": m} for n, lvl, m in traits],
        "flaw": flaw,
        "wounds": [],
        "armor": 1,
        "magic_die": magic_die,
        "xp": 0,
        "experience_dice": 0,
    }


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


DEMO_CHARACTERS = {
    System.FASTTEST: [
        (
            "Ala",
            "Brunhilda z Gór",
            _fasttest(
                (7, 5, 4, 4),
                (2, 1, -1, -2, 0, 0),
                [("Rycerz królestwa", 2, False), ("szermierka", 1, False)],
            ),
        ),
        (
            "Bartek",
            "Zbyszko Cichy",
            _fasttest(
                (4, 7, 5, 4),
                (0, 2, 0, -1, 1, -2),
                [("Złodziejaszek", 2, False), ("skradanie", 1, False)],
            ),
        ),
        (
            "Celina",
            "Wiedźma Jaga",
            _fasttest(
                (3, 4, 6, 7),
                (-2, 0, 1, 2, 0, -1),
                [("czarodziejka", 2, True), ("magia ognia", 1, True)],
                magic_die=10,
            ),
        ),
    ],
    System.AST: [
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
    ],
    System.T10: [
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
    ],
    System.CAERBANNOG: [
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
    ],
    System.TWOD6: [
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
    ],
}

# The FastTest demo plays with magic and experience dice on, so both show at once.
DEMO_SETTINGS = {
    System.FASTTEST: {"fasttest": {"magic": True, "experience_dice": True, "emanation": True}},
}

CAMPAIGN_NAMES = {
    System.FASTTEST: "Królestwo Zarith (FastTest)",
    System.AST: "Sagi Północy (AST)",
    System.T10: "Moorcrest (T10)",
    System.CAERBANNOG: "Caerbannog 2026",
    System.TWOD6: "Pustkowia (2d6)",
}


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
    for system, characters in DEMO_CHARACTERS.items():
        campaign, _ = Campaign.objects.get_or_create(
            name=CAMPAIGN_NAMES[system],
            gm=gm,
            defaults={"system": system, "settings": DEMO_SETTINGS.get(system, {})},
        )
        Membership.objects.get_or_create(
            campaign=campaign, user=gm, defaults={"role": Membership.Role.GM}
        )
        for player_name, character_name, data in characters:
            player = players[player_name]
            Membership.objects.get_or_create(campaign=campaign, user=player)
            Character.objects.get_or_create(
                campaign=campaign, owner=player, name=character_name, defaults={"data": data}
            )
        if system == System.FASTTEST:
            for npc_name, traits in FASTTEST_NPCS.items():
                NPC.objects.get_or_create(
                    campaign=campaign,
                    name=npc_name,
                    defaults={"traits": [{"name": n, "dice": d} for n, d in traits]},
                )
        campaigns.append(campaign)
    return campaigns
