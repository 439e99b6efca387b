"""Caerbannog's opposed results are revealed in turn (RULES.md 4.10, issue 25 item 4): the
opponent's roll reaches nobody but the GM and the opponent's player until the initiator has
settled, by any path (the page, the log partial, the exports, the statistics, the sockets);
the initiator decides without it; once they settle, everyone who may see the test sees it."""

from __future__ import annotations

import copy
import csv
import io
import re
import uuid

import pytest
from django.urls import reverse

from campaigns.sessions import end_session
from rolls.models import OpposedTest, Roll, Visibility
from rolls.opposed.actions import cancel_opposed
from sheets.models import NPC
from tests.web.test_hostile_hidden_opposed import initiators_panel
from tests.web.test_opposed import (
    FASTTEST_SHEET,
    caerbannog_duel,
    duel,
    fasttest_duel,
    roll_side,
    start,
)
from tests.web.test_opposed import (
    panel_of as side_panel,
)
from tests.web.test_opposed_settle import follow, settle
from tests.web.test_panel_caerbannog import SHEET

pytestmark = pytest.mark.django_db

WAITS = "has rolled their side of the opposed test"
WHO = ("initiator", "opponent", "another", "gm")


@pytest.fixture
def another(make_user):
    return make_user("another")


@pytest.fixture
def caerbannog(make_table, player, other_player, another):
    """Ala's Julio and Bartek's rival on the Caerbannog panel's sheet; a third player without
    a side in the test sits at the table too."""
    sheets = (copy.deepcopy(SHEET), copy.deepcopy(SHEET))
    return make_table(**duel("caerbannog", *sheets), players=[player, other_player, another])


@pytest.fixture
def people(gm, player, other_player, another, outsider):
    return {
        "initiator": player,
        "opponent": other_player,
        "another": another,
        "gm": gm,
        "outsider": outsider,
    }


@pytest.fixture
def sealed(client, gm, player, other_player, caerbannog, dice):
    """Julio (3d10) rolled 4; his rival (3d8) then rolled 7, 1, 8 (7): Julio has not settled."""
    opposed = caerbannog_duel(client, gm, caerbannog)
    dice(4, 2, 9)
    roll_side(client, player, opposed.initiator)
    dice(7, 1, 8)
    roll_side(client, other_player, opposed.opponent)
    opposed.refresh_from_db()
    return opposed


@pytest.fixture
def revealed(client, player, sealed):
    settle(client, player, sealed, "a")
    sealed.refresh_from_db()
    return sealed


def rival_roll(opposed: OpposedTest) -> Roll:
    return opposed.opponent.roll


def whole(html: str, roll: Roll) -> bool:
    """Whether the page shows ``roll``'s entry whole (False: redacted; it must be there)."""
    tag = re.search(rf'<li class="([^"]*)" id="roll-{roll.session_id}-{roll.seq}"', html)
    assert tag is not None, f"#{roll.seq} is not on the page"
    return "entry-redacted" not in tag.group(1)


def log_page(client, user, campaign) -> str:
    client.force_login(user)
    return client.get(reverse("session_log", args=[campaign.pk])).content.decode()


def table_page(client, user, opposed) -> str:
    client.force_login(user)
    session = opposed.session
    url = reverse("session_detail", args=[session.campaign_id, session.pk])
    return client.get(url).content.decode()


def export(client, user, opposed, fmt: str):
    client.force_login(user)
    session = opposed.session
    url = reverse("session_export", args=[session.campaign_id, session.pk, fmt])
    return client.get(url)


def d8s_counted(client, user, opposed) -> int:
    """How many d8 the viewer's statistics count: the rival's three alone are d8."""
    client.force_login(user)
    session = opposed.session
    url = reverse("session_stats", args=[session.campaign_id, session.pk])
    whole_session = client.get(url).context["whole"]
    return sum(die.total for die in whole_session.dice if die.sides == 8)


# Before the initiator settles ------------------------------------------------------------------

SEES_IT_SEALED = {"initiator": False, "opponent": True, "another": False, "gm": True}


@pytest.mark.parametrize("who", WHO)
def test_the_sealed_roll_on_the_log_partial_is_whole_only_to_the_gm_and_its_player(
    client, people, sealed, who
):
    html = log_page(client, people[who], sealed.session.campaign)
    assert whole(html, rival_roll(sealed)) is SEES_IT_SEALED[who]


@pytest.mark.parametrize("who", WHO)
def test_the_sealed_roll_on_the_table_page_is_whole_only_to_the_gm_and_its_player(
    client, people, sealed, who
):
    html = table_page(client, people[who], sealed)
    assert whole(html, rival_roll(sealed)) is SEES_IT_SEALED[who]


def test_the_others_read_that_the_opponent_rolled_and_waits_for_the_initiator(
    client, people, sealed
):
    html = log_page(client, people["another"], sealed.session.campaign)
    assert f"Bartek {WAITS}; it is shown once the initiator reveals their final result." in html


def test_the_sealed_roll_reads_in_polish_too(client, people, sealed):
    client.force_login(people["initiator"])
    url = reverse("session_log", args=[sealed.session.campaign_id])
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert "Bartek: rzut w teście przeciwstawnym już wykonany" in html


@pytest.mark.parametrize("who", WHO)
def test_the_markdown_export_tells_the_sealed_roll_only_to_the_gm_and_its_player(
    client, people, sealed, who
):
    text = export(client, people[who], sealed, "md").content.decode()
    line = next(line for line in text.splitlines() if line.startswith("- **#2**"))
    assert ("d8:7" in line) is SEES_IT_SEALED[who]
    assert (WAITS in line) is not SEES_IT_SEALED[who]


@pytest.mark.parametrize("who", WHO)
def test_the_csv_export_tells_the_sealed_roll_only_to_the_gm_and_its_player(
    client, people, sealed, who
):
    rows = list(
        csv.reader(io.StringIO(export(client, people[who], sealed, "csv").content.decode()))
    )
    row = next(row for row in rows if row[0] == "2")
    assert ("d8:7" in row[7]) is SEES_IT_SEALED[who]


@pytest.mark.parametrize("who", WHO)
def test_the_statistics_count_the_sealed_dice_only_for_the_gm_and_its_player(
    client, people, sealed, who
):
    assert d8s_counted(client, people[who], sealed) == (3 if SEES_IT_SEALED[who] else 0)


def test_the_sealed_entry_says_to_its_player_that_the_others_do_not_see_it_yet(
    client, people, sealed
):
    html = log_page(client, people["opponent"], sealed.session.campaign)
    assert "not yet revealed" in html


# The initiator decides without it --------------------------------------------------------------


@pytest.mark.parametrize("rival", [(2, 1, 3), (8, 8, 8)])
def test_the_initiators_panel_is_the_same_whatever_the_sealed_result(
    client, people, caerbannog, sealed, rival
):
    shown = initiators_panel(client, people["initiator"], caerbannog)
    sealed_roll = Roll.objects.filter(pk=rival_roll(sealed).pk)
    result = sealed_roll.get().result
    result["answer"]["result"] = sorted(rival)[1]
    sealed_roll.update(result=result, faces=list(rival))  # log entries are never edited, but here
    assert initiators_panel(client, people["initiator"], caerbannog) == shown


def test_the_initiators_odds_do_not_count_the_sealed_roll(
    client, gm, player, other_player, caerbannog, dice
):
    opposed = caerbannog_duel(client, gm, caerbannog)
    before = side_panel(client, player, opposed.initiator).context["opposed"]["mine"]
    dice(8, 8, 8)  # the rival's best: Julio's odds would fall
    roll_side(client, other_player, opposed.opponent)
    opposed.opponent.refresh_from_db()
    assert opposed.opponent.roll is not None  # rolled before the initiator (RULES.md 4.10)
    after = side_panel(client, player, opposed.initiator).context["opposed"]["mine"]
    assert after == before


def test_the_gms_odds_count_the_sealed_roll(client, gm, player, other_player, caerbannog, dice):
    opposed = caerbannog_duel(client, gm, caerbannog)
    dice(8, 8, 8)
    roll_side(client, other_player, opposed.opponent)
    client.force_login(gm)
    page = client.get(reverse("dashboard", args=[caerbannog.campaign.pk]))
    odds = page.context["opposed_tests"][0]["odds"]
    assert odds["a"] < 0.5


def test_the_initiator_boosts_and_re_rolls_while_sealed(client, people, sealed):
    response = follow(client, people["initiator"], sealed.initiator, "reroll", ability="Szczęście")
    assert response.status_code == 200
    assert Roll.objects.filter(kind="reroll").exists()
    assert rival_roll(sealed).seal.revealed_at is None


# Forged requests -------------------------------------------------------------------------------


def test_a_forged_heroic_effort_against_the_sealed_result_is_refused_and_logs_nothing(
    client, people, sealed
):
    response = follow(
        client, people["initiator"], sealed.initiator, "heroic", resource="wytrzymalosc"
    )
    text = response.content.decode()
    assert "That can no longer be done with this roll." in text
    assert "costs" not in text
    assert not Roll.objects.filter(kind="heroic").exists()


def test_the_initiators_player_cannot_act_on_the_sealed_roll(client, people, sealed):
    client.force_login(people["initiator"])
    rival, roll = sealed.opponent.character, rival_roll(sealed)
    url = reverse("test_follow_up", args=[rival.campaign_id, rival.pk, roll.pk, "boost"])
    response = client.post(url, {"key": str(uuid.uuid4())}, HTTP_HX_REQUEST="true")
    assert response.status_code == 404
    assert Roll.objects.count() == 2


def test_the_initiators_player_cannot_settle_the_opponents_side_to_reveal_it(
    client, people, sealed
):
    response = settle(client, people["initiator"], sealed, "b")
    assert response.status_code == 409
    assert rival_roll(sealed).seal.revealed_at is None


# Once the initiator settles --------------------------------------------------------------------


@pytest.mark.parametrize("who", WHO)
def test_once_the_initiator_settles_everyone_sees_the_opponents_roll(client, people, revealed, who):
    html = log_page(client, people[who], revealed.session.campaign)
    assert whole(html, rival_roll(revealed))


@pytest.mark.parametrize("who", WHO)
def test_once_revealed_the_exports_and_statistics_count_it_for_everyone(
    client, people, revealed, who
):
    text = export(client, people[who], revealed, "md").content.decode()
    assert WAITS not in text
    assert d8s_counted(client, people[who], revealed) == 3


def test_once_revealed_the_opponent_settles_and_the_result_is_public(client, people, revealed):
    settle(client, people["opponent"], revealed, "b")
    result = Roll.objects.get(kind="opposed")
    assert result.visibility == Visibility.PUBLIC
    assert whole(log_page(client, people["another"], revealed.session.campaign), result)


def test_a_session_that_ends_reveals_what_it_kept_sealed(client, people, sealed):
    assert not whole(
        log_page(client, people["another"], sealed.session.campaign), rival_roll(sealed)
    )
    end_session(sealed.session)
    assert whole(log_page(client, people["another"], sealed.session.campaign), rival_roll(sealed))


def test_an_opposed_test_called_off_reveals_the_opponents_roll(client, gm, people, sealed):
    cancel_opposed(sealed)
    assert rival_roll(sealed).seal.revealed_at is not None


# An NPC's side ---------------------------------------------------------------------------------


@pytest.fixture
def against_npc(client, gm, player, caerbannog, dice):
    """Julio rolled 4 against the NPC Zbir, whose side the GM rolled 7, 1, 8."""
    campaign, julio = caerbannog.campaign, caerbannog.characters[0]
    thug = NPC.objects.create(campaign=campaign, name="Zbir", traits=[])
    start(
        client, gm, campaign,
        initiator=julio.pk, **{"a-skill": "Atletyka"},
        opponent=f"npc-{thug.pk}", **{"npc-level": "2", "npc-ease": "0"},
    )  # fmt: skip
    opposed = OpposedTest.objects.get()
    dice(4, 2, 9)
    roll_side(client, player, opposed.initiator)
    dice(7, 1, 8)
    client.force_login(gm)
    client.post(
        reverse("opposed_npc_roll", args=[campaign.pk, opposed.pk]), {"key": str(uuid.uuid4())}
    )
    opposed.refresh_from_db()
    return opposed


def test_an_npc_opponents_roll_is_the_gms_alone_until_the_initiator_settles(
    client, people, against_npc
):
    campaign = against_npc.session.campaign
    assert not whole(log_page(client, people["initiator"], campaign), against_npc.npc_roll)
    assert whole(log_page(client, people["gm"], campaign), against_npc.npc_roll)
    settle(client, people["initiator"], against_npc, "a")
    assert whole(log_page(client, people["initiator"], campaign), against_npc.npc_roll)


# Other systems ---------------------------------------------------------------------------------


def test_another_systems_opposed_roll_is_public_at_once(
    client, gm, player, other_player, make_table, dice
):
    unhurt = copy.deepcopy(FASTTEST_SHEET) | {"wounds": []}
    table = make_table(**duel("fasttest", unhurt, copy.deepcopy(unhurt)))
    opposed = fasttest_duel(client, gm, table)
    dice(3, 4)
    roll_side(client, player, opposed.initiator)
    dice(5, 5)
    roll_side(client, other_player, opposed.opponent)
    opposed.opponent.refresh_from_db()
    assert whole(log_page(client, player, table.campaign), opposed.opponent.roll)


@pytest.mark.parametrize("side", ["b", "x", ""])
def test_a_settle_posted_without_htmx_for_a_side_with_no_sheet_is_refused_not_a_500(
    client, player, against_npc, side
):
    """A page without JavaScript posts the settle form; a forged side, or the NPC's, has no
    sheet to go back to: the campaign page, with the refusal."""
    client.force_login(player)
    campaign = against_npc.session.campaign
    response = client.post(
        reverse("opposed_settle", args=[campaign.pk, against_npc.pk]), {"side": side}
    )
    assert response.status_code == 302
    assert response.url == reverse("campaign_detail", args=[campaign.pk])
    against_npc.refresh_from_db()
    assert not against_npc.opponent_settled
