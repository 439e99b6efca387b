"""An opposed test's odds are live for everyone involved (issue 24, item 4): each side's odds
follow both players' current choices (the other side's from its player's draft) on the GM's box
and on both panels, a reload shows the same numbers, a side already rolled counts with its
result where the viewer may see it (and only there), and a change of one side's choices tells
the other side's pages and the GM's."""

from __future__ import annotations

import copy
import itertools
from fractions import Fraction

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from campaigns.live import user_group
from rolls.engine import caerbannog as caerbannog_engine
from rolls.engine import fasttest as engine
from rolls.engine import fasttest_opposed
from rolls.engine import twod6 as twod6_engine
from rolls.models import OpposedTest, Roll, Visibility
from rolls.pending import actions as pending_actions
from sheets.models import NPC
from tests.web.live import socket_for
from tests.web.test_opposed import caerbannog_duel, duel, fasttest_duel, roll_side, start
from tests.web.test_panel_caerbannog import SHEET as CAERBANNOG_SHEET
from tests.web.test_panel_fasttest import SHEET as FASTTEST_SHEET
from tests.web.test_panel_twod6 import NOMAD

pytestmark = pytest.mark.django_db

#: Ala (BUDOWA 7 + WALKA 2) against Bartek (BUDOWA 7 + WALKA 1), as called; Rycerz is their
#: first trait (level 2: two bonus dice), szermierka the second (level 1).
ALA = engine.Params(attribute=7, skills=(2,))
ALA_SZERMIERKA = engine.Params(attribute=7, skills=(2,), bonus=1)
BARTEK = engine.Params(attribute=7, skills=(1,))
BARTEK_RYCERZ = engine.Params(attribute=7, skills=(1,), bonus=2)


@pytest.fixture
def fasttest(make_table):
    """Ala and Bartek, unhurt, Bartek one WALKA weaker (as tests/web/test_opposed.py's)."""
    unhurt = copy.deepcopy(FASTTEST_SHEET) | {"wounds": []}
    weaker = copy.deepcopy(unhurt)
    weaker["skills"] = weaker["skills"] | {"WALKA": 1, "SPRAWNOŚĆ": 2}
    return make_table(**duel("fasttest", unhurt, weaker))


@pytest.fixture
def twod6(make_table):
    return make_table(**duel("2d6", NOMAD, NOMAD))


def change_panel(client, user, side, **choices):
    """The player changes a choice on their panel (its hx-post): the answer is the panel."""
    client.force_login(user)
    hero = side.character
    url = reverse("test_panel", args=[hero.campaign_id, hero.pk])
    return client.post(url, {"pending": side.pk, "revision": side.revision, **choices})


def opened(client, user, side) -> dict:
    """The side's opposed box as its panel opened again (a reload, a refresh) shows it."""
    client.force_login(user)
    hero = side.character
    url = reverse("test_panel", args=[hero.campaign_id, hero.pk])
    return client.get(url, {"pending": side.pk}).context["opposed"]


def gm_box(client, gm, campaign) -> dict:
    """The opposed box on the GM's dashboard (its pending tests' part)."""
    client.force_login(gm)
    return client.get(reverse("dashboard_pending", args=[campaign.pk])).context["opposed_tests"][0]


def fasttest_faces(params):
    """Every face combination of a FastTest test, each as likely."""
    for d10 in itertools.product(range(1, 11), repeat=params.d10_count):
        for d6 in itertools.product(range(1, 7), repeat=params.d6_count):
            yield engine.parse_faces(params, {"d10": list(d10), "d6": list(d6)})


def fasttest_win_against(params, rolled) -> Fraction:
    """P(a side of ``params`` beats the ``rolled`` result), by brute force."""
    faces = list(fasttest_faces(params))
    wins = sum(engine.opposed(engine.resolve(params, f), rolled).winner == "a" for f in faces)
    return Fraction(wins, len(faces))


def with_troll(client, gm, table):
    """Ala against the Troll (chance 5, no dice of its own), rolled by the GM."""
    campaign, ala = table.campaign, table.characters[0]
    troll = NPC.objects.create(campaign=campaign, name="Troll", traits=[])
    start(
        client, gm, campaign,
        initiator=ala.pk, **{"a-attribute": "BUDOWA", "a-skill": "WALKA"},
        opponent=f"npc-{troll.pk}", **{"npc-chance": "5", "npc-bonus": "0", "npc-penalty": "0"},
    )  # fmt: skip
    return OpposedTest.objects.get()


def roll_troll(client, gm, opposed, dice, *faces):
    dice(*faces)
    client.force_login(gm)
    url = reverse("opposed_npc_roll", args=[opposed.session.campaign_id, opposed.pk])
    client.post(url, {"key": "6f9e3b1c-0d2a-4b8e-9a7f-1c2d3e4f5a6b"})
    opposed.refresh_from_db()
    roll = opposed.npc_roll
    params = engine.parse_params(roll.params)
    return engine.resolve(params, engine.parse_faces(params, roll.faces))


# Both sides' choices, on every page ----------------------------------------------------------


def test_initiators_panel_follows_the_opponents_ticked_trait(
    client, gm, player, other_player, fasttest
):
    opposed = fasttest_duel(client, gm, fasttest)
    change_panel(client, other_player, opposed.opponent, trait="0")
    exact = fasttest_opposed.win_odds(ALA, BARTEK_RYCERZ)
    assert opened(client, player, opposed.initiator)["mine"] == pytest.approx(exact["a"])


def test_the_opponents_change_counts_the_initiators_ticked_trait(
    client, gm, player, other_player, fasttest
):
    opposed = fasttest_duel(client, gm, fasttest)
    change_panel(client, player, opposed.initiator, trait="1")
    answer = change_panel(client, other_player, opposed.opponent, trait="0")
    exact = fasttest_opposed.win_odds(ALA_SZERMIERKA, BARTEK_RYCERZ)
    assert answer.context["opposed"]["mine"] == pytest.approx(exact["b"])


def test_the_gms_opposed_box_follows_both_players_ticked_traits(
    client, gm, player, other_player, fasttest
):
    opposed = fasttest_duel(client, gm, fasttest)
    change_panel(client, player, opposed.initiator, trait="1")
    change_panel(client, other_player, opposed.opponent, trait="0")
    exact = fasttest_opposed.win_odds(ALA_SZERMIERKA, BARTEK_RYCERZ)
    odds = gm_box(client, gm, fasttest.campaign)["odds"]
    assert odds == pytest.approx(exact)


def test_every_page_and_a_reload_show_the_same_odds(client, gm, player, other_player, fasttest):
    opposed = fasttest_duel(client, gm, fasttest)
    change_panel(client, player, opposed.initiator, trait="1")
    as_changed = change_panel(client, other_player, opposed.opponent, trait="0")
    box = gm_box(client, gm, fasttest.campaign)["odds"]
    assert as_changed.context["opposed"]["mine"] == box["b"]
    assert opened(client, other_player, opposed.opponent)["mine"] == box["b"]
    assert opened(client, player, opposed.initiator)["mine"] == box["a"]


# A side already rolled -------------------------------------------------------------------------


def test_the_players_odds_count_the_npcs_public_roll(client, gm, player, fasttest, dice):
    opposed = with_troll(client, gm, fasttest)
    rolled = roll_troll(client, gm, opposed, dice, 8, 4)  # the Troll: "no"
    assert rolled.outcome == "no"
    mine = opened(client, player, opposed.initiator)["mine"]
    assert mine == pytest.approx(float(fasttest_win_against(ALA, rolled)))


def test_an_npc_side_hidden_from_the_player_does_not_move_their_odds(
    client, gm, player, fasttest, dice
):
    opposed = with_troll(client, gm, fasttest)
    before = opened(client, player, opposed.initiator)["mine"]
    rolled = roll_troll(client, gm, opposed, dice, 8, 4)
    # An NPC's side is rolled in the open; hidden here to prove the rule (log entries are never
    # edited, but here).
    Roll.objects.filter(pk=opposed.npc_roll_id).update(visibility=Visibility.HIDDEN)
    assert opened(client, player, opposed.initiator)["mine"] == before
    exact = float(fasttest_win_against(ALA, rolled))
    assert gm_box(client, gm, fasttest.campaign)["odds"]["a"] == pytest.approx(exact)


def test_a_side_the_gm_rolled_hidden_does_not_move_the_other_players_odds(
    client, gm, player, other_player, fasttest, dice
):
    opposed = fasttest_duel(client, gm, fasttest)
    change_panel(client, other_player, opposed.opponent, trait="0")
    exact = fasttest_opposed.win_odds(ALA, BARTEK_RYCERZ)["a"]
    assert opened(client, player, opposed.initiator)["mine"] == pytest.approx(exact)
    dice(10, 1)  # Bartek, rolled by the GM without his trait: fails
    roll_side(client, gm, opposed.opponent, visibility=Visibility.HIDDEN)
    assert opened(client, player, opposed.initiator)["mine"] == pytest.approx(exact)


def test_the_gms_box_counts_a_rolled_side_with_its_result(client, gm, player, fasttest, dice):
    opposed = fasttest_duel(client, gm, fasttest)
    dice(3, 6)  # Ala: yes, and
    roll_side(client, player, opposed.initiator)
    opposed.initiator.refresh_from_db()
    roll = opposed.initiator.roll
    ala = engine.resolve(ALA, engine.parse_faces(ALA, roll.faces))
    faces = list(fasttest_faces(BARTEK))
    bartek_wins = sum(engine.opposed(ala, engine.resolve(BARTEK, f)).winner == "b" for f in faces)
    odds = gm_box(client, gm, fasttest.campaign)["odds"]
    assert odds["b"] == pytest.approx(bartek_wins / len(faces))


@pytest.fixture
def caerbannog(make_table):
    """Ala's Julio and Bartek's rival, both on the Caerbannog panel's sheet."""
    sheet = CAERBANNOG_SHEET
    return make_table(**duel("caerbannog", copy.deepcopy(sheet), copy.deepcopy(sheet)))


def test_caerbannog_the_opponents_odds_count_the_initiators_public_roll(
    client, gm, player, other_player, caerbannog, dice
):
    opposed = caerbannog_duel(client, gm, caerbannog)
    dice(4, 2, 9)
    roll_side(client, player, opposed.initiator)
    opposed.initiator.refresh_from_db()
    julio = opposed.initiator.roll.result["answer"]["result"]
    rival = opened(client, other_player, opposed.opponent)
    params = caerbannog_engine.parse_params(
        change_panel(client, other_player, opposed.opponent).context["panel"].params
    )
    results = caerbannog_engine.odds(params)["result_odds"]
    # The opponent resists at a level of 0 or below: a result at least the initiator's.
    assert rival["mine"] == pytest.approx(sum(p for r, p in results.items() if int(r) >= julio))


def test_twod6_the_hiders_odds_count_the_spotters_public_roll(
    client, gm, player, other_player, twod6, dice
):
    campaign, spotter, hider = twod6.campaign, twod6.characters[0], twod6.characters[1]
    start(
        client, gm, campaign, difficulty="15",
        initiator=spotter.pk, **{"a-attribute": "Percepcja", "a-skill": "Przetrwanie"},
        opponent=f"character-{hider.pk}", **{"b-attribute": "Zręczność", "b-skill": "Skradanie"},
    )  # fmt: skip
    opposed = OpposedTest.objects.get()
    dice(3, 2)  # 18 against 15: 4 success points
    roll_side(client, player, opposed.initiator)
    opposed.initiator.refresh_from_db()
    a_params = twod6_engine.parse_params(opposed.initiator.roll.params)
    seen = twod6_engine.resolve(a_params, (3, 2))
    b_params = twod6_engine.parse_params(
        change_panel(client, other_player, opposed.opponent).context["panel"].params
    )
    faces = list(itertools.product(range(1, 7), repeat=2))
    wins = sum(
        twod6_engine.opposed(seen, twod6_engine.resolve(b_params, f)).winner == "b" for f in faces
    )
    assert opened(client, other_player, opposed.opponent)["mine"] == pytest.approx(wins / 36)


# What the pages are told ---------------------------------------------------------------------


@pytest.fixture
def announced(monkeypatch):
    sent = []
    monkeypatch.setattr(
        pending_actions, "broadcast_on_commit", lambda group, event: sent.append((group, event))
    )
    return sent


def test_a_players_draft_tells_the_other_sides_player_and_names_both_sides(
    client, gm, player, other_player, fasttest, announced
):
    opposed = fasttest_duel(client, gm, fasttest)
    announced.clear()
    a, b = opposed.initiator, opposed.opponent
    change_panel(client, other_player, b, trait="0")
    assert announced == [
        (user_group(gm.pk), {
            "type": "table.pending", "pending": b.pk, "character": b.character_id,
            "revision": b.revision, "status": "open", "draft": True,
            "opposed": opposed.pk, "other_pending": a.pk, "other_character": a.character_id,
            "user": gm.pk,
        }),
        (user_group(player.pk), {
            "type": "table.pending", "pending": a.pk, "character": a.character_id,
            "revision": a.revision, "status": "open",
            "opposed": opposed.pk, "other_pending": b.pk, "other_character": b.character_id,
            "user": player.pk,
        }),
    ]  # fmt: skip


def test_a_gm_change_on_one_side_tells_the_other_sides_player(
    client, gm, other_player, fasttest, announced
):
    opposed = fasttest_duel(client, gm, fasttest)
    announced.clear()
    pending_actions.change_test(
        opposed.initiator.pk, gm, "add_dice", kind="penalty", amount=1, source="błoto"
    )
    told = [event for group, event in announced if group == user_group(other_player.pk)]
    assert [(e["pending"], e["other_pending"]) for e in told] == [
        (opposed.opponent.pk, opposed.initiator.pk)
    ]


def test_a_side_called_off_tells_the_other_sides_player_that_the_opposed_test_is_off(
    client, gm, other_player, fasttest, announced
):
    opposed = fasttest_duel(client, gm, fasttest)
    announced.clear()
    pending_actions.cancel_test(opposed.initiator.pk, gm)
    told = [event for group, event in announced if group == user_group(other_player.pk)]
    assert [(e["pending"], e["status"]) for e in told] == [(opposed.opponent.pk, "open")]


@pytest.mark.django_db(transaction=True)
async def test_the_initiators_socket_hears_the_opponents_ticked_trait(
    gm, player, other_player, fasttest
):
    table = fasttest
    opposed = await sync_to_async(fasttest_duel)(Client(), gm, table)
    a, b = await sync_to_async(lambda: (opposed.initiator, opposed.opponent))()
    socket = await sync_to_async(socket_for)(player, table.campaign)
    assert (await socket.connect())[0]
    await sync_to_async(change_panel)(Client(), other_player, b, trait="0")
    heard = await socket.receive_json_from(timeout=3)
    while heard["type"] != "pending":
        heard = await socket.receive_json_from(timeout=3)
    await socket.disconnect()
    assert (heard["pending"], heard["opposed"], heard["other_pending"]) == (a.pk, opposed.pk, b.pk)
