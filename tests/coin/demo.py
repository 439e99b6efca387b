"""The coin's demo campaign (``rolls.demo``): the conformance suite plays its first character."""

NAME = "Coin table"
SETTINGS: dict = {}
NPCS: dict = {}
CHARACTERS = [
    (
        "Ala",
        "Tosser",
        {"attributes": [{"name": "Luck", "value": 3}, {"name": "Pluck", "value": 2}]},
    )
]
