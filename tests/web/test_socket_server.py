"""Hostile frames against a real server: the socket answers, keeps going, and the log stays quiet.

The consumer tests drive the consumer directly; this one goes through uvicorn's websocket, where
a crash showed as a traceback in the log and a socket dropped without a close frame.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import re
import socket
import time

import pytest
from django.core.cache import cache
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from rolls.live.consumers import CLOSE_FLOOD, FRAME_BURST, SERVER_STOPPING
from tests.web.browser import DEMO_PASSWORD, demo_table, demo_table_again
from tests.web.test_scale_out import Browser

HOSTILE = [
    "{type: ping",
    "",
    b"\x00\xff",
    "[" * 100_000 + "]" * 100_000,
    '{"type": "since", "session": 1, "seq": true}',
    '{"type": "since", "session": 1, "seq": 9223372036854775808}',
]


def table_socket(base: str, username: str):
    browser = Browser(base, username, DEMO_PASSWORD)
    campaign = re.search(r'href="/c/(\d+)/"', browser.opener.open(f"{base}/").read().decode())
    return connect(
        f"{base.replace('http', 'ws')}/ws/campaigns/{campaign.group(1)}/?lang=en",
        additional_headers={"Cookie": f"sessionid={browser.cookie('sessionid')}", "Origin": base},
        open_timeout=10,
    )


def _flood_until_closed(ws) -> None:
    """Pings as fast as they go, then read: the close may come while still sending."""
    for _ in range(FRAME_BURST * 20):
        ws.send('{"type": "ping"}')
    while True:
        ws.recv(timeout=10)


def test_hostile_frames_are_answered_and_a_flood_is_closed_without_a_traceback(tmp_path):
    log = tmp_path / "server.log"
    with log.open("w") as stderr, demo_table(tmp_path, stderr=stderr) as base:
        with table_socket(base, "ala") as ws:
            for frame in HOSTILE:
                ws.send(frame)
                assert json.loads(ws.recv(timeout=10))["type"] == "error"
            ws.send('{"type": "ping"}')
            assert json.loads(ws.recv(timeout=10)) == {"type": "pong"}
        with table_socket(base, "bartek") as ws, pytest.raises(ConnectionClosed) as closed:
            _flood_until_closed(ws)
        assert closed.value.rcvd.code == CLOSE_FLOOD
    assert "Traceback" not in log.read_text()
    assert "Error" not in log.read_text()


# A page that closes at each step of its socket's opening (issue 23: 20 pages that sent a ping
# and closed at once left 20 places that renewed themselves for good, and the user was refused).

HANDSHAKE_STEPS = (
    "before the request ends",
    "before the answer",
    "right after the answer",
    "after a ping",
    "after a since",
)


def _frame(text: str) -> bytes:
    """One masked text frame, as a browser sends it (RFC 6455, 5.2)."""
    data, mask = text.encode(), os.urandom(4)
    masked = bytes(byte ^ mask[i % 4] for i, byte in enumerate(data))
    return bytes([0x81, 0x80 | len(data)]) + mask + masked


def _close_at(step: str, base: str, path: str, cookie: str) -> None:
    """Open a table socket by hand and drop the connection at ``step``, without a close frame."""
    host = base.removeprefix("http://")
    request = (
        f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}\r\n"
        f"Sec-WebSocket-Version: 13\r\nOrigin: {base}\r\nCookie: sessionid={cookie}\r\n\r\n"
    ).encode()
    address, port = host.split(":")
    with socket.create_connection((address, int(port)), timeout=10) as raw:
        if step == "before the request ends":
            raw.sendall(request[:-2])
            return
        raw.sendall(request)
        if step == "before the answer":
            return
        assert raw.recv(4096).startswith(b"HTTP/1.1 101")
        if step == "after a ping":
            raw.sendall(_frame('{"type": "ping"}'))
        elif step == "after a since":
            raw.sendall(_frame('{"type": "since", "session": null, "seq": 0}'))


def _admitted(base: str) -> bool:
    """Whether a page of the user opens and is answered now (not closed with 4409)."""
    try:
        with table_socket(base, "ala") as ws:
            ws.send('{"type": "ping"}')
            return json.loads(ws.recv(timeout=10)) == {"type": "pong"}
    except ConnectionClosed:
        return False


def test_pages_closed_at_each_step_of_the_opening_give_their_places_back(tmp_path):
    log = tmp_path / "server.log"
    with log.open("w") as stderr, demo_table(tmp_path, stderr=stderr, SOCKETS_PER_USER="3") as base:
        browser = Browser(base, "ala", DEMO_PASSWORD)
        campaign = re.search(r'href="/c/(\d+)/"', browser.opener.open(f"{base}/").read().decode())
        path = f"/ws/campaigns/{campaign.group(1)}/?lang=en"
        for step in HANDSHAKE_STEPS:
            for _ in range(8):
                _close_at(step, base, path, browser.cookie("sessionid"))
        # The server hears each close a moment after it: a place given back is free within
        # seconds, one that leaked never is (it renews itself).
        deadline = time.monotonic() + 20
        while not _admitted(base):
            assert time.monotonic() < deadline, "the closed pages kept their places"
    assert "Traceback" not in log.read_text()


@pytest.mark.redis
def test_a_restarted_server_leaves_no_place_counted_to_refuse_a_page_coming_back(
    tmp_path, redis_url
):
    """Places are counted in Redis, which outlives the server: one stopped as a deploy stops it
    gives back each place it held, so a page comes back at once even at a cap of one page."""
    cache.clear()  # the same Redis database: no place of an earlier test
    env = {"REDIS_URL": redis_url, "SOCKETS_PER_USER": "1"}
    server = contextlib.ExitStack()
    base = server.enter_context(demo_table(tmp_path, **env))
    with table_socket(base, "ala") as ws:
        ws.send('{"type": "ping"}')
        assert json.loads(ws.recv(timeout=10)) == {"type": "pong"}
        server.close()  # stopped as a deploy stops it, with the page open
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd.code == SERVER_STOPPING
    with demo_table_again(tmp_path, base, **env):
        assert _admitted(base)
