"""The table's websocket under hostile clients: bad frames, too many sockets, floods, bad since.

Each answer is an error frame on a socket that stays open, or a close with a code the page
explains; never a crash of the consumer.
"""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async

from rolls.live import consumers, socket_slots
from tests.web.live import roll, socket_for

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.table(title="Noc pierwsza"),
]


@pytest.fixture
def session_frame():
    return lambda session, seq=0: consumers.json.dumps(
        {"type": "since", "session": session.pk, "seq": seq}
    )


async def connected(user, campaign):
    socket = await sync_to_async(socket_for)(user, campaign)
    ok, _ = await socket.connect()
    assert ok
    return socket


async def synced(user, campaign, session):
    socket = await connected(user, campaign)
    await socket.send_json_to({"type": "since", "session": session.pk, "seq": 0})
    while (await socket.receive_json_from(timeout=3))["type"] != "synced":
        pass
    return socket


async def answer_to(socket, **frame) -> dict:
    """The answer to one frame, sent as the server would pass it on (an empty one included)."""
    await socket.send_input({"type": "websocket.receive", **frame})
    return await socket.receive_json_from(timeout=3)


async def still_open(socket) -> bool:
    return await answer_to(socket, text='{"type": "ping"}') == {"type": "pong"}


async def closed_with(socket) -> int:
    message = await socket.receive_output(timeout=3)
    assert message["type"] == "websocket.close"
    return message["code"]


# Frames that are not what a page sends -------------------------------------------------------

BAD_FRAMES = {
    "not JSON": {"text": "{type: ping"},
    "empty": {"text": ""},
    "binary": {"bytes": b"\x00\xff{}"},
    "nested deeply": {"text": "[" * 100_000 + "]" * 100_000},
    "nested within the length": {"text": "[" * 120 + "]" * 120},
    "a list": {"text": '[{"type": "ping"}]'},
    "an unknown type": {"text": '{"type": "table.roll"}'},
}


@pytest.mark.parametrize("frame", BAD_FRAMES.values(), ids=BAD_FRAMES.keys())
async def test_a_bad_frame_gets_an_error_frame_and_the_socket_stays(table, player, frame):
    campaign = table.campaign
    socket = await connected(player, campaign)
    assert (await answer_to(socket, **frame))["type"] == "error"
    assert await still_open(socket)
    await socket.disconnect()


async def test_bad_frames_leave_nothing_in_the_log_above_info(table, player, caplog):
    campaign = table.campaign
    socket = await connected(player, campaign)
    with caplog.at_level(logging.WARNING):
        for frame in BAD_FRAMES.values():
            await answer_to(socket, **frame)
    assert caplog.records == []
    await socket.disconnect()


# Replay requests ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("session", "seq"),
    [("own", True), (True, 0), ("own", 1.0), ("own", -1), ("own", 2**63), (2**63, 0)],
    ids=["seq true", "session true", "seq 1.0", "seq -1", "seq 2^63", "session 2^63"],
)
async def test_a_since_that_is_not_a_whole_number_in_range_is_refused(table, player, session, seq):
    campaign, own = table.campaign, table.session
    socket = await connected(player, campaign)
    frame = {"type": "since", "session": own.pk if session == "own" else session, "seq": seq}
    answer = await answer_to(socket, text=consumers.json.dumps(frame))
    assert answer == {"type": "error", "message": "bad since request"}
    assert await still_open(socket)
    await socket.disconnect()


async def test_a_since_beyond_the_sessions_last_entry_is_refused(table, player):
    campaign, session = table.campaign, table.session
    await sync_to_async(roll)(session, player)
    socket = await connected(player, campaign)
    await socket.send_json_to({"type": "since", "session": session.pk, "seq": 2})
    answer = await socket.receive_json_from(timeout=3)
    assert answer["type"] == "error"
    assert "beyond the session's last entry (1)" in answer["message"]
    await socket.disconnect()


async def test_a_since_at_the_last_entry_is_answered_with_nothing_missed(table, player):
    campaign, session = table.campaign, table.session
    await sync_to_async(roll)(session, player)
    socket = await connected(player, campaign)
    await socket.send_json_to({"type": "since", "session": session.pk, "seq": 1})
    answer = await socket.receive_json_from(timeout=3)
    assert (answer["type"], answer["seq"]) == ("synced", 1)
    await socket.disconnect()


# Sockets per user and per table ---------------------------------------------------------------


async def test_a_user_past_the_socket_cap_is_closed_with_its_code(table, player, settings):
    settings.SOCKETS_PER_USER = 2
    campaign = table.campaign
    sockets = [await connected(player, campaign) for _ in range(2)]
    extra = await connected(player, campaign)
    assert await closed_with(extra) == consumers.CLOSE_TOO_MANY_OF_YOURS
    for socket in sockets:
        assert await still_open(socket)
        await socket.disconnect()


async def test_one_users_cap_leaves_the_other_players_sockets_alone(
    table, player, other_player, settings
):
    settings.SOCKETS_PER_USER = 1
    campaign = table.campaign
    first = await connected(player, campaign)
    other = await connected(other_player, campaign)
    assert await still_open(other)
    await first.disconnect()
    await other.disconnect()


async def test_a_table_past_its_socket_cap_closes_the_newcomer_with_its_code(
    table, player, other_player, gm, settings
):
    settings.SOCKETS_PER_TABLE = 2
    campaign = table.campaign
    sockets = [await connected(player, campaign), await connected(other_player, campaign)]
    extra = await connected(gm, campaign)
    assert await closed_with(extra) == consumers.CLOSE_TABLE_FULL
    for socket in sockets:
        await socket.disconnect()


async def test_a_closed_socket_gives_its_place_back(table, player, settings):
    settings.SOCKETS_PER_USER = 1
    campaign = table.campaign
    first = await connected(player, campaign)
    await first.disconnect()
    second = await connected(player, campaign)
    assert await still_open(second)
    await second.disconnect()


async def test_a_refused_socket_takes_no_place(table, player, settings):
    settings.SOCKETS_PER_USER = 1
    campaign = table.campaign
    first = await connected(player, campaign)
    for _ in range(3):
        refused = await connected(player, campaign)
        assert await closed_with(refused) == consumers.CLOSE_TOO_MANY_OF_YOURS
        await refused.disconnect()
    await first.disconnect()
    assert await still_open(await connected(player, campaign))


async def test_frames_sent_to_a_refused_socket_before_it_closes_are_dropped(
    table, player, session_frame, settings
):
    settings.SOCKETS_PER_USER = 1
    campaign, session = table.campaign, table.session
    first = await connected(player, campaign)
    refused = await connected(player, campaign)
    assert await closed_with(refused) == consumers.CLOSE_TOO_MANY_OF_YOURS
    await refused.send_to(text_data=session_frame(session))
    for _ in range(consumers.FRAME_BURST * 2):
        await refused.send_to(text_data='{"type": "ping"}')
    assert await refused.receive_nothing(timeout=0.3)
    await refused.disconnect()
    await first.disconnect()


async def test_the_sockets_of_a_killed_worker_stop_counting_within_two_leases(
    table, player, settings
):
    # A lease long enough that the refusal below lands inside it however busy the machine is
    # (the place counts for at least one whole period after it is taken).
    lease = 2
    settings.SOCKETS_PER_USER, settings.SOCKET_LEASE_SECONDS = 1, lease
    campaign = table.campaign
    # A worker took this place and died: it never renews nor gives it back.
    await sync_to_async(socket_slots.take)({f"user:{player.pk}": 1})
    refused = await connected(player, campaign)
    assert await closed_with(refused) == consumers.CLOSE_TOO_MANY_OF_YOURS
    await asyncio.sleep(2 * lease + 0.05)
    socket = await connected(player, campaign)
    assert await still_open(socket)
    await socket.disconnect()


async def test_a_live_socket_keeps_its_place_across_many_leases(table, player, settings):
    settings.SOCKETS_PER_USER, settings.SOCKET_LEASE_SECONDS = 1, 1
    campaign = table.campaign
    first = await connected(player, campaign)
    await asyncio.sleep(3.1)  # three lease periods: only renewals keep it counted
    refused = await connected(player, campaign)
    assert await closed_with(refused) == consumers.CLOSE_TOO_MANY_OF_YOURS
    assert await still_open(first)
    await first.disconnect()


OTHER_WORKER = """
import django
from django.conf import settings

settings.CACHES["default"]["KEY_PREFIX"] = {prefix!r}
django.setup()
from rolls.live import socket_slots

for _ in range(2):
    socket_slots.take({{"user:{user}": 2}})
"""


@pytest.mark.redis
async def test_the_cap_counts_the_sockets_of_every_worker_through_redis(
    table, player, settings, redis_url
):
    """Another process takes the user's places in Redis and dies; this one's socket is refused."""
    prefix = f"table-cache-test-{os.getpid()}-{time.time_ns()}"
    settings.SOCKETS_PER_USER = 2
    settings.CACHES = {
        "default": {
            "BACKEND": "config.overrides.cache.SharedPoolRedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": prefix,
        }
    }
    environ = dict(os.environ, REDIS_URL=redis_url, DJANGO_SETTINGS_MODULE="config.settings")
    result = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-c", OTHER_WORKER.format(prefix=prefix, user=player.pk)],
        env=environ, cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    campaign = table.campaign
    refused = await connected(player, campaign)
    assert await closed_with(refused) == consumers.CLOSE_TOO_MANY_OF_YOURS


# A flood from one socket ----------------------------------------------------------------------


async def test_a_flood_of_pings_closes_that_socket_past_its_budget(table, player):
    campaign = table.campaign
    socket = await connected(player, campaign)
    started = time.monotonic()
    for _ in range(consumers.FRAME_BURST * 5):
        await socket.send_to(text_data='{"type": "ping"}')
    pongs = 0
    while (message := await socket.receive_output(timeout=3))["type"] == "websocket.send":
        pongs += 1
    refilled = consumers.FRAME_RATE * (time.monotonic() - started)
    assert message == {"type": "websocket.close", "code": consumers.CLOSE_FLOOD,
                       "reason": "too many messages"}  # fmt: skip
    assert consumers.FRAME_BURST <= pongs <= consumers.FRAME_BURST + refilled + 1


async def test_a_flood_is_cut_before_any_database_work(table, player, monkeypatch):
    campaign, session = table.campaign, table.session
    socket = await connected(player, campaign)
    queries = []
    original = consumers.TableConsumer._replay

    async def counting(self, *args):
        queries.append(args)
        return await original(self, *args)

    monkeypatch.setattr(consumers.TableConsumer, "_replay", counting)
    frame = consumers.json.dumps({"type": "since", "session": session.pk, "seq": 0})
    started = time.monotonic()
    for _ in range(consumers.FRAME_BURST * 5):
        await socket.send_to(text_data=frame)
    while (await socket.receive_output(timeout=3))["type"] == "websocket.send":
        pass
    # The budget refills while the replays run: what got through is the burst and the refill.
    refilled = consumers.FRAME_RATE * (time.monotonic() - started)
    assert len(queries) <= consumers.FRAME_BURST + refilled + 1
    assert len(queries) < consumers.FRAME_BURST * 5


async def test_a_flooding_player_does_not_keep_the_others_from_their_rolls(
    table, player, other_player
):
    campaign, session = table.campaign, table.session
    listener = await synced(other_player, campaign, session)
    flooder = await connected(player, campaign)
    for _ in range(consumers.FRAME_BURST * 50):
        await flooder.send_to(text_data='{"type": "ping"}')
    started = time.monotonic()
    await sync_to_async(roll)(session, player)
    message = await listener.receive_json_from(timeout=3)
    assert (message["type"], message["seq"]) == ("entry", 1)
    assert time.monotonic() - started < 1.5
    await listener.disconnect()


async def test_a_page_that_keeps_within_the_budget_is_never_closed(table, player, monkeypatch):
    monkeypatch.setattr(consumers, "FRAME_RATE", 50.0)
    campaign = table.campaign
    socket = await connected(player, campaign)
    for _ in range(consumers.FRAME_BURST * 2):
        assert await still_open(socket)
        await asyncio.sleep(0.03)
    await socket.disconnect()


# A long replay ---------------------------------------------------------------------------------


async def replayed(socket, session, seq):
    await socket.send_json_to({"type": "since", "session": session.pk, "seq": seq})
    seqs = []
    while (message := await socket.receive_json_from(timeout=3))["type"] == "entry":
        seqs.append(message["seq"])
    return seqs, message


async def test_a_replay_in_pages_loses_no_entry_to_a_roll_made_while_the_page_asked(
    table, player, monkeypatch
):
    monkeypatch.setattr(consumers, "REPLAY_LIMIT", 3)
    campaign, session = table.campaign, table.session
    for _ in range(5):
        await sync_to_async(roll)(session, player)
    socket = await connected(player, campaign)
    await sync_to_async(roll)(session, player)  # arrives live before the page's first "since"
    first, synced = await replayed(socket, session, 0)
    assert (first, synced["more"]) == ([1, 2, 3], True)
    rest, synced = await replayed(socket, session, 3)
    assert (rest, synced["more"]) == ([4, 5, 6], False)
    await socket.disconnect()


async def test_a_flood_leaves_one_line_in_the_log(table, player, caplog):
    campaign = table.campaign
    socket = await connected(player, campaign)
    with caplog.at_level(logging.INFO, logger="rolls.live.consumers"):
        for _ in range(consumers.FRAME_BURST * 10):
            await socket.send_to(text_data='{"type": "ping"}')
        while (await socket.receive_output(timeout=3))["type"] == "websocket.send":
            pass
    assert [record.getMessage() for record in caplog.records] == [
        f"closed a table socket of user {player.pk} for flooding"
    ]
