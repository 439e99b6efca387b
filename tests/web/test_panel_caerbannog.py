"""The Caerbannog 2026 test panel: a skill, a combined test or a defence against a difficulty, the
exact odds, then the roll and what may follow it (a boost, heroic effort, re-rolls)."""

import uuid

import pytest
from django.urls import reverse
from django.utils import translation

from campaigns.sessions import new_scene, start_session
from rolls import actions
from rolls.engine import caerbannog
from rolls.labels import source_line
from rolls.models import Roll
from rolls.systems.caerbannog import follow_ups
from rolls.systems.caerbannog import panel as panel_module
from tests.web.live import panel_url
from tests.web.words_helpers import in_words

SHEET = {
    "skills": [
        {"name": "Charyzma", "category": "social", "level": 0},
        {"name": "Przebiegłość", "category": "social", "level": 2},
        {"name": "Dociekliwość", "category": "practical", "level": 2},
        {"name": "Percepcja", "category": "practical", "level": 1},
        {"name": "Jazda", "category": "physical", "level": 2},
        {"name": "Atletyka", "category": "physical", "level": 3},
    ],
    "category_bonuses": {"physical": 2, "practical": 3, "social": 3, "combat": 1,
                         "knowledge": 0, "specialist": 0, "mystic": 0},
    "defences": {"Blok": 1, "Odporność": 1, "Unik": 2, "Intuicja": 1, "Koncentracja": 1,
                 "Opanowanie": 1},
    "resources": {"wytrzymalosc": 8, "determinacja": 3, "zywotnosc": 10, "zdrowie": 10,
                  "kapital_spoleczny": 2, "pd": 0, "rozmach": 0},
}  # fmt: skip


pytestmark = [
    pytest.mark.django_db,
    pytest.mark.table(
        "caerbannog", name="Caerbannog", characters=[("Morgana", SHEET)], session=False
    ),
]


def follow_up_url(hero, roll, kind):
    return reverse("test_follow_up", args=[hero.campaign_id, hero.pk, roll.pk, kind])


def panel(client, hero, **choices):
    return client.post(panel_url(hero), choices).context["panel"]


def roll(client, hero, **choices):
    return client.post(panel_url(hero, "test_roll"), {**choices, "key": str(uuid.uuid4())})


def follow(client, hero, parent, kind, **choices):
    return client.post(follow_up_url(hero, parent, kind), {**choices, "key": str(uuid.uuid4())})


def answer(entry):
    return entry.result["answer"]


def rozmach(hero):
    hero.refresh_from_db()
    return hero.data["resources"]["rozmach"]


# --- The panel before the roll ------------------------------------------------------------------


def test_a_click_on_a_skill_opens_the_panel_with_three_dice_of_its_size(client, table, player):
    hero = table.hero
    client.force_login(player)
    response = client.get(panel_url(hero), {"skill": "Przebiegłość"})
    html = response.content.decode()
    assert 'value="Przebiegłość" checked' in html
    assert "Exact odds" in html
    assert response.context["panel"].params == {
        "dice": [8, 8, 8], "difficulty": 3, "ease": 0, "modifier": 0, "bonus": 3, "rozmach": 0,
    }  # fmt: skip


def test_the_label_names_the_skill_its_level_its_dice_and_the_difficulty(client, table, player):
    hero = table.hero
    client.force_login(player)
    assert in_words(panel(client, hero, skill="Charyzma").label) == "Charyzma 0 (3d4) vs 3"


def test_3d4_at_difficulty_3_needs_two_4s_for_a_success(client, table, player):
    hero = table.hero
    client.force_login(player)
    shown = panel(client, hero, skill="Charyzma", difficulty="przeciętny")
    # Two or three 4s out of 64 combinations: 3 * 3 + 1.
    assert shown.success == pytest.approx(10 / 64)


def test_the_odds_are_the_engines_best_first_with_the_result_spread(client, table, player):
    hero = table.hero
    client.force_login(player)
    shown = panel(client, hero, skill="Jazda", difficulty="4")
    exact = caerbannog.odds(caerbannog.parse_params(shown.params))
    assert shown.odds == [(key, exact["odds"][key])
                          for key in ("success", "failure", "critical_failure")]  # fmt: skip
    assert [value for value, _p, _h in shown.context["results"]] == [-3, -2, -1, 0, 1, 2, 3, 4]
    assert shown.context["rozmach_mean"] == exact["rozmach_mean"]


def test_the_page_shows_the_result_spread_and_the_expected_rozmach(client, table, player):
    hero = table.hero
    client.force_login(player)
    html = client.post(panel_url(hero), {"skill": "Jazda"}).content.decode()
    assert "Possible results" in html
    assert "expected after the roll" in html


def test_a_named_difficulty_is_its_number_and_named_in_the_sources(client, table, player):
    hero = table.hero
    client.force_login(player)
    shown = panel(client, hero, skill="Jazda", difficulty="trudny")
    assert shown.params["difficulty"] == 5
    assert in_words(shown.sources[0]) == {
        "kind": "difficulty", "amount": 5, "source": "trudny (hard)",
    }  # fmt: skip
    with translation.override("pl"):  # the seed's Polish name alone for a Polish reader
        assert in_words(shown.sources[0])["source"] == "trudny"


def test_a_difficulty_given_as_a_number_keeps_the_name_it_has(client, table, player):
    hero = table.hero
    client.force_login(player)
    shown = panel(client, hero, skill="Jazda", difficulty="3").sources[0]
    assert in_words(shown)["source"] == "przeciętny (average)"
    assert panel(client, hero, skill="Jazda", difficulty="0").params["difficulty"] == 0
    assert in_words(panel(client, hero, skill="Jazda", difficulty="7").sources[0]) == {
        "kind": "difficulty", "amount": 7, "source": "set by number",
    }  # fmt: skip


@pytest.mark.parametrize("forged", ["bardzo trudny", "-1", "21", "3.5"])
def test_a_forged_difficulty_is_refused_with_a_message(client, table, player, forged):
    hero = table.hero
    client.force_login(player)
    response = client.post(panel_url(hero), {"skill": "Jazda", "difficulty": forged})
    assert not response.context["panel"].ready
    assert "Choose a difficulty (łatwy (easy, 2), przeciętny (average, 3)" in (
        response.content.decode()
    )


def test_more_easing_than_hindering_factors_read_the_highest_die(client, table, player):
    hero = table.hero
    client.force_login(player)
    shown = panel(client, hero, skill="Jazda", easing="2", hindering="1")
    assert shown.params["ease"] == 1
    assert {"kind": "ease", "amount": 1, "source": "eased ×2, hindered ×1 → eased"} in (
        in_words(shown.sources)
    )


def test_more_hindering_factors_read_the_lowest_die(client, table, player):
    hero = table.hero
    client.force_login(player)
    shown = panel(client, hero, skill="Jazda", easing="1", hindering="3")
    assert shown.params["ease"] == -1
    assert {"kind": "hinder", "amount": 1, "source": "eased ×1, hindered ×3 → hindered"} in (
        in_words(shown.sources)
    )


def test_equal_counts_of_factors_cancel_out(client, table, player):
    hero = table.hero
    client.force_login(player)
    shown = panel(client, hero, skill="Jazda", easing="2", hindering="2")
    assert shown.params["ease"] == 0
    assert in_words(shown.sources)[-1]["source"] == "eased ×2, hindered ×2 → they cancel out"


def test_text_in_a_factor_count_is_refused_with_a_message(client, table, player):
    hero = table.hero
    client.force_login(player)
    response = client.post(panel_url(hero), {"skill": "Jazda", "easing": "dużo"})
    assert not response.context["panel"].ready
    assert "Easing factors must be a whole number from 0 to 20." in response.content.decode()


def test_armour_on_a_physical_defence_is_a_named_fixed_modifier(client, table, player):
    hero = table.hero
    client.force_login(player)
    shown = panel(client, hero, defence="Odporność", modifier="1", modifier_source="armour")
    assert shown.params["modifier"] == 1
    assert {"kind": "modifier", "amount": 1, "source": "armour"} in shown.sources


def test_an_unnamed_modifier_is_still_named_in_the_log(client, table, player):
    hero = table.hero
    client.force_login(player)
    shown = panel(client, hero, skill="Jazda", modifier="-2")
    assert {"kind": "modifier", "amount": -2, "source": "fixed modifier"} in in_words(shown.sources)


def test_an_out_of_range_modifier_is_refused_with_a_message(client, table, player):
    hero = table.hero
    client.force_login(player)
    response = client.post(panel_url(hero), {"skill": "Jazda", "modifier": "99"})
    html = response.content.decode()
    assert "The modifier must be a whole number from −20 to 20." in html
    assert 'value="99" aria-invalid="true"' in html


def test_two_skills_combine_the_main_two_dice_and_the_other_one(client, table, player):
    hero = table.hero
    client.force_login(player)
    shown = panel(client, hero, skill=["Jazda", "Percepcja"], main="Jazda")
    assert shown.params["dice"] == [8, 8, 6]
    assert in_words(shown.label) == "Jazda II + Percepcja I (2d8+1d6) vs 3"
    assert source_line(shown.sources[1]) == (
        "3 dice rolled: Jazda 2d8 + Percepcja 1d6 (combined test)"
    )


def test_the_added_form_rolls_the_main_skill_fully_plus_one_die_per_added_skill(
    client, table, player
):
    hero = table.hero
    client.force_login(player)
    shown = panel(client, hero, skill=["Jazda", "Percepcja"], main="Jazda", form="added")
    assert shown.params["dice"] == [8, 8, 8, 6]
    assert in_words(shown.label) == "Jazda II with Percepcja I added (3d8+1d6) vs 3"


def test_the_added_form_names_the_dice_each_skill_rolled_and_adds_none(client, table, player):
    hero = table.hero
    client.force_login(player)
    shown = panel(client, hero, skill=["Jazda", "Percepcja"], main="Jazda", form="added")
    # The main skill rolls in full (3d8), the added one gives one die (1d6): 4 dice in all, not
    # "+4 dice" on top of anything.
    assert source_line(shown.sources[1]) == (
        "4 dice rolled: Jazda 3d8 + Percepcja 1d6 (main skill with others added)"
    )


def test_three_skills_give_one_die_each_and_a_fourth_adds_one(client, table, player):
    hero = table.hero
    client.force_login(player)
    three = panel(client, hero, skill=["Jazda", "Percepcja", "Charyzma"], main="Jazda")
    four = panel(client, hero, skill=["Jazda", "Percepcja", "Charyzma", "Atletyka"], main="Jazda")
    assert three.params["dice"] == [8, 6, 4]
    assert four.params["dice"] == [8, 6, 4, 10]  # in the order named


def test_the_main_skill_gives_its_category_bonus_to_the_boost(client, table, player):
    hero = table.hero
    client.force_login(player)
    physical = panel(client, hero, skill=["Jazda", "Dociekliwość"], main="Jazda")
    practical = panel(client, hero, skill=["Jazda", "Dociekliwość"], main="Dociekliwość")
    assert (physical.params["bonus"], practical.params["bonus"]) == (2, 3)


def test_without_a_main_skill_the_first_named_leads(client, table, player):
    hero = table.hero
    client.force_login(player)
    # RULES.md 8: "za główną uznaje się pierwszą wymienioną", not the highest level.
    assert panel(client, hero, skill=["Percepcja", "Atletyka"]).params["dice"] == [6, 6, 10]


def test_a_defence_rolls_three_dice_with_no_category_bonus(client, table, player):
    hero = table.hero
    client.force_login(player)
    response = client.post(panel_url(hero), {"defence": "Unik"})
    shown = response.context["panel"]
    assert shown.params["dice"] == [8, 8, 8]
    assert shown.params["bonus"] == 0
    assert "No boost: a defence has no category bonus." in response.content.decode()


def test_a_defence_joins_skills_in_a_combined_test(client, table, player):
    hero = table.hero
    client.force_login(player)
    order = ["defence:Unik", "skill:Percepcja"]
    shown = panel(client, hero, skill="Percepcja", defence="Unik", order=order)
    assert shown.params["dice"] == [8, 8, 6]
    assert in_words(shown.label) == "Unik II + Percepcja I (2d8+1d6) vs 3"


def test_two_defences_make_a_combined_test_the_first_named_the_main_one(client, table, player):
    hero = table.hero
    client.force_login(player)
    shown = panel(client, hero, defence=["Blok", "Unik"])
    assert shown.params["dice"] == [6, 6, 8]
    assert shown.params["bonus"] == 0


def test_forged_skill_and_defence_names_are_refused_with_a_message(client, table, player):
    hero = table.hero
    client.force_login(player)
    response = client.post(panel_url(hero), {"skill": "Latanie", "defence": "Tarcza"})
    assert response.status_code == 200
    panel = response.context["panel"]
    assert not panel.ready
    assert "There is no “Latanie” on this sheet" in panel.errors["skill"][0]
    assert "There is no “Tarcza” on this sheet" in panel.errors["defence"][0]


def test_a_forged_main_skill_that_is_not_tested_is_ignored(client, table, player):
    hero = table.hero
    client.force_login(player)
    shown = panel(client, hero, skill=["Jazda", "Percepcja"], main="Atletyka", form="sideways")
    assert shown.params["dice"] == [8, 8, 6]


def test_a_printed_skill_missing_from_the_sheet_is_tested_at_level_0(client, table, player):
    hero = table.hero
    client.force_login(player)
    assert panel(client, hero, skill="Tresura").params["dice"] == [4, 4, 4]


def test_the_rozmach_pool_before_the_roll_comes_from_the_sheet(client, table, player):
    hero = table.hero
    hero.data["resources"]["rozmach"] = 4
    hero.save()
    client.force_login(player)
    assert panel(client, hero, skill="Jazda").params["rozmach"] == 4


# --- Rolling ------------------------------------------------------------------------------------


def test_a_roll_logs_every_modifier_with_its_source(client, table, player, dice):
    campaign, hero = table.campaign, table.hero
    start_session(campaign)
    client.force_login(player)
    dice(3, 5, 6)
    roll(client, hero, defence="Odporność", difficulty="łatwy", easing="1",
         modifier="1", modifier_source="armour")  # fmt: skip
    entry = Roll.objects.get()
    assert entry.label == "Odporność I (3d6) vs 2"
    assert [(s["kind"], s["amount"], s["source"]) for s in in_words(entry.sources)] == [
        ("difficulty", 2, "łatwy (easy)"),
        ("ease", 1, "eased ×1, hindered ×0 → eased"),
        ("modifier", 1, "armour"),
    ]


def test_charyzma_0_rolling_4_4_1_against_5_fails_by_1_and_gains_2_rozmach(
    client, table, player, dice
):
    campaign, hero = table.campaign, table.hero
    start_session(campaign)
    client.force_login(player)
    dice(4, 4, 1)
    roll(client, hero, skill="Charyzma", difficulty="5")
    entry = Roll.objects.get()
    assert (answer(entry)["result"], answer(entry)["rozmach_gained"]) == (-1, 2)
    assert rozmach(hero) == 2


def rolled(client, hero, faces, dice, **choices):
    """Roll the panel's test on the given faces; the logged entry's answer."""
    dice(*faces)
    roll(client, hero, **choices)
    return answer(Roll.objects.order_by("-seq").first())


def test_worked_examples_of_rules_md_rolled_through_the_panel(client, table, player, dice):
    campaign, hero = table.campaign, table.hero
    start_session(campaign)
    client.force_login(player)
    # Julio, Dociekliwość II (3d8) 5,7,4 vs 2 -> 3 successes, one przebicie.
    julio = rolled(client, hero, (5, 7, 4), dice, skill="Dociekliwość", difficulty="łatwy")
    assert (julio["kept"], julio["result"], julio["przebicia"]) == (5, 3, 1)
    # Eased, 7,3,2 vs 3 -> reads the 7 -> 4.
    eased = rolled(client, hero, (7, 3, 2), dice, skill="Jazda", easing="1")
    assert (eased["kept"], eased["result"]) == (7, 4)
    # Hindered 1,8,8 at difficulty 4 -> reads the 1 -> -3, and two 8s give 2 Rozmach.
    hindered = rolled(client, hero, (1, 8, 8), dice, skill="Jazda", hindering="1", difficulty="4")
    assert (hindered["result"], hindered["rozmach_gained"]) == (-3, 2)


def test_a_combined_d6_d8_d10_test_rolling_6_4_8_against_5_is_1_success(
    client, table, player, dice
):
    campaign, hero = table.campaign, table.hero
    start_session(campaign)
    client.force_login(player)
    # Percepcja I leads (d6), then Jazda II (d8) and Atletyka III (d10) in the order named.
    combined = rolled(client, hero, (6, 4, 8), dice, skill=["Percepcja", "Jazda", "Atletyka"],
                      main="Percepcja", difficulty="5")  # fmt: skip
    assert Roll.objects.get().params["dice"] == [6, 8, 10]
    assert (combined["kept"], combined["result"]) == (6, 1)


def test_3d8_and_1d6_added_rolling_8_6_3_1_against_4_reads_the_6_for_2(client, table, player, dice):
    campaign, hero = table.campaign, table.hero
    start_session(campaign)
    client.force_login(player)
    added = rolled(client, hero, (8, 3, 1, 6), dice, skill=["Jazda", "Percepcja"], main="Jazda",
                   form="added", difficulty="4")  # fmt: skip
    assert (added["kept"], added["result"]) == (6, 2)


def test_a_roll_that_would_overwrite_a_changed_rozmach_pool_is_refused(table):
    hero = table.hero
    shown = panel_module.build(hero, hero.campaign, {"skill": ["Jazda"]})
    result = caerbannog.resolve(caerbannog.parse_params(shown.params), [8, 2, 2])
    sheet = {"resources": {"rozmach": 3}}
    with pytest.raises(actions.ActionRefused):
        shown.on_result(sheet, result)


# --- After the roll -----------------------------------------------------------------------------


@pytest.fixture
def charyzma_fails(client, table, player, dice):
    """Charyzma 0 (3d4) 4,4,1 vs 5: -1, +2 Rozmach (RULES.md's worked example)."""
    campaign, hero = table.campaign, table.hero
    start_session(campaign)
    client.force_login(player)
    dice(4, 4, 1)
    roll(client, hero, skill="Charyzma", difficulty="5")
    return hero, Roll.objects.get()


def offered(parent, hero):
    hero.refresh_from_db()
    return [f.kind for f in follow_ups.follow_ups(parent, hero, hero.campaign)]


def test_a_failure_offers_a_re_roll_a_boost_and_heroic_effort(charyzma_fails):
    hero, parent = charyzma_fails
    assert offered(parent, hero) == ["reroll", "boost", "heroic"]


def test_the_boost_adds_the_category_bonus_paid_by_this_rolls_rozmach(client, charyzma_fails):
    hero, parent = charyzma_fails
    response = follow(client, hero, parent, "boost")
    boosted = Roll.objects.get(kind="boost")
    assert response.status_code == 200
    assert boosted.parent == parent
    assert boosted.faces == [4, 4, 1]
    assert (answer(boosted)["result"], answer(boosted)["rozmach"]) == (2, 1)
    assert rozmach(hero) == 1


def test_the_boost_is_named_in_the_log(client, charyzma_fails):
    hero, parent = charyzma_fails
    follow(client, hero, parent, "boost")
    assert {
        "kind": "boost",
        "amount": 3,
        "source": "category bonus, 1 Rozmach (momentum) spent",
    } in (in_words(Roll.objects.get(kind="boost").sources))


def test_a_test_is_boosted_only_once(client, charyzma_fails):
    hero, parent = charyzma_fails
    follow(client, hero, parent, "boost")
    boosted = Roll.objects.get(kind="boost")
    assert "boost" not in offered(boosted, hero)
    assert follow(client, hero, boosted, "boost").status_code == 409
    assert follow(client, hero, parent, "boost").status_code == 409
    assert Roll.objects.filter(kind="boost").count() == 1


def test_a_boost_with_an_empty_pool_is_not_offered(client, table, player, dice):
    campaign, hero = table.campaign, table.hero
    start_session(campaign)
    client.force_login(player)
    dice(3, 2, 1)
    roll(client, hero, skill="Charyzma", difficulty="5")
    parent = Roll.objects.get()
    assert "boost" not in offered(parent, hero)
    assert follow(client, hero, parent, "boost").status_code == 409


def test_a_defence_is_never_boosted(client, table, player, dice):
    campaign, hero = table.campaign, table.hero
    start_session(campaign)
    client.force_login(player)
    dice(8, 8, 1)
    roll(client, hero, defence="Unik", difficulty="trudny")
    parent = Roll.objects.get()
    assert answer(parent)["rozmach"] == 2
    assert "boost" not in offered(parent, hero)


def test_a_critical_failure_counts_as_0_and_can_only_be_re_rolled(client, table, player, dice):
    campaign, hero = table.campaign, table.hero
    start_session(campaign)
    client.force_login(player)
    dice(1, 1, 1)
    roll(client, hero, skill="Charyzma", difficulty="3")
    parent = Roll.objects.get()
    assert (answer(parent)["result"], answer(parent)["outcome"]) == (0, "critical_failure")
    assert offered(parent, hero) == ["reroll"]
    assert follow(client, hero, parent, "boost").status_code == 409
    assert follow(client, hero, parent, "heroic", resource="wytrzymalosc").status_code == 409


def test_heroic_effort_at_minus_4_costs_5_for_exactly_1_success(client, table, player, dice):
    campaign, hero = table.campaign, table.hero
    start_session(campaign)
    client.force_login(player)
    dice(1, 1, 2)
    roll(client, hero, skill="Charyzma", difficulty="5")
    parent = Roll.objects.get()
    assert answer(parent)["result"] == -4
    assert follow(client, hero, parent, "heroic", resource="wytrzymalosc").status_code == 200
    heroic = Roll.objects.get(kind="heroic")
    assert (answer(heroic)["result"], answer(heroic)["heroic_cost"]) == (1, 5)
    hero.refresh_from_db()
    assert hero.data["resources"]["wytrzymalosc"] == 3


def test_heroic_effort_is_refused_when_the_chosen_resource_falls_short(client, charyzma_fails):
    hero, parent = charyzma_fails  # -1: costs 2; Determinacja 3 is enough, so lower it first
    hero.refresh_from_db()
    hero.data["resources"]["determinacja"] = 1
    hero.save()
    response = follow(client, hero, parent, "heroic", resource="determinacja")
    assert response.status_code == 409
    assert "Heroic effort costs 2 Determinacja; the sheet has 1." in response.content.decode()
    assert not Roll.objects.filter(kind="heroic").exists()


def test_heroic_effort_needs_a_resource_to_pay_with(client, charyzma_fails):
    hero, parent = charyzma_fails
    response = follow(client, hero, parent, "heroic", resource="zdrowie")
    assert response.status_code == 409
    assert "Choose what heroic effort is paid with." in response.content.decode()


def test_heroic_effort_after_a_boost_pays_for_the_boosted_failure(client, table, player, dice):
    campaign, hero = table.campaign, table.hero
    start_session(campaign)
    client.force_login(player)
    dice(4, 1, 1)
    roll(client, hero, skill="Charyzma", difficulty="5")  # -4, +1 Rozmach
    follow(client, hero, Roll.objects.get(), "boost")  # -4 + 3 = -1
    follow(client, hero, Roll.objects.get(kind="boost"), "heroic", resource="determinacja")
    heroic = Roll.objects.get(kind="heroic")
    hero.refresh_from_db()
    assert (answer(heroic)["result"], answer(heroic)["heroic_cost"]) == (1, 2)
    assert hero.data["resources"]["determinacja"] == 1
    assert hero.data["resources"]["rozmach"] == 0


def test_nothing_follows_heroic_effort_or_a_success(client, charyzma_fails):
    hero, parent = charyzma_fails
    follow(client, hero, parent, "heroic", resource="wytrzymalosc")
    heroic = Roll.objects.get(kind="heroic")
    assert offered(heroic, hero) == []


def test_heroic_effort_is_not_offered_after_a_success(client, table, player, dice):
    campaign, hero = table.campaign, table.hero
    start_session(campaign)
    client.force_login(player)
    dice(6, 7, 2)
    roll(client, hero, skill="Jazda", difficulty="3")
    assert "heroic" not in offered(Roll.objects.get(), hero)


def test_a_re_roll_replaces_the_dice_and_only_the_final_roll_gains_rozmach(
    client, charyzma_fails, dice
):
    hero, parent = charyzma_fails
    dice(2, 3, 3)
    assert follow(client, hero, parent, "reroll", ability="Szczęściarz").status_code == 200
    rerolled = Roll.objects.get(kind="reroll")
    assert rerolled.parent == parent
    assert rerolled.faces == [2, 3, 3]
    assert (answer(rerolled)["result"], answer(rerolled)["rozmach"]) == (-2, 0)
    assert rozmach(hero) == 0


def test_a_re_roll_keeps_the_test_eased_or_hindered(client, table, player, dice):
    campaign, hero = table.campaign, table.hero
    start_session(campaign)
    client.force_login(player)
    dice(2, 2, 2)
    roll(client, hero, skill="Jazda", hindering="1")
    dice(7, 3, 5)
    follow(client, hero, Roll.objects.get(), "reroll", ability="Szczęściarz")
    rerolled = Roll.objects.get(kind="reroll")
    assert rerolled.params["ease"] == -1
    assert answer(rerolled)["kept"] == 3


def test_a_re_roll_of_some_dice_keeps_the_others(client, charyzma_fails, dice):
    hero, parent = charyzma_fails
    dice(4)
    follow(client, hero, parent, "reroll", ability="Szczęściarz", die="2")
    rerolled = Roll.objects.get(kind="reroll")
    assert rerolled.faces == [4, 4, 4]
    assert (answer(rerolled)["result"], answer(rerolled)["rozmach"]) == (-1, 3)
    assert in_words(rerolled.sources[-1]) == {"kind": "reroll", "amount": 1,
                                              "source": "Szczęściarz: d4 (1)"}  # fmt: skip


def test_forged_dice_indices_of_a_re_roll_are_ignored(client, charyzma_fails, dice):
    hero, parent = charyzma_fails
    dice(1, 2, 3)
    follow(client, hero, parent, "reroll", ability="Szczęściarz", die=["7", "x", "-1"])
    assert Roll.objects.get(kind="reroll").faces == [1, 2, 3]


def test_a_re_roll_saves_a_critical_failure(client, table, player, dice):
    campaign, hero = table.campaign, table.hero
    start_session(campaign)
    client.force_login(player)
    dice(1, 1, 1)
    roll(client, hero, skill="Charyzma", difficulty="3")
    dice(4, 4, 2)
    follow(client, hero, Roll.objects.get(), "reroll", ability="Szczęściarz")
    assert answer(Roll.objects.get(kind="reroll"))["result"] == 1


def test_a_re_rolled_test_may_still_be_boosted_from_the_new_rozmach(client, charyzma_fails, dice):
    hero, parent = charyzma_fails
    dice(4, 2, 2)
    follow(client, hero, parent, "reroll", ability="Szczęściarz")  # -3, +1 Rozmach from 0
    rerolled = Roll.objects.get(kind="reroll")
    follow(client, hero, rerolled, "boost")
    boosted = Roll.objects.get(kind="boost")
    assert boosted.parent == rerolled
    assert (answer(boosted)["result"], answer(boosted)["rozmach"]) == (0, 0)
    assert rozmach(hero) == 0


def test_a_boost_before_a_re_roll_is_undone_with_the_dice(client, charyzma_fails, dice):
    hero, parent = charyzma_fails
    follow(client, hero, parent, "boost")
    dice(2, 2, 2)
    follow(client, hero, Roll.objects.get(kind="boost"), "reroll", ability="Szczęściarz")
    rerolled = Roll.objects.get(kind="reroll")
    assert rerolled.params["boost"] is False
    assert answer(rerolled)["result"] == -3
    assert all(s["kind"] != "boost" for s in rerolled.sources)
    assert rozmach(hero) == 0
    assert "boost" not in offered(rerolled, hero)  # the new dice gained no Rozmach


def test_an_older_roll_cannot_be_followed_up_once_the_character_rolled_again(
    client, charyzma_fails, dice
):
    hero, parent = charyzma_fails
    dice(2, 2, 2)
    roll(client, hero, skill="Jazda")
    assert offered(parent, hero) == []
    assert follow(client, hero, parent, "boost").status_code == 409


def test_a_roll_of_an_earlier_scene_cannot_be_followed_up(client, charyzma_fails):
    hero, parent = charyzma_fails
    new_scene(parent.session)
    assert follow(client, hero, parent, "boost").status_code == 409
    assert rozmach(hero) == 0


def test_a_changed_rozmach_on_the_sheet_stops_follow_ups(client, charyzma_fails):
    hero, parent = charyzma_fails
    hero.refresh_from_db()
    hero.data["resources"]["rozmach"] = 7
    hero.save()
    assert follow(client, hero, parent, "boost").status_code == 409
    assert rozmach(hero) == 7


def test_a_double_submitted_follow_up_creates_one_entry(client, charyzma_fails):
    hero, parent = charyzma_fails
    form = {"key": str(uuid.uuid4())}
    first = client.post(follow_up_url(hero, parent, "boost"), form)
    second = client.post(follow_up_url(hero, parent, "boost"), form)
    assert (first.status_code, second.status_code) == (200, 200)
    assert Roll.objects.filter(kind="boost").count() == 1
    assert rozmach(hero) == 1


def test_an_unknown_follow_up_kind_is_refused(client, charyzma_fails):
    hero, parent = charyzma_fails
    assert follow(client, hero, parent, "miracle").status_code == 409


def test_the_rolled_panel_shows_the_follow_up_forms(client, table, player, dice):
    campaign, hero = table.campaign, table.hero
    start_session(campaign)
    client.force_login(player)
    dice(4, 4, 1)
    html = roll(client, hero, skill="Charyzma", difficulty="5").content.decode()
    assert "Boost: spend 1 Rozmach for +3 (category bonus)" in html
    assert "Heroic effort: pay 2 for exactly 1 success" in html
    assert "Wytrzymałość (you have 8)" in html
    assert "Re-roll (an ability allows it)" in html
