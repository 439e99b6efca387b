"""Group tests people can join (issue 28 item 6): while a group test gathers, a player offers
their character as a helper; the GM or the initiator's player accepts (within the rules' number
of helpers) or declines, and the player reads the answer. The group page shows the table's log
beside the test. Another player's character, an outsider, a test already rolling and a stale
page are refused."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from campaigns.models import Membership
from rolls.group.actions import rules_of
from rolls.models import GroupTest
from tests.web.test_group_test import party, post, roll, sheet, start

pytestmark = pytest.mark.django_db
__all__ = ["party"]  # the fixture, imported for this module's tests


def group() -> GroupTest:
    return GroupTest.objects.get()


def text(response) -> str:
    return html.unescape(response.content.decode())


@pytest.fixture
def gathering(party):
    """Ala's group test (Atletyka), gathering: Ala's player leads it with the GM."""
    ala = party.characters[0]
    start(party.client(party.players[0]), party, ala, "skill:Atletyka")
    return party


def offer(table, user, character, skill="skill:Dociekliwość", revision=None):
    revision = group().revision if revision is None else revision
    return post(
        table.client(user), "group_offer", table.campaign, group().pk,
        pick=f"{character.pk}|{skill}", revision=revision,
    )  # fmt: skip


def answer(table, user, character, said="accept", revision=None):
    revision = group().revision if revision is None else revision
    return post(
        table.client(user), "group_answer", table.campaign, group().pk,
        character=character.pk, answer=said, revision=revision,
    )  # fmt: skip


def withdraw(table, user, character):
    return post(
        table.client(user), "group_withdraw", table.campaign, group().pk,
        character=character.pk, revision=group().revision,
    )  # fmt: skip


def members() -> list[str]:
    return [member["name"] for member in group().members]


# --- Offering ----------------------------------------------------------------------------------


def test_a_player_offers_their_character_and_the_leader_reads_the_offer(gathering):
    bartek = gathering.characters[1]
    response = offer(gathering, gathering.players[1], bartek)
    assert "You offered Bartek as a helper (Dociekliwość): waiting for the answer." in text(
        response
    )
    leader = gathering.client(gathering.players[0])
    page = text(leader.get(reverse("group_section", args=[gathering.campaign.pk])))
    assert f'data-accept-offer="{bartek.pk}"' in page
    assert members() == ["Ala"]  # offered, not taken in yet


def test_the_gm_accepts_an_offer_and_the_helper_takes_part(gathering):
    bartek = gathering.characters[1]
    offer(gathering, gathering.players[1], bartek)
    answer(gathering, gathering.gm, bartek)
    assert members() == ["Ala", "Bartek"]
    assert group().members[1]["skill"] == "skill:Dociekliwość"
    assert group().offers == []


def test_the_initiators_player_may_accept_an_offer_too(gathering):
    bartek = gathering.characters[1]
    offer(gathering, gathering.players[1], bartek)
    answer(gathering, gathering.players[0], bartek)
    assert members() == ["Ala", "Bartek"]


def test_a_declined_offer_is_said_to_its_player_who_may_clear_it(gathering):
    bartek = gathering.characters[1]
    offer(gathering, gathering.players[1], bartek)
    answer(gathering, gathering.gm, bartek, "decline")
    own = gathering.client(gathering.players[1])
    page = text(own.get(reverse("group_section", args=[gathering.campaign.pk])))
    assert "Bartek's offer to help was declined." in page
    assert members() == ["Ala"]
    withdraw(gathering, gathering.players[1], bartek)
    assert group().offers == []


def test_a_declined_offer_can_be_made_again(gathering):
    bartek = gathering.characters[1]
    offer(gathering, gathering.players[1], bartek)
    answer(gathering, gathering.gm, bartek, "decline")
    offer(gathering, gathering.players[1], bartek, "skill:Atletyka")
    assert [(o["skill"], o["declined"]) for o in group().offers] == [("skill:Atletyka", False)]


def test_a_player_takes_their_offer_back(gathering):
    bartek = gathering.characters[1]
    offer(gathering, gathering.players[1], bartek)
    withdraw(gathering, gathering.players[1], bartek)
    assert group().offers == []


def test_an_offer_tells_the_table(gathering, monkeypatch, django_capture_on_commit_callbacks):
    sent = []
    monkeypatch.setattr("campaigns.live.broadcast", lambda group, event: sent.append(event))
    with django_capture_on_commit_callbacks(execute=True):
        offer(gathering, gathering.players[1], gathering.characters[1])
    assert [event["type"] for event in sent] == ["table.group"]


def test_the_leaders_cue_asks_to_answer_the_offer(gathering):
    offer(gathering, gathering.players[1], gathering.characters[1])
    gm = gathering.client(gathering.gm)
    cue = text(gm.get(reverse("group_cue", args=[gathering.campaign.pk])))
    assert "Bartek offers to help: accept or decline." in cue
    assert 'data-attention="group-' in cue


def test_once_the_dice_roll_what_was_offered_lapses(gathering, dice):
    ala, bartek, _celina = gathering.characters
    offer(gathering, gathering.players[1], bartek)
    dice(5, 4, 3)
    roll(gathering.client(gathering.players[0]), gathering, ala)
    assert group().offers == []


# --- Refusals ----------------------------------------------------------------------------------


def test_a_player_cannot_offer_another_players_character(gathering):
    response = offer(gathering, gathering.players[2], gathering.characters[1])
    assert "Only a character's own player offers it as a helper." in text(response)
    assert group().offers == []


def test_a_character_taking_part_cannot_be_offered(gathering):
    response = offer(gathering, gathering.players[0], gathering.characters[0])
    assert "Ala already takes part in this group test." in text(response)


def test_a_player_who_does_not_lead_cannot_answer_an_offer(gathering):
    bartek = gathering.characters[1]
    offer(gathering, gathering.players[1], bartek)
    response = answer(gathering, gathering.players[2], bartek)
    assert "Only the GM or the initiator's player gathers the helpers." in text(response)
    assert members() == ["Ala"]


def test_a_player_cannot_accept_their_own_offer(gathering):
    bartek = gathering.characters[1]
    offer(gathering, gathering.players[1], bartek)
    answer(gathering, gathering.players[1], bartek)
    assert members() == ["Ala"]


def test_another_player_cannot_take_an_offer_back(gathering):
    bartek = gathering.characters[1]
    offer(gathering, gathering.players[1], bartek)
    response = withdraw(gathering, gathering.players[2], bartek)
    assert "Only the player who made an offer takes it back." in text(response)
    assert len(group().offers) == 1


def test_an_offer_from_a_stale_page_is_refused(gathering):
    stale = group().revision
    offer(gathering, gathering.players[2], gathering.characters[2])
    response = offer(gathering, gathering.players[1], gathering.characters[1], revision=stale)
    assert "The group test changed meanwhile" in text(response)


def test_an_answer_neither_accept_nor_decline_is_refused(gathering):
    bartek = gathering.characters[1]
    offer(gathering, gathering.players[1], bartek)
    response = answer(gathering, gathering.gm, bartek, "maybe")
    assert "Accept the offer or decline it." in text(response)
    assert members() == ["Ala"]


def test_answering_an_offer_nobody_made_is_refused(gathering):
    response = answer(gathering, gathering.gm, gathering.characters[2])
    assert "That offer is no longer there" in text(response)


def test_an_offer_past_the_rules_number_of_helpers_is_refused(make_table, make_user):
    most = rules_of("caerbannog").max_helpers
    players = [make_user(f"p{i}") for i in range(most + 2)]
    table = make_table(
        "caerbannog",
        characters=[(f"C{i}", sheet(rozmach=1)) for i in range(most + 2)],
        players=players,
        session="first",
    )
    lead = table.client(players[0])
    start(lead, table, table.characters[0], "skill:Atletyka")
    for i in range(1, most + 1):
        offer(table, players[i], table.characters[i], "skill:Atletyka")
        answer(table, table.gm, table.characters[i])
    response = offer(table, players[most + 1], table.characters[most + 1], "skill:Atletyka")
    assert f"A group test takes at most {most} helpers." in text(response)


def test_an_outsider_cannot_offer(gathering, outsider, client):
    client.force_login(outsider)
    url = reverse("group_offer", args=[gathering.campaign.pk, group().pk])
    response = client.post(url, {"pick": f"{gathering.characters[1].pk}|skill:Atletyka"})
    assert response.status_code == 404
    assert group().offers == []


def test_a_control_character_in_an_offer_is_refused(gathering):
    response = post(
        gathering.client(gathering.players[1]), "group_offer", gathering.campaign, group().pk,
        pick=f"{gathering.characters[1].pk}|skill:Dociek\x00", revision=group().revision,
    )  # fmt: skip
    assert group().offers == []
    assert response.status_code == 200


# --- The group page shows the table's log ------------------------------------------------------


def test_the_group_page_shows_the_tables_log_beside_the_test(gathering):
    page = gathering.client(gathering.players[1]).get(
        reverse("group_test", args=[gathering.campaign.pk])
    )
    assert 'id="roll-log"' in page.content.decode()
    assert 'id="group-test"' in page.content.decode()


def test_a_removed_member_cannot_offer_their_character(gathering, client):
    bartek_player = gathering.players[1]
    Membership.objects.filter(campaign=gathering.campaign, user=bartek_player).delete()
    client.force_login(bartek_player)
    url = reverse("group_offer", args=[gathering.campaign.pk, group().pk])
    data = {"pick": f"{gathering.characters[1].pk}|skill:Atletyka", "revision": group().revision}
    assert client.post(url, data).status_code == 404
    assert group().offers == []
