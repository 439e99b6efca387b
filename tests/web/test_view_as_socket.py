"""The socket of the GM's read-only view of a player's table (rolls/live/view_as.py): it reads
the table with the player's eyes, frame for frame what the player's own page gets, while its
login is the GM's; only the campaign's GM opens it, on one of its players; it seats nobody."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from campaigns.models import Membership
from config.asgi import application
from rolls.live import consumers, presence
from rolls.pending import actions as pending
from tests.web.live import close_code, roll, socket_for, sync
from tests.web.test_hostile_whispers import say
from tests.web.test_panel_fasttest import SHEET

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.table(name="Zarith", characters=[("Brunhilda", SHEET), ("Gunnar", SHEET)]),
]


def view_of(gm, table, player, path: str = ""):
    c = table.campaign
    return socket_for(gm, c, path=path or f"/ws/view/{c.pk}/{player.pk}/")


async def refused(socket) -> int:
    """The code the socket is closed with: at the handshake (a stranger), or after it."""
    connected, code = await socket.connect()
    return await close_code(socket) if connected else code


async def opened(socket):
    connected, _ = await socket.connect()
    assert connected
    await socket.send_json_to({"type": "ping"})
    assert await socket.receive_json_from(timeout=3) == {"type": "pong"}
    return socket


def _evening(table, gm, player, other_player) -> None:
    session, master = table.session, table.client(gm)
    roll(session, player, character=table.hero)
    roll(session, gm, "hidden")
    roll(session, other_player, "secret", character=table.characters[1])
    say(master, table.campaign, "Szept-do-Brunhildy", to=f"u{player.pk}")
    say(master, table.campaign, "Szept-do-Gunnara", to=f"u{other_player.pk}")


async def test_the_views_replay_is_the_players_own(table, gm, player, other_player):
    await sync_to_async(_evening)(table, gm, player, other_player)
    own = await opened(await sync_to_async(socket_for)(player, table.campaign))
    view = await opened(await sync_to_async(view_of)(gm, table, player))
    mine, seen = await sync(own, table.session), await sync(view, table.session)
    assert [frame["seq"] for frame in seen] == [1, 2, 3, 4]  # the whisper to Gunnar: none
    assert seen == mine
    await own.disconnect()
    await view.disconnect()


async def test_a_live_entry_reaches_the_view_as_it_reaches_the_player(
    table, gm, player, other_player
):
    own = await opened(await sync_to_async(socket_for)(player, table.campaign))
    view = await opened(await sync_to_async(view_of)(gm, table, player))
    await sync(own, table.session)
    await sync(view, table.session)
    await sync_to_async(roll)(table.session, gm, "hidden")
    await sync_to_async(roll)(table.session, other_player, character=table.characters[1])
    for _entry in range(2):
        assert await view.receive_json_from(timeout=3) == await own.receive_json_from(timeout=3)
    await own.disconnect()
    await view.disconnect()


async def test_a_call_to_the_player_reaches_the_view_and_one_to_another_does_not(table, gm, player):
    view = await opened(await sync_to_async(view_of)(gm, table, player))
    await sync(view, table.session)
    other, hero = table.characters[1], table.hero
    target = {"attribute": "ZRĘCZNOŚĆ", "skill": []}
    await sync_to_async(pending.call_test)(
        session=table.session, character=other, gm=gm, target=target
    )
    await sync_to_async(pending.call_test)(
        session=table.session, character=hero, gm=gm, target=target
    )
    frame = await view.receive_json_from(timeout=3)
    assert (frame["type"], frame["character"]) == ("pending", hero.pk)
    assert "user" not in frame
    assert await view.receive_nothing(timeout=0.2)
    await view.disconnect()


async def test_a_player_cannot_open_the_view_of_anyone(table, gm, player, other_player):
    for viewed in (player, other_player, gm):
        socket = await sync_to_async(view_of)(player, table, viewed)
        assert await refused(socket) == consumers.CLOSE_NOT_A_MEMBER


async def test_the_gm_cannot_open_the_view_as_the_gm(table, gm):
    socket = await sync_to_async(view_of)(gm, table, gm)
    assert await refused(socket) == consumers.CLOSE_NOT_A_MEMBER


async def test_a_gm_cannot_open_the_view_of_another_tables_player(table, gm, make_table, make_user):
    stranger = await sync_to_async(make_user)("stranger")
    elsewhere = await sync_to_async(make_table)(
        gm=await sync_to_async(make_user)("gm2"), players=[stranger], characters=()
    )
    c = elsewhere.campaign.pk
    for path in (f"/ws/view/{c}/{stranger.pk}/", f"/ws/view/{table.campaign.pk}/{stranger.pk}/"):
        socket = await sync_to_async(view_of)(gm, table, stranger, path)
        assert await refused(socket) == consumers.CLOSE_NOT_A_MEMBER


async def test_a_visitor_cannot_open_the_view(table, player):
    socket = await sync_to_async(view_of)(None, table, player)
    assert await refused(socket) == consumers.CLOSE_LOGGED_OUT


async def test_the_view_seats_nobody_at_the_table(table, gm, player):
    c = table.campaign
    view = await opened(await sync_to_async(view_of)(gm, table, player))
    here = await sync_to_async(presence.people)(c)
    await view.disconnect()
    after = await sync_to_async(presence.people)(c)
    assert here["people"] == after["people"] == []


async def test_the_view_takes_no_frame_but_since_and_ping(table, gm, player):
    view = await opened(await sync_to_async(view_of)(gm, table, player))
    await view.send_json_to({"type": "roll", "attribute": "BUDOWA"})
    assert (await view.receive_json_from(timeout=3))["type"] == "error"
    await view.disconnect()


async def test_the_gms_logout_closes_the_view_and_the_players_does_not(table, gm, player):
    gms, players = Client(), Client()
    await sync_to_async(gms.force_login)(gm)
    await sync_to_async(players.force_login)(player)

    def page(client):
        cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
        return WebsocketCommunicator(
            application,
            f"/ws/view/{table.campaign.pk}/{player.pk}/",
            headers=[
                (b"host", b"localhost"),
                (b"origin", b"http://localhost"),
                (b"cookie", cookie),
            ],
        )

    view = await opened(page(gms))
    await sync_to_async(players.post)(reverse("logout"))
    await view.send_json_to({"type": "ping"})
    assert await view.receive_json_from(timeout=3) == {"type": "pong"}
    await sync_to_async(gms.post)(reverse("logout"))
    assert await close_code(view) == consumers.CLOSE_LOGGED_OUT


async def test_the_players_removal_closes_the_view(table, gm, player):
    view = await opened(await sync_to_async(view_of)(gm, table, player))
    await sync_to_async(Membership.objects.filter(campaign=table.campaign, user=player).delete)()
    assert await close_code(view) == consumers.CLOSE_NOT_A_MEMBER
