"""The FastTest campaign of the demo table (``rolls.demo``): name, characters, NPCs."""

from __future__ import annotations

NAME = "Królestwo Zarith (FastTest)"
# The FastTest demo plays with magic and experience dice on, so both show at once.
SETTINGS: dict = {"magic": True, "experience_dice": True, "emanation": True}

# The four sample NPCs of the FastTest seed, traits as written there (a bare name is 1 die).
NPCS = {
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
    "Kapitan straży (Guard captain)": [("strażnik", 2), ("nieufny", 1)],
}
# The seed's other kind of NPC: stats like a player's, whose tests the GM rolls.
NPC_STATS = {
    "Kapitan straży (Guard captain)": {
        "attributes": {"BUDOWA": 6, "ZRĘCZNOŚĆ": 5, "UMYSŁ": 5, "DUCH": 4},
        "skills": {"WALKA": 2, "SPRAWNOŚĆ": 0, "KULTURA": 1, "TECHNIKA": -1, "PRZYRODA": -2,
                   "EKWIPUNEK": 0},
    },
}  # fmt: skip

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


#: (player, character name, sheet data)
CHARACTERS = [
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
]

#: The GM's random tables (``rolls.tables.random_tables``): name, dice, when offered, quick entry.
#: Our own words: the seed says an eruption is drawn from a table but gives none.
TABLES = [
    (
        "Erupcja magii",
        "1d6",
        "emanation",
        "1: Iskry sypią się z palców; wszystko łatwopalne wokół zaczyna się tlić.\n"
        "2: Przez chwilę nikt w pobliżu nie słyszy żadnego dźwięku.\n"
        "3: Cienie w izbie poruszają się same, jakby czegoś szukały.\n"
        "4: Czarodziej unosi się na łokieć nad ziemią i nie może zejść do końca sceny.\n"
        "5: Każdy płomień w zasięgu wzroku gaśnie naraz.\n"
        "6: Zaklęcie trafia w najbliższą osobę zamiast w cel.",
    ),
]
