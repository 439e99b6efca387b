"""A page's socket lives no longer than the login it opened with: a logout closes that browser's
pages, a password set or an account made inactive closes all the user's pages, and a login that
ended without a word (a session expired or deleted) is found at the socket's next renewal. Each
close is 4401, which the page reads as "logged out" (static/js/table.js)."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from campaigns.live import session_of
from config.asgi import application
from rolls.live import consumers
from tests.web.live import close_code, roll, socket_for, sync

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.table(title="Noc pierwsza"),
]
PASSWORD = "a long enough password 1"


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def page_of(client: Client, campaign) -> WebsocketCommunicator:
    """A socket opened by a page of the browser whose login ``client`` holds."""
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    return WebsocketCommunicator(
        application,
        f"/ws/campaigns/{campaign.pk}/",
        headers=[(b"host", b"localhost"), (b"origin", b"http://localhost"), (b"cookie", cookie)],
    )


async def opened(client: Client, campaign) -> WebsocketCommunicator:
    socket = page_of(client, campaign)
    connected, _ = await socket.connect()
    assert connected
    assert await still_live(socket)  # accepted as a member, not only to be closed
    return socket


async def still_live(socket) -> bool:
    await socket.send_json_to({"type": "ping"})
    return (await socket.receive_json_from(timeout=3)) == {"type": "pong"}


async def test_a_page_without_a_login_is_accepted_only_to_be_told_so(table):
    socket = await sync_to_async(socket_for)(None, table.campaign)
    connected, _ = await socket.connect()
    assert connected  # so that the page can read the code, not a bare 1006
    assert await close_code(socket) == consumers.CLOSE_LOGGED_OUT


async def test_logging_out_closes_that_browsers_pages_and_no_other(table, player):
    here, elsewhere = await sync_to_async(logged_in)(player), await sync_to_async(logged_in)(player)
    pages = [await opened(here, table.campaign) for _ in range(2)]
    other = await opened(elsewhere, table.campaign)
    await sync_to_async(here.post)(reverse("logout"))
    assert [await close_code(page) for page in pages] == [consumers.CLOSE_LOGGED_OUT] * 2
    assert await still_live(other)
    await other.disconnect()


async def test_a_page_closed_by_a_logout_hears_no_roll_made_after_it(table, player, gm):
    here = await sync_to_async(logged_in)(player)
    page = await opened(here, table.campaign)
    await sync(page, table.session)
    await sync_to_async(here.post)(reverse("logout"))
    await sync_to_async(roll)(table.session, gm)
    assert await close_code(page) == consumers.CLOSE_LOGGED_OUT
    assert await page.receive_nothing(timeout=0.3)


async def test_a_changed_password_closes_every_page_and_this_browser_connects_again(table, player):
    await sync_to_async(player.set_password)("pw")
    await sync_to_async(player.save)()
    here, elsewhere = await sync_to_async(logged_in)(player), await sync_to_async(logged_in)(player)
    mine, theirs = await opened(here, table.campaign), await opened(elsewhere, table.campaign)
    form = {"old_password": "pw", "new_password1": PASSWORD, "new_password2": PASSWORD}
    answer = await sync_to_async(here.post)(reverse("password_change"), form)
    assert answer.status_code == 302
    assert await close_code(mine) == consumers.CLOSE_LOGGED_OUT
    assert await close_code(theirs) == consumers.CLOSE_LOGGED_OUT
    # The browser that changed it holds the new login: its page connects again.
    again = await opened(here, table.campaign)
    assert await still_live(again)
    await again.disconnect()
    # The other browser's login has ended, as it has over HTTP.
    refused = page_of(elsewhere, table.campaign)
    await refused.connect()
    assert await close_code(refused) == consumers.CLOSE_LOGGED_OUT


async def test_an_account_made_inactive_has_its_pages_closed(table, player):
    page = await opened(await sync_to_async(logged_in)(player), table.campaign)
    player.is_active = False
    await sync_to_async(player.save)()
    assert await close_code(page) == consumers.CLOSE_LOGGED_OUT


async def test_a_save_that_changes_no_login_leaves_the_pages_open(table, player):
    page = await opened(await sync_to_async(logged_in)(player), table.campaign)
    player.first_name = "Ala"
    await sync_to_async(player.save)()
    assert await still_live(page)
    await page.disconnect()


async def test_a_session_ended_without_a_word_closes_the_page_at_its_next_renewal(
    table, player, settings
):
    settings.SOCKET_LEASE_SECONDS = 1  # a renewal within 1.5 s
    client = await sync_to_async(logged_in)(player)
    page = await opened(client, table.campaign)
    # As an expiry or an admin's clean-up would: the session is simply gone.
    await sync_to_async(session_of(client.cookies["sessionid"].value).delete)()
    assert await close_code(page) == consumers.CLOSE_LOGGED_OUT


async def test_a_page_whose_login_holds_stays_open_past_its_renewals(table, player, settings):
    settings.SOCKET_LEASE_SECONDS = 1
    page = await opened(await sync_to_async(logged_in)(player), table.campaign)
    assert await page.receive_nothing(timeout=2.5)  # two renewals, at least
    assert await still_live(page)
    await page.disconnect()
