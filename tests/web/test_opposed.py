"""Opposed tests through the web layer: the GM starts one from the dashboard, each player rolls
their own side, and one log entry says who won, by how much and the margin's label."""

from __future__ import annotations

import copy
import uuid

import pytest
from django.urls import reverse

from campaigns.models import Campaign
from campaigns.sessions import start_session
from rolls.labels import render
from rolls.models import OpposedTest, Roll
from sheets.models import NPC
from tests.web.live import seat
from tests.web.test_panel_caerbannog import SHEET as CAERBANNOG_SHEET
from tests.web.test_panel_fasttest import SHEET as FASTTEST_SHEET
from tests.web.test_panel_twod6 import NOMAD

pytestmark = pytest.mark.django_db


def duel(system, first, second) -> dict:
    """``make_table``'s arguments for Ala (the player) and Bartek (the other player), on
    these sheets, in a running session of ``system``."""
    return {"system": system, "characters": [("Ala", first), ("Bartek", second)]}


def start(client, gm, campaign, **form):
    client.force_login(gm)
    return client.post(reverse("start_opposed", args=[campaign.pk]), form)


def roll_side(client, user, side, **more):
    """The player (or the GM) rolls their side, as their panel posts it (``more``: the panel's
    other fields, e.g. the GM's ``visibility="hidden"``)."""
    client.force_login(user)
    hero = side.character
    url = reverse("test_roll", args=[hero.campaign_id, hero.pk])
    form = {"pending": side.pk, "revision": side.revision, "key": str(uuid.uuid4()), **more}
    return client.post(url, form, HTTP_HX_REQUEST="true")


def the_result():
    return Roll.objects.get(kind="opposed")


def logged(client, user, campaign) -> str:
    """The session's log as ``user``'s page shows it."""
    client.force_login(user)
    return client.get(reverse("session_log", args=[campaign.pk])).content.decode()


# FastTest -------------------------------------------------------------------------------------


@pytest.fixture
def fasttest(make_table):
    unhurt = copy.deepcopy(FASTTEST_SHEET) | {"wounds": []}
    weaker = copy.deepcopy(unhurt)
    weaker["skills"] = weaker["skills"] | {"WALKA": 1, "SPRAWNOŚĆ": 2}
    return make_table(**duel("fasttest", unhurt, weaker))


def fasttest_duel(client, gm, table):
    campaign, ala, bartek = table.campaign, table.characters[0], table.characters[1]
    start(
        client, gm, campaign,
        initiator=ala.pk, **{"a-attribute": "BUDOWA", "a-skill": "WALKA"},
        opponent=f"character-{bartek.pk}", **{"b-attribute": "BUDOWA", "b-skill": "WALKA"},
    )  # fmt: skip
    return OpposedTest.objects.get()


def test_the_gm_starts_an_opposed_test_between_two_characters(client, gm, fasttest):
    opposed = fasttest_duel(client, gm, fasttest)
    assert opposed.initiator.character.name == "Ala"
    assert opposed.opponent.character.name == "Bartek"
    assert opposed.status == OpposedTest.Status.OPEN


def test_fasttest_equal_ranks_go_to_the_higher_chance_as_a_minor_victory(
    client, gm, player, other_player, fasttest, dice
):
    opposed = fasttest_duel(client, gm, fasttest)
    dice(3, 4)  # Ala: chance 9, d10 3 ≤ 9, d6 4: yes
    roll_side(client, player, opposed.initiator)
    assert not Roll.objects.filter(kind="opposed").exists()
    dice(5, 5)  # Bartek: chance 8, yes too
    roll_side(client, other_player, opposed.opponent)
    result = the_result()
    assert result.result["answer"]["winner"] == "a"
    assert result.result["answer"]["label"] == "opposed_minor"
    label = "Opposed test (#1 against #2): Ala beats Bartek by 0 — minor victory"
    assert render(result.label_words) == label
    for user in (gm, player, other_player):
        assert label in logged(client, user, fasttest.campaign)


def test_fasttest_equal_ranks_and_chance_go_to_the_higher_kept_d10(
    client, gm, player, other_player, fasttest, dice
):
    ala, bartek = fasttest.characters[0], fasttest.characters[1]
    bartek.data = copy.deepcopy(ala.data)
    bartek.save()
    opposed = fasttest_duel(client, gm, fasttest)
    dice(3, 4)
    roll_side(client, player, opposed.initiator)
    dice(7, 5)
    roll_side(client, other_player, opposed.opponent)
    answer = the_result().result["answer"]
    assert (answer["winner"], answer["decided_by"]) == ("b", "kept_d10")
    label = "Opposed test (#1 against #2): Bartek beats Ala by 0 — minor victory"
    assert render(the_result().label_words) == label
    assert label in logged(client, gm, fasttest.campaign)


def test_fasttest_equal_ranks_chance_and_kept_d10_are_a_draw(
    client, gm, player, other_player, fasttest, dice
):
    ala, bartek = fasttest.characters[0], fasttest.characters[1]
    bartek.data = copy.deepcopy(ala.data)
    bartek.save()
    opposed = fasttest_duel(client, gm, fasttest)
    dice(3, 4)
    roll_side(client, player, opposed.initiator)
    dice(3, 5)  # the same rank (yes), the same chance, the same kept d10
    roll_side(client, other_player, opposed.opponent)
    answer = the_result().result["answer"]
    assert (answer["winner"], answer["margin"]) == (None, 0)
    label = "Opposed test (#1 against #2): Ala and Bartek draw"
    assert render(the_result().label_words) == label
    assert label in logged(client, player, fasttest.campaign)


def test_the_result_entry_follows_both_sides_rolls(
    client, gm, player, other_player, fasttest, dice
):
    opposed = fasttest_duel(client, gm, fasttest)
    dice(3, 6)
    roll_side(client, player, opposed.initiator)
    dice(9, 1)  # Bartek fails: no, but
    roll_side(client, other_player, opposed.opponent)
    opposed.refresh_from_db()
    result = opposed.result
    assert result.parent == opposed.initiator.roll
    assert (result.result["answer"]["a_seq"], result.result["answer"]["b_seq"]) == (1, 2)
    assert result.result["answer"]["margin"] == 3  # yes_and (5) against no_but (2)


def test_a_character_cannot_oppose_itself(client, gm, fasttest):
    campaign, ala = fasttest.campaign, fasttest.characters[0]
    response = start(
        client, gm, campaign,
        initiator=ala.pk, **{"a-attribute": "BUDOWA", "a-skill": "WALKA"},
        opponent=f"character-{ala.pk}", **{"b-attribute": "BUDOWA", "b-skill": "WALKA"},
    )  # fmt: skip
    assert response.status_code == 302
    assert not OpposedTest.objects.exists()


def test_a_player_cannot_start_an_opposed_test(client, player, fasttest):
    campaign, ala, bartek = fasttest.campaign, fasttest.characters[0], fasttest.characters[1]
    response = start(
        client, player, campaign,
        initiator=ala.pk, **{"a-attribute": "BUDOWA", "a-skill": "WALKA"},
        opponent=f"character-{bartek.pk}", **{"b-attribute": "BUDOWA", "b-skill": "WALKA"},
    )  # fmt: skip
    assert response.status_code == 404
    assert not OpposedTest.objects.exists()


def test_an_npc_side_with_its_own_numbers_is_rolled_by_the_gm(client, gm, player, fasttest, dice):
    campaign, ala = fasttest.campaign, fasttest.characters[0]
    troll = NPC.objects.create(campaign=campaign, name="Troll", traits=[])
    start(
        client, gm, campaign,
        initiator=ala.pk, **{"a-attribute": "BUDOWA", "a-skill": "WALKA"},
        opponent=f"npc-{troll.pk}", **{"npc-chance": "5", "npc-bonus": "0", "npc-penalty": "0"},
    )  # fmt: skip
    opposed = OpposedTest.objects.get()
    dice(2, 5)
    roll_side(client, player, opposed.initiator)
    dice(8, 2)  # the troll fails
    client.force_login(gm)
    client.post(
        reverse("opposed_npc_roll", args=[campaign.pk, opposed.pk]), {"key": str(uuid.uuid4())}
    )
    answer = the_result().result["answer"]
    assert (answer["winner"], answer["margin"]) == ("a", 2)  # yes (4) against no_but (2)
    assert "Ala beats Troll" in render(the_result().label_words)


def test_an_npc_may_initiate_a_fasttest_opposed_test(client, gm, player, fasttest, dice):
    campaign, ala = fasttest.campaign, fasttest.characters[0]
    troll = NPC.objects.create(campaign=campaign, name="Troll", traits=[])
    start(
        client, gm, campaign, npc_initiates="yes",
        initiator=ala.pk, **{"a-attribute": "BUDOWA", "a-skill": "WALKA"},
        opponent=f"npc-{troll.pk}", **{"npc-chance": "5", "npc-bonus": "0", "npc-penalty": "0"},
    )  # fmt: skip
    opposed = OpposedTest.objects.get()
    dice(8, 2)  # the troll fails: no, but
    client.force_login(gm)
    client.post(
        reverse("opposed_npc_roll", args=[campaign.pk, opposed.pk]), {"key": str(uuid.uuid4())}
    )
    dice(2, 5)  # Ala resists: yes
    roll_side(client, player, opposed.opponent)
    result = the_result()
    assert (result.result["answer"]["winner"], result.result["answer"]["margin"]) == ("b", 2)
    assert render(result.label_words) == (
        "Opposed test (#1 against #2): Ala beats Troll by 2 — victory"
    )
    opposed.refresh_from_db()
    assert result.parent == opposed.npc_roll  # the initiator's roll


def test_a_player_cannot_roll_the_npc_side(client, gm, player, fasttest):
    campaign, ala = fasttest.campaign, fasttest.characters[0]
    troll = NPC.objects.create(campaign=campaign, name="Troll", traits=[])
    start(
        client, gm, campaign,
        initiator=ala.pk, **{"a-attribute": "BUDOWA", "a-skill": "WALKA"},
        opponent=f"npc-{troll.pk}", **{"npc-chance": "5", "npc-bonus": "0", "npc-penalty": "0"},
    )  # fmt: skip
    opposed = OpposedTest.objects.get()
    client.force_login(player)
    response = client.post(
        reverse("opposed_npc_roll", args=[campaign.pk, opposed.pk]), {"key": str(uuid.uuid4())}
    )
    assert response.status_code == 404
    assert not Roll.objects.exists()


# 2d6 ----------------------------------------------------------------------------------------


@pytest.fixture
def twod6(make_table):
    return make_table(**duel("2d6", NOMAD, NOMAD))


def test_twod6_hide_vs_spot_the_hider_wins(client, gm, player, other_player, twod6, dice):
    """RULES.md: hide vs spot, totals 21 vs 18 against 15: the hider (resisting) wins."""
    campaign, spotter, hider = twod6.campaign, twod6.characters[0], twod6.characters[1]
    start(
        client, gm, campaign, difficulty="15",
        initiator=spotter.pk, **{"a-attribute": "Percepcja", "a-skill": "Przetrwanie"},
        opponent=f"character-{hider.pk}", **{"b-attribute": "Zręczność", "b-skill": "Skradanie"},
    )  # fmt: skip
    opposed = OpposedTest.objects.get()
    dice(3, 2)  # 8 + 5 + 5 = 18: 4 success points
    roll_side(client, player, opposed.initiator)
    dice(5, 4)  # 7 + 5 + 9 = 21: 7, capped at skill + 1 = 6
    roll_side(client, other_player, opposed.opponent)
    answer = the_result().result["answer"]
    assert (answer["winner"], answer["margin"]) == ("b", 2)
    label = "Opposed test (#1 against #2): Bartek beats Ala by 2"
    assert render(the_result().label_words) == label
    for user in (gm, player, other_player):
        assert label in logged(client, user, twod6.campaign)


def test_twod6_the_resisting_side_wins_a_tie(client, gm, player, other_player, twod6, dice):
    campaign, one, two = twod6.campaign, twod6.characters[0], twod6.characters[1]
    start(
        client, gm, campaign, difficulty="15",
        initiator=one.pk, **{"a-attribute": "Percepcja", "a-skill": "Przetrwanie"},
        opponent=f"character-{two.pk}", **{"b-attribute": "Percepcja", "b-skill": "Przetrwanie"},
    )  # fmt: skip
    opposed = OpposedTest.objects.get()
    dice(3, 2)
    roll_side(client, player, opposed.initiator)
    dice(4, 1)
    roll_side(client, other_player, opposed.opponent)
    assert the_result().result["answer"]["winner"] == "b"


def test_twod6_needs_the_shared_difficulty(client, gm, twod6):
    campaign, one, two = twod6.campaign, twod6.characters[0], twod6.characters[1]
    start(
        client, gm, campaign,
        initiator=one.pk, **{"a-attribute": "Percepcja", "a-skill": "Przetrwanie"},
        opponent=f"character-{two.pk}", **{"b-attribute": "Percepcja", "b-skill": "Przetrwanie"},
    )  # fmt: skip
    assert not OpposedTest.objects.exists()


# Caerbannog ---------------------------------------------------------------------------------


@pytest.fixture
def caerbannog(make_table):
    strong = copy.deepcopy(CAERBANNOG_SHEET)
    return make_table(**duel("caerbannog", strong, CAERBANNOG_SHEET))


def caerbannog_duel(client, gm, table):
    campaign, julio, rival = table.campaign, table.characters[0], table.characters[1]
    start(
        client, gm, campaign,
        initiator=julio.pk, **{"a-skill": "Atletyka"},
        opponent=f"character-{rival.pk}", **{"b-skill": "Dociekliwość"},
    )  # fmt: skip
    return OpposedTest.objects.get()


def test_caerbannog_the_opponent_may_roll_before_the_initiator(
    client, gm, other_player, caerbannog, dice
):
    # RULES.md 4.10: both may roll at once; the results are revealed in turn.
    opposed = caerbannog_duel(client, gm, caerbannog)
    dice(5, 1, 7)
    roll_side(client, other_player, opposed.opponent)
    opposed.opponent.refresh_from_db()
    assert opposed.opponent.roll is not None


def test_caerbannog_sides_test_at_difficulty_zero(client, gm, caerbannog):
    opposed = caerbannog_duel(client, gm, caerbannog)
    assert opposed.initiator.modifiers["difficulty"] == 0
    assert opposed.opponent.modifiers["difficulty"] == 0


# Systems without opposed tests ----------------------------------------------------------------


def test_a_system_without_opposed_tests_refuses_to_start_one(client, gm, player, other_player):
    campaign = Campaign.objects.create(name="T", system="t10", gm=gm)
    seat(campaign, gm, player, other_player)
    start_session(campaign)
    start(client, gm, campaign, initiator="1", opponent="character-2")
    assert not OpposedTest.objects.exists()


# What each page shows ---------------------------------------------------------------------------


def panel_of(client, user, side, **choices):
    client.force_login(user)
    hero = side.character
    url = reverse("test_panel", args=[hero.campaign_id, hero.pk])
    return client.get(url, {"pending": side.pk, **choices})


def test_each_player_sees_their_exact_odds_of_winning(client, gm, player, other_player, fasttest):
    from rolls.engine import fasttest as engine
    from rolls.engine import fasttest_opposed

    opposed = fasttest_duel(client, gm, fasttest)
    exact = fasttest_opposed.win_odds(
        engine.Params(attribute=7, skills=(2,)), engine.Params(attribute=7, skills=(1,))
    )
    mine = panel_of(client, player, opposed.initiator).context["opposed"]
    theirs = panel_of(client, other_player, opposed.opponent).context["opposed"]
    assert mine["mine"] == pytest.approx(exact["a"])
    assert theirs["mine"] == pytest.approx(exact["b"])


def test_the_odds_of_winning_follow_the_players_own_bonus_dice(client, gm, player, fasttest):
    opposed = fasttest_duel(client, gm, fasttest)
    plain = panel_of(client, player, opposed.initiator).context["opposed"]["mine"]
    with_trait = panel_of(client, player, opposed.initiator, trait="0").context["opposed"]["mine"]
    assert with_trait > plain


def test_the_panel_says_whom_the_side_opposes(client, gm, player, fasttest):
    opposed = fasttest_duel(client, gm, fasttest)
    page = panel_of(client, player, opposed.initiator).content.decode()
    assert "Opposed test: Ala against Bartek" in page
    assert "Your odds of winning" in page


def test_the_gm_sees_both_sides_odds_on_the_dashboard(client, gm, fasttest):
    campaign = fasttest.campaign
    fasttest_duel(client, gm, fasttest)
    page = client.get(reverse("dashboard", args=[campaign.pk])).content.decode()
    assert "Opposed test: Ala against Bartek" in page
    assert "Odds of winning" in page


def test_calling_off_a_side_calls_off_the_opposed_test(client, gm, fasttest):
    campaign = fasttest.campaign
    opposed = fasttest_duel(client, gm, fasttest)
    client.post(reverse("cancel_test", args=[campaign.pk, opposed.opponent.pk]))
    opposed.refresh_from_db()
    assert opposed.status == OpposedTest.Status.CANCELLED


def test_twod6_both_sides_test_against_the_gms_difficulty(client, gm, player, twod6):
    campaign, one, two = twod6.campaign, twod6.characters[0], twod6.characters[1]
    start(
        client, gm, campaign, difficulty="11",
        initiator=one.pk, **{"a-attribute": "Percepcja", "a-skill": "Przetrwanie"},
        opponent=f"character-{two.pk}", **{"b-attribute": "Percepcja", "b-skill": "Przetrwanie"},
    )  # fmt: skip
    opposed = OpposedTest.objects.get()
    panel = panel_of(client, player, opposed.initiator).context["panel"]
    assert panel.params["difficulty"] == 11


def test_fasttest_npc_traits_ticked_on_a_side_lower_its_odds_of_winning(
    client, gm, player, fasttest
):
    campaign = fasttest.campaign
    opposed = fasttest_duel(client, gm, fasttest)
    before = panel_of(client, player, opposed.initiator).context["opposed"]["mine"]
    troll = NPC.objects.create(
        campaign=campaign, name="Troll", traits=[{"name": "wielki", "dice": 3}]
    )
    client.force_login(gm)
    client.post(
        reverse("change_test", args=[campaign.pk, opposed.initiator.pk]),
        {"op": "set_npc", "npc": troll.pk, "trait": "0"},
    )
    opposed.initiator.refresh_from_db()
    after = panel_of(client, player, opposed.initiator).context["opposed"]["mine"]
    assert after < before


def test_an_outsider_cannot_start_an_opposed_test(client, outsider, fasttest):
    campaign, ala, bartek = fasttest.campaign, fasttest.characters[0], fasttest.characters[1]
    response = start(
        client, outsider, campaign,
        initiator=ala.pk, **{"a-attribute": "BUDOWA", "a-skill": "WALKA"},
        opponent=f"character-{bartek.pk}", **{"b-attribute": "BUDOWA", "b-skill": "WALKA"},
    )  # fmt: skip
    assert response.status_code == 404
    assert not OpposedTest.objects.exists()


def test_a_side_rolled_on_a_stale_page_is_refused_and_nothing_is_logged(
    client, gm, player, fasttest, dice
):
    campaign = fasttest.campaign
    opposed = fasttest_duel(client, gm, fasttest)
    stale = opposed.initiator
    client.force_login(gm)
    client.post(
        reverse("change_test", args=[campaign.pk, stale.pk]),
        {"op": "add_dice", "kind": "penalty", "amount": "1", "source": "mud"},
    )
    dice(3, 4, 5, 2)
    response = roll_side(client, player, stale)
    assert "The GM just changed this test" in response.content.decode()
    assert not Roll.objects.exists()


def test_the_npc_side_cannot_be_rolled_twice(client, gm, player, fasttest, dice):
    campaign, ala = fasttest.campaign, fasttest.characters[0]
    troll = NPC.objects.create(campaign=campaign, name="Troll", traits=[])
    start(
        client, gm, campaign,
        initiator=ala.pk, **{"a-attribute": "BUDOWA", "a-skill": "WALKA"},
        opponent=f"npc-{troll.pk}", **{"npc-chance": "5", "npc-bonus": "0", "npc-penalty": "0"},
    )  # fmt: skip
    opposed = OpposedTest.objects.get()
    url = reverse("opposed_npc_roll", args=[campaign.pk, opposed.pk])
    dice(8, 2)
    client.post(url, {"key": str(uuid.uuid4())})
    dice(8, 2)
    client.post(url, {"key": str(uuid.uuid4())})
    assert Roll.objects.filter(npc=troll).count() == 1


def test_a_new_call_on_a_side_calls_off_the_opposed_test(client, gm, fasttest):
    campaign, ala = fasttest.campaign, fasttest.characters[0]
    opposed = fasttest_duel(client, gm, fasttest)
    client.post(
        reverse("call_test", args=[campaign.pk, ala.pk]), {"attribute": "UMYSŁ", "skill": ""}
    )
    opposed.refresh_from_db()
    assert opposed.status == OpposedTest.Status.CANCELLED


def test_the_markdown_export_says_who_won_an_opposed_test_with_no_empty_outcome_or_dice(
    client, gm, player, other_player, fasttest, dice
):
    opposed = fasttest_duel(client, gm, fasttest)
    dice(3, 4)
    roll_side(client, player, opposed.initiator)
    dice(5, 5)
    roll_side(client, other_player, opposed.opponent)
    client.force_login(gm)
    url = reverse("session_export", args=[fasttest.campaign.pk, fasttest.session.pk, "md"])
    line = next(line for line in client.get(url).content.decode().splitlines() if "**#3**" in line)
    assert line.endswith("Ala beats Bartek by 0 — minor victory")
    assert "****" not in line


# Each side reads its own fields -------------------------------------------------------------------
# The dashboard's form holds every character's fields for both sides ("a-12-skill", "b-12-skill",
# and an NPC's "npc-7-chance"): each side is read as a form under its own prefix, its side's and
# its character's, and nothing else of the post reaches it.


def test_each_side_reads_only_its_own_fields_of_the_dashboard_form(client, gm, twod6):
    campaign, spotter, hider = twod6.campaign, twod6.characters[0], twod6.characters[1]
    start(
        client, gm, campaign, difficulty="15",
        initiator=spotter.pk, opponent=f"character-{hider.pk}",
        **{
            f"a-{spotter.pk}-attribute": "Percepcja", f"a-{spotter.pk}-skill": "Przetrwanie",
            f"b-{hider.pk}-attribute": "Zręczność", f"b-{hider.pk}-skill": "Skradanie",
            # The other character's fields on each side, a side's own without the character,
            # and plain ones: none of them is either side's.
            f"a-{hider.pk}-attribute": "Percepcja", f"a-{hider.pk}-skill": "",
            f"b-{spotter.pk}-attribute": "Percepcja", f"b-{spotter.pk}-skill": "",
            "a-attribute": "Zręczność", "a-skill": "", "b-attribute": "Percepcja", "b-skill": "",
            "attribute": "Zręczność", "skill": "",
        },
    )  # fmt: skip
    opposed = OpposedTest.objects.get()
    a, b = opposed.initiator.target, opposed.opponent.target
    assert (a["attribute"], a["skill"]) == ("Percepcja", "Przetrwanie")
    assert (b["attribute"], b["skill"]) == ("Zręczność", "Skradanie")


def test_a_side_without_its_characters_fields_reads_the_sides_own(client, gm, twod6):
    campaign, spotter, hider = twod6.campaign, twod6.characters[0], twod6.characters[1]
    start(
        client, gm, campaign, difficulty="15",
        initiator=spotter.pk, opponent=f"character-{hider.pk}",
        **{
            "a-attribute": "Percepcja", "a-skill": "Przetrwanie",
            "b-attribute": "Zręczność", "b-skill": "Skradanie",
            f"a-{hider.pk}-attribute": "Zręczność", f"b-{spotter.pk}-attribute": "Percepcja",
            "attribute": "Zręczność", "skill": "",
        },
    )  # fmt: skip
    opposed = OpposedTest.objects.get()
    a, b = opposed.initiator.target, opposed.opponent.target
    assert (a["attribute"], a["skill"]) == ("Percepcja", "Przetrwanie")
    assert (b["attribute"], b["skill"]) == ("Zręczność", "Skradanie")


def test_a_wrong_field_of_the_other_character_refuses_neither_side(client, gm, twod6):
    campaign, spotter, hider = twod6.campaign, twod6.characters[0], twod6.characters[1]
    start(
        client, gm, campaign, difficulty="15",
        initiator=spotter.pk, opponent=f"character-{hider.pk}",
        **{
            f"a-{spotter.pk}-attribute": "Percepcja", f"b-{hider.pk}-attribute": "Zręczność",
            f"a-{hider.pk}-attribute": "Nothing", f"b-{spotter.pk}-attribute": "Nothing",
        },
    )  # fmt: skip
    assert OpposedTest.objects.count() == 1


def test_a_wrong_field_of_a_sides_own_character_refuses_the_test(client, gm, twod6):
    campaign, spotter, hider = twod6.campaign, twod6.characters[0], twod6.characters[1]
    start(
        client, gm, campaign, difficulty="15",
        initiator=spotter.pk, opponent=f"character-{hider.pk}",
        **{
            f"a-{spotter.pk}-attribute": "Percepcja", f"b-{hider.pk}-attribute": "Nothing",
            f"b-{spotter.pk}-attribute": "Zręczność", "b-attribute": "Zręczność",
        },
    )  # fmt: skip
    assert not OpposedTest.objects.exists()


def test_each_caerbannog_side_reads_only_its_own_places(client, gm, caerbannog):
    """Caerbannog's call form names what is tested in places ("tested", "tested_2"...), read
    through the form under the side's prefix like every other field."""
    campaign, julio, rival = caerbannog.campaign, *caerbannog.characters[:2]
    start(
        client, gm, campaign,
        initiator=julio.pk, opponent=f"character-{rival.pk}",
        **{
            f"a-{julio.pk}-tested": "skill:Atletyka", f"a-{julio.pk}-tested_2": "",
            f"b-{rival.pk}-tested": "skill:Dociekliwość", f"b-{rival.pk}-tested_2": "",
            f"a-{rival.pk}-tested": "skill:Jazda", f"b-{julio.pk}-tested": "skill:Jazda",
            f"b-{julio.pk}-tested_2": "skill:Percepcja", "tested": "skill:Jazda",
            "tested_2": "skill:Percepcja", "a-tested": "skill:Jazda", "b-tested": "skill:Jazda",
        },
    )  # fmt: skip
    opposed = OpposedTest.objects.get()
    assert opposed.initiator.target["order"] == ["skill:Atletyka"]
    assert opposed.opponent.target["order"] == ["skill:Dociekliwość"]


def test_the_npc_side_reads_only_its_own_npcs_fields(client, gm, fasttest):
    campaign, ala = fasttest.campaign, fasttest.characters[0]
    troll = NPC.objects.create(campaign=campaign, name="Troll", traits=[])
    ogre = NPC.objects.create(campaign=campaign, name="Ogre", traits=[])
    start(
        client, gm, campaign,
        initiator=ala.pk, **{f"a-{ala.pk}-attribute": "BUDOWA", f"a-{ala.pk}-skill": "WALKA"},
        opponent=f"npc-{troll.pk}",
        **{
            f"npc-{troll.pk}-chance": "5", f"npc-{troll.pk}-bonus": "1",
            f"npc-{ogre.pk}-chance": "9", f"npc-{ogre.pk}-bonus": "0",
            "npc-chance": "8", "chance": "7", "bonus": "3", "a-chance": "6",
        },
    )  # fmt: skip
    opposed = OpposedTest.objects.get()
    assert opposed.npc == troll
    assert (opposed.npc_params["attribute"], opposed.npc_params["bonus"]) == (5, 1)


def test_a_called_spell_is_read_from_its_own_sides_fields(client, gm, make_table):
    """FastTest's call form's spell difficulty is one of the form's fields too: each side's
    from under its own prefix, a plain one ignored."""
    from tests.web.test_fasttest_spells import CASTER, SETTINGS

    table = make_table(
        system="fasttest",
        settings={"fasttest": SETTINGS},
        characters=[("Ala", CASTER), ("Bartek", CASTER)],
    )
    campaign, ala, bartek = table.campaign, table.characters[0], table.characters[1]
    start(
        client, gm, campaign,
        initiator=ala.pk, opponent=f"character-{bartek.pk}",
        **{
            f"a-{ala.pk}-attribute": "DUCH", f"a-{ala.pk}-spell_difficulty": "1",
            f"b-{bartek.pk}-attribute": "DUCH", f"b-{bartek.pk}-spell_difficulty": "",
            f"b-{ala.pk}-spell_difficulty": "3", f"a-{bartek.pk}-spell_difficulty": "3",
            "spell_difficulty": "3",
        },
    )  # fmt: skip
    opposed = OpposedTest.objects.get()
    assert opposed.initiator.target["spell_difficulty"] == 1
    assert "spell_difficulty" not in opposed.opponent.target


def test_a_called_spell_out_of_range_on_one_side_refuses_the_test(client, gm, make_table):
    from tests.web.test_fasttest_spells import CASTER, SETTINGS

    table = make_table(
        system="fasttest",
        settings={"fasttest": SETTINGS},
        characters=[("Ala", CASTER), ("Bartek", CASTER)],
    )
    campaign, ala, bartek = table.campaign, table.characters[0], table.characters[1]
    start(
        client, gm, campaign,
        initiator=ala.pk, opponent=f"character-{bartek.pk}",
        **{
            f"a-{ala.pk}-attribute": "DUCH", f"b-{bartek.pk}-attribute": "DUCH",
            f"b-{bartek.pk}-spell_difficulty": "9",
        },
    )  # fmt: skip
    assert not OpposedTest.objects.exists()
