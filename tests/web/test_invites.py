"""Invite links: joining, joining twice, logging in first, revoking and regenerating."""

import pytest
from django.urls import reverse

from campaigns.actions import create_campaign, join_campaign
from campaigns.models import Membership

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign(gm):
    return create_campaign(gm=gm, name="Sagi Północy", system="ast")


def join_url(token: str) -> str:
    return reverse("campaign_join", args=[token])


def regenerate(campaign):
    return reverse("invite_regenerate", args=[campaign.pk])


def revoke(campaign):
    return reverse("invite_revoke", args=[campaign.pk])


def test_the_gm_sees_the_link_in_a_readonly_input(client, campaign, gm):
    client.force_login(gm)
    html = client.get(reverse("campaign_detail", args=[campaign.pk])).content.decode()
    assert f'readonly value="http://testserver{join_url(campaign.invite_token)}"' in html
    assert '<label for="invite-link">' in html


def test_opening_the_link_asks_before_joining(client, campaign, player):
    client.force_login(player)
    response = client.get(join_url(campaign.invite_token))
    assert "Join as a player" in response.content.decode()
    assert not Membership.objects.filter(campaign=campaign, user=player).exists()


def test_joining_makes_the_user_a_player(client, campaign, player):
    client.force_login(player)
    response = client.post(join_url(campaign.invite_token))
    assert response["Location"] == reverse("campaign_detail", args=[campaign.pk])
    assert Membership.objects.get(campaign=campaign, user=player).role == "player"


def test_joining_twice_changes_nothing(client, campaign, player):
    client.force_login(player)
    client.post(join_url(campaign.invite_token))
    response = client.post(join_url(campaign.invite_token))
    assert response.status_code == 302
    assert Membership.objects.filter(campaign=campaign, user=player).count() == 1


def test_a_member_opening_the_link_again_goes_to_the_campaign(client, campaign, player):
    join_campaign(campaign, player)
    client.force_login(player)
    response = client.get(join_url(campaign.invite_token))
    assert response["Location"] == reverse("campaign_detail", args=[campaign.pk])


def test_the_gm_opening_their_own_link_stays_gm(client, campaign, gm):
    client.force_login(gm)
    response = client.post(join_url(campaign.invite_token))
    assert response.status_code == 302
    assert list(Membership.objects.filter(campaign=campaign).values_list("role", flat=True)) == [
        "gm"
    ]


def test_an_anonymous_visitor_is_offered_log_in_and_sign_up_that_return(client, campaign):
    html = client.get(join_url(campaign.invite_token)).content.decode()
    back = join_url(campaign.invite_token)
    assert f'href="{reverse("login")}?next={back}"' in html
    assert f'href="{reverse("signup")}?next={back}"' in html


def test_logging_in_through_the_link_comes_back_to_join(client, campaign, player):
    back = join_url(campaign.invite_token)
    response = client.post(
        f"{reverse('login')}?next={back}",
        {"username": "player", "password": "a-long-test-password", "next": back},
    )
    assert response["Location"] == back
    client.post(back)
    assert Membership.objects.filter(campaign=campaign, user=player).exists()


def test_signing_up_through_the_link_comes_back_to_join(client, campaign):
    client.get(join_url(campaign.invite_token))
    response = client.post(
        reverse("signup"),
        {"username": "zosia", "password1": "kości-i-smoki-2026", "password2": "kości-i-smoki-2026"},
        follow=True,
    )
    assert response.redirect_chain[-1][0] == join_url(campaign.invite_token)
    assert "Join as a player" in response.content.decode()


def test_the_way_back_is_used_once(client, campaign, player):
    client.get(join_url(campaign.invite_token))
    client.force_login(player)
    assert client.get(reverse("home"))["Location"] == join_url(campaign.invite_token)
    assert client.get(reverse("home")).status_code == 200


def test_an_anonymous_post_to_the_link_is_sent_to_log_in(client, campaign):
    response = client.post(join_url(campaign.invite_token))
    assert response["Location"].startswith(reverse("login"))
    assert not Membership.objects.filter(campaign=campaign, role="player").exists()


def test_a_wrong_token_is_a_friendly_404(client, player):
    client.force_login(player)
    response = client.get(join_url("not-a-real-token"))
    assert response.status_code == 404
    assert "This invite link does not work" in response.content.decode()


def test_a_revoked_link_no_longer_works(client, campaign, gm, player):
    token = campaign.invite_token
    client.force_login(gm)
    client.post(revoke(campaign))
    campaign.refresh_from_db()
    assert campaign.invite_token is None
    client.force_login(player)
    assert client.post(join_url(token)).status_code == 404
    assert not Membership.objects.filter(campaign=campaign, user=player).exists()


def test_a_revoked_link_shows_no_link_to_the_gm(client, campaign, gm):
    client.force_login(gm)
    client.post(revoke(campaign))
    html = client.get(reverse("campaign_detail", args=[campaign.pk])).content.decode()
    assert "The invite link is off" in html


def test_a_regenerated_link_replaces_the_old_one(client, campaign, gm, player):
    old = campaign.invite_token
    client.force_login(gm)
    client.post(regenerate(campaign))
    campaign.refresh_from_db()
    assert campaign.invite_token != old
    client.force_login(player)
    assert client.get(join_url(old)).status_code == 404
    client.post(join_url(campaign.invite_token))
    assert Membership.objects.filter(campaign=campaign, user=player).exists()


def test_regenerating_after_revoking_opens_the_campaign_again(client, campaign, gm):
    client.force_login(gm)
    client.post(revoke(campaign))
    client.post(regenerate(campaign))
    campaign.refresh_from_db()
    assert campaign.invite_token


def test_htmx_regenerating_swaps_only_the_invite_box(client, campaign, gm):
    client.force_login(gm)
    response = client.post(regenerate(campaign), headers={"HX-Request": "true"})
    campaign.refresh_from_db()
    html = response.content.decode()
    assert html.startswith('<section class="card invite" id="invite"')
    assert campaign.invite_token in html
    assert "previous link no longer works" in html


def test_a_player_cannot_regenerate_or_revoke(client, campaign, player):
    join_campaign(campaign, player)
    token = campaign.invite_token
    client.force_login(player)
    assert client.post(regenerate(campaign)).status_code == 404
    assert client.post(revoke(campaign)).status_code == 404
    campaign.refresh_from_db()
    assert campaign.invite_token == token
