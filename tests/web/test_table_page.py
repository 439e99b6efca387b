"""The table page plays (issue 13, item 5): a player's character with its panel beside the log,
and the cue of the GM's calls that every page of the campaign shows."""

import copy

import pytest
from django.urls import reverse

from campaigns.sessions import end_session
from rolls.pending import actions as pending
from sheets.models import Character
from tests.web.test_panel_caerbannog import SHEET as CAERBANNOG_SHEET
from tests.web.test_panel_fasttest import SHEET
from tests.web.test_panel_twod6 import NOMAD

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.table(name="Zarith", characters=[("Brunhilda", SHEET), ("Zbyszko", SHEET)]),
]


def table_page(client, campaign, session, **query):
    url = reverse("session_detail", args=[campaign.pk, session.pk])
    return client.get(url, query)


def calls(client, campaign):
    return client.get(reverse("my_calls", args=[campaign.pk]))


def test_a_players_table_page_shows_their_character_with_clickable_stats(client, table, player):
    campaign, hero, session = table.campaign, table.hero, table.session
    client.force_login(player)
    page = table_page(client, campaign, session).content.decode()
    assert f'data-live-sheet="{hero.pk}"' in page
    assert 'class="roll-target' in page
    assert reverse("test_panel", args=[campaign.pk, hero.pk]) in page


def test_a_players_table_page_never_shows_another_players_character(client, table, player):
    campaign, rival, session = table.campaign, table.characters[1], table.session
    client.force_login(player)
    page = table_page(client, campaign, session, character=rival.pk).content.decode()
    assert f'data-live-sheet="{rival.pk}"' not in page
    assert "Zbyszko" not in page


def test_a_player_with_two_characters_picks_one_on_the_table_page(client, table, player):
    campaign, hero, session = table.campaign, table.hero, table.session
    second = Character.objects.create(
        campaign=campaign, owner=player, name="Jadwiga", data=copy.deepcopy(SHEET)
    )
    client.force_login(player)
    page = table_page(client, campaign, session, character=second.pk).content.decode()
    assert f'data-live-sheet="{second.pk}"' in page
    assert f'href="?character={hero.pk}"' in page


def test_the_table_page_of_an_ended_session_shows_only_its_log(client, table, player):
    campaign, session = table.campaign, table.session
    end_session(session)
    client.force_login(player)
    page = table_page(client, campaign, session).content.decode()
    assert "data-live-sheet" not in page
    assert 'id="roll-log"' in page


def test_the_gm_without_a_character_sees_the_session_and_its_log(client, table, gm):
    campaign, session = table.campaign, table.session
    client.force_login(gm)
    page = table_page(client, campaign, session).content.decode()
    assert "data-live-sheet" not in page
    assert "Start a new scene" in page


def test_the_cue_names_the_gms_call_on_the_players_character(client, table, gm, player):
    campaign, hero, session = table.campaign, table.hero, table.session
    pending.call_test(session=session, character=hero, gm=gm, target={"attribute": "BUDOWA"})
    client.force_login(player)
    cue = calls(client, campaign).content.decode()
    assert "The GM calls for a test: Brunhilda" in cue
    assert "(BUDOWA)" in cue
    assert f"?character={hero.pk}" in cue


def test_the_cue_is_silent_about_another_players_call(client, table, gm, player):
    campaign, rival, session = table.campaign, table.characters[1], table.session
    pending.call_test(session=session, character=rival, gm=gm, target={"attribute": "BUDOWA"})
    client.force_login(player)
    assert "The GM calls" not in calls(client, campaign).content.decode()


def test_a_call_that_was_rolled_or_called_off_leaves_no_cue(client, table, gm, player):
    campaign, hero, session = table.campaign, table.hero, table.session
    test = pending.call_test(session=session, character=hero, gm=gm, target={"attribute": "DUCH"})
    pending.cancel_test(test.pk, gm)
    client.force_login(player)
    assert "The GM calls" not in calls(client, campaign).content.decode()


def test_the_campaign_page_carries_the_cue_and_its_socket(client, table, player):
    campaign = table.campaign
    client.force_login(player)
    page = client.get(reverse("campaign_detail", args=[campaign.pk])).content.decode()
    assert "data-table-events" in page
    assert reverse("my_calls", args=[campaign.pk]) in page


def test_a_2d6_call_cue_names_the_difficulty_as_what_the_test_is_against(
    client, make_table, player, gm
):
    wasteland = make_table("2d6", characters=[("Aoife", NOMAD)])
    target = {"attribute": "Umysł", "skill": "", "difficulty": "15", "helper": ["Rurik"]}
    pending.call_test(session=wasteland.session, character=wasteland.hero, gm=gm, target=target)
    client.force_login(player)
    cue = calls(client, wasteland.campaign).content.decode()
    assert "(Umysł against 15)" in cue


def test_a_caerbannog_call_cue_names_the_skill_without_its_kind(client, make_table, player, gm):
    table = make_table("caerbannog", characters=[("Julio", CAERBANNOG_SHEET)])
    target = {"tested": "skill:Atletyka", "form": "combined", "difficulty": "przeciętny"}
    pending.call_test(session=table.session, character=table.hero, gm=gm, target=target)
    client.force_login(player)
    assert (
        "(Atletyka against przeciętny (average))" in calls(client, table.campaign).content.decode()
    )
