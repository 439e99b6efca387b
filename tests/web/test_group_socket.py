"""A group test's every change reaches every page of the table over its socket (rolls.group)."""

import pytest
from asgiref.sync import sync_to_async

from rolls.group import actions as group_actions
from tests.web.live import socket_for
from tests.web.test_group_test import sheet

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_gathering_a_helper_tells_every_member_of_the_table(make_table, gm, player):
    table = await sync_to_async(make_table)(
        "caerbannog", characters=[("Ala", sheet()), ("Bartek", sheet())]
    )
    sockets = []
    for user in (gm, player, table.players[1]):
        socket = await sync_to_async(socket_for)(user, table.campaign)
        assert (await socket.connect())[0]
        sockets.append(socket)
    ala, bartek = table.characters
    started = await sync_to_async(group_actions.start_group)(
        session=table.session, user=player, initiator=ala, skill="skill:Atletyka", difficulty=3
    )
    await sync_to_async(group_actions.add_helper)(
        group_id=started.pk, user=player, revision=1, character=bartek,
        skill="skill:Dociekliwość",
    )  # fmt: skip
    for socket in sockets:
        first = await socket.receive_json_from(timeout=3)
        second = await socket.receive_json_from(timeout=3)
        assert (first["type"], first["group"], first["revision"]) == ("group", started.pk, 1)
        assert (second["type"], second["revision"]) == ("group", 2)
        await socket.disconnect()
