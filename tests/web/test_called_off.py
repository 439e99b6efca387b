"""When the GM calls off a test, the player's panel says so instead of silently turning into a
free test (issue 13, item 15)."""

from __future__ import annotations

import copy

import pytest

from rolls.models import PendingTest
from rolls.pending import actions as pending
from sheets.models import Character
from tests.web.live import panel_url
from tests.web.test_panel_fasttest import SHEET

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.table(name="Zarith", characters=[("Brunhilda", SHEET)]),
]

NOTICE = "The GM called off the test they called for."


@pytest.fixture
def called(table, gm):
    hero, session = table.hero, table.session
    test = pending.call_test(
        session=session, character=hero, gm=gm, target={"attribute": "ZRĘCZNOŚĆ", "skill": []}
    )
    pending.change_test(test.pk, gm, "add_dice", kind="penalty", amount=4, source="śliski lód")
    return test


def test_the_panel_says_the_gm_called_the_test_off(client, called, gm, player):
    pending.cancel_test(called.pk, gm)
    client.force_login(player)
    response = client.get(panel_url(called.character), {"called_off": called.pk})
    html = response.content.decode()
    assert NOTICE in html
    assert 'class="called-off" role="alert"' in html


def test_the_free_test_keeps_the_stat_without_the_gms_dice(client, called, gm, player):
    pending.cancel_test(called.pk, gm)
    client.force_login(player)
    response = client.get(panel_url(called.character), {"called_off": called.pk})
    panel = response.context["panel"]
    assert panel.label.startswith("ZRĘCZNOŚĆ")
    assert panel.params["penalty"] == 0
    assert response.context["pending"] is None
    assert 'name="pending"' not in response.content.decode()


def test_no_notice_for_a_test_that_is_still_open(client, called, player):
    client.force_login(player)
    response = client.get(panel_url(called.character), {"called_off": called.pk})
    assert NOTICE not in response.content.decode()


def test_no_notice_for_a_test_that_was_rolled(client, called, gm, player):
    PendingTest.objects.filter(pk=called.pk).update(status=PendingTest.Status.ROLLED)
    client.force_login(player)
    response = client.get(panel_url(called.character), {"called_off": called.pk})
    assert NOTICE not in response.content.decode()


def test_a_newer_call_is_shown_instead_of_the_notice(client, table, called, gm, player):
    hero, session = table.hero, table.session
    newer = pending.call_test(
        session=session, character=hero, gm=gm, target={"attribute": "BUDOWA", "skill": []}
    )  # calls the first one off
    client.force_login(player)
    response = client.get(panel_url(hero), {"called_off": called.pk})
    assert NOTICE not in response.content.decode()
    assert response.context["pending"] == newer


def test_another_characters_called_off_test_says_nothing(client, table, called, gm, other_player):
    campaign = table.campaign
    theirs = Character.objects.create(
        campaign=campaign, owner=other_player, name="Zbyszko", data=copy.deepcopy(SHEET)
    )
    pending.cancel_test(called.pk, gm)
    client.force_login(other_player)
    response = client.get(panel_url(theirs), {"called_off": called.pk})
    assert NOTICE not in response.content.decode()


def test_a_forged_called_off_value_is_ignored(client, called, player):
    client.force_login(player)
    response = client.get(panel_url(called.character), {"called_off": "drop table"})
    assert response.status_code == 200
    assert NOTICE not in response.content.decode()


def test_rolling_the_called_off_test_is_refused_with_a_message(client, called, gm, player):
    pending.cancel_test(called.pk, gm)
    client.force_login(player)
    form = {"pending": called.pk, "revision": 2, "key": "6f9619ff-8b86-4011-b42d-00c04fc964ff"}
    response = client.post(panel_url(called.character, "test_roll"), form)
    assert response.status_code == 409
    assert "already been rolled or called off" in response.content.decode()
