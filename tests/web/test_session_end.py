"""Ending a session asks once (a confirmation that needs no JavaScript), calls off the tests
still waiting, and tells every open page (issue 13, item 14)."""

from __future__ import annotations

import copy
import re
from html import unescape as html_unescape

import pytest
from django.urls import reverse

from campaigns.models import GameSession
from rolls.models import PendingTest
from rolls.pending import actions as pending
from tests.web.test_panel_fasttest import SHEET

pytestmark = [pytest.mark.django_db, pytest.mark.table(title="Noc pierwsza")]


def end_url(campaign, session) -> str:
    return reverse("session_end", args=[campaign.pk, session.pk])


def is_open(session) -> bool:
    return GameSession.objects.get(pk=session.pk).is_open


def test_the_session_page_leads_to_a_confirmation_not_a_one_click_end(client, table, gm):
    campaign, session = table.campaign, table.session
    client.force_login(gm)
    html = client.get(reverse("session_detail", args=[campaign.pk, session.pk])).content.decode()
    assert f'href="{end_url(campaign, session)}"' in html
    assert f'action="{end_url(campaign, session)}"' not in html


def test_the_confirmation_asks_and_ends_nothing(client, table, gm):
    campaign, session = table.campaign, table.session
    client.force_login(gm)
    response = client.get(end_url(campaign, session))
    html = response.content.decode()
    assert response.status_code == 200
    assert "End the session “Noc pierwsza”?" in html
    assert '<input type="hidden" name="confirm" value="yes">' in html
    assert is_open(session)


def test_yes_ends_the_session_and_says_so(client, table, gm):
    campaign, session = table.campaign, table.session
    client.force_login(gm)
    response = client.post(end_url(campaign, session), {"confirm": "yes"}, follow=True)
    assert not is_open(session)
    assert "The session has ended." in response.content.decode()


def test_a_post_without_the_confirmation_asks_again_and_ends_nothing(client, table, gm):
    campaign, session = table.campaign, table.session
    client.force_login(gm)
    response = client.post(end_url(campaign, session))
    assert response.status_code == 200
    assert "Yes, end the session" in response.content.decode()
    assert is_open(session)


def test_the_confirmation_counts_the_tests_still_waiting(client, table, gm):
    campaign, hero, session = table.campaign, table.hero, table.session
    pending.call_test(session=session, character=hero, gm=gm, target={"attribute": "BUDOWA"})
    client.force_login(gm)
    html = client.get(end_url(campaign, session)).content.decode()
    assert "1 test still waiting for its roll is called off." in html


def test_ending_the_session_calls_off_the_tests_still_waiting(client, table, gm):
    campaign, hero, session = table.campaign, table.hero, table.session
    test = pending.call_test(session=session, character=hero, gm=gm, target={"attribute": "BUDOWA"})
    client.force_login(gm)
    client.post(end_url(campaign, session), {"confirm": "yes"})
    assert PendingTest.objects.get(pk=test.pk).status == PendingTest.Status.CANCELLED


def test_an_ended_session_is_not_asked_about_again(client, table, gm):
    campaign, session = table.campaign, table.session
    client.force_login(gm)
    client.post(end_url(campaign, session), {"confirm": "yes"})
    response = client.get(end_url(campaign, session), follow=True)
    assert response.redirect_chain[-1][0] == reverse(
        "session_detail", args=[campaign.pk, session.pk]
    )
    assert "This session has already ended." in response.content.decode()


@pytest.mark.parametrize("method", ["get", "post"])
def test_a_player_gets_404_on_the_confirmation(client, table, player, method):
    campaign, session = table.campaign, table.session
    client.force_login(player)
    response = getattr(client, method)(end_url(campaign, session), {"confirm": "yes"})
    assert response.status_code == 404
    assert is_open(session)


def test_the_confirmation_speaks_polish(client, table, gm):
    campaign, session = table.campaign, table.session
    client.force_login(gm)
    client.cookies["django_language"] = "pl"
    html = client.get(end_url(campaign, session)).content.decode()
    assert "Tak, zakończ sesję" in html


def _refreshed_on_session(client, html: str, part: str) -> None:
    """The part refreshes itself on the session's event, from its own endpoint, which answers
    with that very part (no page is fetched to cut it out)."""
    tag = re.search(rf'<[a-z]+[^>]*id="{part}"[^>]*>', html)
    assert tag, part
    trigger = re.search(r'hx-trigger="([^"]*)"', tag.group(0))
    assert trigger, part
    assert "table:session from:body" in html_unescape(trigger.group(1)), part
    url = re.search(r'hx-get="([^"]*)"', tag.group(0))
    assert url, part
    answer = client.get(html_unescape(url.group(1)), HTTP_HX_REQUEST="true")
    assert answer.status_code == 200, part
    assert re.match(rf'\s*(\{{%[^%]*%\}})?\s*<[a-z]+[^>]*id="{part}"', answer.content.decode()), (
        part
    )
    assert "<html" not in answer.content.decode(), part


def test_the_parts_of_a_page_that_show_the_session_are_refreshed_when_it_changes(
    client, table, gm, player
):
    campaign, hero, session = table.campaign, table.hero, table.session
    client.force_login(player)
    html = client.get(reverse("session_detail", args=[campaign.pk, session.pk])).content.decode()
    _refreshed_on_session(client, html, "session-side")
    hero.data = copy.deepcopy(SHEET)
    hero.save()
    client.force_login(gm)
    # The dashboard asks once for every part the session's event changes
    # (rolls/dashboard/live_parts.py).
    live = reverse("dashboard_live", args=[campaign.pk])
    answer = client.get(live, {"event": "table:session"}, HTTP_HX_REQUEST="true").content.decode()
    for part in ("dash-meta", "pending-tests", "party", "after-roll", "random-tables"):
        assert re.search(rf'<[a-z]+ hx-swap-oob="morph"[^>]*id="{part}"', answer), part


def test_the_campaign_pages_sessions_card_is_refreshed_when_a_session_starts_or_ends(
    client, table, player
):
    client.force_login(player)
    html = client.get(reverse("campaign_detail", args=[table.campaign.pk])).content.decode()
    _refreshed_on_session(client, html, "campaign-sessions")


def test_after_the_end_the_players_sessions_card_no_longer_leads_to_the_table(
    client, table, gm, player
):
    campaign, session = table.campaign, table.session
    client.force_login(player)
    url = reverse("campaign_sessions", args=[campaign.pk])
    assert "Go to the table" in client.get(url, HTTP_HX_REQUEST="true").content.decode()
    client.force_login(gm)
    client.post(end_url(campaign, session), {"confirm": "yes"})
    client.force_login(player)
    card = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert "Go to the table" not in card
    assert "· running" not in card
    assert "No session is running." in card
