"""The GM's dashboard folds the rolled tests that pile up: a rolled card stays until its
character's next test is called, so only the latest roll is shown open; the ones before it wait
under one summary that counts them."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse

from rolls import pending
from rolls.models import PendingTest
from tests.web.test_after_roll import HERO, SETTINGS, rolled

pytestmark = pytest.mark.django_db
FOLD = '<details class="folded-rolled"'


@pytest.fixture
def table(make_table, player, other_player, make_user):
    return make_table(
        settings={"fasttest": SETTINGS},
        characters=[("Brunhilda", HERO), ("Zbyszko", HERO), ("Celina", HERO)],
        players=[player, other_player, make_user("third")],
    )


def pending_part(client, table) -> tuple[str, str]:
    """The tests being shaped as the GM's refresh gets them: what is shown open, what is folded."""
    client.force_login(table.gm)
    html = client.get(reverse("dashboard_pending", args=[table.campaign.pk])).content.decode()
    shown, _, folded = html.partition(FOLD)
    return shown, folded


def cards(html: str) -> list[int]:
    """The called tests' cards in ``html``, in their order."""
    return [
        int(pk) for pk in re.findall(r'<article class="pending-card[^"]*" id="pending-(\d+)"', html)
    ]


def test_only_the_latest_of_three_rolled_tests_is_open(client, table):
    first, second, latest = (
        rolled(table.session, hero, "no").pending_test for hero in table.characters
    )
    shown, folded = pending_part(client, table)
    assert cards(shown) == [latest.pk]
    assert cards(folded) == [second.pk, first.pk]  # newest first
    assert "Earlier rolled tests (2)</summary>" in folded


def test_the_open_one_is_the_latest_roll_not_the_latest_call(client, table):
    brunhilda, zbyszko, _celina = table.characters
    earlier = rolled(table.session, zbyszko, "no").pending_test
    latest = rolled(table.session, brunhilda, "yes").pending_test
    # Brunhilda's test was called first and rolled last.
    PendingTest.objects.filter(pk=latest.pk).update(created_at=earlier.created_at - timedelta(1))
    shown, folded = pending_part(client, table)
    assert cards(shown) == [latest.pk]
    assert cards(folded) == [earlier.pk]
    assert "Earlier rolled test (1)</summary>" in folded


def test_a_test_waiting_for_its_roll_is_never_folded(client, table):
    brunhilda, zbyszko, celina = table.characters
    rolled(table.session, brunhilda, "no")
    rolled(table.session, zbyszko, "no")
    waiting = pending.call_test(
        session=table.session, character=celina, gm=table.gm, target={"attribute": "BUDOWA"}
    )
    shown, _folded = pending_part(client, table)
    assert waiting.pk in cards(shown)


def test_a_single_rolled_test_is_not_folded(client, table):
    rolled(table.session, table.hero, "no")
    shown, folded = pending_part(client, table)
    assert len(cards(shown)) == 1
    assert folded == ""


def test_the_summary_counts_them_in_polish(client, table):
    for hero in table.characters:
        rolled(table.session, hero, "no")
    client.force_login(table.gm)
    url = reverse("dashboard_pending", args=[table.campaign.pk])
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert "Wcześniej rzucone testy (2)</summary>" in html
