"""The table's websocket: who may connect, what each viewer receives, and gapless replay."""

import copy
import json
import uuid

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import transaction
from django.test import Client

from campaigns import live
from campaigns.live import campaign_group
from rolls.log.payload import roll_payload
from rolls.turns import fight as turns
from tests.web.live import panel_url, roll, socket_for
from tests.web.renders import renders_of

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.table(title="Noc pierwsza"),
]


async def connected(user, campaign, **kwargs):
    socket = await sync_to_async(socket_for)(user, campaign, **kwargs)
    ok, _ = await socket.connect()
    return socket, ok


async def sync(socket, session, seq=0):
    await socket.send_json_to({"type": "since", "session": session.pk, "seq": seq})
    messages = []
    while True:
        message = await socket.receive_json_from(timeout=3)
        if message["type"] == "synced":
            return messages
        messages.append(message)


async def test_a_member_connects(table, player):
    campaign = table.campaign
    socket, ok = await connected(player, campaign)
    assert ok
    await socket.disconnect()


@pytest.mark.parametrize("origin", [b"http://evil.example", None])
async def test_a_foreign_or_missing_origin_is_refused(table, player, origin):
    campaign = table.campaign
    socket, ok = await connected(player, campaign, origin=origin)
    assert not ok


async def test_a_non_member_is_refused(table, outsider):
    campaign = table.campaign
    socket, ok = await connected(outsider, campaign)
    assert not ok


async def test_a_public_roll_reaches_every_member_live(table, player, other_player, gm):
    campaign, session = table.campaign, table.session
    sockets = [(await connected(user, campaign))[0] for user in (player, other_player, gm)]
    for socket in sockets:
        await sync(socket, session)
    await sync_to_async(roll)(session, player)
    for socket in sockets:
        message = await socket.receive_json_from(timeout=3)
        assert (message["type"], message["seq"]) == ("entry", 1)
        assert "Tak" in message["html"] or "Nie" in message["html"]
        await socket.disconnect()


async def test_a_player_never_receives_the_faces_of_another_players_secret_roll(
    table, player, other_player, gm
):
    campaign, session = table.campaign, table.session
    other, _ = await connected(other_player, campaign)
    master, _ = await connected(gm, campaign)
    await sync(other, session)
    await sync(master, session)
    secret = await sync_to_async(roll)(session, player, visibility="secret")
    seen_by_other = await other.receive_json_from(timeout=3)
    seen_by_gm = await master.receive_json_from(timeout=3)
    faces = [str(die["face"]) for die in secret.result["dice"]]
    assert "A hidden roll was made." in seen_by_other["html"]
    assert 'class="face"' not in seen_by_other["html"]
    assert secret.label not in json.dumps(seen_by_other)
    assert all(f'<span class="face">{face}</span>' in seen_by_gm["html"] for face in faces)
    await other.disconnect()
    await master.disconnect()


async def test_the_gms_hidden_roll_is_hidden_from_the_roller_too_if_not_gm(table, player, gm):
    campaign, session = table.campaign, table.session
    socket, _ = await connected(player, campaign)
    await sync(socket, session)
    await sync_to_async(roll)(session, gm, visibility="hidden")
    message = await socket.receive_json_from(timeout=3)
    assert "A hidden roll was made." in message["html"]
    await socket.disconnect()


async def test_replay_after_a_gap_returns_exactly_the_missing_entries_in_order(table, player):
    campaign, session = table.campaign, table.session
    for _ in range(5):
        await sync_to_async(roll)(session, player)
    socket, _ = await connected(player, campaign)
    replayed = await sync(socket, session, seq=2)
    assert [message["seq"] for message in replayed] == [3, 4, 5]
    await socket.disconnect()


async def test_a_roll_made_before_the_page_asks_is_sent_once(table, player):
    campaign, session = table.campaign, table.session
    socket, _ = await connected(player, campaign)
    await sync_to_async(roll)(session, player)  # arrives live and is in the database too
    replayed = await sync(socket, session, seq=0)
    assert [message["seq"] for message in replayed] == [1]
    assert await socket.receive_nothing(timeout=0.3)
    await socket.disconnect()


async def test_a_replay_for_another_campaigns_session_is_refused(table, make_table, player):
    campaign = table.campaign
    foreign = (await sync_to_async(make_table)(title="Noc pierwsza")).session
    socket, _ = await connected(player, campaign)
    await socket.send_json_to({"type": "since", "session": foreign.pk, "seq": 0})
    assert (await socket.receive_json_from(timeout=3))["type"] == "error"
    await socket.disconnect()


async def test_a_client_message_is_never_relayed_to_the_table(table, player, other_player):
    campaign, session = table.campaign, table.session
    speaker, _ = await connected(player, campaign)
    listener, _ = await connected(other_player, campaign)
    await sync(listener, session)
    await speaker.send_json_to({"type": "table.roll", "payload": {"seq": 99}})
    await speaker.send_json_to({"type": "entry", "html": "<b>forged</b>"})
    assert await listener.receive_nothing(timeout=0.3)
    await speaker.disconnect()
    await listener.disconnect()


async def test_a_roll_sent_over_the_socket_is_refused_and_rolls_nothing(table, player):
    """Every write arrives over HTTP, through a form and one action: a page that sends a roll
    over its socket (as pages could, once, behind a switch that measured no faster) is told so."""
    from rolls.models import Roll

    socket, _ = await connected(player, table.campaign)
    await sync(socket, table.session)
    form = f"attribute=BUDOWA&visibility=public&key={uuid.uuid4()}"
    await socket.send_json_to({"type": "roll", "ref": 1, "target": table.hero.pk, "form": form})
    assert (await socket.receive_json_from(timeout=3))["type"] == "error"
    assert await sync_to_async(Roll.objects.count)() == 0
    await socket.disconnect()


async def test_a_frame_longer_than_any_page_sends_is_refused_unread(table, player):
    socket, _ = await connected(player, table.campaign)
    await sync(socket, table.session)
    await socket.send_to(text_data=json.dumps({"type": "since", "pad": "[" * 300}))
    frame = await socket.receive_json_from(timeout=3)
    assert frame == {"type": "error", "message": "a frame is at most 256 characters"}
    await socket.disconnect()


async def test_a_saved_sheet_is_announced_to_the_table(table, gm):
    campaign, hero, session = table.campaign, table.hero, table.session
    socket, _ = await connected(gm, campaign)
    await sync(socket, session)

    def award():
        hero.data = {**hero.data, "xp": 3}
        hero.save()

    await sync_to_async(award)()
    assert await socket.receive_json_from(timeout=3) == {"type": "sheet", "character": hero.pk}
    await socket.disconnect()


async def test_a_started_turn_is_announced_to_the_table(table, player):
    campaign, hero, session = table.campaign, table.hero, table.session
    socket, _ = await connected(player, campaign)
    await sync(socket, session)
    await sync_to_async(turns.start_turn)(session, hero)
    assert await socket.receive_json_from(timeout=3) == {
        "type": "turn", "session": session.pk, "scene": 1, "round": 1, "character": hero.pk,
        "npc": False,
    }  # fmt: skip
    await socket.disconnect()


@pytest.fixture
def troll_table(make_table):
    return make_table(npcs=[("Troll", [])])


async def test_a_hidden_npcs_turn_tells_a_player_only_that_an_npc_acts(troll_table, player):
    campaign, session, troll = troll_table.campaign, troll_table.session, troll_table.npc
    socket, _ = await connected(player, campaign)
    await sync(socket, session)

    def the_trolls_turn():
        with transaction.atomic():
            locked, scene, last = turns.where(session)
            turns.mark(locked, scene, last, 1, None, npc=troll)

    await sync_to_async(the_trolls_turn)()
    assert await socket.receive_json_from(timeout=3) == {
        "type": "turn", "session": session.pk, "scene": 1, "round": 1, "character": None,
        "npc": True,
    }  # fmt: skip
    await socket.disconnect()


async def test_entries_arrive_in_the_language_of_the_page(table, player):
    campaign, session = table.campaign, table.session
    await sync_to_async(roll)(session, player, visibility="hidden")
    socket, _ = await connected(player, campaign, lang="pl")
    [message] = await sync(socket, session)
    assert "A hidden roll was made." not in message["html"]
    await socket.disconnect()


async def test_an_entry_is_rendered_once_for_every_page_of_one_language(
    table, player, other_player, gm
):
    campaign, session = table.campaign, table.session
    sockets = [(await connected(user, campaign))[0] for user in (player, other_player, gm)]
    for socket in sockets:
        await sync(socket, session)
    with renders_of() as rendered:
        await sync_to_async(roll)(session, player)
        htmls = {(await socket.receive_json_from(timeout=3))["html"] for socket in sockets}
    assert len(htmls) == 1
    assert rendered == ["rolls/log/_entry.html"]
    for socket in sockets:
        await socket.disconnect()


@pytest.fixture
def sheet_table(make_table):
    return make_table(
        characters=[("Brunhilda", {"attributes": {"BUDOWA": 7}, "skills": {"WALKA": 2}})]
    )


async def test_a_roll_from_the_page_answers_with_the_very_entry_every_socket_gets_from_one_render(
    sheet_table, player, other_player, gm
):
    table = sheet_table
    campaign, session = table.campaign, table.session
    sockets = [(await connected(user, campaign))[0] for user in (player, other_player, gm)]
    for socket in sockets:
        await sync(socket, session)

    def post():
        client = Client()
        client.force_login(player)
        form = {"attribute": "BUDOWA", "skill": "WALKA", "key": str(uuid.uuid4())}
        return client.post(panel_url(table.hero, "test_roll"), form, HTTP_HX_REQUEST="true")

    with renders_of() as rendered:
        answer = (await sync_to_async(post)()).content.decode()
        frames = [await socket.receive_from(timeout=3) for socket in sockets]
    html = json.loads(frames[0])["html"]
    assert html in answer
    assert rendered == ["rolls/log/_entry.html"]
    # Byte for byte the frame send_json made of the entry before frames were cached.
    assert (
        frames == [json.dumps({"type": "entry", "session": session.pk, "seq": 1, "html": html})] * 3
    )
    for socket in sockets:
        await socket.disconnect()


async def test_a_hidden_roll_reaches_the_gm_whole_and_a_player_redacted_from_one_render_each(
    table, player, gm
):
    campaign, session = table.campaign, table.session
    seen, master = (await connected(player, campaign))[0], (await connected(gm, campaign))[0]
    await sync(seen, session)
    await sync(master, session)
    await sync_to_async(roll)(session, gm, visibility="hidden")
    player_html = (await seen.receive_json_from(timeout=3))["html"]
    gm_html = (await master.receive_json_from(timeout=3))["html"]
    assert "A hidden roll was made." in player_html
    assert "A hidden roll was made." not in gm_html
    assert "BUDOWA + WALKA" in gm_html
    await seen.disconnect()
    await master.disconnect()


async def test_the_consumer_leaves_the_event_it_received_as_it_was(table, player):
    # The in-memory layer shares nested parts of an event between receivers
    # (config/overrides/layers.py).
    campaign, session = table.campaign, table.session
    created = await sync_to_async(roll)(session, player, visibility="secret")
    payload = await sync_to_async(roll_payload)(created)
    payload["seq"] += 1  # an entry the page has not had yet
    untouched = copy.deepcopy(payload)
    socket, _ = await connected(player, campaign)
    await sync(socket, session, seq=created.seq)
    await get_channel_layer().group_send(
        campaign_group(campaign.pk), {"type": "table.roll", "payload": payload}
    )
    message = await socket.receive_json_from(timeout=3)
    assert (message["type"], message["seq"]) == ("entry", created.seq + 1)
    assert payload == untouched
    await socket.disconnect()


async def test_an_entry_lost_on_the_way_is_read_from_the_log_before_the_next(
    table, player, monkeypatch
):
    campaign, session = table.campaign, table.session
    socket, _ = await connected(player, campaign)
    await sync(socket, session)
    with monkeypatch.context() as lost:
        lost.setattr(live, "broadcast", lambda group, event: None)
        await sync_to_async(roll)(session, player)
        await sync_to_async(roll)(session, player)
    await sync_to_async(roll)(session, player)
    received = [(await socket.receive_json_from(timeout=3))["seq"] for _ in range(3)]
    assert received == [1, 2, 3]
    await socket.disconnect()


async def test_an_entry_overtaken_by_the_next_is_sent_once_in_order(table, player, monkeypatch):
    campaign, session = table.campaign, table.session
    socket, _ = await connected(player, campaign)
    await sync(socket, session)
    with monkeypatch.context() as held_back:
        held_back.setattr(live, "broadcast", lambda group, event: None)
        first = await sync_to_async(roll)(session, player)
        second = await sync_to_async(roll)(session, player)
    layer = get_channel_layer()
    for overtaken in (second, first):
        payload = await sync_to_async(roll_payload)(overtaken)
        await layer.group_send(
            campaign_group(campaign.pk), {"type": "table.roll", "payload": payload}
        )
    received = [(await socket.receive_json_from(timeout=3))["seq"] for _ in range(2)]
    assert received == [1, 2]
    assert await socket.receive_nothing(timeout=0.3)
    await socket.disconnect()
