"""AST (RULES.md 2.3): a player's free (not called) hindered test is read with the worst white
die at once; the GM may read another one from the dashboard's box, logged as a follow-up of the
roll with the same visibility, naming the GM's pick and the new outcome."""

import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rolls.models import Roll
from rolls.pending import actions as pending
from tests.web.live import panel_url
from tests.web.test_panel_ast import FIVE, SHEET, TIRED_AND_WOUNDED

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.table("ast", name="Sagi Północy", characters=[("Olaf", SHEET)]),
]

HTMX = {"HTTP_HX_REQUEST": "true"}
#: Example 1b: black 4, white 3,3,6,4,1, tired and wounded (+2): hindered, the 1 read.
HINDERED = [4, 3, 3, 6, 4, 1]


@pytest.fixture
def dice(dice):
    return dice.queue()


def roll_free(table, dice, faces=HINDERED, form=TIRED_AND_WOUNDED, **extra):
    """Olaf's player rolls a test the GM did not call; its entry."""
    dice.faces = list(faces)
    data = {**form, "key": str(uuid.uuid4()), **extra}
    client = table.client(table.players[0])
    assert client.post(panel_url(table.hero, "test_roll"), data).status_code == 200
    return Roll.objects.order_by("-seq").first()


def gm_reads(client, table, roll, choice, key=None):
    url = reverse("gm_follow_free_roll", args=[table.campaign.pk, roll.pk, "gm_choose"])
    return client.post(url, {"choice": choice, "key": key or str(uuid.uuid4())}, **HTMX)


def box(client, table):
    return client.get(reverse("gm_readings_box", args=[table.campaign.pk]), **HTMX)


def test_a_free_hindered_test_is_read_with_the_worst_die_at_once(table, dice):
    first = roll_free(table, dice)
    answer = first.result["answer"]
    assert (answer["mode"], answer["outcome"]) == ("hindered", "no_and")


def test_the_gms_box_offers_the_other_white_dice_of_a_free_hindered_test(table, dice):
    first = roll_free(table, dice)
    html = box(table.client(table.gm), table).content.decode()
    assert f'id="gm-reading-{first.pk}"' in html
    assert "Hindered: you choose the white die read (now 1: Nie, i… (no, and…), the worst)" in html
    assert f'id="gm-reading-{first.pk}-choice-2"' in html  # the 6


def test_the_dashboard_shows_the_box(table, dice):
    roll_free(table, dice)
    html = table.client(table.gm).get(reverse("dashboard", args=[table.campaign.pk]))
    assert 'id="gm-readings"' in html.content.decode()


def test_the_gm_reads_another_die_logged_as_a_follow_up_naming_the_pick(table, dice):
    first = roll_free(table, dice)
    response = gm_reads(table.client(table.gm), table, first, "2")
    chosen = Roll.objects.get(kind="gm_choose")
    assert response.status_code == 200
    assert (chosen.parent, chosen.actor, chosen.character) == (first, table.gm, table.hero)
    assert chosen.result["answer"]["outcome"] == "yes_and"
    log = table.client(table.players[0]).get(reverse("session_log", args=[table.campaign.pk]))
    text = log.content.decode()
    assert f"white die chosen by the GM → #{first.seq}" in text
    assert "the white 6 read by the GM&#x27;s choice: white die 3" in text


def test_once_read_the_roll_leaves_the_box(table, dice):
    first = roll_free(table, dice)
    html = gm_reads(table.client(table.gm), table, first, "2").content.decode()
    assert f'id="gm-reading-{first.pk}"' not in html
    assert "No player's roll waits for your choice." in html


def test_the_gms_reading_keeps_the_rolls_visibility(table, dice):
    first = roll_free(table, dice, visibility="secret")
    gm_reads(table.client(table.gm), table, first, "2")
    chosen = Roll.objects.get(kind="gm_choose")
    assert chosen.visibility == first.visibility == "secret"
    other = table.client(table.players[1])
    text = other.get(reverse("session_log", args=[table.campaign.pk])).content.decode()
    assert "white die chosen by the GM" not in text


def test_a_second_reading_is_refused_as_already_chosen(table, dice):
    first = roll_free(table, dice)
    gm = table.client(table.gm)
    gm_reads(gm, table, first, "2")
    again = gm_reads(gm, table, first, "0")
    assert again.status_code == 409
    assert f"You have already made your choice on #{first.seq}." in again.content.decode()
    assert Roll.objects.filter(kind="gm_choose").count() == 1


def test_a_reading_of_a_roll_the_player_re_rolled_since_is_refused_as_stale(table, dice):
    first = roll_free(table, dice)
    dice.faces = [5]
    url = reverse("test_follow_up", args=[table.campaign.pk, table.hero.pk, first.pk, "reroll"])
    table.client(table.players[0]).post(url, {"die": ["4"], "key": str(uuid.uuid4())})
    reroll = Roll.objects.get(kind="reroll")
    refused = gm_reads(table.client(table.gm), table, first, "2")
    assert refused.status_code == 409
    html = refused.content.decode()
    assert f"#{first.seq} has changed since your page showed it (#{reroll.seq} followed it)" in html
    assert f'id="gm-reading-{reroll.pk}"' in html  # the re-roll is the one offered now
    assert not Roll.objects.filter(kind="gm_choose").exists()


def test_a_reading_of_a_test_that_is_not_hindered_is_refused(table, dice):
    eased = roll_free(table, dice, form=FIVE)
    refused = gm_reads(table.client(table.gm), table, eased, "2")
    assert refused.status_code == 409
    assert "This roll is not hindered" in refused.content.decode()
    assert f'id="gm-reading-{eased.pk}"' not in box(table.client(table.gm), table).content.decode()
    assert Roll.objects.count() == 1


def test_a_player_cannot_read_the_gms_die(table, dice):
    first = roll_free(table, dice)
    response = gm_reads(table.client(table.players[0]), table, first, "2")
    assert response.status_code == 404
    assert Roll.objects.count() == 1


def test_a_die_not_offered_is_refused_and_nothing_is_logged(table, dice):
    first = roll_free(table, dice)
    refused = gm_reads(table.client(table.gm), table, first, "4")
    assert "Choose one of the white dice offered." in refused.content.decode()
    assert Roll.objects.count() == 1


def test_a_double_submitted_reading_is_logged_once(table, dice):
    first = roll_free(table, dice)
    gm, key = table.client(table.gm), str(uuid.uuid4())
    gm_reads(gm, table, first, "2", key)
    gm_reads(gm, table, first, "2", key)
    assert Roll.objects.filter(kind="gm_choose").count() == 1


def test_a_reading_without_a_key_is_refused_as_malformed(table, dice):
    first = roll_free(table, dice)
    url = reverse("gm_follow_free_roll", args=[table.campaign.pk, first.pk, "gm_choose"])
    response = table.client(table.gm).post(url, {"choice": "2"}, **HTMX)
    assert (response.status_code, "This request is malformed.") == (
        400, response.context["gm_reading_refusal"],
    )  # fmt: skip


def test_a_called_test_is_not_in_the_box(table, dice):
    called = pending.call_test(session=table.session, character=table.hero, gm=table.gm, target={})
    dice.faces = list(HINDERED)
    data = {**TIRED_AND_WOUNDED, "pending": called.pk, "revision": called.revision,
            "key": str(uuid.uuid4())}  # fmt: skip
    table.client(table.players[0]).post(panel_url(table.hero, "test_roll"), data)
    html = box(table.client(table.gm), table).content.decode()
    assert "No player's roll waits for your choice." in html


def test_a_system_whose_gm_never_chooses_shows_no_box(make_table):
    other = make_table("fasttest", name="Inny stół")
    html = other.client(other.gm).get(reverse("dashboard", args=[other.campaign.pk]))
    assert 'id="gm-readings"' not in html.content.decode()


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as captured:
        client.get(url, **HTMX)
    return len(captured)


def test_the_boxs_queries_do_not_grow_with_the_log(table, dice):
    gm, url = table.client(table.gm), reverse("gm_readings_box", args=[table.campaign.pk])
    for _ in range(11):
        roll_free(table, dice)
    gm.get(url, **HTMX)
    few = _queries(gm, url)
    for _ in range(10):
        roll_free(table, dice)
    assert _queries(gm, url) == few
