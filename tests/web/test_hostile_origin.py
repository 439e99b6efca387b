"""Which pages may open the table's websocket: this site's origin, scheme and port included
(issue 23, 7: another port or scheme of the same host passed)."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from config.asgi import application
from config.origins import origin_allowed

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.table(characters=())]


def opened(user, campaign, origin: bytes, host: bytes = b"localhost:8000", scheme="ws", also=()):
    client = Client()
    client.force_login(user)
    socket = WebsocketCommunicator(
        application,
        f"/ws/campaigns/{campaign.pk}/",
        headers=[
            (b"host", host),
            (b"origin", origin),
            *also,
            (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()),
        ],
    )
    socket.scope["scheme"] = scheme
    return socket


@pytest.mark.parametrize(
    ("origin", "scheme"),
    [
        (b"http://localhost:9000", "ws"),  # another port of the same host
        (b"https://localhost:8000", "ws"),  # another scheme
        (b"http://localhost:8000", "wss"),  # a page of http opening wss
        (b"http://localhost", "ws"),  # the default port is not 8000
        (b"http://evil.example:8000", "ws"),
        (b"null", "ws"),
        (b"", "ws"),
    ],
)
async def test_a_socket_from_another_origin_is_refused(table, player, origin, scheme):
    socket = await sync_to_async(opened)(player, table.campaign, origin, scheme=scheme)
    connected, _ = await socket.connect()
    assert not connected


async def test_a_socket_from_the_sites_own_origin_is_accepted(table, player):
    socket = await sync_to_async(opened)(player, table.campaign, b"http://localhost:8000")
    connected, _ = await socket.connect()
    assert connected
    await socket.disconnect()


@pytest.mark.parametrize(
    "origins",
    [(b"http://evil.example:8000", b"http://localhost:8000"),
     (b"http://localhost:8000", b"http://evil.example:8000")],
    ids=["the site's own last", "the site's own first"],
)  # fmt: skip
async def test_a_socket_sent_with_two_origins_is_refused(table, player, origins):
    first, second = origins
    also = [(b"origin", second)]
    socket = await sync_to_async(opened)(player, table.campaign, first, also=also)
    connected, _ = await socket.connect()
    assert not connected


async def test_a_socket_from_a_trusted_origin_is_accepted(table, player, settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://table.localhost"]
    settings.ALLOWED_HOSTS = ["localhost", "table.localhost"]
    origin = b"https://table.localhost"
    socket = await sync_to_async(opened)(player, table.campaign, origin)
    connected, _ = await socket.connect()
    assert connected
    await socket.disconnect()


@pytest.mark.parametrize(
    ("origin", "scheme", "host", "allowed"),
    [
        ("http://localhost:8000", "ws", "localhost:8000", True),
        ("https://localhost", "wss", "localhost", True),
        ("https://localhost:443", "wss", "localhost", True),
        ("http://localhost:8000", "ws", "evil.example:8000", False),  # a host not allowed
        ("http://[::1]:8000", "ws", "[::1]:8000", False),  # not in ALLOWED_HOSTS here
        ("http://localhost:notaport", "ws", "localhost", False),
        ("ftp://localhost", "ws", "localhost", False),
    ],
)
def test_the_origin_rule(settings, origin, scheme, host, allowed):
    settings.ALLOWED_HOSTS, settings.CSRF_TRUSTED_ORIGINS = ["localhost"], []
    assert origin_allowed(origin, scheme, host) is allowed


def test_a_trusted_subdomain_pattern_allows_its_subdomains_on_its_scheme_only(settings):
    settings.ALLOWED_HOSTS = [".example.org"]
    settings.CSRF_TRUSTED_ORIGINS = ["https://*.example.org"]
    assert origin_allowed("https://a.example.org", "wss", "table.example.org")
    assert not origin_allowed("http://a.example.org", "wss", "table.example.org")
    assert not origin_allowed("https://a.example.org:8443", "wss", "table.example.org")
