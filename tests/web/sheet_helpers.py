"""Shared data and helpers of the character sheet tests (fixtures: ``sheet_fixtures``)."""

from __future__ import annotations

import copy
import html
import json
import re

from django.http import QueryDict
from django.test import Client
from django.urls import reverse

JAGA = {
    "attributes": {"BUDOWA": 3, "ZRĘCZNOŚĆ": 4, "UMYSŁ": 6, "DUCH": 7},
    "skills": {
        "WALKA": -2,
        "SPRAWNOŚĆ": 0,
        "KULTURA": 1,
        "TECHNIKA": 2,
        "PRZYRODA": 0,
        "EKWIPUNEK": -1,
    },
    "traits": [
        {"name": "czarodziejka", "level": 2, "magic": True},
        {"name": "magia ognia", "level": 1, "magic": True},
    ],
    "flaw": None,
    "wounds": [],
    "armor": 1,
    "magic_die": 10,
    "xp": 0,
    "experience_dice": 0,
}

JULIO = {
    "skills": [
        {"name": "Dociekliwość", "category": "practical", "level": 2},
        {"name": "Percepcja", "category": "practical", "level": 1},
        {"name": "Jazda", "category": "physical", "level": 2},
        {"name": "Walka Wręcz", "category": "combat", "level": 1},
    ],
    "category_bonuses": {
        "physical": 2,
        "practical": 3,
        "combat": 1,
        "social": 3,
        "knowledge": 1,
        "specialist": 0,
        "mystic": 0,
    },
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


def sheet(data: dict, **changes) -> dict:
    """A deep copy of a sheet with top-level keys replaced."""
    copied = copy.deepcopy(data)
    copied.update(copy.deepcopy(changes))
    return copied


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def url(name: str, character=None, campaign=None, **kwargs) -> str:
    if character is not None:
        kwargs.update(campaign_id=character.campaign_id, pk=character.pk)
    elif campaign is not None:
        kwargs.update(campaign_id=campaign.pk)
    return reverse(name, kwargs=kwargs)


# The sheet page: session, user, campaign, character; then the log beside the sheet (its
# game session and entries, who is at the table), the character's conditions (one query, with
# the entries they name), the cue of the GM's calls on the reader's characters (rolls.cues) and
# the character's pinned tests (rolls.saved, one query). With no session running, the panel asks
# nothing (no test can be called, no opposed test settled), nor do the group cue, the quick dice'
# last expressions and the chat box, which show only in a running session's log.
SHEET_PAGE_QUERIES = 9


HX = {"HTTP_HX_REQUEST": "true"}


def post(**fields: str) -> QueryDict:
    """A form as posted; ``rows__0__name`` stands for the field ``rows-0-name``."""
    query = QueryDict(mutable=True)
    for name, value in fields.items():
        query[name.replace("__", "-")] = value
    return query


def rolls(page: str) -> list[dict]:
    """The roll targets of a rendered sheet, as the page's data-roll attributes hold them."""
    return [json.loads(html.unescape(raw)) for raw in re.findall(r'data-roll="([^"]*)"', page)]
