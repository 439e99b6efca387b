"""The AST test panel: white dice from what applies, the level from what hinders, exact odds,
then the FUNT re-roll and the eased player's choice of the white die read."""

import uuid

import pytest
from django.urls import reverse

from campaigns.sessions import start_session
from rolls.engine import ast as engine
from rolls.models import PendingTest, Roll
from rolls.pending import actions as pending
from tests.web.live import panel_url
from tests.web.words_helpers import in_words

# Olaf as RULES.md 2 draws him: five white dice (strong, clever, axe fighting, sharp axe,
# leather), tired and wounded, a rested state worth two dice, and two FUNT.
SHEET = {
    "attributes": [{"name": "Ciało: silny"}, {"name": "Umysł: sprytny"}],
    "advantages": [{"name": "walka toporem"}],
    "equipment": [{"name": "ostry topór"}, {"name": "skórznia"}],
    "positive_states": [{"name": "wypoczęty", "value": 2}],
    "negative_states": [{"name": "zmęczony", "value": 1}, {"name": "ranny", "value": 1}],
    "funt": 2,
}


LISTS = ("attributes", "advantages", "equipment", "positive_states")


def ticked(**lists: list[str]) -> dict[str, list[str]]:
    """The panel form with these entries ticked: each posted as ``item=<list>:<name>``."""
    return {"item": [f"{key}:{name}" for key, names in lists.items() for name in names]}


FIVE = ticked(
    attributes=["Ciało: silny", "Umysł: sprytny"],
    advantages=["walka toporem"],
    equipment=["ostry topór", "skórznia"],
)
TIRED = {"item": [*FIVE["item"], "negative_states:zmęczony"]}
TIRED_AND_WOUNDED = {"item": [*TIRED["item"], "negative_states:ranny"]}
THREE = ticked(attributes=["Ciało: silny", "Umysł: sprytny"], advantages=["walka toporem"])


@pytest.fixture
def dice(dice):
    """One scripted source for the rolls that follow, its ``faces`` set per roll (the black
    die first, then the white ones)."""
    return dice.queue()


pytestmark = [
    pytest.mark.django_db,
    pytest.mark.table("ast", name="Sagi Północy", characters=[("Olaf", SHEET)], session=False),
]


def follow_up_url(hero, roll, kind):
    return reverse("test_follow_up", args=[hero.campaign_id, hero.pk, roll.pk, kind])


def panel_for(client, hero, form):
    return client.post(panel_url(hero), form).context["panel"]


def roll(client, hero, form):
    return client.post(panel_url(hero, "test_roll"), {**form, "key": str(uuid.uuid4())})


def follow(client, hero, parent, kind, form):
    return client.post(follow_up_url(hero, parent, kind), {**form, "key": str(uuid.uuid4())})


# --- the panel --------------------------------------------------------------------------------


def test_a_click_on_a_sheet_entry_opens_the_panel_with_it_ticked_and_exact_odds(
    client, table, player
):
    hero = table.hero
    client.force_login(player)
    # panel.js sends the entry's roll target as it stands in the sheet's data-roll.
    target = {"list": "attributes", "item": "Ciało: silny", "white": "1"}
    response = client.get(panel_url(hero), target)
    html = response.content.decode()
    assert 'value="attributes:Ciało: silny" data-name="Ciało: silny" checked' in html
    assert response.context["panel"].params == {"white": 1, "level_mod": 0}
    assert "Exact odds" in html


def test_a_click_on_a_negative_state_opens_the_panel_with_the_level_raised(client, table, player):
    hero = table.hero
    client.force_login(player)
    target = {"list": "negative_states", "item": "zmęczony", "level": "1"}
    panel = client.get(panel_url(hero), target).context["panel"]
    assert panel.params == {"white": 0, "level_mod": 1}


def test_each_ticked_attribute_advantage_and_item_of_equipment_is_one_white_die(
    client, table, player
):
    hero = table.hero
    client.force_login(player)
    panel = panel_for(client, hero, FIVE)
    assert panel.params == {"white": 5, "level_mod": 0}
    assert panel.sources == [
        {"kind": "white", "amount": 5,
         "source": "Ciało: silny, Umysł: sprytny, walka toporem, ostry topór, skórznia"},
    ]  # fmt: skip


def test_a_positive_state_is_one_white_die_though_an_old_sheet_gave_it_two(client, table, player):
    hero = table.hero
    client.force_login(player)
    panel = panel_for(
        client, hero, ticked(equipment=["ostry topór"], positive_states=["wypoczęty"])
    )
    assert panel.params["white"] == 2
    assert panel.sources[0]["source"] == "ostry topór, wypoczęty"


def test_negative_states_add_their_values_to_the_test_level(client, table, player):
    hero = table.hero
    client.force_login(player)
    panel = panel_for(client, hero, TIRED_AND_WOUNDED)
    assert panel.params == {"white": 5, "level_mod": 2}
    assert {"kind": "level", "amount": 2, "source": "zmęczony, ranny"} in panel.sources
    assert in_words(panel.label) == "5 white dice vs black d6 + 2"


def test_other_hindrances_add_to_the_level_with_the_source_the_player_names(client, table, player):
    hero = table.hero
    client.force_login(player)
    named = panel_for(client, hero, {**FIVE, "hindrance": "2", "hindrance_source": " ciemność "})
    unnamed = panel_for(client, hero, {**FIVE, "hindrance": "1"})
    assert named.params["level_mod"] == 2
    assert {"kind": "level", "amount": 2, "source": "ciemność"} in named.sources
    assert {"kind": "level", "amount": 1, "source": "other hindrances"} in in_words(unnamed.sources)


def test_funt_spent_before_the_roll_is_one_white_die_each(client, table, player):
    hero = table.hero
    client.force_login(player)
    panel = panel_for(client, hero, {**FIVE, "funt": "1"})
    assert panel.params["white"] == 6
    assert panel.spend == {"funt": 1}
    assert {"kind": "funt", "amount": 1, "source": "one white die each"} in in_words(panel.sources)


def test_spending_more_funt_than_the_sheet_holds_is_refused_with_a_message(client, table, player):
    hero = table.hero
    client.force_login(player)
    response = client.post(panel_url(hero), {**FIVE, "funt": "3"})
    assert not response.context["panel"].ready
    assert "You can spend from 0 to 2 FUNT." in response.content.decode()


def test_the_odds_are_the_engines_best_first_and_success_sums_the_yes_outcomes(
    client, table, player
):
    hero = table.hero
    client.force_login(player)
    panel = panel_for(client, hero, TIRED)
    odds = engine.odds(engine.Params(5, 1))["odds"]
    assert [key for key, _p in panel.odds] == [
        "yes_and",
        "yes",
        "yes_but",
        "no_but",
        "no",
        "no_and",
    ]
    assert dict(panel.odds) == odds
    assert panel.success == pytest.approx(odds["yes_and"] + odds["yes"] + odds["yes_but"])


def test_the_black_die_decides_the_level_and_the_panel_shows_each_faces_mode(client, table, player):
    hero = table.hero
    client.force_login(player)
    response = client.post(panel_url(hero), TIRED)
    context = response.context["panel"].context
    assert [row["mode"] for row in context["levels"]] == ["eased"] * 3 + ["even"] + ["hindered"] * 2
    assert (context["level_low"], context["level_high"]) == (2, 7)
    assert "eased (ułatwiony) on black 1–3: 50.0%" in response.content.decode()


def test_no_white_dice_rolls_two_hindered_and_the_panel_says_so(client, table, player):
    hero = table.hero
    client.force_login(player)
    response = client.post(panel_url(hero), {})
    panel = response.context["panel"]
    assert panel.params == {"white": 0, "level_mod": 0}
    assert {row["mode"] for row in panel.context["levels"]} == {"hindered"}
    assert "rolls 2 white dice and is hindered whatever they show" in response.content.decode()


# --- forged input -----------------------------------------------------------------------------


def test_names_the_sheet_does_not_hold_are_refused_with_a_message(client, table, player):
    hero = table.hero
    client.force_login(player)
    for forged in ("attributes:Boski", "negative_states:przeklęty", "skills:Ciało: silny",
                   "ranny", "equipment:"):  # fmt: skip
        response = client.post(
            panel_url(hero), {"item": ["attributes:Ciało: silny", forged], "list": "skills"}
        )
        panel = response.context["panel"]
        assert not panel.ready
        assert "on this sheet; reload the page" in panel.errors["item"][0]


def test_the_names_the_sheet_holds_are_ticked(client, table, player):
    hero = table.hero
    client.force_login(player)
    panel = panel_for(client, hero, {"item": ["attributes:Ciało: silny"]})
    assert panel.params == {"white": 1, "level_mod": 0}


@pytest.mark.parametrize("value", ["dużo", "-1", "21", "1.5"])
def test_a_hindrance_that_is_not_a_whole_number_from_0_to_20_is_refused(
    client, table, player, value
):
    hero = table.hero
    client.force_login(player)
    response = client.post(panel_url(hero), {**FIVE, "hindrance": value})
    assert response.status_code == 200
    assert "Other hindrances must be a whole number from 0 to 20." in response.content.decode()


def test_a_forged_overlong_hindrance_source_is_refused(client, table, player):
    hero = table.hero
    client.force_login(player)
    response = client.post(panel_url(hero), {"hindrance": "1", "hindrance_source": "x" * 61})
    assert not response.context["panel"].ready


def test_more_white_dice_than_the_engine_rolls_is_a_message_not_a_crash(client, table, player):
    hero = table.hero
    full = {key: [f"{key}{i}" for i in range(30)] for key in LISTS}  # 120 entries ...
    hero.data = {
        **SHEET,
        **{key: [{"name": name} for name in full[key]] for key in full},
        "funt": 99,
    }
    hero.save()
    client.force_login(player)
    response = client.post(panel_url(hero), {**ticked(**full), "funt": "99"})  # ... and 99 FUNT
    assert response.status_code == 200
    assert not response.context["panel"].ready
    assert "200" in response.content.decode()


# --- rolling ----------------------------------------------------------------------------------


def test_example_1_olaf_rolls_five_white_dice_eased_and_reads_the_6(client, running, dice):
    hero = running.hero
    dice.faces = [4, 3, 3, 6, 4, 1]
    roll(client, hero, FIVE)
    answer = Roll.objects.get().result["answer"]
    assert (answer["level"], answer["mode"], answer["outcome"]) == (4, "eased", "yes_and")


def test_example_1a_tired_olaf_is_even_and_the_black_4_reads_yes(client, running, dice):
    hero = running.hero
    dice.faces = [4, 3, 3, 6, 4, 1]
    roll(client, hero, TIRED)
    answer = Roll.objects.get().result["answer"]
    assert (answer["level"], answer["mode"], answer["read"], answer["outcome"]) == (
        5, "even", "black", "yes",
    )  # fmt: skip


def test_example_1b_tired_and_wounded_olaf_is_hindered_and_reads_the_1(client, running, dice):
    hero = running.hero
    dice.faces = [4, 3, 3, 6, 4, 1]
    roll(client, hero, TIRED_AND_WOUNDED)
    answer = Roll.objects.get().result["answer"]
    assert (answer["level"], answer["mode"], answer["outcome"]) == (6, "hindered", "no_and")


def test_example_2_a_funt_die_makes_six_even_with_level_6_and_leaves_the_sheet(
    client, running, dice
):
    hero = running.hero
    dice.faces = [4, 2, 2, 6, 4, 1, 5]
    roll(client, hero, {**TIRED_AND_WOUNDED, "funt": "1"})
    stored = Roll.objects.get()
    hero.refresh_from_db()
    assert (stored.params, stored.result["answer"]["outcome"]) == (
        {"white": 6, "level_mod": 2},
        "yes",
    )
    assert hero.data["funt"] == 1


def test_a_used_multiple_adds_one_funt_to_the_sheet(client, running, dice):
    hero = running.hero
    dice.faces = [6, 5, 5, 4]  # example 4: hindered, the GM reads the doubled 5
    roll(client, hero, ticked(equipment=["ostry topór", "skórznia"], attributes=["Ciało: silny"]))
    hero.refresh_from_db()
    assert Roll.objects.get().result["answer"]["funt_gained"] == 1
    assert hero.data["funt"] == 3


def test_the_roll_logs_its_label_and_every_source(client, running, dice):
    hero = running.hero
    dice.faces = [4, 3, 3, 6, 4, 1]
    roll(client, hero, {**TIRED, "hindrance": "1", "hindrance_source": "ciemność"})
    stored = Roll.objects.get()
    assert stored.label == "5 white dice vs black d6 + 2"
    assert [(s["kind"], s["amount"]) for s in stored.sources] == [
        ("white", 5), ("level", 1), ("level", 1),
    ]  # fmt: skip


def test_a_double_submitted_roll_creates_one_roll_and_spends_funt_once(client, running, dice):
    hero = running.hero
    # The repeat draws dice too before its insert meets the first roll's key; they are dropped.
    dice.faces = [4, 1, 2, 3, 4, 5, 6] * 2
    form = {**FIVE, "funt": "1", "key": str(uuid.uuid4())}
    first = client.post(panel_url(hero, "test_roll"), form)
    second = client.post(panel_url(hero, "test_roll"), form)
    hero.refresh_from_db()
    assert (first.status_code, second.status_code) == (200, 200)
    assert Roll.objects.count() == 1
    assert hero.data["funt"] == 1


# --- the FUNT re-roll -------------------------------------------------------------------------


def test_example_2a_re_rolling_the_1_into_a_5_reads_the_worst_5_and_costs_one_funt(
    client, running, dice
):
    hero = running.hero
    dice.faces = [4, 2, 2, 6, 4, 1]
    roll(client, hero, TIRED_AND_WOUNDED)
    first = Roll.objects.get()
    dice.faces = [5]
    response = follow(client, hero, first, "reroll", {"die": ["4"]})
    second = Roll.objects.get(kind="reroll")
    hero.refresh_from_db()
    assert response.status_code == 200
    assert (second.parent, second.faces) == (first, {"black": 4, "white": [2, 2, 6, 4, 5]})
    assert (second.result["answer"]["mode"], second.result["answer"]["outcome"]) == (
        "hindered", "no_but",
    )  # fmt: skip
    assert hero.data["funt"] == 1


def test_the_re_roll_entry_re_resolves_from_its_own_params_and_faces(client, running, dice):
    hero = running.hero
    dice.faces = [4, 2, 2, 6, 4, 1]
    roll(client, hero, TIRED_AND_WOUNDED)
    dice.faces = [5, 3]
    follow(client, hero, Roll.objects.get(), "reroll", {"die": ["0", "4"]})
    second = Roll.objects.get(kind="reroll")
    params = engine.parse_params(second.params)
    again = engine.resolve(params, engine.parse_faces(params, second.faces))
    assert again.contract() == second.result["answer"]
    assert {"kind": "funt", "amount": 2, "source": "re-rolled white dice 1 (2), 5 (1)"} in (
        in_words(second.sources)
    )


def test_a_test_is_re_rolled_only_once(client, running, dice):
    hero = running.hero
    dice.faces = [4, 2, 2, 6, 4, 1]
    roll(client, hero, TIRED_AND_WOUNDED)
    first = Roll.objects.get()
    dice.faces = [5]
    follow(client, hero, first, "reroll", {"die": ["4"]})
    again = follow(client, hero, first, "reroll", {"die": ["0"]})
    assert again.status_code == 409
    assert "That can no longer be done with this roll." in again.content.decode()
    assert Roll.objects.count() == 2


def test_a_re_roll_is_never_offered_on_a_re_roll(client, running, dice):
    hero = running.hero
    dice.faces = [4, 2, 2, 6, 4, 1]
    roll(client, hero, TIRED_AND_WOUNDED)
    dice.faces = [5]
    response = follow(client, hero, Roll.objects.get(), "reroll", {"die": ["4"]})
    second = Roll.objects.get(kind="reroll")
    assert follow_up_url(hero, second, "reroll") not in response.content.decode()
    assert follow(client, hero, second, "reroll", {"die": ["0"]}).status_code == 409


def test_re_rolling_more_dice_than_the_sheets_funt_is_refused(client, running, dice):
    hero = running.hero
    dice.faces = [4, 2, 2, 6, 4, 1]
    roll(client, hero, TIRED_AND_WOUNDED)
    response = follow(client, hero, Roll.objects.get(), "reroll", {"die": ["0", "1", "4"]})
    hero.refresh_from_db()
    assert response.status_code == 409
    assert "Re-rolling 3 dice costs 3 FUNT; you have 2." in response.content.decode()
    assert (Roll.objects.count(), hero.data["funt"]) == (1, 2)


def test_a_re_roll_without_a_ticked_die_or_with_forged_indices_is_refused(client, running, dice):
    hero = running.hero
    dice.faces = [4, 2, 2, 6, 4, 1]
    roll(client, hero, TIRED_AND_WOUNDED)
    response = follow(client, hero, Roll.objects.get(), "reroll", {"die": ["9", "-1", "x"]})
    assert response.status_code == 409
    assert "Tick the white dice to re-roll (one FUNT each)." in response.content.decode()


def test_the_re_roll_is_not_offered_without_funt_on_the_sheet(client, running, dice):
    hero = running.hero
    hero.data = {**SHEET, "funt": 0}
    hero.save()
    dice.faces = [4, 2, 2, 6, 4, 1]
    response = roll(client, hero, TIRED_AND_WOUNDED)
    assert follow_up_url(hero, Roll.objects.get(), "reroll") not in response.content.decode()


def test_the_roll_offers_the_re_roll_with_each_white_die_and_its_face(client, running, dice):
    hero = running.hero
    dice.faces = [4, 2, 2, 6, 4, 1]
    html = roll(client, hero, TIRED_AND_WOUNDED).content.decode()
    assert follow_up_url(hero, Roll.objects.get(), "reroll") in html
    assert 'name="die" value="4"> die 5: 1 (read)' in html


# --- the eased player's choice of the white die read -------------------------------------------


def three_white(client, hero, dice, faces):
    dice.faces = faces
    roll(
        client,
        hero,
        THREE,
    )
    return Roll.objects.get(kind="test")


def test_example_5_an_eased_player_may_read_the_doubled_2_for_yes_but_and_a_funt(
    client, running, dice
):
    hero = running.hero
    first = three_white(client, hero, dice, [1, 2, 2, 4])
    assert first.result["answer"]["outcome"] == "yes"  # the best face by default
    response = follow(client, hero, first, "choose", {"choice": "0"})
    chosen = Roll.objects.get(kind="choose")
    hero.refresh_from_db()
    assert response.status_code == 200
    assert (chosen.parent, chosen.faces, chosen.params["choice"]) == (first, first.faces, 0)
    assert (chosen.result["answer"]["outcome"], chosen.result["answer"]["extra_and"]) == (
        "yes_but", 1,
    )  # fmt: skip
    assert hero.data["funt"] == 3


def test_the_choice_offers_each_other_face_once_with_its_outcome(client, running, dice):
    hero = running.hero
    dice.faces = [1, 2, 2, 4]
    html = roll(
        client, hero,
        THREE,
    ).content.decode()  # fmt: skip
    assert 'name="choice" value="0" checked> 2: Tak, ale… (yes, but…) (+1 “and”, +1 FUNT)' in html
    assert 'name="choice" value="1"' not in html
    assert 'name="choice" value="2"' not in html


def test_reading_a_single_die_instead_of_a_doubled_one_gives_its_funt_back(client, running, dice):
    hero = running.hero
    first = three_white(client, hero, dice, [1, 4, 4, 2])
    hero.refresh_from_db()
    assert hero.data["funt"] == 3
    follow(client, hero, first, "choose", {"choice": "2"})
    hero.refresh_from_db()
    assert hero.data["funt"] == 2


def test_no_choice_is_offered_when_the_test_is_hindered_or_even(client, running, dice):
    hero = running.hero
    dice.faces = [4, 2, 2, 6, 4, 1]
    html = roll(client, hero, TIRED_AND_WOUNDED).content.decode()
    first = Roll.objects.get()
    assert follow_up_url(hero, first, "choose") not in html
    assert follow(client, hero, first, "choose", {"choice": "2"}).status_code == 409


def test_a_forged_choice_is_refused(client, running, dice):
    hero = running.hero
    first = three_white(client, hero, dice, [1, 2, 2, 4])
    for forged in ("2", "1", "7", "x", ""):
        response = follow(client, hero, first, "choose", {"choice": forged})
        assert response.status_code == 409
        assert "Choose one of the white dice offered." in response.content.decode()
    assert Roll.objects.count() == 1


def test_choosing_the_die_settles_the_test_so_no_re_roll_follows(client, running, dice):
    hero = running.hero
    first = three_white(client, hero, dice, [1, 2, 2, 4])
    follow(client, hero, first, "choose", {"choice": "0"})
    assert follow(client, hero, first, "reroll", {"die": ["2"]}).status_code == 409
    chosen = Roll.objects.get(kind="choose")
    assert follow(client, hero, chosen, "choose", {"choice": "2"}).status_code == 409


def test_an_eased_re_roll_may_still_be_read_with_another_die(client, running, dice):
    hero = running.hero
    first = three_white(client, hero, dice, [1, 1, 3, 4])
    dice.faces = [2, 2]
    follow(client, hero, first, "reroll", {"die": ["0", "1"]})
    second = Roll.objects.get(kind="reroll")
    assert second.faces["white"] == [2, 2, 4]
    response = follow(client, hero, second, "choose", {"choice": "0"})
    chosen = Roll.objects.get(kind="choose")
    hero.refresh_from_db()
    assert response.status_code == 200
    assert (chosen.parent, chosen.result["answer"]["outcome"]) == (second, "yes_but")
    assert hero.data["funt"] == 1  # two spent on the re-roll, one gained by the doubled 2


# --- a test the GM calls for ------------------------------------------------------------------


def test_the_gm_calls_an_ast_test_from_the_dashboard_without_fixing_anything(client, table, gm):
    campaign, hero = table.campaign, table.hero
    start_session(campaign)
    client.force_login(gm)
    assert client.get(reverse("dashboard", args=[campaign.pk])).status_code == 200
    client.post(reverse("call_test", args=[campaign.pk, hero.pk]))
    assert PendingTest.objects.get().target == {}


def test_the_gms_challenge_points_raise_the_level_of_the_called_test(client, table, gm, player):
    campaign, hero = table.campaign, table.hero
    session = start_session(campaign)
    test = pending.call_test(session=session, character=hero, gm=gm, target={})
    pending.change_test(test.pk, gm, "set_challenge", value=2)
    client.force_login(player)
    url = panel_url(hero)
    panel = client.get(url, {"pending": test.pk, **TIRED}).context["panel"]
    assert panel.params == {"white": 5, "level_mod": 3}
    assert {"kind": "challenge", "amount": 2, "source": ""} in panel.sources


def test_rolling_the_called_test_logs_the_challenge_points(client, table, gm, player, dice):
    campaign, hero = table.campaign, table.hero
    session = start_session(campaign)
    test = pending.call_test(session=session, character=hero, gm=gm, target={})
    test = pending.change_test(test.pk, gm, "set_challenge", value=1)
    client.force_login(player)
    dice.faces = [4, 3, 3, 6, 4, 1]
    form = {**FIVE, "pending": test.pk, "revision": test.revision}
    assert roll(client, hero, form).status_code == 200
    stored = Roll.objects.get()
    assert (stored.params, stored.result["answer"]["outcome"]) == (
        {"white": 5, "level_mod": 1}, "yes",
    )  # fmt: skip
