"""The sealed opponent's roll of a Caerbannog opposed test on the table's websocket (issue 25
item 4): its live frame and its replay are whole only for the GM and the opponent's player
until the initiator settles; then every page showing it redacted gets it whole."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from rolls.models import OpposedTest
from tests.web.live import connected, frame_of, socket_for, sync
from tests.web.test_opposed import caerbannog_duel, duel, roll_side
from tests.web.test_opposed_settle import settle
from tests.web.test_panel_caerbannog import SHEET

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    # make_table copies each sheet: the two are not one dict.
    pytest.mark.table(
        **duel("caerbannog", SHEET, SHEET), players=["player", "other_player", "another"]
    ),
]

WAITS = "has rolled their side of the opposed test"


@pytest.fixture
def another(make_user):
    return make_user("another")


@pytest.fixture
def people(gm, player, other_player, another):
    return {"initiator": player, "opponent": other_player, "another": another, "gm": gm}


SEES_IT_SEALED = {"initiator": False, "opponent": True, "another": False, "gm": True}


def whole(frame: dict) -> bool:
    return "entry-redacted" not in frame["html"]


@sync_to_async
def start_and_roll_both(table, gm, player, other_player, dice) -> OpposedTest:
    client = Client()
    opposed = caerbannog_duel(client, gm, table)
    dice(4, 2, 9)
    roll_side(client, player, opposed.initiator)
    dice(7, 1, 8)
    roll_side(client, other_player, opposed.opponent)
    return OpposedTest.objects.get(pk=opposed.pk)


@sync_to_async
def settled_by_initiator(opposed, player) -> None:
    settle(Client(), player, opposed, "a")


@pytest.mark.parametrize("who", ["initiator", "opponent", "another", "gm"])
async def test_the_live_frame_of_the_sealed_roll_is_whole_only_for_the_gm_and_its_player(
    table, people, gm, player, other_player, dice, who
):
    socket = await connected(people[who], table.campaign)
    await sync(socket, table.session)
    await start_and_roll_both(table, gm, player, other_player, dice)
    frame = await frame_of(socket, "entry", 2)
    assert whole(frame) is SEES_IT_SEALED[who]
    assert (WAITS in frame["html"]) is not SEES_IT_SEALED[who]
    await socket.disconnect()


@pytest.mark.parametrize("who", ["initiator", "opponent", "another", "gm"])
async def test_the_replay_of_the_sealed_roll_is_whole_only_for_the_gm_and_its_player(
    table, people, gm, player, other_player, dice, who
):
    await start_and_roll_both(table, gm, player, other_player, dice)
    socket = await connected(people[who], table.campaign)
    frames = await sync(socket, table.session)
    assert whole(next(f for f in frames if f["seq"] == 2)) is SEES_IT_SEALED[who]
    await socket.disconnect()


@pytest.mark.parametrize("who", ["initiator", "another"])
async def test_once_the_initiator_settles_a_page_showing_it_sealed_gets_it_whole(
    table, people, gm, player, other_player, dice, who
):
    socket = await connected(people[who], table.campaign)
    await sync(socket, table.session)
    opposed = await start_and_roll_both(table, gm, player, other_player, dice)
    await frame_of(socket, "entry", 2)
    await settled_by_initiator(opposed, player)
    frame = await frame_of(socket, "reveal", 2)
    assert whole(frame)
    assert "data-face" in frame["html"]
    await socket.disconnect()


async def test_a_page_that_reconnects_after_the_reveal_replays_it_whole(
    table, people, gm, player, other_player, dice
):
    opposed = await start_and_roll_both(table, gm, player, other_player, dice)
    socket = await connected(people["another"], table.campaign)
    assert not whole(next(f for f in await sync(socket, table.session) if f["seq"] == 2))
    await socket.disconnect()
    await settled_by_initiator(opposed, player)
    socket = await connected(people["another"], table.campaign)
    assert whole(next(f for f in await sync(socket, table.session) if f["seq"] == 2))
    await socket.disconnect()


async def test_an_outsider_cannot_join_the_table_to_hear_it(table, outsider):
    socket = await sync_to_async(socket_for)(outsider, table.campaign)
    ok, _ = await socket.connect()
    assert not ok
