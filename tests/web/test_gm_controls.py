"""Every GM control on a called test refuses an impossible value at the GM's card, with the
rule's words, in every system; the card's fields and the call form take one range from one
place; a player's Roll that cannot be pressed says why (issue 13, items 11 and 12)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from rolls.actions import ActionRefused
from rolls.dashboard import npc_rolls
from rolls.models import PendingTest
from rolls.pending import actions as pending
from rolls.systems.twod6 import choices as twod6_choices
from tests.web.live import panel_url
from tests.web.test_panel_caerbannog import SHEET as CAERBANNOG_SHEET
from tests.web.test_panel_fasttest import SHEET as FASTTEST_SHEET
from tests.web.test_panel_t10 import SHEET as T10_SHEET
from tests.web.test_panel_twod6 import NOMAD

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
SHEETS = {
    "fasttest": (FASTTEST_SHEET, {"attribute": "BUDOWA", "skill": ["WALKA"]}),
    "t10": (T10_SHEET, {"attribute": "Styrka", "skill": "Svärd"}),
    "caerbannog": (
        CAERBANNOG_SHEET,
        {"skill": ["Dociekliwość"], "defence": [], "form": "combined", "difficulty": "przeciętny"},
    ),
    "2d6": (NOMAD, {"attribute": "Percepcja", "skill": "Przetrwanie", "difficulty": "15"}),
    "ast": ({"attributes": [], "advantages": [], "equipment": []}, {}),
}


@pytest.fixture
def call_in(make_table, gm):
    """A called test in a campaign of the given system."""

    def make(system: str) -> PendingTest:
        sheet, target = SHEETS[system]
        table = make_table(system, name=f"Stół {system}", characters=[("Hero", sheet)])
        return pending.call_test(
            session=table.session, character=table.hero, gm=gm, target=dict(target)
        )

    return make


def change(client, test, **form):
    url = reverse("change_test", args=[test.character.campaign_id, test.pk])
    return client.post(url, form, **HX)


def card_of(html: str, test: PendingTest) -> str:
    """The GM's card of one pending test, out of the pending list."""
    match = re.search(rf'<article[^>]*id="pending-{test.pk}".*?</article>', html, re.S)
    assert match, "the card is on the page"
    return match.group(0)


@pytest.mark.parametrize(
    ("system", "form", "rule"),
    [
        ("t10", {"op": "set_difficulty", "value": "12"}, "from 4 to 10 (usually 7)"),
        ("t10", {"op": "set_difficulty", "value": "3"}, "from 4 to 10 (usually 7)"),
        ("t10", {"op": "set_difficulty", "value": "hard"}, "from 4 to 10 (usually 7)"),
        ("2d6", {"op": "set_difficulty", "value": "0"}, "2d6 difficulty is a whole number from 1"),
        ("2d6", {"op": "set_difficulty", "value": "61"}, "from 1 to 60"),
        ("2d6", {"op": "add_category_modifier", "category": "personal", "amount": "6",
                 "source": "x"}, "from −5 to +5"),
        ("2d6", {"op": "add_dice", "kind": "circumstance", "amount": "9", "source": "x"},
         "from -5 to +5, not 0"),
        ("caerbannog", {"op": "set_difficulty", "value": "21"}, "from 0 to 20 (łatwy 2"),
        ("caerbannog", {"op": "set_hindering", "value": "11"}, "from 0 to 10"),
        ("caerbannog", {"op": "add_dice", "kind": "modifier", "amount": "0", "source": "x"},
         "not 0"),
        ("fasttest", {"op": "set_difficulty", "value": "5"}, "no such setting"),
        ("ast", {"op": "set_challenge", "value": "9"}, "challenge points are left"),
    ],
)  # fmt: skip
def test_an_impossible_value_is_refused_at_the_gms_card_with_the_rule(
    client, call_in, gm, system, form, rule
):
    test = call_in(system)
    client.force_login(gm)
    response = change(client, test, **form)
    assert rule in card_of(response.content.decode(), test)
    test.refresh_from_db()
    assert (test.revision, test.modifiers) == (1, {})


def test_a_refused_value_without_javascript_comes_back_to_the_card_as_a_message(
    client, call_in, gm
):
    test = call_in("t10")
    client.force_login(gm)
    url = reverse("change_test", args=[test.character.campaign_id, test.pk])
    response = client.post(url, {"op": "set_difficulty", "value": "12"}, follow=True)
    assert response.redirect_chain[-1][0].endswith(f"#pending-{test.pk}")
    assert "A T10 difficulty is a whole number from 4 to 10" in response.content.decode()


def test_a_t10_difficulty_within_the_rule_is_taken(client, call_in, gm):
    test = call_in("t10")
    client.force_login(gm)
    change(client, test, op="set_difficulty", value="10")
    test.refresh_from_db()
    assert (test.revision, test.modifiers["difficulty"]) == (2, 10)


def test_the_fasttest_split_takes_at_most_the_penalty_dice_left(call_in, gm):
    test = call_in("fasttest")
    pending.change_test(test.pk, gm, "add_dice", kind="penalty", amount=5, source="lód")
    with pytest.raises(ActionRefused, match="from 0 to"):
        pending.change_test(test.pk, gm, "set_extra_d10", value=9)
    assert PendingTest.objects.get(pk=test.pk).modifiers.get("extra_d10") is None


def test_the_split_of_one_penalty_die_is_refused_in_the_singular(call_in, gm):
    test = call_in("fasttest")  # BUDOWA + WALKA on this sheet leaves one penalty die to split
    with pytest.raises(ActionRefused) as refused:
        pending.change_test(test.pk, gm, "set_extra_d10", value=2)
    assert str(refused.value) == "Of the 1 penalty die, from 0 to 1 can be a d10."
    with translation.override("pl"), pytest.raises(ActionRefused) as refused:
        pending.change_test(test.pk, gm, "set_extra_d10", value=2)
    assert str(refused.value) == "Spośród 1 kości karnej od 0 do 1 może być k10."


def test_a_change_that_would_leave_an_unrollable_test_is_refused_with_the_engines_words(
    call_in, gm
):
    test = call_in("t10")
    for _ in range(7):  # a pool of 7 + 7 × 19 = 140 still has exact odds
        pending.change_test(test.pk, gm, "add_dice", kind="bonus", amount=19, source="armia")
    with pytest.raises(ActionRefused, match="past 200 dice"):
        pending.change_test(test.pk, gm, "add_dice", kind="bonus", amount=19, source="armia")
    assert len(PendingTest.objects.get(pk=test.pk).modifiers["dice"]) == 7


def test_the_t10_cards_difficulty_field_runs_4_to_10(client, call_in, gm):
    test = call_in("t10")
    client.force_login(gm)
    html = client.get(reverse("dashboard_pending", args=[test.character.campaign_id]))
    card = card_of(html.content.decode(), test)
    assert f'id="difficulty-{test.pk}" name="value" type="number" min="4" max="10"' in card
    assert "(4–10)" in card


def test_the_2d6_call_list_and_the_cards_field_run_over_one_range(client, call_in, gm):
    test = call_in("2d6")
    campaign_id = test.character.campaign_id
    client.force_login(gm)
    html = client.get(reverse("dashboard", args=[campaign_id])).content.decode()
    call_list = re.search(r'<select[^>]*name="difficulty".*?</select>', html, re.S).group(0)
    listed = [int(n) for n in re.findall(r'<option value="(\d+)"', call_list)]
    low, high = twod6_choices.DIFFICULTY_MIN, twod6_choices.DIFFICULTY_MAX
    assert (min(listed), max(listed)) == (low, high)
    card = card_of(html, test)
    assert f'id="difficulty-{test.pk}" name="value" type="number" min="{low}" max="{high}"' in card


def test_a_2d6_difficulty_the_call_list_offers_is_taken_at_the_card(client, call_in, gm, player):
    test = call_in("2d6")
    client.force_login(gm)
    change(client, test, op="set_difficulty", value="45")
    client.force_login(player)
    shown = client.get(panel_url(test.character), {"pending": test.pk}).context["panel"]
    assert shown.params["difficulty"] == 45


def test_a_card_whose_test_cannot_be_rolled_says_why(client, call_in, gm):
    test = call_in("t10")
    PendingTest.objects.filter(pk=test.pk).update(modifiers={"difficulty": 12})
    client.force_login(gm)
    html = client.get(reverse("dashboard_pending", args=[test.character.campaign_id]))
    card = card_of(html.content.decode(), test)
    assert "The player cannot roll this test until it is changed:" in card
    assert "T10 difficulties go from 4 to 10" in card
    assert "—" not in card.split("</h3>")[0]


def test_a_roll_that_cannot_be_made_is_disabled_and_says_why(client, call_in, player):
    test = call_in("t10")
    PendingTest.objects.filter(pk=test.pk).update(modifiers={"difficulty": 12})
    client.force_login(player)
    html = client.get(panel_url(test.character), {"pending": test.pk}).content.decode()
    button = re.search(r'<button[^>]*class="primary roll-button"[^>]*>', html).group(0)
    assert "disabled" in button
    assert 'aria-describedby="roll-why"' in button
    why = re.search(r'<p class="roll-why" id="roll-why">(.*?)</p>', html, re.S).group(1)
    assert "Roll is off until this is settled:" in why
    assert "T10 difficulties go from 4 to 10" in why


def test_a_roll_that_can_be_made_has_no_reason_beside_it(client, call_in, player):
    test = call_in("t10")
    client.force_login(player)
    html = client.get(panel_url(test.character), {"pending": test.pk}).content.decode()
    assert 'id="roll-why"' not in html


@pytest.mark.parametrize("system", ["2d6", "caerbannog", "t10"])
def test_an_npcs_test_takes_the_same_difficulty_range_as_a_called_test(system):
    from campaigns.systems import get_system
    from rolls.panels import gm_limits

    fields = npc_rolls.npc_tests(get_system(system)).fields
    field = next(f for f in fields if f.name == "difficulty")
    limit = gm_limits(get_system(system).panel)["difficulty"]
    assert (field.low, field.high) == (limit.low, limit.high)


@pytest.mark.parametrize(
    ("system", "form"),
    [
        ("t10", {"op": "set_npc", "npc": "1", "trait": "0"}),
        ("t10", {"op": "add_dice", "kind": "modifier", "amount": "2", "source": "x"}),
        ("fasttest", {"op": "add_dice", "kind": "modifier", "amount": "2", "source": "x"}),
        ("fasttest", {"op": "set_challenge", "value": "1"}),
        ("caerbannog", {"op": "add_dice", "kind": "penalty", "amount": "2", "source": "x"}),
        ("2d6", {"op": "set_extra_d10", "value": "1"}),
        ("ast", {"op": "add_dice", "kind": "bonus", "amount": "2", "source": "x"}),
    ],
)
def test_a_control_the_systems_card_does_not_offer_is_refused_not_stored(
    client, call_in, gm, system, form
):
    test = call_in(system)
    client.force_login(gm)
    response = change(client, test, **form)
    assert "Tests of this system have no such setting." in card_of(response.content.decode(), test)
    test.refresh_from_db()
    assert (test.revision, test.modifiers) == (1, {})


def test_a_refused_number_stays_in_its_field_marked_invalid(client, call_in, gm):
    test = call_in("t10")
    client.force_login(gm)
    card = card_of(change(client, test, op="set_difficulty", value="12").content.decode(), test)
    field = re.search(rf'<input id="difficulty-{test.pk}"[^>]*>', card).group(0)
    assert 'value="12"' in field
    assert 'aria-invalid="true"' in field
    assert f'aria-describedby="refusal-{test.pk}"' in field
