"""Caerbannog opposed tests settled in turn (RULES.md section 4, point 10; the seed: "Najpierw
inicjator decyduje się skorzystać z różnych zdolności lub zasobów modyfikujących rzut i ujawnia
jego ostateczny wynik. Następnie oponent..."): both sides roll, then the initiator settles their
modifiers (a boost, a re-roll) and reveals the final result, then the opponent; the result entry
reads both final results, after both settled."""

from __future__ import annotations

import copy
import uuid

import pytest
from django.urls import reverse

from rolls.labels import render
from rolls.models import OpposedTest, Roll
from sheets.models import NPC
from tests.web.test_opposed import caerbannog_duel, duel, roll_side, start
from tests.web.test_panel_caerbannog import SHEET

pytestmark = pytest.mark.django_db


@pytest.fixture
def caerbannog(make_table):
    """Ala's Julio and Bartek's rival, both on the Caerbannog panel's sheet."""
    return make_table(**duel("caerbannog", copy.deepcopy(SHEET), copy.deepcopy(SHEET)))


def settle(client, user, opposed, side):
    """The side's player (or the GM) says "my result stands", as the settling box posts it."""
    client.force_login(user)
    url = reverse("opposed_settle", args=[opposed.session.campaign_id, opposed.pk])
    return client.post(url, {"side": side}, HTTP_HX_REQUEST="true")


def follow(client, user, side, kind, **choices):
    """The player follows their side's newest roll with ``kind`` (boost, reroll)."""
    client.force_login(user)
    side.refresh_from_db()
    parent = Roll.objects.filter(character=side.character).order_by("-seq").first()
    hero = side.character
    url = reverse("test_follow_up", args=[hero.campaign_id, hero.pk, parent.pk, kind])
    return client.post(url, {**choices, "key": str(uuid.uuid4())}, HTTP_HX_REQUEST="true")


def panel_of(client, user, character):
    client.force_login(user)
    return client.get(reverse("test_panel", args=[character.campaign_id, character.pk]))


def results():
    return Roll.objects.filter(kind="opposed")


def logged(client, user, campaign) -> str:
    client.force_login(user)
    return client.get(reverse("session_log", args=[campaign.pk])).content.decode()


@pytest.fixture
def rolled(client, gm, player, other_player, caerbannog, dice):
    """Julio (Atletyka III, 3d10) against his rival (Dociekliwość II, 3d8): both have rolled,
    "Opposed 9 vs 5" (RULES.md), nothing settled yet."""
    opposed = caerbannog_duel(client, gm, caerbannog)
    dice(9, 2, 9)  # the middle die 9
    roll_side(client, player, opposed.initiator)
    dice(5, 1, 7)  # 5
    roll_side(client, other_player, opposed.opponent)
    return opposed


def test_opposed_nine_against_five_is_four_once_both_have_settled(
    client, gm, player, other_player, caerbannog, rolled
):
    assert not results().exists()
    settle(client, player, rolled, "a")
    assert not results().exists()
    settle(client, other_player, rolled, "b")
    result = results().get()
    answer = result.result["answer"]
    assert (answer["winner"], answer["margin"], answer["level"]) == ("a", 4, 4)
    label = "Opposed test (#1 against #2): Ala beats Bartek by 4"
    assert render(result.label_words) == label
    for user in (gm, player, other_player):
        assert label in logged(client, user, caerbannog.campaign)


def test_the_opponent_cannot_settle_before_the_initiator(client, other_player, rolled):
    response = settle(client, other_player, rolled, "b")
    assert "The initiator settles their modifiers first" in response.content.decode()
    rolled.refresh_from_db()
    assert not rolled.opponent_settled


def test_neither_side_settles_before_both_have_rolled(client, gm, player, caerbannog, dice):
    opposed = caerbannog_duel(client, gm, caerbannog)
    dice(9, 2, 9)
    roll_side(client, player, opposed.initiator)
    response = settle(client, player, opposed, "a")
    assert "Both sides roll first" in response.content.decode()


def test_a_player_cannot_settle_the_other_players_side(client, other_player, rolled):
    response = settle(client, other_player, rolled, "a")
    assert "Only that side&#x27;s player (or the GM) settles it." in response.content.decode()
    rolled.refresh_from_db()
    assert not rolled.initiator_settled


def test_the_gm_settles_a_side_for_its_player_from_the_dashboard(client, gm, rolled):
    client.force_login(gm)
    url = reverse("opposed_settle", args=[rolled.session.campaign_id, rolled.pk])
    client.post(url, {"side": "a"})
    client.post(url, {"side": "b"})
    assert results().get().result["answer"]["level"] == 4


def test_a_side_settles_once(client, player, rolled):
    settle(client, player, rolled, "a")
    response = settle(client, player, rolled, "a")
    assert "You have settled your side" in response.content.decode()


def test_the_initiators_boost_after_both_rolled_is_in_the_result(
    client, gm, player, other_player, caerbannog, dice
):
    opposed = caerbannog_duel(client, gm, caerbannog)
    dice(10, 7, 2)  # 7, and the 10 gives 1 Rozmach
    roll_side(client, player, opposed.initiator)
    dice(5, 1, 7)
    roll_side(client, other_player, opposed.opponent)
    follow(client, player, opposed.initiator, "boost")  # +2 (physical): 9
    settle(client, player, opposed, "a")
    settle(client, other_player, opposed, "b")
    result = results().get()
    assert result.result["answer"]["level"] == 4
    boost = Roll.objects.get(kind="boost")
    assert result.parent == boost
    assert render(result.label_words) == "Opposed test (#3 against #2): Ala beats Bartek by 4"


def test_the_initiator_boosts_only_once_both_have_rolled(client, gm, player, caerbannog, dice):
    opposed = caerbannog_duel(client, gm, caerbannog)
    dice(10, 7, 2)
    response = roll_side(client, player, opposed.initiator)
    assert response.context["follow_ups"] == []
    response = follow(client, player, opposed.initiator, "boost")
    assert response.status_code == 409
    assert "Both sides roll first" in response.content.decode()
    assert not Roll.objects.filter(kind="boost").exists()


def test_the_initiators_re_roll_after_both_rolled_is_in_the_result(
    client, gm, player, other_player, rolled, dice
):
    dice(1)  # Inspirująca osobowość re-rolls the 2: 9, 1, 9 reads 9 again...
    follow(client, player, rolled.initiator, "reroll", ability="Szczęście", die="1")
    dice(3, 3, 3)  # ...and a second ability re-rolls all of them: 3
    follow(client, player, rolled.initiator, "reroll", ability="Drugie podejście")
    settle(client, player, rolled, "a")
    settle(client, other_player, rolled, "b")
    answer = results().get().result["answer"]
    assert (answer["winner"], answer["level"]) == ("b", -2)
    assert (answer["a_seq"], answer["b_seq"]) == (4, 2)


def test_the_opponent_may_not_boost_before_the_initiator_has_settled(
    client, gm, player, other_player, caerbannog, dice
):
    opposed = caerbannog_duel(client, gm, caerbannog)
    dice(9, 2, 9)
    roll_side(client, player, opposed.initiator)
    dice(8, 5, 1)  # 5, and the 8 gives 1 Rozmach
    roll_side(client, other_player, opposed.opponent)
    response = follow(client, other_player, opposed.opponent, "boost")
    assert response.status_code == 409
    assert "The initiator settles their modifiers first" in response.content.decode()
    assert not Roll.objects.filter(kind="boost").exists()


def test_the_opponents_boost_after_the_initiator_settled_is_in_the_result(
    client, gm, player, other_player, caerbannog, dice
):
    opposed = caerbannog_duel(client, gm, caerbannog)
    dice(9, 2, 9)
    roll_side(client, player, opposed.initiator)
    dice(8, 5, 1)
    roll_side(client, other_player, opposed.opponent)
    settle(client, player, opposed, "a")
    follow(client, other_player, opposed.opponent, "boost")  # +3 (practical): 8
    settle(client, other_player, opposed, "b")
    answer = results().get().result["answer"]
    assert (answer["winner"], answer["level"], answer["b_seq"]) == ("a", 1, 3)


def test_the_initiator_changes_nothing_once_settled(client, gm, player, caerbannog, dice):
    opposed = caerbannog_duel(client, gm, caerbannog)
    dice(10, 7, 2)
    roll_side(client, player, opposed.initiator)
    dice(5, 1, 7)
    roll_side(client, caerbannog.players[1], opposed.opponent)
    settle(client, player, opposed, "a")
    response = follow(client, player, opposed.initiator, "boost")
    assert response.status_code == 409
    assert "You have settled your side" in response.content.decode()


def test_the_settling_box_offers_the_boost_to_the_side_whose_turn_it_is(
    client, gm, player, other_player, caerbannog, dice
):
    opposed = caerbannog_duel(client, gm, caerbannog)
    dice(10, 7, 2)
    roll_side(client, player, opposed.initiator)
    dice(8, 5, 1)
    roll_side(client, other_player, opposed.opponent)
    julio, rival = caerbannog.characters
    mine = panel_of(client, player, julio).context["opposed_settle"]
    theirs = panel_of(client, other_player, rival).context["opposed_settle"]
    assert (mine["turn"], mine["may_settle"], theirs["may_settle"]) == ("a", True, False)
    assert "boost" in [f.kind for f in mine["follow_ups"]]
    assert theirs["follow_ups"] == []
    page = panel_of(client, player, julio).content.decode()
    assert "My result stands: reveal it" in page
    assert (
        "Ala settles their modifiers first"
        in panel_of(client, other_player, rival).content.decode()
    )
    settle(client, player, opposed, "a")
    theirs = panel_of(client, other_player, rival).context["opposed_settle"]
    assert (theirs["turn"], theirs["may_settle"]) == ("b", True)
    assert "boost" in [f.kind for f in theirs["follow_ups"]]


def test_the_gm_dashboard_shows_whose_turn_it_is_to_settle(client, gm, rolled):
    client.force_login(gm)
    page = client.get(reverse("dashboard", args=[rolled.session.campaign_id])).content.decode()
    assert "Ala settles their modifiers first" in page
    assert "Settle Ala's side" in page


def test_an_npc_opponents_roll_is_its_final_result(client, gm, player, caerbannog, dice):
    campaign, julio = caerbannog.campaign, caerbannog.characters[0]
    thug = NPC.objects.create(campaign=campaign, name="Zbir", traits=[])
    start(
        client, gm, campaign,
        initiator=julio.pk, **{"a-skill": "Atletyka"},
        opponent=f"npc-{thug.pk}", **{"npc-level": "2", "npc-ease": "0"},
    )  # fmt: skip
    opposed = OpposedTest.objects.get()
    dice(9, 2, 9)
    roll_side(client, player, opposed.initiator)
    dice(5, 1, 7)
    client.force_login(gm)
    client.post(
        reverse("opposed_npc_roll", args=[campaign.pk, opposed.pk]), {"key": str(uuid.uuid4())}
    )
    assert not results().exists()
    settle(client, player, opposed, "a")
    assert render(results().get().label_words) == (
        "Opposed test (#1 against #2): Ala beats Zbir by 4"
    )


# Heroic effort: only the initiator's, on the opposed level ---------------------------------------


def hinder(client, gm, side):
    """The GM gives the side a fixed −3 (it tests at difficulty 0, so its own test can fail)."""
    client.force_login(gm)
    client.post(
        reverse("change_test", args=[side.character.campaign_id, side.pk]),
        {"op": "add_dice", "kind": "modifier", "amount": "-3", "source": "mud"},
    )
    side.refresh_from_db()


@pytest.fixture
def losing(client, gm, player, other_player, caerbannog, dice):
    """Julio's 4 against his rival's 7: the opposed level is −3. The GM rolled Julio's side
    hidden: the rival's result, sealed until Julio settles (RULES.md 4.10), may then be read
    in what follows Julio's roll, which the GM alone sees."""
    opposed = caerbannog_duel(client, gm, caerbannog)
    dice(4, 2, 9)
    roll_side(client, gm, opposed.initiator, visibility="hidden")
    dice(7, 1, 8)  # 7 (the 8 gives the rival 1 Rozmach)
    roll_side(client, other_player, opposed.opponent)
    return opposed


def test_the_initiator_is_offered_heroic_effort_on_the_opposed_level(
    client, gm, caerbannog, losing
):
    box = panel_of(client, gm, caerbannog.characters[0]).context["opposed_settle"]
    heroic = next(f for f in box["follow_ups"] if f.kind == "heroic")
    assert "pay 4 for exactly 1 success" in heroic.label  # a failure of 3, plus 1


def test_while_the_opponents_result_is_sealed_heroic_effort_is_declared_with_the_settle(
    client, gm, player, other_player, caerbannog, dice
):
    # Its cost, the failure against the rival's result plus 1, would tell that result: not
    # offered with a cost, but declared "if it fails" and priced once settling reveals it
    # (tests/web/test_opposed_heroic_blind.py).
    opposed = caerbannog_duel(client, gm, caerbannog)
    dice(4, 2, 9)
    roll_side(client, player, opposed.initiator)
    dice(7, 1, 8)
    roll_side(client, other_player, opposed.opponent)
    box = panel_of(client, player, caerbannog.characters[0]).context["opposed_settle"]
    assert box["may_settle"]
    assert [f.kind for f in box["follow_ups"]] == ["reroll"]  # no Rozmach to boost with
    assert box["declare"].kind == "heroic"


def test_heroic_effort_settles_the_opposed_test_at_exactly_one_success(
    client, gm, player, other_player, caerbannog, losing
):
    follow(client, gm, losing.initiator, "heroic", resource="wytrzymalosc")
    heroic = Roll.objects.get(kind="heroic")
    assert heroic.result["answer"]["heroic_cost"] == 4
    julio = caerbannog.characters[0]
    julio.refresh_from_db()
    assert julio.data["resources"]["wytrzymalosc"] == 8 - 4
    settle(client, gm, losing, "a")
    # The opponent has nothing left to change: the initiator's result is exactly 1 success.
    answer = results().get().result["answer"]
    assert (answer["winner"], answer["level"], answer["a_seq"]) == ("a", 1, heroic.seq)


def test_the_opponent_may_not_use_heroic_effort_even_in_their_turn(
    client, gm, player, other_player, caerbannog, dice
):
    opposed = caerbannog_duel(client, gm, caerbannog)
    dice(9, 2, 9)
    roll_side(client, player, opposed.initiator)
    hinder(client, gm, opposed.opponent)
    dice(2, 2, 3)  # 2 − 3: the opponent's own test fails by 1
    roll_side(client, other_player, opposed.opponent)
    settle(client, player, opposed, "a")
    rival = caerbannog.characters[1]
    box = panel_of(client, other_player, rival).context["opposed_settle"]
    assert box["may_settle"]
    assert "heroic" not in [f.kind for f in box["follow_ups"]]
    response = follow(client, other_player, opposed.opponent, "heroic", resource="wytrzymalosc")
    assert response.status_code == 409
    assert "Only the initiator of an opposed test may do that." in response.content.decode()
    assert not Roll.objects.filter(kind="heroic").exists()


def test_no_heroic_effort_after_the_initiators_critical_failure(
    client, gm, player, other_player, caerbannog, dice
):
    opposed = caerbannog_duel(client, gm, caerbannog)
    dice(1, 1, 1)
    roll_side(client, player, opposed.initiator)
    dice(5, 1, 7)
    roll_side(client, other_player, opposed.opponent)
    box = panel_of(client, player, caerbannog.characters[0]).context["opposed_settle"]
    assert "heroic" not in [f.kind for f in box["follow_ups"]]


# An NPC may initiate ----------------------------------------------------------------------------


@pytest.fixture
def ambush(client, gm, caerbannog):
    """Zbir (an NPC, Skill level II: 3d8) attacks; Julio (Atletyka III) resists."""
    campaign, julio = caerbannog.campaign, caerbannog.characters[0]
    thug = NPC.objects.create(campaign=campaign, name="Zbir", traits=[])
    start(
        client, gm, campaign,
        initiator=julio.pk, **{"a-skill": "Atletyka"}, npc_initiates="yes",
        opponent=f"npc-{thug.pk}", **{"npc-level": "2", "npc-ease": "0"},
    )  # fmt: skip
    return OpposedTest.objects.get()


def roll_npc(client, gm, opposed):
    client.force_login(gm)
    url = reverse("opposed_npc_roll", args=[opposed.session.campaign_id, opposed.pk])
    return client.post(url, {"key": str(uuid.uuid4())})


def test_an_npc_may_initiate_and_the_character_resists(client, gm, ambush):
    assert ambush.initiator is None
    assert ambush.opponent.character.name == "Ala"
    client.force_login(gm)
    page = client.get(reverse("dashboard", args=[ambush.session.campaign_id])).content.decode()
    assert 'name="npc_initiates"' in page
    assert "Opposed test: Zbir against Ala" in page
    assert "Roll Zbir's side" in page


def test_the_character_resisting_an_npc_may_roll_before_the_npc(client, player, ambush, dice):
    # RULES.md 4.10: both may roll at once; the results are revealed in turn.
    dice(5, 1, 7)
    roll_side(client, player, ambush.opponent)
    assert Roll.objects.get().seal.revealed_at is None


def test_an_npc_initiators_roll_is_its_final_result_and_the_character_settles_next(
    client, gm, player, caerbannog, ambush, dice
):
    dice(7, 2, 8)  # Zbir: 7
    roll_npc(client, gm, ambush)
    dice(10, 5, 2)  # Julio: 5, and the 10 gives 1 Rozmach
    roll_side(client, player, ambush.opponent)
    box = panel_of(client, player, caerbannog.characters[0]).context["opposed_settle"]
    assert (box["turn"], box["may_settle"]) == ("b", True)
    # The initiator alone may use heroic effort: Julio resists, so only a boost or re-roll.
    assert [f.kind for f in box["follow_ups"]] == ["reroll", "boost"]
    follow(client, player, ambush.opponent, "boost")  # +2: 7
    settle(client, player, ambush, "b")
    result = results().get()
    assert (result.result["answer"]["winner"], result.result["answer"]["level"]) == ("b", 0)
    assert render(result.label_words) == "Opposed test (#1 against #3): Ala beats Zbir by 0"


def test_only_an_npc_opponent_can_be_made_the_initiator(client, gm, caerbannog):
    campaign, julio, rival = caerbannog.campaign, *caerbannog.characters
    start(
        client, gm, campaign, npc_initiates="yes",
        initiator=julio.pk, **{"a-skill": "Atletyka"},
        opponent=f"character-{rival.pk}", **{"b-skill": "Dociekliwość"},
    )  # fmt: skip
    assert not OpposedTest.objects.exists()


def test_the_rules_page_says_the_sides_settle_in_turn(client, player):
    client.force_login(player)
    page = client.get(reverse("rules", args=["caerbannog"])).content.decode()
    assert "the results are revealed in turn: the initiator settles" in page.replace("&#x27;", "'")
