"""A socket's place and a member's pages, whatever the page or the GM does (issue 23, 2 and 3).

A page that closes at any step of its socket's life gives its place back (the lease every worker
counts, ``rolls.live.socket_slots``), even when the server was sending to it as it went and so never
heard its close; and a member who is removed, leaves, or whose campaign is deleted has every open
page of that table closed at once, hearing nothing more of it.
"""

from __future__ import annotations

import asyncio
import os
import time

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from campaigns.models import Campaign
from config.asgi import application
from rolls.live import consumers, socket_slots
from tests.web.live import close_code, connected, roll, socket_for

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.table(title="Noc pierwsza"),
]


def places_of(user) -> int:
    return socket_slots.counts([f"user:{user.pk}"])[f"user:{user.pk}"]


class GoneAt:
    """The server's side of a page that went away: the ``n``-th send to it raises, as uvicorn's
    does (``ClientDisconnected``, an ``OSError``), and no ``websocket.disconnect`` ever comes."""

    def __init__(self, n: int, frames: list[str]) -> None:
        self.n, self.sent = n, 0
        self.incoming: asyncio.Queue = asyncio.Queue()
        self.incoming.put_nowait({"type": "websocket.connect"})
        for frame in frames:
            self.incoming.put_nowait({"type": "websocket.receive", "text": frame})

    async def receive(self) -> dict:
        return await self.incoming.get()

    async def send(self, message: dict) -> None:
        self.sent += 1
        if self.sent >= self.n:
            raise OSError("the page went away")


async def a_page_gone_at(n: int, user, campaign, frames: list[str]) -> None:
    """Run one socket to its end against a page that goes away at its ``n``-th send."""
    scope = (await sync_to_async(socket_for)(user, campaign)).scope
    page = GoneAt(n, frames)
    await asyncio.wait_for(application(scope, page.receive, page.send), timeout=5)


def since(session, seq: int = 0) -> str:
    return consumers.json.dumps({"type": "since", "session": session.pk, "seq": seq})


@pytest.mark.parametrize(
    "gone_at",
    [1, 2, 3],
    ids=["while it is accepted", "while its first answer is sent", "while its replay is sent"],
)
async def test_a_page_that_goes_away_while_the_server_sends_gives_its_place_back(
    table, player, gone_at
):
    for _ in range(3):
        await sync_to_async(roll)(table.session, player)
    await a_page_gone_at(gone_at, player, table.campaign, [since(table.session)])
    assert await sync_to_async(places_of)(player) == 0


def renewals_waiting() -> list:
    """The sockets' lease renewals the loop will run (timers: rolls.live.consumers)."""
    # The loop's own list of timers (private, as no public one exists): a test may look.
    scheduled = asyncio.get_running_loop()._scheduled
    return [h for h in scheduled if not h.cancelled() and "_renew_now" in repr(h._callback)]


async def test_a_page_gone_while_its_pong_is_sent_stops_renewing_its_place(table, player):
    before = {task for task in asyncio.all_tasks()}
    await a_page_gone_at(2, player, table.campaign, ['{"type": "ping"}'])
    left = [task for task in asyncio.all_tasks() - before if not task.done()]
    assert [task for task in left if "_renew_lease" in repr(task.get_coro())] == []
    assert renewals_waiting() == []


async def test_an_open_page_waits_to_renew_its_place(table, player):
    socket = await connected(player, table.campaign)
    assert len(renewals_waiting()) == 1
    await socket.disconnect()
    assert renewals_waiting() == []


@pytest.fixture(params=["the process's cache", pytest.param("Redis", marks=pytest.mark.redis)])
def shared_cache(request, settings):
    """The cache every worker counts sockets in: the embedded one's, or the scale-out's Redis."""
    if request.param == "Redis":
        settings.CACHES = {
            "default": {
                "BACKEND": "config.overrides.cache.SharedPoolRedisCache",
                "LOCATION": request.getfixturevalue("redis_url"),
                "KEY_PREFIX": f"table-hostile-sockets-{os.getpid()}-{time.time_ns()}",
            }
        }
    return request.param


async def test_twenty_pages_gone_mid_answer_leave_the_user_room_for_another(
    table, player, settings, shared_cache
):
    settings.SOCKETS_PER_USER = 20
    for _ in range(20):
        await a_page_gone_at(2, player, table.campaign, ['{"type": "ping"}'])
    assert await sync_to_async(places_of)(player) == 0
    socket = await sync_to_async(socket_for)(player, table.campaign)
    connected, _ = await socket.connect()
    assert connected
    await socket.send_json_to({"type": "ping"})
    assert await socket.receive_json_from(timeout=3) == {"type": "pong"}
    await socket.disconnect()


# A member who is no longer one ----------------------------------------------------------------


async def synced_socket(user, campaign, session):
    socket = await sync_to_async(socket_for)(user, campaign)
    connected, _ = await socket.connect()
    assert connected
    await socket.send_json_to({"type": "since", "session": session.pk, "seq": 0})
    while (await socket.receive_json_from(timeout=3))["type"] != "synced":
        pass
    return socket


def post_as(user, url: str) -> int:
    client = Client()
    client.force_login(user)
    return client.post(url).status_code


async def test_a_removed_players_open_page_is_closed_at_once(table, gm, player):
    socket = await synced_socket(player, table.campaign, table.session)
    url = reverse("member_remove", args=[table.campaign.pk, player.pk])
    assert await sync_to_async(post_as)(gm, url) == 302
    assert await close_code(socket) == consumers.CLOSE_NOT_A_MEMBER


async def test_a_removed_player_hears_no_roll_made_after(table, gm, player, other_player):
    socket = await synced_socket(player, table.campaign, table.session)
    url = reverse("member_remove", args=[table.campaign.pk, player.pk])
    await sync_to_async(post_as)(gm, url)
    await sync_to_async(roll)(table.session, other_player)
    heard = []
    while (message := await socket.receive_output(timeout=3))["type"] != "websocket.close":
        heard.append(message)
    assert heard == []


async def test_a_removed_players_place_is_given_back(table, gm, player):
    socket = await synced_socket(player, table.campaign, table.session)
    url = reverse("member_remove", args=[table.campaign.pk, player.pk])
    await sync_to_async(post_as)(gm, url)
    await close_code(socket)
    assert await sync_to_async(places_of)(player) == 0


async def test_a_player_who_leaves_has_their_open_page_closed(table, player):
    socket = await synced_socket(player, table.campaign, table.session)
    url = reverse("campaign_leave", args=[table.campaign.pk])
    assert await sync_to_async(post_as)(player, url) == 302
    assert await close_code(socket) == consumers.CLOSE_NOT_A_MEMBER


async def test_a_deleted_campaign_closes_every_page_of_its_table(table, gm, player):
    pages = [await synced_socket(user, table.campaign, table.session) for user in (gm, player)]
    await sync_to_async(Campaign.objects.filter(pk=table.campaign.pk).delete)()
    assert [await close_code(page) for page in pages] == [consumers.CLOSE_NOT_A_MEMBER] * 2


async def test_a_removed_player_keeps_their_pages_of_another_table(
    table, make_table, gm, player, other_player
):
    other_table = await sync_to_async(make_table)(name="Drugi stół", title="Noc druga")
    elsewhere = await synced_socket(player, other_table.campaign, other_table.session)
    here = await synced_socket(player, table.campaign, table.session)
    await sync_to_async(post_as)(gm, reverse("member_remove", args=[table.campaign.pk, player.pk]))
    await close_code(here)
    await elsewhere.send_json_to({"type": "ping"})
    assert await elsewhere.receive_json_from(timeout=3) == {"type": "pong"}
    await elsewhere.disconnect()
