"""Hostile frames against a real server: the socket answers, keeps going, and the log stays quiet.

The consumer tests drive the consumer directly; this one goes through uvicorn's websocket, where
a crash showed as a traceback in the log and a socket dropped without a close frame.
"""

from __future__ import annotations

import json
import re

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from rolls.consumers import CLOSE_FLOOD, FRAME_BURST
from tests.web.browser import DEMO_PASSWORD, demo_table
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
