"""The GM's dashboard folds what piles up after the rolls: a rolled card stays until its
character's next test is called, the after-roll strip keeps ten tests, a T10 roll's options stay
until chosen. Only the latest is shown open; the ones before it wait under one summary that
counts them."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse

from rolls.models import PendingTest
from rolls.pending import actions as pending
from tests.web.test_after_roll import HERO, SETTINGS, rolled
from tests.web.test_conditions import SHEET as ASTRID
from tests.web.test_t10_options import FAIL_BUT
from tests.web.test_t10_options import roll as t10_roll

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.table(
        settings={"fasttest": SETTINGS},
        characters=[("Brunhilda", HERO), ("Zbyszko", HERO), ("Celina", HERO)],
        players=["player", "other_player", "third_player"],
    ),
]
FOLD = '<details class="folded-rolled"'


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


# --- The after-roll strip (FastTest) --------------------------------------------------------------


def strip(client, table) -> tuple[str, str]:
    client.force_login(table.gm)
    html = client.get(reverse("after_roll_strip", args=[table.campaign.pk])).content.decode()
    shown, _, folded = html.partition(FOLD)
    return shown, folded


def items(html: str) -> list[int]:
    return [int(pk) for pk in re.findall(r'<li class="after-item[^"]*" id="after-(\d+)"', html)]


def test_the_strip_shows_the_newest_test_and_folds_the_settled_ones(client, table):
    first, second, latest = (
        rolled(table.session, table.hero, "no", combat=False) for _ in range(3)
    )
    shown, folded = strip(client, table)
    assert items(shown) == [latest.pk]
    assert items(folded) == [second.pk, first.pk]
    assert "Earlier tests (2)</summary>" in folded


def test_a_wound_still_to_apply_stays_open_on_the_strip(client, table):
    fight = rolled(table.session, table.hero, "no")  # a combat test, its wound not applied
    rolled(table.session, table.hero, "yes", combat=False)
    latest = rolled(table.session, table.hero, "no", combat=False)
    shown, folded = strip(client, table)
    assert items(shown) == [latest.pk, fight.pk]
    assert "Earlier test (1)</summary>" in folded


# --- The options after a T10 roll ---------------------------------------------------------------


@pytest.fixture
def moorcrest(make_table):
    return make_table("t10", name="Moorcrest", characters=[("Astrid", ASTRID)], players=1)


def test_only_the_newest_rolls_options_are_open(client, moorcrest, dice):
    client.force_login(moorcrest.players[0])
    first, second, latest = (t10_roll(client, moorcrest, dice, FAIL_BUT)[1] for _ in range(3))
    client.force_login(moorcrest.gm)
    url = reverse("roll_options_box", args=[moorcrest.campaign.pk])
    shown, _, folded = client.get(url).content.decode().partition(FOLD)
    offers = r'<li class="after-item" id="options-(\d+)"'
    assert [int(pk) for pk in re.findall(offers, shown)] == [latest.pk]
    assert [int(pk) for pk in re.findall(offers, folded)] == [second.pk, first.pk]
    assert "Options after earlier rolls (2)</summary>" in folded
