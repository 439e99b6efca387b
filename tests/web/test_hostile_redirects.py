"""A hostile ``next`` (issue 23, second round): a post without JavaScript goes back to the page
it came from when that is a page of this site, to a safe page otherwise, and never fails after
its roll is committed."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

from rolls.models import Roll
from tests.web import test_quick_dice
from tests.web.test_quick_dice import quick

#: The quick dice' own table (a FastTest campaign with a running session, no characters).
pytestmark = [pytest.mark.django_db, test_quick_dice.TABLE]

HOSTILE_NEXT = [
    "-1",
    "dashboard",
    "//evil.example",
    "http://evil.example/",
    "https:///evil.example",
    "javascript:alert(1)",
    "",
    "/" + "a" * 5000,
    "\\\\evil",
    "/\\evil.example",
    "/\x00",
    " /c/",
    "/no/such/page/",
]


@pytest.mark.parametrize("target", HOSTILE_NEXT, ids=repr)
def test_a_roll_without_javascript_and_a_hostile_next_goes_back_to_the_campaign(
    client, table, player, target
):
    campaign = table.campaign
    client.force_login(player)
    response = quick(client, campaign, "d6", headers={}, next=target)
    assert (response.status_code, response["Location"]) == (
        302,
        reverse("campaign_detail", args=[campaign.pk]),
    )
    assert Roll.objects.count() == 1


def test_the_retry_of_a_roll_with_a_hostile_next_redirects_and_rolls_nothing_more(
    client, table, player
):
    campaign = table.campaign
    client.force_login(player)
    key = str(uuid.uuid4())
    quick(client, campaign, "d6", headers={}, next="-1", key=key)
    response = quick(client, campaign, "d6", headers={}, next="-1", key=key)
    assert response.status_code == 302
    assert Roll.objects.count() == 1


def test_a_next_of_this_site_with_its_query_is_still_followed(client, table, player):
    campaign = table.campaign
    client.force_login(player)
    page = reverse("dashboard", args=[campaign.pk]) + "?tab=log#quick-dice"
    response = quick(client, campaign, "d6", headers={}, next=page)
    assert response["Location"] == page


def test_a_refused_roll_with_a_hostile_next_links_back_to_the_campaign(client, table, player):
    campaign = table.campaign
    client.force_login(player)
    response = quick(client, campaign, "2d", headers={}, next="javascript:alert(1)")
    assert response.status_code == 422
    assert f'href="{reverse("campaign_detail", args=[campaign.pk])}"' in response.content.decode()


@pytest.mark.parametrize("target", ["-1", "home", "/\x00", "//evil.example"], ids=repr)
def test_signing_up_while_logged_in_with_a_hostile_next_goes_home(client, player, target):
    client.force_login(player)
    response = client.get(reverse("signup"), {"next": target})
    assert (response.status_code, response["Location"]) == (302, reverse("home"))
