"""A struck entry on the table's websocket (issue 28 item 4): every page that shows it gets it
again, struck through, at once; a page that reconnects replays it struck; a page that never got
a whisper gets nothing of its strike either."""

from __future__ import annotations

import uuid

import pytest
from asgiref.sync import sync_to_async

from campaigns.models import Membership
from rolls.chat.actions import say
from rolls.models import Visibility
from rolls.strikes.actions import strike
from tests.web.live import connected, frame_of, roll, sync

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.table("fasttest", characters=[("Brunhilda", {})]),
]


def struck_by(table, gm, target, reason="pomyłka"):
    return strike(campaign=table.campaign, gm=gm, roll_id=target.pk, reason=reason,
                  key=uuid.uuid4())  # fmt: skip


async def test_a_page_showing_the_entry_gets_it_struck_at_once(table, gm, player, other_player):
    mistaken = await sync_to_async(roll)(table.session, player)
    socket = await connected(other_player, table.campaign)
    frames = await sync(socket, table.session)
    assert "Struck by" not in next(f for f in frames if f["seq"] == mistaken.seq)["html"]
    await sync_to_async(struck_by)(table, gm, mistaken)
    frame = await frame_of(socket, "reveal", mistaken.seq)
    assert "struck" in frame["html"]
    assert "Struck by gm" in frame["html"]
    assert "pomyłka" in frame["html"]
    await socket.disconnect()


async def test_a_page_that_reconnects_replays_the_entry_struck(table, gm, player, other_player):
    mistaken = await sync_to_async(roll)(table.session, player)
    await sync_to_async(struck_by)(table, gm, mistaken)
    socket = await connected(other_player, table.campaign)
    frames = await sync(socket, table.session)
    assert "Struck by gm" in next(f for f in frames if f["seq"] == mistaken.seq)["html"]
    assert [f["seq"] for f in frames] == [mistaken.seq, mistaken.seq + 1]
    await socket.disconnect()


async def test_a_page_that_never_got_a_whisper_gets_nothing_of_its_strike(
    table, gm, player, other_player, make_user
):
    third = await sync_to_async(make_user)("trzeci")
    await sync_to_async(Membership.objects.create)(campaign=table.campaign, user=third)
    socket = await connected(third, table.campaign)
    await sync(socket, table.session)
    whisper, _ = await sync_to_async(say)(
        campaign=table.campaign, actor=player, text="Sekret.", key=uuid.uuid4(),
        visibility=Visibility.WHISPER, recipient=other_player,
    )  # fmt: skip
    await sync_to_async(struck_by)(table, gm, whisper, "nie na miejscu")
    after = await sync_to_async(roll)(table.session, gm)  # a public roll after both
    frame = await socket.receive_json_from(timeout=3)
    assert (frame["type"], frame["seq"]) == ("entry", after.seq)
    assert "nie na miejscu" not in frame["html"]
    assert await socket.receive_nothing(timeout=0.3)
    await socket.disconnect()
