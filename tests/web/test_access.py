"""Who may reach what: every URL below as each kind of viewer, by each method, and the status it
answers. One table instead of a test per refusal in each feature's module (issue 38); what a
page then shows is those modules' business, and what it must never show an outsider is
test_hidden_rolls.py's crawl.

The world: Zarith's FastTest table (the GM, Brunhilda of the player, Zbyszko of the other
player, a Troll, a random table, a logged roll of Brunhilda's, a running session) and beside it
a second table of the same three people ("foreign"), whose objects must not be reached through
the first table's URLs. The outsider runs a table of their own, and is in no other.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass

import pytest
from django.test import Client
from django.urls import reverse

from rolls.models import RandomTable
from rolls.pending.actions import call_test
from tests.web.test_after_roll import HERO, SETTINGS, rolled
from tests.web.test_sheet_export import document
from tests.web.test_t10_options import FALL

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.table(
        name="Zarith",
        settings={"fasttest": SETTINGS},
        characters=[("Brunhilda", HERO | {"xp": 5}), ("Zbyszko", HERO)],
        npcs=[("Troll", [])],
    ),
]

VIEWERS = ("gm", "player", "other", "outsider", "anonymous")
LOGIN = 302  # an anonymous visitor is sent to the login page
HX_LOGIN = 200  # and an htmx request is told to send the whole page there (HX-Redirect)
_ = None  # not this table's question: the feature's own tests say what that viewer gets
HX = {"HTTP_HX_REQUEST": "true"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
KEY = object()  # a fresh idempotency key for each request


@dataclass(frozen=True)
class Row:
    """``name`` reversed with ``args`` (attributes of the world, e.g. ``foreign.session``, or
    literal values), asked with ``method``: the status each viewer gets, in ``VIEWERS`` order.
    ``data``: the form posted (or the query string of a GET); ``path``: added to the URL."""

    name: str
    args: str
    method: str
    statuses: tuple
    data: dict | None = None
    headers: dict | None = None
    path: str = ""

    def __str__(self) -> str:
        sent = f" ({', '.join(self.data)})" if self.data else ""
        return f"{self.method.upper()} {self.name} {self.args}{self.path}{sent}".replace("  ", " ")


def row(name, args, method, *statuses, data=None, headers=None, path=""):
    return Row(name, args, method, statuses, data, headers, path)


GET, POST = "get", "post"
ARMOR = {"armor": "5"}
COUNTER = {"chosen": FALL, "text": "x", "key": KEY}
PICK = {"chosen": [FALL], "own": "", "key": KEY}

# fmt: off
MATRIX = [
    # The campaign and its people.                             gm   player other outsider anonymous
    row("campaign_detail", "campaign", GET,                    200, 200, 200, 404, LOGIN),
    row("campaign_detail", "9999", GET,                        404, 404, 404, 404, LOGIN),
    row("campaign_settings", "campaign", GET,                  200, 404, 404, 404, LOGIN),
    row("campaign_sessions", "campaign", GET,                  200, 200, 200, 404, LOGIN),
    row("invite_regenerate", "campaign", GET,                  405, 405, 405, 405, 405),
    row("invite_regenerate", "campaign", POST,                 _, 404, 404, 404, LOGIN),
    row("invite_revoke", "campaign", GET,                      405, 405, 405, 405, 405),
    row("invite_revoke", "campaign", POST,                     _, 404, 404, 404, LOGIN),
    row("member_remove", "campaign player", GET,               200, 404, 404, 404, LOGIN),
    row("member_remove", "campaign outsider", POST,            404, 404, 404, 404, LOGIN),
    row("campaign_leave", "campaign", GET,                     404, 200, 200, 404, LOGIN),
    # The session: its log, side, statistics and exports; its course is the GM's.
    row("session_log", "campaign", GET,                        200, 200, 200, 404, LOGIN),
    row("session_detail", "campaign session", GET,             200, 200, 200, 404, LOGIN),
    row("session_detail", "campaign foreign.session", GET,     404, 404, 404, 404, LOGIN),
    row("session_detail", "campaign session", GET,             404, 404, 404, 404, 404,
        path="log.xml"),
    row("session_export", "campaign session json", GET,        200, 200, 200, 404, LOGIN),
    row("session_export", "campaign session csv", GET,         200, 200, 200, 404, LOGIN),
    row("session_side", "campaign session", GET,               200, 200, 200, 404, HX_LOGIN,
        headers=HX),
    row("session_side", "campaign foreign.session", GET,       404, 404, 404, 404, LOGIN),
    row("session_stats", "campaign session", GET,              200, 200, 200, 404, LOGIN),
    row("session_stats", "campaign foreign.session", GET,      404, 404, 404, 404, LOGIN),
    row("session_recap", "campaign session", GET,              200, 200, 200, 404, LOGIN),
    row("session_recap", "campaign foreign.session", GET,      404, 404, 404, 404, LOGIN),
    row("session_recap", "campaign session", POST,             405, 405, 405, 405, 405),
    row("session_recap_part", "campaign session", GET,         200, 200, 200, 404, HX_LOGIN,
        headers=HX),
    row("session_recap_part", "campaign foreign.session", GET, 404, 404, 404, 404, LOGIN),
    row("session_recap_export", "campaign session", GET,       200, 200, 200, 404, LOGIN),
    row("session_recap_export", "campaign foreign.session", GET, 404, 404, 404, 404, LOGIN),
    row("session_log_earlier", "campaign session", GET,        200, 200, 200, 404, HX_LOGIN,
        data={"before": 5}, headers=HX),
    row("session_log_earlier", "campaign foreign.session", GET, 404, 404, 404, 404, LOGIN,
        data={"before": 5}),
    row("session_start", "campaign", POST,                     _, 404, 404, 404, LOGIN),
    row("session_end", "campaign session", POST,               _, 404, 404, 404, LOGIN),
    row("scene_new", "campaign session", POST,                 _, 404, 404, 404, LOGIN),
    # The GM's dashboard, its parts and what the GM does from it.
    row("dashboard", "campaign", GET,                          200, 404, 404, 404, LOGIN),
    row("dashboard_meta", "campaign", GET,                     200, 404, 404, 404, HX_LOGIN,
        headers=HX),
    row("dashboard_party", "campaign", GET,                    200, 404, 404, 404, HX_LOGIN,
        headers=HX),
    row("dashboard_pending", "campaign", GET,                  200, 404, 404, 404, HX_LOGIN,
        headers=HX),
    row("dashboard_live", "campaign", GET,                     200, 404, 404, 404, LOGIN,
        data={"event": "table:entry"}),
    row("npc_roll_box", "campaign npc", GET,                   200, 404, 404, 404, HX_LOGIN,
        headers=HX),
    row("npc_roll", "campaign foreign.npc", POST,              404, 404, 404, 404, LOGIN,
        data={"chance": "5", "key": KEY}),
    row("turn_order", "campaign", GET,                         405, 405, 405, 405, 405),
    row("turn_next", "campaign", GET,                          405, 405, 405, 405, 405),
    row("round_next", "campaign", GET,                         405, 405, 405, 405, 405),
    row("turn_bar", "campaign", GET,                           200, 200, 200, 404, LOGIN),
    row("start_opposed", "campaign", GET,                      405, 405, 405, 405, 405),
    row("roll_options_box", "campaign", GET,                   200, 404, 404, 404, LOGIN),
    row("change_test", "campaign pending", POST,               _, 404, 404, 404, LOGIN,
        data={"op": "set_difficulty", "value": "5"}),
    row("counter_move", "campaign roll", POST,                 _, 404, 404, 404, LOGIN,
        data=COUNTER),
    row("counter_move", "foreign.campaign roll", POST,         404, 404, 404, 404, LOGIN,
        data=COUNTER),
    row("choose_options", "foreign.campaign roll", POST,       404, 404, 404, 404, LOGIN,
        data=COUNTER),
    row("caerbannog_npc_boost", "campaign roll", GET,          405, 405, 405, 405, 405),
    row("apply_wound", "campaign foreign.roll", POST,          404, 404, 404, 404, LOGIN,
        data={"player_weapon": "hand", "enemy_weapon": "hand"}),
    row("add_condition", "campaign foreign.hero", POST,        404, 404, 404, 404, LOGIN,
        data={"preset": "knocked_down"}),
    row("add_condition", "foreign.campaign hero", POST,        404, 404, 404, 404, LOGIN,
        data={"preset": "knocked_down"}),
    # FastTest has no group tests; a group test's actions refuse all but a POST before looking.
    row("group_test", "campaign", GET,                         404, 404, 404, 404, LOGIN),
    row("group_offer", "campaign 1", GET,                      405, 405, 405, 405, 405),
    row("group_answer", "campaign 1", GET,                     405, 405, 405, 405, 405),
    row("group_withdraw", "campaign 1", GET,                   405, 405, 405, 405, 405),
    # A character's test panel and what follows a roll: the owner's and the GM's alone (409:
    # past the door, the rules offer nothing of the kind after this roll).
    row("test_panel", "campaign hero", GET,                    200, 200, 404, 404, LOGIN),
    row("test_panel", "campaign rival", GET,                   200, 404, 200, 404, LOGIN),
    row("test_follow_up", "campaign hero roll reroll", POST,   409, 409, 404, 404, LOGIN,
        data={"key": KEY, "die": ["4"]}),
    row("test_follow_up", "campaign hero roll boost", POST,    409, 409, 404, 404, LOGIN,
        data={"key": KEY}),
    row("test_options", "campaign hero roll", POST,            409, 409, 404, 404, HX_LOGIN,
        data=PICK, headers=HX),
    row("test_options", "campaign rival roll", POST,           404, 404, 404, 404, LOGIN,
        data=PICK),
    # What every member reaches at the table.
    row("my_calls", "campaign", GET,                           200, 200, 200, 404, LOGIN),
    row("quick_roll", "campaign", GET,                         405, 405, 405, 405, LOGIN),
    row("quick_roll", "campaign", POST,                        _, _, _, 404, HX_LOGIN,
        data={"expression": "2d6+3", "key": KEY, "nonce": "page-nonce"}, headers=HX),
    row("random_table_edit", "campaign foreign.random_table", GET, 404, 404, 404, 404, LOGIN),
    row("random_table_roll", "campaign foreign.random_table", POST, 404, 404, 404, 404, LOGIN,
        data={"key": KEY, "visibility": "public"}),
    # The GM's NPCs: the players read the list.
    row("npc_list", "campaign", GET,                           200, 200, 200, 404, LOGIN),
    row("npc_quick_create", "campaign", GET,                   405, 405, 405, 405, 405),
    row("npc_quick_create", "campaign", POST,                  _, 404, 404, 404, LOGIN),
    row("npc_create", "campaign", GET,                         200, 404, 404, 404, LOGIN),
    row("npc_edit", "campaign npc", GET,                       200, 404, 404, 404, LOGIN),
    row("npc_reveal", "campaign npc", GET,                     405, 405, 405, 405, 405),
    row("npc_reveal", "campaign npc", POST,                    _, 404, 404, 404, LOGIN),
    row("npc_delete", "campaign npc", GET,                     200, 404, 404, 404, LOGIN),
    row("npc_delete", "campaign npc", POST,                    _, 404, 404, 404, LOGIN),
    # The sheets: the owner and the GM write, every member reads, nobody else reaches them.
    row("character_create", "campaign", GET,                   200, 200, 200, 404, LOGIN),
    row("character_create", "campaign", POST,                  _, _, _, 404, LOGIN, data=ARMOR),
    row("character_totals", "campaign", GET,                   405, 405, 405, 405, 405),
    row("character_totals", "campaign", POST,                  _, _, _, 404, LOGIN, data=ARMOR),
    row("character_import", "campaign", GET,                   200, 200, 200, 404, LOGIN),
    row("character_import", "campaign", POST,                  _, _, _, 404, LOGIN, data=ARMOR),
    row("character_import", "campaign", POST,                  _, _, _, 404, LOGIN,
        data={"json": json.dumps(document())}),
    row("character_detail", "campaign hero", GET,              200, 200, 200, 404, LOGIN),
    row("character_detail", "campaign hero", POST,             405, 405, 405, 405, 405),
    row("character_detail", "foreign.campaign hero", GET,      404, 404, 404, 404, LOGIN),
    row("character_paper", "campaign hero", GET,               200, 200, 200, 404, LOGIN),
    row("character_paper", "foreign.campaign hero", GET,       404, 404, 404, 404, LOGIN),
    row("character_export", "campaign hero", GET,              200, 200, 200, 404, LOGIN),
    row("character_delete", "campaign hero", GET,              200, 200, 404, 404, LOGIN),
    row("character_delete", "campaign hero", POST,             _, _, 404, 404, LOGIN, data=ARMOR),
    row("character_section", "campaign hero armor", GET,       302, 302, 404, 404, LOGIN),
    row("character_section", "campaign hero armor", GET,       200, 200, 200, 404, LOGIN,
        data={"view": 1}),
    row("character_section", "campaign hero armor", POST,      _, _, 404, 404, LOGIN, data=ARMOR),
    row("character_section", "campaign hero wounds", GET,      200, 200, 200, 404, HX_LOGIN,
        data={"view": 1}, headers=HX),
    row("character_section", "campaign hero inventory", POST,  404, 404, 404, 404, LOGIN,
        data={"x": "1"}),
    row("character_wound_add", "campaign hero", GET,           405, 405, 405, 405, 405),
    row("character_wound_add", "campaign hero", POST,          _, _, 404, 404, LOGIN, data=ARMOR),
    row("character_wound_change", "campaign hero 0", POST,     400, 400, 404, 404, LOGIN,
        data=ARMOR),
    row("character_develop", "campaign hero", POST,            _, _, 404, 404, HX_LOGIN,
        data={"trait": "0"}, headers=HX),
    # The rules pages are everyone's, to read.
    row("rules_index", "", GET,                                200, 200, 200, 200, 200, headers=EN),
    row("rules", "caerbannog", GET,                            200, 200, 200, 200, 200, headers=EN),
    row("rules", "chess", GET,                                 404, 404, 404, 404, 404, headers=EN),
    row("rules", "ast", POST,                                  405, 405, 405, 405, 405),
]
# fmt: on


@dataclass
class World:
    campaign: object
    session: object
    hero: object
    rival: object  # the other player's character
    npc: object
    roll: object
    random_table: object
    pending: object  # a test the GM called on the hero
    foreign: World | None = None
    player: object = None
    outsider: object = None


def random_table(campaign) -> RandomTable:
    rows = [[1, 3, "a gust of wind"], [4, 5, "rain"], [6, 6, "a clear sky"]]
    return RandomTable.objects.create(campaign=campaign, name="Weather", dice="1d6", rows=rows)


def world_of(table) -> World:
    campaign, session, hero = table.campaign, table.session, table.hero
    roll = rolled(session, hero, "no")
    rival = table.characters[1] if len(table.characters) > 1 else None
    target = {"attribute": "BUDOWA"}
    pending = call_test(session=session, character=hero, gm=table.gm, target=target)
    return World(campaign, session, hero, rival, table.npc, roll, random_table(campaign), pending)


@pytest.fixture
def world(table, make_table, player, other_player, outsider) -> World:
    foreign = make_table(name="Other", settings={"fasttest": SETTINGS},
                         characters=[("Brunhilda", HERO)], npcs=[("Troll", [])])  # fmt: skip
    make_table(gm=outsider, name="Outsider's own", players=(), characters=(), session=False)
    here = world_of(table)
    here.foreign, here.player, here.outsider = world_of(foreign), player, outsider
    return here


def resolve(world: World, token: str):
    """A world's attribute by its dotted path (its pk for a model), else the literal itself."""
    value = world
    for part in token.split("."):
        if not hasattr(value, part):
            return token
        value = getattr(value, part)
    return getattr(value, "pk", value)


def status_of(request, world: World, case: Row, viewer: str) -> int:
    client = Client()
    if viewer != "anonymous":
        client.force_login(request.getfixturevalue({"other": "other_player"}.get(viewer, viewer)))
    url = reverse(case.name, args=[resolve(world, token) for token in case.args.split()])
    data = {key: str(uuid.uuid4()) if value is KEY else value
            for key, value in (case.data or {}).items()}  # fmt: skip
    return getattr(client, case.method)(url + case.path, data, **(case.headers or {})).status_code


@pytest.mark.parametrize("case", MATRIX, ids=str)
def test_each_viewer_gets_the_status_of_the_matrix(request, world, case):
    """A row at a time: a refusal changes nothing, and a viewer the row leaves out (``_``) is not
    asked, so the viewers of a row share its world."""
    got = tuple(
        _ if expected is _ else status_of(request, world, case, viewer)
        for viewer, expected in zip(VIEWERS, case.statuses, strict=True)
    )
    assert got == case.statuses
