"""Caerbannog's Rozmach between tests (RULES.md section 4, point 12 and "Tables the text refers to
but does not contain"): the GM's PD table applied when a scene starts, PD for challenges and
fights, Rozmach spent on reactions at the GM's costs, forced spending paid with Determinacja,
and surprise in the first round."""

import copy
import html
import uuid

import pytest
from django.urls import reverse

from rolls.actions import ActionRefused
from rolls.labels import source_line
from rolls.models import Award, Roll
from rolls.pending import actions as pending
from tests.web.live import panel_url

pytestmark = pytest.mark.django_db

SHEET = {
    "skills": [{"name": "Atletyka", "category": "physical", "level": 2}],
    "category_bonuses": {"physical": 2, "practical": 3, "social": 3, "combat": 1,
                         "knowledge": 0, "specialist": 0, "mystic": 0},
    "defences": {"Blok": 1, "Odporność": 1, "Unik": 2, "Intuicja": 1, "Koncentracja": 1,
                 "Opanowanie": 1},
    "resources": {"wytrzymalosc": 8, "determinacja": 3, "zywotnosc": 10, "zdrowie": 10,
                  "kapital_spoleczny": 2, "pd": 0, "rozmach": 0},
}  # fmt: skip
PD_TABLE = [{"pd": 0, "rozmach": 0}, {"pd": 5, "rozmach": 1}, {"pd": 12, "rozmach": 3}]


def sheet(pd=0, rozmach=0, determinacja=3):
    data = copy.deepcopy(SHEET)
    data["resources"] |= {"pd": pd, "rozmach": rozmach, "determinacja": determinacja}
    return data


def resources(character):
    character.refresh_from_db()
    return character.data["resources"]


def new_scene(client, table):
    client.force_login(table.gm)
    url = reverse("scene_new", args=[table.campaign.pk, table.session.pk])
    return client.post(url, {"title": "Most"})


# --- PD -> Rozmach at the start of each scene ------------------------------------------------


def test_a_new_scene_gives_each_character_the_rozmach_its_pd_grant(client, make_table):
    table = make_table(
        "caerbannog",
        settings={"caerbannog": {"pd_rozmach": PD_TABLE}},
        characters=[("Morgana", sheet(pd=7, rozmach=9)), ("Julio", sheet(pd=12))],
    )
    morgana, julio = table.characters
    assert new_scene(client, table).status_code == 302
    assert resources(morgana)["rozmach"] == 1  # the 9 left from the last scene is gone
    assert resources(julio)["rozmach"] == 3  # a threshold reached exactly counts


def test_without_the_gms_pd_table_a_new_scene_only_empties_the_pool(client, make_table):
    table = make_table("caerbannog", characters=[("Morgana", sheet(pd=40, rozmach=6))])
    new_scene(client, table)
    assert resources(table.hero)["rozmach"] == 0


def test_pd_below_the_lowest_threshold_grant_nothing(client, make_table):
    table = make_table(
        "caerbannog",
        settings={"caerbannog": {"pd_rozmach": [{"pd": 5, "rozmach": 2}]}},
        characters=[("Morgana", sheet(pd=4, rozmach=4))],
    )
    new_scene(client, table)
    assert resources(table.hero)["rozmach"] == 0


def test_the_first_scene_of_a_session_grants_too(client, make_table):
    table = make_table(
        "caerbannog",
        settings={"caerbannog": {"pd_rozmach": PD_TABLE}},
        characters=[("Morgana", sheet(pd=5))],
        session=False,
    )
    client.force_login(table.gm)
    client.post(reverse("session_start", args=[table.campaign.pk]), {"title": "Noc"})
    assert resources(table.hero)["rozmach"] == 1


# --- PD for challenges and fights -----------------------------------------------------------


def give_pd(client, table, **form):
    client.force_login(table.gm)
    return client.post(reverse("award_xp", args=[table.campaign.pk]), form, HTTP_HX_REQUEST="true")


def test_the_awards_box_says_1_pd_per_challenge_and_per_fight(client, make_table):
    table = make_table("caerbannog", characters=[("Morgana", sheet())])
    client.force_login(table.gm)
    page = client.get(reverse("awards_panel", args=[table.campaign.pk])).content.decode()
    assert "1 PD per challenge and per fight" in page
    assert "2–5" not in page
    assert 'value="challenge"' in page
    assert 'value="fight"' in page
    assert 'name="amount" value="1"' in page


def test_a_fight_gives_every_party_member_1_pd_with_its_reason(client, make_table):
    table = make_table("caerbannog", characters=[("Morgana", sheet(pd=4)), ("Julio", sheet())])
    response = give_pd(client, table, occasion="fight", reason="the bandits at the ford")
    morgana, julio = table.characters
    assert response.status_code == 200
    assert (resources(morgana)["pd"], resources(julio)["pd"]) == (5, 1)
    assert set(Award.objects.values_list("amount", "reason")) == {
        (1, "a fight: the bandits at the ford")
    }
    assert "a fight: the bandits at the ford" in response.content.decode()


def test_a_challenge_needs_no_reason_and_ignores_what_is_typed_in_the_amount(client, make_table):
    table = make_table("caerbannog", characters=[("Morgana", sheet())])
    give_pd(client, table, occasion="challenge", amount="7", character=str(table.hero.pk))
    assert resources(table.hero)["pd"] == 1
    assert Award.objects.get().reason == "a challenge"


def test_an_occasion_the_rules_do_not_name_is_refused(client, make_table):
    table = make_table("caerbannog", characters=[("Morgana", sheet())])
    response = give_pd(client, table, occasion="feast")
    assert response.status_code == 422
    assert "These rules give no XP for that occasion." in response.content.decode()
    assert resources(table.hero)["pd"] == 0


def test_fasttest_keeps_its_2_to_5_xp_after_an_adventure(client, make_table):
    table = make_table("fasttest")
    client.force_login(table.gm)
    page = client.get(reverse("awards_panel", args=[table.campaign.pk])).content.decode()
    assert "After an adventure the GM gives 2–5." in page
    assert 'value="fight"' not in page


# --- Reactions at the GM's costs, and forced spending -----------------------------------------

REACTIONS = [{"reaction": "Unik w ostatniej chwili", "cost": 2}, {"reaction": "Kontra", "cost": 4}]


@pytest.fixture
def reacting(make_table, client, player):
    def make(rozmach=3, determinacja=3):
        table = make_table(
            "caerbannog",
            settings={"caerbannog": {"reaction_costs": REACTIONS}},
            characters=[("Morgana", sheet(rozmach=rozmach, determinacja=determinacja))],
            session="first",
        )
        client.force_login(player)
        return table.hero

    return make


def panel(client, hero, **choices):
    return client.post(panel_url(hero), choices)


def text(response):
    return html.unescape(response.content.decode())


def roll(client, hero, **choices):
    return client.post(panel_url(hero, "test_roll"), {**choices, "key": str(uuid.uuid4())})


def test_the_panel_offers_the_reactions_of_the_gms_table_with_their_costs(client, reacting):
    hero = reacting()
    page = panel(client, hero, defence="Unik").content.decode()
    assert "Unik w ostatniej chwili — 2 Rozmach" in page
    assert "Kontra — 4 Rozmach" in page


def test_without_the_gms_table_the_panel_offers_no_reaction(client, make_table, player):
    table = make_table("caerbannog", characters=[("Morgana", sheet(rozmach=3))])
    client.force_login(player)
    page = panel(client, table.hero, defence="Unik").content.decode()
    assert 'name="reaction"' not in page


def test_a_reaction_is_paid_from_the_pool_before_its_dice(client, reacting, dice):
    hero = reacting(rozmach=3)
    shown = panel(client, hero, defence="Unik", reaction="Unik w ostatniej chwili")
    assert shown.context["panel"].params["rozmach"] == 1
    assert "2 from the pool, before the dice" in shown.content.decode()
    dice(8, 2, 1)  # Unik II: 3d8, reads 2; the 8 gains 1 Rozmach after the reaction is paid
    roll(client, hero, defence="Unik", reaction="Unik w ostatniej chwili")
    entry = Roll.objects.get()
    assert resources(hero)["rozmach"] == 2
    assert resources(hero)["determinacja"] == 3
    assert "2 Rozmach spent: reaction: Unik w ostatniej chwili" in [
        source_line(s) for s in entry.sources
    ]


def test_a_reaction_the_pool_cannot_pay_is_refused(client, reacting):
    hero = reacting(rozmach=1)
    response = roll(client, hero, defence="Unik", reaction="Kontra")
    assert response.status_code == 422
    assert "Kontra costs 4 Rozmach and the pool holds 1" in response.content.decode()
    assert "Rozmach cannot be replaced by another resource" in response.content.decode()
    assert Roll.objects.count() == 0
    assert resources(hero)["rozmach"] == 1


def test_a_player_cannot_force_a_spending_on_an_own_test(client, reacting):
    """RULES.md 4.12: a spending is forced by the rules or the GM, never by the player."""
    hero = reacting(rozmach=1, determinacja=3)
    response = roll(client, hero, defence="Unik", reaction="Kontra", forced="1")
    assert response.status_code == 422
    assert Roll.objects.count() == 0
    assert (resources(hero)["rozmach"], resources(hero)["determinacja"]) == (1, 3)


def test_an_own_tests_panel_says_only_the_gm_forces_a_spending(client, reacting):
    hero = reacting(rozmach=1)
    page = panel(client, hero, defence="Unik", reaction="Kontra").content.decode()
    assert 'name="forced" value="1" disabled' in page
    assert "only the GM forces a spending, on a called test" in page


@pytest.fixture
def ambushed(make_table):
    """Morgana with 7 Rozmach; the GM calls for Unik vs przeciętny 3."""
    table = make_table("caerbannog", characters=[("Morgana", sheet(rozmach=7))], session="first")
    target = {"skill": [], "defence": ["Unik"], "form": "combined", "difficulty": "3"}
    test = pending.call_test(
        session=table.session, character=table.hero, gm=table.gm, target=target
    )
    return table, test


def set_surprise(client, table, test, value):
    client.force_login(table.gm)
    url = reverse("change_test", args=[table.campaign.pk, test.pk])
    return client.post(url, {"op": "set_surprise", "value": value}, HTTP_HX_REQUEST="true")


def roll_called(client, table, test, dice, *faces, **choices):
    test.refresh_from_db()
    client.force_login(table.players[0])
    dice(*faces)
    url = reverse("test_roll", args=[table.campaign.pk, table.hero.pk])
    form = {"pending": test.pk, "revision": test.revision, "key": str(uuid.uuid4())}
    return client.post(url, {**form, **choices})


def test_the_gms_card_offers_the_first_rounds_surprise(client, ambushed):
    table, _test = ambushed
    client.force_login(table.gm)
    page = client.get(reverse("dashboard", args=[table.campaign.pk])).content.decode()
    assert 'value="set_surprise"' in page
    assert '<option value="surprised"' in page


def test_a_surprised_side_tests_with_its_rozmach_halved(client, ambushed, dice):
    table, test = ambushed
    assert set_surprise(client, table, test, "surprised").status_code == 200
    client.force_login(table.players[0])
    shown = client.post(panel_url(table.hero), {"pending": test.pk})
    assert shown.context["panel"].params["rozmach"] == 3
    assert "Rozmach 7 → <b>3</b>" in shown.content.decode()
    roll_called(client, table, test, dice, 5, 4, 1)
    entry = Roll.objects.get()
    assert resources(table.hero)["rozmach"] == 3
    assert "−4 Rozmach (surprise): surprised in the first round: the pool of 7 halved" in [
        source_line(s) for s in entry.sources
    ]


def test_the_surprising_side_tests_with_its_rozmach_doubled_up_to_10(client, ambushed, dice):
    table, test = ambushed
    set_surprise(client, table, test, "surprising")
    roll_called(client, table, test, dice, 5, 4, 1)
    assert resources(table.hero)["rozmach"] == 10
    entry = Roll.objects.get()
    assert "+3 Rozmach (surprise): surprising in the first round: the pool of 7 doubled" in [
        source_line(s) for s in entry.sources
    ]


def test_surprise_taken_back_leaves_the_pool_alone(client, ambushed, dice):
    table, test = ambushed
    set_surprise(client, table, test, "surprised")
    set_surprise(client, table, test, "")
    roll_called(client, table, test, dice, 5, 4, 1)
    assert resources(table.hero)["rozmach"] == 7


def test_a_surprise_that_is_neither_side_is_refused(client, ambushed):
    table, test = ambushed
    response = set_surprise(client, table, test, "asleep")
    assert "Say whether the side is surprised, surprising, or neither." in text(response)
    test.refresh_from_db()
    assert "surprise" not in test.modifiers


def test_a_system_without_surprise_refuses_the_control(client, make_table):
    table = make_table("fasttest", session="first")
    target = {"attribute": "BUDOWA", "skills": ["WALKA"]}
    test = pending.call_test(
        session=table.session, character=table.hero, gm=table.gm, target=target
    )
    with pytest.raises(ActionRefused, match="no such setting"):
        pending.change_test(test.pk, table.gm, "set_surprise", value="surprised")


# --- In combat: the PD table's Rozmach at the start of each turn ------------------------------


def start_turn(client, table, character):
    client.force_login(table.gm)
    url = reverse("turn_start", args=[table.campaign.pk, character.pk])
    return client.post(url, HTTP_HX_REQUEST="true")


def test_the_party_card_offers_the_turns_rozmach_once_the_pd_table_grants_some(client, make_table):
    table = make_table(
        "caerbannog",
        settings={"caerbannog": {"pd_rozmach": PD_TABLE}},
        characters=[("Morgana", sheet(pd=12)), ("Julio", sheet(pd=0))],
    )
    client.force_login(table.gm)
    page = client.get(reverse("dashboard", args=[table.campaign.pk])).content.decode()
    morgana, julio = table.characters
    assert reverse("turn_start", args=[table.campaign.pk, morgana.pk]) in page
    assert "Turn starts: +3 Rozmach (PD)" in page
    # Julio's turn is marked all the same (reactions come only outside it), with no Rozmach.
    assert reverse("turn_start", args=[table.campaign.pk, julio.pk]) in page
    assert "</span>Turn starts</button>" in page


def test_a_turn_start_adds_the_pd_tables_rozmach_capped_at_10(client, make_table):
    table = make_table(
        "caerbannog",
        settings={"caerbannog": {"pd_rozmach": PD_TABLE}},
        characters=[("Morgana", sheet(pd=12))],
    )
    hero = table.hero
    hero.data["resources"]["rozmach"] = 5  # after the scene's own grant and a few rolls
    hero.save()
    response = start_turn(client, table, hero)
    assert response.status_code == 200
    assert "Morgana's turn (round 1): +3 Rozmach (5 → 8)." in text(response)
    assert resources(hero)["rozmach"] == 8
    start_turn(client, table, hero)
    assert resources(hero)["rozmach"] == 10  # 11 would pass the pool's 10: the excess is lost


def test_a_turn_start_the_pd_table_grants_nothing_for_marks_the_turn_alone(client, make_table):
    table = make_table("caerbannog", characters=[("Morgana", sheet(pd=12))])
    table.hero.data["resources"]["rozmach"] = 2
    table.hero.save()
    response = start_turn(client, table, table.hero)
    assert response.status_code == 200
    assert "Morgana's turn (round 1)." in text(response)
    assert resources(table.hero)["rozmach"] == 2


def test_a_turn_start_without_a_session_is_refused(client, make_table):
    table = make_table(
        "caerbannog",
        settings={"caerbannog": {"pd_rozmach": PD_TABLE}},
        characters=[("Morgana", sheet(pd=12, rozmach=2))],
        session=False,
    )
    response = start_turn(client, table, table.hero)
    assert response.status_code == 409
    assert "No game session is running; the GM starts one." in text(response)
    assert resources(table.hero)["rozmach"] == 2


def test_a_system_without_turn_rules_refuses_a_turn_start(client, make_table):
    table = make_table("fasttest")
    response = start_turn(client, table, table.hero)
    assert response.status_code == 409
    assert "These rules grant nothing at the start of a turn." in text(response)


def test_a_player_cannot_start_a_turn(client, make_table, player):
    table = make_table(
        "caerbannog",
        settings={"caerbannog": {"pd_rozmach": PD_TABLE}},
        characters=[("Morgana", sheet(pd=12))],
    )
    client.force_login(player)
    url = reverse("turn_start", args=[table.campaign.pk, table.hero.pk])
    assert client.post(url).status_code == 404
    assert resources(table.hero)["rozmach"] == 3  # only the session's first scene granted


# --- The GM forces the spending on a called test --------------------------------------------


@pytest.fixture
def called_reaction(make_table):
    """Morgana (1 Rozmach, 3 Determinacja); the GM calls for Unik vs 3; Kontra costs 4."""
    table = make_table(
        "caerbannog",
        settings={"caerbannog": {"reaction_costs": REACTIONS}},
        characters=[("Morgana", sheet(rozmach=1, determinacja=3))],
        session="first",
    )
    target = {"skill": [], "defence": ["Unik"], "form": "combined", "difficulty": "3"}
    test = pending.call_test(
        session=table.session, character=table.hero, gm=table.gm, target=target
    )
    return table, test


def set_forced(client, table, test, value):
    client.force_login(table.gm)
    url = reverse("change_test", args=[table.campaign.pk, test.pk])
    return client.post(url, {"op": "set_forced", "value": value}, HTTP_HX_REQUEST="true")


def test_the_gm_forces_the_spending_of_a_called_reaction(client, called_reaction, dice):
    table, test = called_reaction
    page = set_forced(client, table, test, "yes").content.decode()
    assert "Spending forced — take it back" in page
    client.force_login(table.players[0])
    shown = client.post(panel_url(table.hero), {"pending": test.pk, "reaction": "Kontra"})
    assert 'name="forced" value="1" checked disabled' in shown.content.decode()
    roll_called(client, table, test, dice, 5, 4, 1, reaction="Kontra")
    assert (resources(table.hero)["rozmach"], resources(table.hero)["determinacja"]) == (0, 0)


def test_a_forced_spending_takes_the_pool_and_the_shortfall_in_determinacja(
    client, called_reaction, dice
):
    table, test = called_reaction
    set_forced(client, table, test, "yes")
    client.force_login(table.players[0])
    shown = client.post(panel_url(table.hero), {"pending": test.pk, "reaction": "Kontra"})
    assert "the pool lacks 3, so 3 Determinacja is lost" in shown.content.decode()
    roll_called(client, table, test, dice, 5, 4, 1, reaction="Kontra")
    entry = Roll.objects.get()
    assert (resources(table.hero)["rozmach"], resources(table.hero)["determinacja"]) == (0, 0)
    lines = [source_line(s) for s in entry.sources]
    assert "1 Rozmach spent: reaction: Kontra" in lines
    assert "3 Determinacja lost: forced spending (Kontra): the Rozmach the pool lacked" in lines


def test_a_forced_spending_the_determinacja_cannot_pay_is_refused(client, make_table, dice):
    table = make_table(
        "caerbannog",
        settings={"caerbannog": {"reaction_costs": REACTIONS}},
        characters=[("Morgana", sheet(rozmach=0, determinacja=2))],
        session="first",
    )
    target = {"skill": [], "defence": ["Unik"], "form": "combined", "difficulty": "3"}
    test = pending.call_test(
        session=table.session, character=table.hero, gm=table.gm, target=target
    )
    set_forced(client, table, test, "yes")
    response = roll_called(client, table, test, dice, 5, 4, 1, reaction="Kontra")
    assert "lacks 4 Rozmach, to be lost as Determinacja, and the sheet holds 2 Determinacja" in (
        text(response)
    )
    assert resources(table.hero)["determinacja"] == 2


def test_on_a_called_test_the_player_cannot_force_the_spending_alone(client, called_reaction, dice):
    table, test = called_reaction
    response = roll_called(client, table, test, dice, 5, 4, 1, reaction="Kontra", forced="1")
    assert response.status_code == 409  # a called test the panel refuses
    assert not Roll.objects.exists()
    assert "Kontra costs 4 Rozmach and the pool holds 1" in text(response)
    assert resources(table.hero)["determinacja"] == 3


def test_a_forced_spending_the_gm_takes_back_is_refused_again(client, called_reaction):
    table, test = called_reaction
    set_forced(client, table, test, "yes")
    set_forced(client, table, test, "no")
    test.refresh_from_db()
    assert "forced" not in test.modifiers


def test_forcing_needs_a_yes_or_a_no(client, called_reaction):
    table, test = called_reaction
    response = set_forced(client, table, test, "maybe")
    assert "Say whether the spending is forced: yes or no." in text(response)
