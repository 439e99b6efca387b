"""The GM's awards: XP to one character or all, experience dice, and experience dice turned
into XP when the session ends (RULES.md section 1, "Development")."""

import copy
import json

import pytest
from django.urls import reverse

from campaigns.models import Campaign, Membership
from campaigns.sessions import end_session
from rolls import actions
from rolls.dashboard import awards
from rolls.models import Award
from sheets.models import Character
from tests.web.sheet_helpers import JULIO
from tests.web.test_after_roll import HERO, HX, SETTINGS, rolled, zarith

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.table(**zarith() | {"characters": [("Brunhilda", HERO), ("Zbyszko", HERO)]}),
]


def give_xp(client, campaign, headers=None, **form):
    return client.post(reverse("award_xp", args=[campaign.pk]), form, **(headers or {}))


def give_die(client, campaign, headers=None, **form):
    return client.post(reverse("award_experience_die", args=[campaign.pk]), form, **(headers or {}))


def sheet(character):
    character.refresh_from_db()
    return character.data


# --- XP -----------------------------------------------------------------------------------------


def test_xp_to_one_character_lands_on_its_sheet_with_the_reason(client, table, gm):
    campaign, hero, friend = table.campaign, table.hero, table.characters[1]
    client.force_login(gm)
    give_xp(client, campaign, character=hero.pk, amount="3", reason="the troll's bridge")
    award = Award.objects.get()
    assert (sheet(hero)["xp"], sheet(friend)["xp"]) == (3, 0)
    assert (award.kind, award.amount, award.reason) == ("xp", 3, "the troll's bridge")


def test_xp_to_the_whole_party_reaches_every_sheet(client, table, gm):
    campaign, hero, friend = table.campaign, table.hero, table.characters[1]
    client.force_login(gm)
    give_xp(client, campaign, character="all", amount="2", reason="the adventure")
    assert (sheet(hero)["xp"], sheet(friend)["xp"]) == (2, 2)
    assert Award.objects.count() == 2


@pytest.mark.parametrize(
    ("form", "field", "message"),
    [
        ({"amount": "0", "reason": "x"}, "amount", "greater than or equal to 1"),
        ({"amount": "21", "reason": "x"}, "amount", "less than or equal to 20"),
        ({"amount": "dużo", "reason": "x"}, "amount", "Enter a whole number"),
        ({"amount": "2", "reason": ""}, "reason", "This field is required"),
        ({"amount": "2", "reason": "x" * 121}, "reason", "at most 120 characters"),
        ({"amount": "2", "reason": "x", "character": "99999"}, "character", "Select a valid"),
    ],
)
def test_wrong_xp_input_is_refused_at_its_field_and_keeps_what_was_typed(
    client, table, gm, form, field, message
):
    campaign, hero = table.campaign, table.hero
    client.force_login(gm)
    response = give_xp(client, campaign, HX, **({"character": str(hero.pk)} | form))
    html = response.content.decode()
    assert response.status_code == 422
    assert message in html
    assert f'id="xp-{field}_error"' in html or field == "character"
    assert Award.objects.count() == 0
    assert sheet(hero)["xp"] == 0


def test_without_javascript_a_wrong_form_comes_back_in_the_whole_dashboard(client, table, gm):
    campaign, hero = table.campaign, table.hero
    client.force_login(gm)
    response = give_xp(client, campaign, character=hero.pk, amount="50", reason="smok")
    html = response.content.decode()
    assert response.status_code == 422
    assert "GM dashboard" in html
    assert 'value="smok"' in html


def test_xp_cannot_pass_what_a_sheet_holds(make_table, client, gm, player, other_player):
    table = make_table(**zarith(hero=HERO | {"xp": 990}))
    campaign, hero = table.campaign, table.hero
    client.force_login(gm)
    response = give_xp(client, campaign, character=hero.pk, amount="20", reason="x", headers=HX)
    assert "999" in response.content.decode()
    assert sheet(hero)["xp"] == 990


def test_a_refusal_for_one_character_gives_nobody_xp(client, table, gm):
    campaign, hero, friend = table.campaign, table.hero, table.characters[1]
    friend.data["xp"] = 995
    friend.save()
    client.force_login(gm)
    give_xp(client, campaign, character="all", amount="5", reason="x")
    assert (sheet(hero)["xp"], sheet(friend)["xp"]) == (0, 995)


def test_caerbannog_xp_is_its_pd(client, gm, player):
    campaign = Campaign.objects.create(name="Caer", system="caerbannog", gm=gm)
    Membership.objects.create(campaign=campaign, user=gm, role="gm")
    Membership.objects.create(campaign=campaign, user=player)
    julio = Character.objects.create(
        campaign=campaign, owner=player, name="Julio", data=copy.deepcopy(JULIO)
    )
    client.force_login(gm)
    give_xp(client, campaign, character=julio.pk, amount="4", reason="przygoda")
    assert sheet(julio)["resources"]["pd"] == 4


def test_systems_without_xp_show_no_awards_box(client, gm):
    campaign = Campaign.objects.create(name="Moorcrest", system="t10", gm=gm)
    Membership.objects.create(campaign=campaign, user=gm, role="gm")
    client.force_login(gm)
    html = client.get(reverse("dashboard", args=[campaign.pk])).content.decode()
    assert 'id="awards"' not in html
    with pytest.raises(actions.ActionRefused):
        awards.give_xp(campaign=campaign, gm=gm, amount=2, reason="x")


# --- Experience dice ----------------------------------------------------------------------------


def test_an_experience_die_goes_to_the_chosen_character(client, table, gm):
    campaign, hero, friend = table.campaign, table.hero, table.characters[1]
    client.force_login(gm)
    give_die(client, campaign, character=friend.pk, reason="held the gate")
    assert (sheet(hero)["experience_dice"], sheet(friend)["experience_dice"]) == (0, 1)
    assert Award.objects.get().kind == "experience_die"


def test_the_card_gives_an_experience_die_and_answers_with_the_card(client, table, gm):
    campaign, hero = table.campaign, table.hero
    client.force_login(gm)
    response = give_die(client, campaign, character=hero.pk, part="card", headers=HX)
    assert json.loads(response["HX-Trigger"]) == {"table:sheet": {}}
    assert f'id="card-tools-{hero.pk}"' in response.content.decode()
    assert sheet(hero)["experience_dice"] == 1


def test_no_experience_dice_when_the_setting_is_off(make_table, client, gm, player, other_player):
    rules = SETTINGS | {"experience_dice": False}
    table = make_table(**zarith(rules))
    campaign, hero = table.campaign, table.hero
    client.force_login(gm)
    response = give_die(client, campaign, character=hero.pk, headers=HX)
    assert "Experience dice are off" in response.content.decode()
    assert sheet(hero)["experience_dice"] == 0


def test_an_experience_die_for_a_failed_test_is_given_once(client, table, gm):
    campaign, hero, session = table.campaign, table.hero, table.session
    roll = rolled(session, hero, "no")
    client.force_login(gm)
    url = reverse("roll_experience_die", args=[campaign.pk, roll.pk])
    client.post(url)
    again = client.post(url, **HX)
    assert again.status_code == 409
    assert sheet(hero)["experience_dice"] == 1
    assert Award.objects.get().roll == roll


def test_a_successful_test_earns_no_experience_die(client, table, gm):
    campaign, hero, session = table.campaign, table.hero, table.session
    roll = rolled(session, hero, "yes_but")
    client.force_login(gm)
    response = client.post(reverse("roll_experience_die", args=[campaign.pk, roll.pk]), **HX)
    assert response.status_code == 409
    assert sheet(hero)["experience_dice"] == 0


def test_the_strip_offers_the_die_on_failed_tests_only(client, table, gm):
    campaign, hero, session = table.campaign, table.hero, table.session
    failed = rolled(session, hero, "no_but")
    passed = rolled(session, hero, "yes")
    client.force_login(gm)
    html = client.get(reverse("after_roll_strip", args=[campaign.pk])).content.decode()
    assert reverse("roll_experience_die", args=[campaign.pk, failed.pk]) in html
    assert reverse("roll_experience_die", args=[campaign.pk, passed.pk]) not in html


def test_a_sheet_holds_at_most_twenty_experience_dice(make_table, client, gm, player, other_player):
    table = make_table(**zarith(hero=HERO | {"experience_dice": 20}))
    campaign, hero = table.campaign, table.hero
    client.force_login(gm)
    give_die(client, campaign, character=hero.pk)
    assert sheet(hero)["experience_dice"] == 20


# --- The end of the session ---------------------------------------------------------------------


def test_ending_the_session_turns_each_experience_die_into_one_xp(
    make_table, gm, player, other_player
):
    table = make_table(**zarith(hero=HERO | {"experience_dice": 2, "xp": 5}))
    hero, session = table.hero, table.session
    end_session(session)
    data = sheet(hero)
    assert (data["xp"], data["experience_dice"]) == (7, 0)
    assert Award.objects.get().kind == "conversion"


def test_without_the_setting_the_session_end_changes_no_sheet(make_table, gm, player, other_player):
    rules = SETTINGS | {"experience_dice": False}
    table = make_table(**zarith(rules, HERO | {"experience_dice": 2, "xp": 5}))
    hero, session = table.hero, table.session
    end_session(session)
    data = sheet(hero)
    assert (data["xp"], data["experience_dice"]) == (5, 2)
    assert not Award.objects.exists()


def test_the_gms_end_session_button_converts_the_dice(make_table, client, gm, player, other_player):
    table = make_table(**zarith(hero=HERO | {"experience_dice": 3}))
    campaign, hero, session = table.campaign, table.hero, table.session
    client.force_login(gm)
    client.post(reverse("session_end", args=[campaign.pk, session.pk]), {"confirm": "yes"})
    assert sheet(hero)["xp"] == 3


def test_a_session_that_already_ended_converts_nothing_twice(make_table, gm, player, other_player):
    table = make_table(**zarith(hero=HERO | {"experience_dice": 1}))
    hero, session = table.hero, table.session
    end_session(session)
    with pytest.raises(actions.ActionRefused):
        end_session(session)
    assert sheet(hero)["xp"] == 1


# --- The dashboard and access -------------------------------------------------------------------


def test_the_dashboard_lists_the_latest_awards(client, table, gm):
    campaign, hero = table.campaign, table.hero
    client.force_login(gm)
    give_xp(client, campaign, character=hero.pk, amount="3", reason="smok pokonany")
    html = client.get(reverse("dashboard", args=[campaign.pk])).content.decode()
    assert 'id="awards"' in html
    assert "smok pokonany" in html


@pytest.mark.parametrize("who", ["player", "other_player", "outsider"])
def test_everyone_but_the_gm_gets_404_on_every_award_url(client, table, request, who):
    campaign, hero = table.campaign, table.hero
    client.force_login(request.getfixturevalue(who))
    assert client.get(reverse("awards_panel", args=[campaign.pk])).status_code == 404
    assert give_xp(client, campaign, character="all", amount="5", reason="x").status_code == 404
    assert give_die(client, campaign, character=hero.pk).status_code == 404
    assert sheet(hero)["xp"] == 0
    assert sheet(hero)["experience_dice"] == 0


def test_another_campaigns_character_cannot_be_given_anything(
    make_table, client, table, gm, player, other_player
):
    campaign = table.campaign
    other = make_table(**zarith())
    stranger = other.hero
    client.force_login(gm)
    response = give_xp(client, campaign, character=stranger.pk, amount="5", reason="x", headers=HX)
    assert response.status_code == 422
    give_die(client, campaign, character=stranger.pk)
    assert sheet(stranger)["xp"] == 0
    assert sheet(stranger)["experience_dice"] == 0


@pytest.mark.parametrize("size", [1, 6])
def test_the_awards_box_runs_a_constant_number_of_queries(
    client, table, gm, size, django_assert_num_queries
):
    campaign = table.campaign
    for _ in range(size):
        awards.give_xp(campaign=campaign, gm=gm, amount=1, reason="x")
    client.force_login(gm)
    url = reverse("awards_panel", args=[campaign.pk])
    client.get(url)
    with django_assert_num_queries(4):
        client.get(url)
