"""A roll sent again with its key (its first answer was lost) is answered with the roll it made,
even where the sheet no longer allows the same choices: nothing is rolled twice."""

import uuid

import pytest
from django.urls import reverse

from rolls.models import Roll
from rolls.pending import actions as pending
from tests.web.live import panel_url
from tests.web.test_panel_fasttest import TABLE
from tests.web.test_pending_tests import roll_form

pytestmark = [pytest.mark.django_db, TABLE]
HX = {"HX-Request": "true"}


def test_a_roll_sent_again_with_its_key_answers_with_the_same_roll(client, running):
    hero = running.hero
    form = {"attribute": "BUDOWA", "key": str(uuid.uuid4())}
    first = client.post(panel_url(hero, "test_roll"), form, headers=HX)
    again = client.post(panel_url(hero, "test_roll"), form, headers=HX)
    roll = Roll.objects.get()
    assert (first.status_code, again.status_code) == (200, 200)
    assert f'data-seq="{roll.seq}"' in again.content.decode()


def test_a_roll_that_spent_the_last_experience_dice_sent_again_is_not_refused(client, running):
    hero = running.hero
    form = {"attribute": "BUDOWA", "experience": "2", "key": str(uuid.uuid4())}
    client.post(panel_url(hero, "test_roll"), form, headers=HX)
    again = client.post(panel_url(hero, "test_roll"), form, headers=HX)
    hero.refresh_from_db()
    assert again.status_code == 200
    assert f'data-seq="{Roll.objects.get().seq}"' in again.content.decode()
    assert hero.data["experience_dice"] == 0


def test_a_new_key_with_choices_the_sheet_no_longer_allows_is_still_refused(client, running):
    hero = running.hero
    client.post(
        panel_url(hero, "test_roll"),
        {"attribute": "BUDOWA", "experience": "2", "key": str(uuid.uuid4())},
    )
    response = client.post(
        panel_url(hero, "test_roll"),
        {"attribute": "BUDOWA", "experience": "2", "key": str(uuid.uuid4())},
    )
    assert response.status_code == 422
    assert "You can spend from 0 to 0 experience dice." in response.content.decode()
    assert Roll.objects.count() == 1


def test_another_players_key_does_not_answer_with_their_roll(client, running, other_player):
    campaign, hero = running.campaign, running.hero
    form = {"attribute": "BUDOWA", "experience": "2", "key": str(uuid.uuid4())}
    client.post(panel_url(hero, "test_roll"), form)
    client.force_login(campaign.gm)
    response = client.post(panel_url(hero, "test_roll"), form)
    assert response.status_code == 422
    assert Roll.objects.count() == 1


def test_a_called_test_sent_again_with_its_key_answers_with_its_roll(client, running, gm):
    campaign, hero = running.campaign, running.hero
    session = campaign.sessions.get()
    test = pending.call_test(session=session, character=hero, gm=gm, target={"attribute": "BUDOWA"})
    form = roll_form(test, revision=1)
    url = reverse("test_roll", args=[campaign.pk, hero.pk])
    client.post(url, form)
    again = client.post(url, form)
    assert again.status_code == 200
    assert "already been rolled" not in again.content.decode()
    assert f'data-seq="{Roll.objects.get().seq}"' in again.content.decode()


def test_the_panel_carries_the_not_sent_message_and_a_focusable_result(client, running):
    hero = running.hero
    form = {"attribute": "BUDOWA", "experience": "1", "key": str(uuid.uuid4())}
    html = client.post(panel_url(hero, "test_roll"), form, headers=HX).content.decode()
    assert '<template id="roll-not-sent">' in html
    assert "Send the roll again" in html
    assert '<div class="rolled" tabindex="-1">' in html


def test_a_panel_that_cannot_roll_marks_its_button_not_ready(client, running):
    hero = running.hero
    html = client.post(panel_url(hero), {"attribute": ""}).content.decode()
    assert 'disabled data-not-ready="true"' in html
