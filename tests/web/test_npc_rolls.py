"""The GM rolls an NPC's own test from the dashboard, in every system; hidden by default."""

import uuid

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from campaigns.sessions import end_session
from rolls.engine import system_module
from rolls.models import Roll
from tests.web.live import socket_for
from tests.web.test_after_roll import HX

TROLL = [{"name": "wielki", "dice": 3}, {"name": "głodny", "dice": 1}]


def with_troll(system="fasttest") -> dict:
    """``make_table``'s arguments for a table of ``system`` with one player and the GM's Troll."""
    return {"system": system, "players": 1, "characters": (), "npcs": [("Troll", TROLL)]}


pytestmark = pytest.mark.table(**with_troll())


def roll_for(client, campaign, npc, headers=None, **form):
    form.setdefault("key", str(uuid.uuid4()))
    url = reverse("npc_roll", args=[campaign.pk, npc.pk])
    return client.post(url, form, **(headers or {}))


# --- FastTest -----------------------------------------------------------------------------------


@pytest.mark.django_db
class TestFastTestNPC:
    def test_a_plain_test_with_the_typed_chance_and_dice(self, client, table, gm):
        campaign, troll = table.campaign, table.npc
        client.force_login(gm)
        roll_for(
            client, campaign, troll, what="spots the thief", chance="6", bonus="0", penalty="2"
        )
        roll = Roll.objects.get()
        assert roll.params == {"attribute": 6, "skills": [], "bonus": 0, "penalty": 2}
        assert (roll.npc, roll.character, roll.character_name) == (troll, None, "Troll")
        assert roll.label == "Troll: spots the thief"

    def test_it_is_hidden_unless_the_gm_makes_it_public(self, client, table, gm):
        campaign, troll = table.campaign, table.npc
        client.force_login(gm)
        roll_for(client, campaign, troll, chance="5")
        roll_for(client, campaign, troll, chance="5", visibility="public")
        assert list(Roll.objects.values_list("visibility", flat=True)) == ["hidden", "public"]

    def test_bonus_dice_take_the_recommended_split(self, client, table, gm):
        campaign, troll = table.campaign, table.npc
        client.force_login(gm)
        roll_for(client, campaign, troll, chance="5", bonus="3")
        params = system_module("fasttest").parse_params(Roll.objects.get().params)
        splits = system_module("fasttest").split_odds(params)
        best = system_module("fasttest").choose_split(splits).extra_d10
        assert params.extra_d10 == best

    def test_the_entry_names_every_modifier(self, client, table, gm):
        campaign, troll = table.campaign, table.npc
        client.force_login(gm)
        roll_for(client, campaign, troll, chance="4", bonus="1", penalty="2")
        sources = Roll.objects.get().sources
        assert [(s["kind"], s["amount"]) for s in sources] == [
            ("attribute", 4), ("bonus", 1), ("penalty", 2),
        ]  # fmt: skip

    def test_htmx_answers_with_the_form_and_the_rolled_entry(self, client, table, gm):
        campaign, troll = table.campaign, table.npc
        client.force_login(gm)
        html = roll_for(client, campaign, troll, HX, what="atak", chance="5").content.decode()
        assert f'id="npc-roll-{troll.pk}"' in html
        assert "Troll: atak" in html
        assert 'class="face"' in html

    def test_without_an_empty_what_the_label_still_names_the_npc(self, client, table, gm):
        campaign, troll = table.campaign, table.npc
        client.force_login(gm)
        roll_for(client, campaign, troll, chance="5")
        assert Roll.objects.get().label == "Troll: test"


# --- The other systems --------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("system", "form", "params"),
    [
        ("caerbannog", {"level": "2", "difficulty": "4", "ease": "1"},
         {"dice": [8, 8, 8], "difficulty": 4, "ease": 1}),
        ("caerbannog", {"level": "0", "difficulty": "3", "ease": "-1"},
         {"dice": [4, 4, 4], "difficulty": 3, "ease": -1}),
        ("t10", {"pool": "5", "difficulty": "8"}, {"pool": 5, "difficulty": 8}),
        ("ast", {"white": "3", "level_mod": "1"}, {"white": 3, "level_mod": 1}),
        ("2d6", {"attribute": "6", "skill": "4", "difficulty": "15"},
         {"attribute": 6, "skill": 4, "difficulty": 15}),
    ],
)  # fmt: skip
def test_each_system_maps_its_small_form_to_engine_params(
    make_table, client, gm, player, system, form, params
):
    table = make_table(**with_troll(system))
    campaign, npc = table.campaign, table.npc
    client.force_login(gm)
    roll_for(client, campaign, npc, what="test", **form)
    roll = Roll.objects.get()
    assert (roll.system, roll.params) == (system, params)
    assert roll.result["answer"]["outcome"]


@pytest.mark.django_db
@pytest.mark.parametrize("system", ["fasttest", "caerbannog", "t10", "ast", "2d6"])
def test_the_dashboard_offers_the_npc_test_in_every_system(make_table, client, gm, player, system):
    table = make_table(**with_troll(system))
    campaign, npc = table.campaign, table.npc
    client.force_login(gm)
    html = client.get(reverse("dashboard", args=[campaign.pk])).content.decode()
    assert reverse("npc_roll", args=[campaign.pk, npc.pk]) in html
    assert f'id="npc-{npc.pk}-visibility"' in html


# --- Forged input -------------------------------------------------------------------------------


@pytest.mark.django_db
class TestForgedInput:
    @pytest.mark.parametrize(
        ("form", "message"),
        [
            ({"chance": "10"}, "Chance (1–9) must be a whole number from 1 to 9."),
            ({"chance": "0"}, "from 1 to 9"),
            ({"chance": "pięć"}, "from 1 to 9"),
            ({"bonus": "21"}, "Bonus dice must be a whole number from 0 to 20."),
            ({"penalty": "-1"}, "from 0 to 20"),
            ({"visibility": "secret"}, "Choose who may see this roll."),
            ({"what": "x" * 81}, "Keep it to 80 characters."),
        ],
    )
    def test_is_refused_at_its_field_and_keeps_what_was_typed(
        self, client, table, gm, form, message
    ):
        campaign, troll = table.campaign, table.npc
        client.force_login(gm)
        response = roll_for(client, campaign, troll, HX, **({"chance": "5"} | form))
        html = response.content.decode()
        assert response.status_code == 422
        assert message in html
        assert 'aria-invalid="true"' in html
        assert not Roll.objects.exists()

    def test_a_caerbannog_level_outside_the_select_is_refused(self, client, make_table, gm):
        table = make_table(**with_troll("caerbannog"))
        campaign, npc = table.campaign, table.npc
        client.force_login(gm)
        response = roll_for(client, campaign, npc, HX, level="7", difficulty="3", ease="0")
        assert response.status_code == 422
        assert not Roll.objects.exists()

    def test_a_missing_key_is_refused_with_400(self, client, table, gm):
        campaign, troll = table.campaign, table.npc
        client.force_login(gm)
        response = roll_for(client, campaign, troll, HX, chance="5", key="nie-klucz")
        assert response.status_code == 400
        assert not Roll.objects.exists()

    def test_a_double_submit_rolls_once(self, client, table, gm):
        campaign, troll = table.campaign, table.npc
        client.force_login(gm)
        key = str(uuid.uuid4())
        roll_for(client, campaign, troll, chance="5", key=key)
        roll_for(client, campaign, troll, chance="5", key=key)
        assert Roll.objects.count() == 1

    def test_without_a_session_nothing_is_rolled(self, client, table, gm):
        campaign, troll, session = table.campaign, table.npc, table.session
        end_session(session)
        client.force_login(gm)
        response = roll_for(client, campaign, troll, HX, chance="5")
        assert response.status_code == 409
        assert not Roll.objects.exists()

    def test_without_javascript_a_wrong_form_comes_back_in_the_dashboard(self, client, table, gm):
        campaign, troll = table.campaign, table.npc
        client.force_login(gm)
        response = roll_for(client, campaign, troll, what="szarża", chance="12")
        html = response.content.decode()
        assert (response.status_code, "GM dashboard" in html) == (422, True)
        assert 'value="szarża"' in html
        assert 'value="12"' in html

    @pytest.mark.parametrize("who", ["player", "outsider"])
    def test_everyone_but_the_gm_gets_404(self, client, table, request, who):
        campaign, troll = table.campaign, table.npc
        client.force_login(request.getfixturevalue(who))
        assert roll_for(client, campaign, troll, chance="5").status_code == 404
        assert not Roll.objects.exists()


# --- Hidden from the players --------------------------------------------------------------------


@pytest.mark.django_db
def test_a_hidden_npc_roll_shows_players_no_faces_on_their_page(client, table, gm, player):
    campaign, troll = table.campaign, table.npc
    client.force_login(gm)
    roll_for(client, campaign, troll, what="sekretny plan", chance="5")
    client.force_login(player)
    html = client.get(reverse("session_log", args=[campaign.pk])).content.decode()
    assert "A hidden roll was made." in html
    assert "sekretny plan" not in html
    assert 'class="face"' not in html


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_hidden_npc_roll_reaches_a_players_socket_without_faces(make_table, gm, player):
    table = await sync_to_async(make_table)(**with_troll())
    campaign, troll, session = table.campaign, table.npc, table.session
    socket = await sync_to_async(socket_for)(player, campaign)
    assert (await socket.connect())[0]
    await socket.send_json_to({"type": "since", "session": session.pk, "seq": 0})
    assert (await socket.receive_json_from(timeout=3))["type"] == "synced"

    def roll_as_gm():
        from django.test import Client

        client = Client()
        client.force_login(gm)
        roll_for(client, campaign, troll, what="sekretny plan", chance="5")

    await sync_to_async(roll_as_gm)()
    message = await socket.receive_json_from(timeout=3)
    assert message["type"] == "entry"
    assert "A hidden roll was made." in message["html"]
    assert 'class="face"' not in message["html"]
    assert "sekretny plan" not in message["html"]
    await socket.disconnect()
