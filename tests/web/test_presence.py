"""Who is at the table: the members with a page of it open, live, from the sockets' leases."""

from __future__ import annotations

import re
import time

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import translation

from campaigns.models import Membership
from config.asgi import application
from rolls.live import consumers, presence
from sheets.models import Character
from tests.web.test_panel_fasttest import SHEET

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.table(title="Noc pierwsza"),
]


@pytest.fixture(autouse=True)
def _fresh_cache():
    # The test database reuses ids: a lease or a "left" of an earlier test must not count here.
    cache.clear()
    yield
    cache.clear()


def page_socket(user, campaign, lang: str = "en", shows_presence: bool = True):
    """A socket as a page with the log opens it (``presence=1``: the page shows the list)."""
    client = Client()
    client.force_login(user)
    query = f"lang={lang}" + ("&presence=1" if shows_presence else "")
    return WebsocketCommunicator(
        application,
        f"/ws/campaigns/{campaign.pk}/?{query}",
        headers=[
            (b"host", b"localhost"),
            (b"origin", b"http://localhost"),
            (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()),
        ],
    )


async def opened(user, campaign, **kwargs):
    socket = await sync_to_async(page_socket)(user, campaign, **kwargs)
    ok, _ = await socket.connect()
    assert ok
    return socket


async def next_presence(socket) -> dict:
    while True:
        message = await socket.receive_json_from(timeout=3)
        if message["type"] == "presence":
            return message


async def settled_presence(socket) -> dict:
    """The last presence frame once no more are on their way."""
    message = await next_presence(socket)
    while not await socket.receive_nothing(timeout=0.3):
        frame = await socket.receive_json_from(timeout=3)
        if frame["type"] == "presence":
            message = frame
    return message


async def people(campaign, **kwargs) -> dict[str, dict]:
    found = await sync_to_async(presence.people)(campaign, **kwargs)
    return {person["name"]: person for person in found["people"]}


async def test_a_member_who_opens_a_page_is_listed_as_here_with_their_character(table, player):
    campaign = table.campaign
    socket = await opened(player, campaign)
    message = await next_presence(socket)
    assert 'data-presence-state="here"' in message["html"]
    assert "player" in message["html"]
    assert "Brunhilda" in message["html"]
    listed = await people(campaign)
    assert list(listed) == ["player"]
    assert listed["player"]["characters"] == ["Brunhilda"]
    assert (listed["player"]["state"], listed["player"]["away_in"]) == ("here", None)
    await socket.disconnect()


async def test_every_page_of_the_table_hears_a_player_arrive(table, gm, player):
    campaign = table.campaign
    watching = await opened(gm, campaign)
    await settled_presence(watching)
    arriving = await opened(player, campaign)
    message = await next_presence(watching)
    assert "Brunhilda" in message["html"]
    assert message["html"].count("data-presence-user=") == 2
    await arriving.disconnect()
    await watching.disconnect()


async def test_a_player_who_closes_their_page_stays_here_for_the_grace_then_shows_away(
    table, gm, player, settings
):
    settings.PRESENCE_GRACE_SECONDS, settings.PRESENCE_AWAY_SECONDS = 15, 600
    campaign = table.campaign
    watching = await opened(gm, campaign)
    leaving = await opened(player, campaign)
    await settled_presence(watching)
    before = time.time()
    await leaving.disconnect()
    message = await next_presence(watching)
    assert 'data-away-in="' in message["html"]  # the page turns them away by itself
    right_after = (await people(campaign))["player"]
    assert right_after["state"] == "here"
    assert 14 <= right_after["away_in"] <= 15
    assert right_after["gone_in"] > 590
    later = (await people(campaign, now=before + 16))["player"]
    assert (later["state"], later["away_in"]) == ("away", None)
    assert "player" not in await people(campaign, now=before + 601)
    await watching.disconnect()


async def test_an_away_player_who_comes_back_is_here_again(table, player, settings):
    settings.PRESENCE_GRACE_SECONDS = 0
    campaign = table.campaign
    socket = await opened(player, campaign)
    await socket.disconnect()
    assert (await people(campaign))["player"]["state"] == "away"
    again = await opened(player, campaign)
    message = await next_presence(again)
    assert 'data-presence-state="here"' in message["html"]
    assert (await people(campaign))["player"]["gone_in"] is None
    await again.disconnect()


async def test_two_pages_of_one_player_are_one_person(table, player):
    campaign = table.campaign
    first = await opened(player, campaign)
    second = await opened(player, campaign)
    message = await settled_presence(first)
    assert message["html"].count("data-presence-user=") == 1
    assert list(await people(campaign)) == ["player"]
    await second.disconnect()
    # One page still open: here, with no countdown to "away".
    message = await next_presence(first)
    assert "data-away-in" not in message["html"]
    assert (await people(campaign))["player"]["away_in"] is None
    await first.disconnect()


async def test_an_outsider_is_never_listed(table, gm, outsider):
    campaign = table.campaign
    watching = await opened(gm, campaign)
    await settled_presence(watching)
    refused = await sync_to_async(page_socket)(outsider, campaign)
    ok, code = await refused.connect()
    assert (ok, code) == (False, 4403)
    assert await watching.receive_nothing(timeout=0.3)  # nothing to announce
    assert list(await people(campaign)) == ["gm"]
    await watching.disconnect()


async def test_a_member_removed_from_the_table_drops_off_the_list(table, gm, player):
    campaign = table.campaign
    socket = await opened(player, campaign)
    await sync_to_async(Membership.objects.filter(campaign=campaign, user=player).delete)()
    assert "player" not in await people(campaign)
    await socket.disconnect()


async def test_another_tables_characters_are_not_shown(table, make_table, player, outsider):
    campaign = table.campaign
    other = await sync_to_async(make_table)(players=[player, outsider], title="Noc pierwsza")
    await sync_to_async(Character.objects.create)(
        campaign=other.campaign, owner=player, name="Obcy"
    )
    socket = await opened(player, campaign)
    assert (await people(campaign))["player"]["characters"] == ["Brunhilda"]
    assert "Obcy" not in (await next_presence(socket))["html"]
    await socket.disconnect()


async def test_the_gm_is_listed_first_and_marked(table, gm, player):
    campaign = table.campaign
    sockets = [await opened(player, campaign), await opened(gm, campaign)]
    found = await sync_to_async(presence.people)(campaign)
    assert [(p["name"], p["gm"]) for p in found["people"]] == [("gm", True), ("player", False)]
    message = await settled_presence(sockets[0])
    assert message["html"].index("gm") < message["html"].index("player")
    assert "(GM)" in message["html"]
    for socket in sockets:
        await socket.disconnect()


async def test_the_list_comes_in_the_pages_language(table, player):
    campaign = table.campaign
    socket = await opened(player, campaign, lang="pl")
    message = await next_presence(socket)
    assert ">jest</span>" in message["html"]
    assert ">here<" not in message["html"]
    await socket.disconnect()


async def test_a_client_that_shows_no_list_is_counted_but_sent_no_list(table, player):
    campaign = table.campaign
    socket = await opened(player, campaign, shows_presence=False)
    assert await socket.receive_nothing(timeout=0.3)
    assert (await people(campaign))["player"]["state"] == "here"
    await socket.disconnect()


async def test_the_gms_dashboard_lists_who_is_connected(table, gm, player):
    campaign, hero = table.campaign, table.hero
    hero.data = SHEET
    await sync_to_async(hero.save)()
    socket = await opened(player, campaign)
    client = Client()
    await sync_to_async(client.force_login)(gm)
    response = await sync_to_async(client.get)(reverse("dashboard", args=[campaign.pk]))
    html = response.content.decode()
    start = html.index("data-presence-list")
    listed = html[start : html.index("</ul>", start)]
    assert "player" in listed
    assert "Brunhilda" in listed
    assert "other" not in listed  # a member with no page open
    assert "aria-live" not in listed  # read where it is; only the page's one region speaks
    await socket.disconnect()


async def test_a_players_sheet_page_shows_the_list_in_the_logs_header(table, player):
    campaign, hero = table.campaign, table.hero
    client = Client()
    await sync_to_async(client.force_login)(player)
    socket = await opened(player, campaign)
    url = reverse("character_detail", args=[campaign.pk, hero.pk])
    html = (await sync_to_async(client.get)(url)).content.decode()
    assert html.index('id="roll-log-title"') < html.index('id="presence"')
    assert "At the table" in html
    await socket.disconnect()


async def test_a_polish_page_lists_in_polish_with_numbers_a_script_can_read(table, player, gm):
    campaign, hero = table.campaign, table.hero
    socket = await opened(gm, campaign)
    leaving = await opened(player, campaign)
    await leaving.disconnect()
    client = Client()
    await sync_to_async(client.force_login)(player)
    url = reverse("character_detail", args=[campaign.pk, hero.pk])
    html = (await sync_to_async(client.get)(url, HTTP_ACCEPT_LANGUAGE="pl")).content.decode()
    assert "Kto jest przy stole" in html
    assert re.search(r'data-presence-at="\d+\.\d+"', html)  # not "1764…,5": a decimal point
    assert re.search(r'data-away-in="\d+(\.\d+)?"', html)
    assert re.search(r'data-gone-in="\d+(\.\d+)?"', html)
    await socket.disconnect()


async def test_a_server_stopping_tells_no_page_each_one_it_closes_but_notes_the_time(
    table, gm, player, settings
):
    """A restart: uvicorn closes every page with 1012, and the pages come back within a second
    or so and say who is here then. Telling each of hundreds of pages that leave too of every
    other one only kept the server from stopping, for seconds."""
    settings.PRESENCE_GRACE_SECONDS = 15
    campaign = table.campaign
    staying = await opened(gm, campaign)
    stopped = await opened(player, campaign)
    await settled_presence(staying)
    await stopped.disconnect(code=consumers.SERVER_STOPPING)
    assert await staying.receive_nothing(timeout=0.5)
    assert 14 <= (await people(campaign))["player"]["away_in"] <= 15  # the grace, from now
    await staying.disconnect()


async def test_each_list_is_rendered_once_per_language_for_every_page_that_hears_it(
    table, gm, player, monkeypatch
):
    campaign = table.campaign
    watching = [
        await opened(gm, campaign),
        await opened(gm, campaign, lang="pl"),
        await opened(player, campaign),
    ]
    for socket in watching:
        await settled_presence(socket)
    rendered = []
    render = presence.render_to_string

    def counted(*args, **kwargs):
        rendered.append(translation.get_language())
        return render(*args, **kwargs)

    monkeypatch.setattr(presence, "render_to_string", counted)
    arriving = await opened(player, campaign)
    frames = [await next_presence(socket) for socket in [*watching, arriving]]
    assert sorted(rendered) == ["en", "pl"]
    assert frames[0] == frames[2] == frames[3]
    assert ">jest</span>" in frames[1]["html"]
    for socket in [*watching, arriving]:
        await socket.disconnect()


async def test_pages_that_open_together_are_told_who_is_here_once(
    table, gm, player, other_player, monkeypatch
):
    """A restart's returning pages (seven a table) each told every other page of the table,
    and read who was here again for it: now the table is told once, from one read."""
    monkeypatch.setattr(presence, "PRESENCE_GATHER_SECONDS", 2.0)  # the three opens fit in it
    reads = []
    read = presence.people_at
    monkeypatch.setattr(presence, "people_at", lambda *a, **k: reads.append(a) or read(*a, **k))
    campaign = table.campaign
    sockets = [await opened(user, campaign) for user in (gm, player, other_player)]
    message = await next_presence(sockets[0])
    assert all(name in message["html"] for name in ("gm", "player", "other"))
    assert await sockets[0].receive_nothing(timeout=0.5)
    assert len(reads) == 1
    for socket in sockets:
        await socket.disconnect()
