"""A roll sent over the page's socket (ROLLS_OVER_SOCKET, rolls/live/writes.py) is handled as its
HTTP twin: the same form, permission check, revision, key and rate, the same answer. Hostile
frames get an error frame or a close, and never roll anything."""

from __future__ import annotations

import json
import uuid

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from campaigns.live import session_of
from rolls.live import consumers
from rolls.models import PendingTest, Roll
from rolls.pending import actions as pending
from tests.web.live import connected, sync
from tests.web.test_panel_fasttest import SHEET

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
def over_socket(settings):
    settings.ROLLS_OVER_SOCKET = True


@pytest.fixture
def table(make_table):
    return make_table(characters=[("Brunhilda", SHEET), ("Zbyszko", SHEET)])


def free_roll(key=None, **extra) -> str:
    fields = {"attribute": "BUDOWA", "skill": "WALKA", "visibility": "public"}
    return "&".join(f"{k}={v}" for k, v in {**fields, "key": key or uuid.uuid4(), **extra}.items())


async def answer(socket, target, form: str, ref: int = 1) -> dict:
    """The answer frame to a roll sent with ``ref`` (the table's other frames are skipped)."""
    await socket.send_json_to({"type": "roll", "ref": ref, "target": target, "form": form})
    while True:
        frame = await socket.receive_json_from(timeout=5)
        if frame["type"] in ("answer", "error"):
            return frame


async def rolls() -> int:
    return await sync_to_async(Roll.objects.count)()


async def seated(user, table):
    socket = await connected(user, table.campaign)
    await sync(socket, table.session)
    return socket


async def test_a_roll_frame_is_answered_with_the_rolled_result(table, player):
    socket = await seated(player, table)
    got = await answer(socket, table.hero.pk, free_roll(), ref=7)
    assert (got["type"], got["ref"], got["status"]) == ("answer", 7, 200)
    assert (got["retarget"], got["reswap"]) == ("#test-panel-rolled", "innerHTML")
    roll = await sync_to_async(Roll.objects.get)()
    assert f'id="roll-{table.session.pk}-{roll.seq}"' in got["html"]
    assert roll.label.startswith("BUDOWA")
    await socket.disconnect()


async def test_the_roll_reaches_the_other_pages_of_the_table(table, player, other_player):
    roller, other = await seated(player, table), await seated(other_player, table)
    await answer(roller, table.hero.pk, free_roll())
    frame = await other.receive_json_from(timeout=5)
    assert (frame["type"], frame["seq"]) == ("entry", 1)
    await roller.disconnect()
    await other.disconnect()


async def test_a_key_sent_over_http_and_then_the_socket_rolls_once(table, player):
    key = uuid.uuid4()
    client = await sync_to_async(Client)()
    await sync_to_async(client.force_login)(player)
    url = reverse("test_roll", args=[table.campaign.pk, table.hero.pk])
    fields = dict(part.split("=") for part in free_roll(key).split("&"))
    await sync_to_async(client.post)(url, fields, headers={"HX-Request": "true"})
    socket = await seated(player, table)
    got = await answer(socket, table.hero.pk, free_roll(key))
    assert got["status"] == 200
    assert 'id="roll-' in got["html"]
    assert await rolls() == 1
    await socket.disconnect()


async def test_a_player_cannot_roll_for_another_players_character(table, player):
    socket = await seated(player, table)
    zbyszko = table.characters[1]
    got = await answer(socket, zbyszko.pk, free_roll())
    assert got["status"] == 404
    assert await rolls() == 0
    await socket.disconnect()


async def test_a_character_of_another_table_is_not_found(table, make_table, player):
    elsewhere = await sync_to_async(make_table)(name="Inny", characters=[("Obcy", SHEET)])
    socket = await seated(player, table)
    got = await answer(socket, elsewhere.hero.pk, free_roll())
    assert got["status"] == 404
    assert await rolls() == 0
    await socket.disconnect()


async def test_a_called_test_rolled_at_a_stale_revision_is_refused(table, gm, player):
    test = await sync_to_async(pending.call_test)(
        session=table.session, character=table.hero, gm=gm, target={"attribute": "BUDOWA"}
    )
    socket = await seated(player, table)
    stale = f"pending={test.pk}&revision={test.revision - 1 or 99}&key={uuid.uuid4()}"
    got = await answer(socket, table.hero.pk, stale)
    assert got["status"] == 409
    assert "The GM just changed this test" in got["html"]
    assert await rolls() == 0
    assert (await sync_to_async(PendingTest.objects.get)()).status == PendingTest.Status.OPEN
    await socket.disconnect()


async def test_a_roll_with_a_malformed_key_is_refused_at_the_panel(table, player):
    socket = await seated(player, table)
    got = await answer(socket, table.hero.pk, free_roll(key="not-a-key"))
    assert got["status"] == 400
    assert "malformed" in got["html"]
    assert await rolls() == 0
    await socket.disconnect()


HERO = "the hero's id"  # replaced by it as the frame is sent
FORGED = {
    "no ref": {"type": "roll", "target": HERO, "form": ""},
    "a ref as text": {"type": "roll", "ref": "1", "target": HERO, "form": ""},
    "a negative ref": {"type": "roll", "ref": -1, "target": HERO, "form": ""},
    "a target true": {"type": "roll", "ref": 1, "target": True, "form": ""},
    "a target past 64 bits": {"type": "roll", "ref": 1, "target": 2**64, "form": ""},
    "a form as fields": {"type": "roll", "ref": 1, "target": HERO, "form": {"key": "x"}},
    "no form": {"type": "roll", "ref": 1, "target": HERO},
}


@pytest.mark.parametrize("frame", FORGED.values(), ids=FORGED.keys())
async def test_a_forged_roll_frame_gets_an_error_and_the_socket_stays(table, player, frame):
    socket = await seated(player, table)
    frame = {**frame, "target": table.hero.pk} if frame.get("target") == HERO else frame
    await socket.send_json_to(frame)
    got = await socket.receive_json_from(timeout=5)
    assert got["type"] == "error"
    assert "roll" in got["message"]
    await socket.send_json_to({"type": "ping"})
    assert await socket.receive_json_from(timeout=5) == {"type": "pong"}
    assert await rolls() == 0
    await socket.disconnect()


async def test_a_nul_in_the_form_is_refused_and_rolls_nothing(table, player):
    socket = await seated(player, table)
    got = await answer(socket, table.hero.pk, free_roll(visibility="public\x00"))
    assert got["status"] == 400
    assert await rolls() == 0
    await socket.disconnect()


async def test_a_frame_past_the_longest_form_is_refused_unread(table, player):
    socket = await seated(player, table)
    form = free_roll() + "&x=" + "a" * consumers.MAX_WRITE_CHARS
    got = await answer(socket, table.hero.pk, form)
    assert got["type"] == "error"
    assert "at most" in got["message"]
    assert await rolls() == 0
    await socket.disconnect()


async def test_without_the_switch_a_roll_frame_is_refused(table, player, settings):
    settings.ROLLS_OVER_SOCKET = False
    socket = await seated(player, table)
    got = await answer(socket, table.hero.pk, free_roll())
    assert got["type"] == "error"
    assert await rolls() == 0
    await socket.disconnect()


async def test_rolls_over_the_socket_and_http_count_against_one_budget(table, player, settings):
    settings.ROLL_RATE_LIMIT = 2
    client = await sync_to_async(Client)()
    await sync_to_async(client.force_login)(player)
    url = reverse("test_roll", args=[table.campaign.pk, table.hero.pk])
    fields = dict(part.split("=") for part in free_roll().split("&"))
    await sync_to_async(client.post)(url, fields, headers={"HX-Request": "true"})
    socket = await seated(player, table)
    assert (await answer(socket, table.hero.pk, free_roll()))["status"] == 200
    refused = await answer(socket, table.hero.pk, free_roll(), ref=2)
    assert (refused["status"], refused["retarget"]) == (429, "#request-refusal")
    assert "faster than any table needs" in refused["html"]
    assert await rolls() == 2
    await socket.disconnect()


async def test_a_flood_of_roll_frames_closes_the_socket(table, player):
    socket = await seated(player, table)
    for ref in range(consumers.FRAME_BURST * 3):
        frame = {"type": "roll", "ref": ref, "target": table.hero.pk, "form": "key=bad"}
        await socket.send_input({"type": "websocket.receive", "text": json.dumps(frame)})
    while (message := await socket.receive_output(timeout=10))["type"] != "websocket.close":
        pass
    assert message["code"] == consumers.CLOSE_FLOOD
    assert await rolls() == 0


async def test_a_socket_whose_login_ended_rolls_nothing(table, player):
    client = await sync_to_async(Client)()
    await sync_to_async(client.force_login)(player)
    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    socket = WebsocketCommunicator(
        application,
        f"/ws/campaigns/{table.campaign.pk}/?lang=en",
        headers=[(b"host", b"localhost"), (b"origin", b"http://localhost"), (b"cookie", cookie)],
    )
    assert (await socket.connect())[0]
    await sync(socket, table.session)
    # Ended without a word (expired, or deleted by an admin): found by the write itself before
    # the socket's next renewal closes the page (a logout closes it at once: test_socket_logins).
    await sync_to_async(session_of(client.cookies["sessionid"].value).delete)()
    got = await answer(socket, table.hero.pk, free_roll())
    assert got["status"] == 401
    assert await rolls() == 0
    await socket.disconnect()


async def test_the_answer_is_in_the_pages_language(table, player):
    from tests.web.live import socket_for

    socket = await sync_to_async(socket_for)(player, table.campaign, lang="pl")
    assert (await socket.connect())[0]
    await sync(socket, table.session)
    got = await answer(socket, table.hero.pk, free_roll(key="zły"))
    assert got["status"] == 400
    assert "To żądanie rzutu jest nieprawidłowe" in got["html"]
    await socket.disconnect()
