"""Campaigns: the list, creating one, the table page, and who is at the table."""

import pytest
from django.urls import reverse

from campaigns.actions import create_campaign, join_campaign
from campaigns.models import Campaign, Membership
from sheets.models import Character

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign(gm, player):
    campaign = create_campaign(gm=gm, name="Królestwo Zarith", system="fasttest")
    join_campaign(campaign, player)
    return campaign


@pytest.fixture
def brunhilda(campaign, player):
    return Character.objects.create(campaign=campaign, owner=player, name="Brunhilda", data={})


def detail(campaign):
    return reverse("campaign_detail", args=[campaign.pk])


# The list of campaigns


def test_the_home_page_lists_my_campaigns_with_links(client, campaign, player):
    client.force_login(player)
    html = client.get(reverse("home")).content.decode()
    assert f'href="{detail(campaign)}"' in html
    assert "Królestwo Zarith" in html


def test_the_home_page_offers_a_new_campaign(client, outsider):
    client.force_login(outsider)
    html = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("campaign_create")}"' in html


def test_the_home_page_hides_campaigns_i_am_not_in(client, campaign, outsider):
    client.force_login(outsider)
    assert "Królestwo Zarith" not in client.get(reverse("home")).content.decode()


def test_the_home_page_counts_players_and_characters(client, campaign, brunhilda, gm):
    client.force_login(gm)
    html = client.get(reverse("home")).content.decode()
    assert "1 player" in html
    assert "1 character" in html


# Creating a campaign


def test_any_user_creates_a_campaign_and_becomes_its_gm(client, outsider):
    client.force_login(outsider)
    response = client.post(reverse("campaign_create"), {"name": "Moorcrest", "system": "t10"})
    campaign = Campaign.objects.get(name="Moorcrest")
    assert response.status_code == 302
    assert response["Location"] == detail(campaign)
    assert campaign.gm == outsider
    assert Membership.objects.get(campaign=campaign, user=outsider).role == "gm"


def test_an_unknown_system_is_refused_and_the_name_kept(client, outsider):
    client.force_login(outsider)
    response = client.post(reverse("campaign_create"), {"name": "Moorcrest", "system": "d20"})
    assert response.status_code == 200
    assert 'value="Moorcrest"' in response.content.decode()
    assert "Select a valid choice" in response.content.decode()
    assert not Campaign.objects.exists()


def test_a_campaign_needs_a_name(client, outsider):
    client.force_login(outsider)
    response = client.post(reverse("campaign_create"), {"name": "  ", "system": "t10"})
    assert 'id="id_name_error"' in response.content.decode()
    assert not Campaign.objects.exists()


def test_an_anonymous_visitor_is_sent_to_log_in_before_creating(client):
    response = client.get(reverse("campaign_create"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


# The campaign page


def test_the_campaign_page_shows_name_system_gm_and_players(client, campaign, player):
    client.force_login(player)
    html = client.get(detail(campaign)).content.decode()
    assert "Królestwo Zarith" in html
    assert "FastTest" in html
    assert "gm" in html
    assert "player" in html


def test_the_campaign_page_links_each_character_to_its_sheet(client, campaign, brunhilda, gm):
    client.force_login(gm)
    html = client.get(detail(campaign)).content.decode()
    assert f'href="{reverse("character_detail", args=[campaign.pk, brunhilda.pk])}"' in html


def test_a_player_can_make_or_import_a_character(client, campaign, player):
    client.force_login(player)
    html = client.get(detail(campaign)).content.decode()
    assert reverse("character_create", args=[campaign.pk]) in html
    assert reverse("character_import", args=[campaign.pk]) in html


def test_the_gm_sees_invite_settings_npcs_and_remove(client, campaign, gm, player):
    client.force_login(gm)
    html = client.get(detail(campaign)).content.decode()
    assert campaign.invite_token in html
    assert reverse("campaign_settings", args=[campaign.pk]) in html
    assert reverse("npc_list", args=[campaign.pk]) in html
    assert reverse("member_remove", args=[campaign.pk, player.pk]) in html


def test_a_player_never_sees_the_gm_controls(client, campaign, player):
    client.force_login(player)
    html = client.get(detail(campaign)).content.decode()
    assert campaign.invite_token not in html
    assert reverse("campaign_settings", args=[campaign.pk]) not in html
    assert reverse("member_remove", args=[campaign.pk, player.pk]) not in html


def _fill(campaign, make_user, players: int, characters_each: int) -> None:
    for p in range(players):
        user = make_user(f"p{players}-{p}")
        join_campaign(campaign, user)
        for c in range(characters_each):
            Character.objects.create(campaign=campaign, owner=user, name=f"C{p}-{c}", data={})


@pytest.mark.parametrize("size", [1, 6])
def test_the_campaign_page_runs_the_same_queries_for_any_table(
    client, campaign, gm, make_user, django_assert_num_queries, size
):
    _fill(campaign, make_user, players=size, characters_each=size)
    client.force_login(gm)
    # session, user, campaign, memberships, characters, NPC count, game sessions; the cue of
    # the GM's calls on the reader's characters, in the page's first HTML (rolls.cues)
    with django_assert_num_queries(7):
        assert client.get(detail(campaign)).status_code == 200


# Removing a player


def test_removing_a_player_first_asks_to_confirm(client, campaign, gm, player, brunhilda):
    client.force_login(gm)
    response = client.get(reverse("member_remove", args=[campaign.pk, player.pk]))
    assert "Remove player from Królestwo Zarith?" in response.content.decode()
    assert "Brunhilda" in response.content.decode()
    assert Membership.objects.filter(campaign=campaign, user=player).exists()


def test_the_gm_removes_a_player_who_then_sees_nothing(client, campaign, gm, player):
    client.force_login(gm)
    response = client.post(reverse("member_remove", args=[campaign.pk, player.pk]))
    assert response.status_code == 302
    assert not Membership.objects.filter(campaign=campaign, user=player).exists()
    client.force_login(player)
    assert client.get(detail(campaign)).status_code == 404


def test_a_removed_players_characters_stay_for_the_gm_only(
    client, campaign, gm, player, other_player, brunhilda
):
    join_campaign(campaign, other_player)
    client.force_login(gm)
    client.post(reverse("member_remove", args=[campaign.pk, player.pk]))
    assert Character.objects.filter(pk=brunhilda.pk).exists()
    assert "Characters of players who left" in client.get(detail(campaign)).content.decode()
    client.force_login(other_player)
    assert "Brunhilda" not in client.get(detail(campaign)).content.decode()


def test_a_player_who_joins_again_finds_their_characters(client, campaign, gm, player, brunhilda):
    client.force_login(gm)
    client.post(reverse("member_remove", args=[campaign.pk, player.pk]))
    join_campaign(campaign, player)
    html = client.get(detail(campaign)).content.decode()
    assert "Characters of players who left" not in html
    assert "Brunhilda" in html


def test_a_player_cannot_remove_anyone(client, campaign, player, other_player):
    join_campaign(campaign, other_player)
    client.force_login(player)
    response = client.post(reverse("member_remove", args=[campaign.pk, other_player.pk]))
    assert response.status_code == 404
    assert Membership.objects.filter(campaign=campaign, user=other_player).exists()


def test_the_gm_cannot_be_removed(client, campaign, gm):
    client.force_login(gm)
    assert client.post(reverse("member_remove", args=[campaign.pk, gm.pk])).status_code == 404
    assert Membership.objects.filter(campaign=campaign, user=gm, role="gm").exists()


# Leaving


def test_a_player_leaves_after_confirming(client, campaign, player):
    client.force_login(player)
    assert "Leave" in client.get(reverse("campaign_leave", args=[campaign.pk])).content.decode()
    response = client.post(reverse("campaign_leave", args=[campaign.pk]))
    assert response["Location"] == reverse("home")
    assert not Membership.objects.filter(campaign=campaign, user=player).exists()


def test_the_gm_cannot_leave_their_own_campaign(client, campaign, gm):
    client.force_login(gm)
    assert client.post(reverse("campaign_leave", args=[campaign.pk])).status_code == 404
    assert Membership.objects.filter(campaign=campaign, user=gm).exists()
