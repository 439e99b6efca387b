"""Condition entries travel like rolls: live to every page of the table, and replayed to a page
that reconnects ("since N"), rendered in the page's language."""

import pytest
from asgiref.sync import sync_to_async

from rolls.conditions import actions as conditions
from rolls.conditions import in_force
from tests.web.live import socket_for

SHEET = {"attributes": [{"name": "Styrka", "value": 4}], "skills": [], "equipment": []}


pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.table("t10", characters=[("Astrid", SHEET)], players=1),
]


def knock_down(table):
    return conditions.add_condition(
        character=table.hero,
        actor=table.gm,
        spec=in_force.preset_spec(table.campaign.rules, "knocked_down"),
    )


async def connected(user, campaign, lang="en"):
    socket = await sync_to_async(socket_for)(user, campaign, lang=lang)
    ok, _ = await socket.connect()
    assert ok
    return socket


async def replay(socket, session, seq=0):
    await socket.send_json_to({"type": "since", "session": session.pk, "seq": seq})
    messages = []
    while (message := await socket.receive_json_from(timeout=3))["type"] != "synced":
        messages.append(message)
    return messages


async def test_a_reconnecting_page_gets_the_condition_entries_it_missed(table):
    await sync_to_async(knock_down)(table)
    socket = await connected(table.players[0], table.campaign)
    replayed = await replay(socket, table.session)
    assert [message["seq"] for message in replayed] == [1]
    assert "knocked down (faller)" in replayed[0]["html"]
    await socket.disconnect()


async def test_a_condition_entry_arrives_live_in_the_pages_language(table):
    socket = await connected(table.players[0], table.campaign, lang="pl")
    await replay(socket, table.session)
    await sync_to_async(knock_down)(table)
    message = await socket.receive_json_from(timeout=3)
    while message.get("type") != "entry":
        message = await socket.receive_json_from(timeout=3)
    assert "powalony (faller)" in message["html"]
    await socket.disconnect()
