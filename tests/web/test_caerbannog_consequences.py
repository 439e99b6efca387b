"""What a Caerbannog test's result does (RULES.md 4, issue 15): the GM applies an attack's damage,
a healing or a state from its entry in one click; the target's sheet changes, the log says who
took how much from which roll, and a state hinders the target's next tests by itself."""

import uuid

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from campaigns.sessions import end_session
from rolls.labels import render, source_line
from rolls.models import Condition, Roll
from rolls.systems.caerbannog.consequences import successes
from tests.web import test_opposed as opposed_tests
from tests.web.live import panel_url
from tests.web.test_fair_dice import end, export, run_checker

SHEET = {
    "skills": [
        {"name": "Charyzma", "category": "social", "level": 0},
        {"name": "Walka Wręcz", "category": "combat", "level": 2},
        {"name": "Medycyna", "category": "specialist", "level": 2},
    ],
    "category_bonuses": {"physical": 2, "practical": 3, "social": 3, "combat": 0,
                         "knowledge": 0, "specialist": 0, "mystic": 0},
    "defences": {"Blok": 1, "Odporność": 1, "Unik": 2, "Intuicja": 1, "Koncentracja": 1,
                 "Opanowanie": 1},
    "resources": {"wytrzymalosc": 8, "determinacja": 3, "zywotnosc": 10, "zdrowie": 10,
                  "kapital_spoleczny": 2, "pd": 0, "rozmach": 0},
}  # fmt: skip


#: Atletyka III (3d10) and Dociekliwość II (3d8), for the opposed test of RULES.md's example.
SHEET_3 = {
    **SHEET,
    "skills": [
        {"name": "Atletyka", "category": "physical", "level": 3},
        {"name": "Dociekliwość", "category": "practical", "level": 2},
    ],
}


pytestmark = [
    pytest.mark.django_db,
    pytest.mark.table(
        "caerbannog", name="Caerbannog", characters=[("Julio", SHEET), ("Morgana", SHEET)]
    ),
]


@pytest.fixture
def julio(client, table, player):
    client.force_login(player)
    return table.characters[0]


@pytest.fixture
def morgana(table):
    return table.characters[1]


@pytest.fixture
def gm_client(table):
    gm_client = Client()
    gm_client.force_login(table.gm)
    return gm_client


def roll(client, hero, **choices):
    return client.post(panel_url(hero, "test_roll"), {**choices, "key": str(uuid.uuid4())})


@pytest.fixture
def attack(client, julio, dice):
    """Julio's Walka Wręcz II (3d8) 7,5,2 against przeciętny (3): the middle 5, 2 successes."""
    dice(7, 5, 2)
    roll(client, julio, skill="Walka Wręcz", difficulty="przeciętny")
    return Roll.objects.get(kind="test")


def apply_url(table, entry):
    return reverse("caerbannog_apply_result", args=[table.campaign.pk, entry.pk])


def apply(client, table, entry, target, what):
    return client.post(
        apply_url(table, entry),
        {"target": target.pk, "apply": what},
        headers={"HX-Request": "true"},
    )


def resources(hero):
    hero.refresh_from_db()
    return hero.data["resources"]


# --- An attack: damage off Wytrzymałość or Determinacja -------------------------------------------


def test_the_gm_takes_an_attacks_successes_off_the_targets_wytrzymalosc(
    gm_client, table, attack, morgana
):
    response = apply(gm_client, table, attack, morgana, "damage:wytrzymalosc")
    assert response.status_code == 200
    assert resources(morgana)["wytrzymalosc"] == 6


def test_the_log_says_who_took_how_much_from_which_roll(gm_client, table, attack, morgana):
    apply(gm_client, table, attack, morgana, "damage:wytrzymalosc")
    entry = Roll.objects.get(kind="damage")
    assert (entry.parent, entry.character, entry.actor) == (attack, morgana, table.gm)
    assert render(entry.label_words) == (
        f"Morgana takes 2 damage to Wytrzymałość (endurance) from #{attack.seq} (Julio): 8 → 6"
    )


def test_a_mental_attack_lowers_determinacja_and_stops_at_zero(
    client, gm_client, table, julio, morgana, dice
):
    dice(8, 8, 8)  # 8 - 3 = 5 successes against Morgana's 3 Determinacja
    roll(client, julio, skill="Walka Wręcz", difficulty="przeciętny")
    apply(gm_client, table, Roll.objects.get(kind="test"), morgana, "damage:determinacja")
    assert resources(morgana)["determinacja"] == 0
    assert resources(morgana)["wytrzymalosc"] == 8


def test_the_dashboard_offers_the_entry_with_its_successes(gm_client, table, attack):
    html = gm_client.get(reverse("dashboard", args=[table.campaign.pk])).content.decode()
    assert f'id="results-{attack.pk}"' in html
    assert "2 successes" in html
    assert "−2 Wytrzymałość" in html


def test_a_failure_offers_nothing_to_apply(client, gm_client, table, julio, dice):
    dice(2, 2, 1)
    roll(client, julio, skill="Walka Wręcz", difficulty="przeciętny")
    html = gm_client.get(reverse("dashboard", args=[table.campaign.pk])).content.decode()
    assert 'id="roll-results"' in html
    assert 'id="results-' not in html


# --- Refused, with the reason ---------------------------------------------------------------------


def test_a_result_is_applied_once(gm_client, table, attack, morgana):
    apply(gm_client, table, attack, morgana, "damage:wytrzymalosc")
    response = apply(gm_client, table, attack, morgana, "damage:wytrzymalosc")
    damage = Roll.objects.get(kind="damage")
    assert response.status_code == 409
    assert f"The result of #{attack.seq} has already been applied (#{damage.seq})." in (
        response.content.decode()
    )
    assert resources(morgana)["wytrzymalosc"] == 6


def test_a_result_a_boost_replaced_is_stale(client, gm_client, table, julio, morgana, dice):
    dice(4, 4, 1)  # Charyzma 0 (3d4) vs 2: 2 successes and 2 Rozmach, then a boost of +3
    roll(client, julio, skill="Charyzma", difficulty="2")
    first = Roll.objects.get(kind="test")
    client.post(
        reverse("test_follow_up", args=[table.campaign.pk, julio.pk, first.pk, "boost"]),
        {"key": str(uuid.uuid4())},
    )
    boosted = Roll.objects.get(kind="boost")
    response = apply(gm_client, table, first, morgana, "damage:wytrzymalosc")
    assert response.status_code == 409
    assert f"#{boosted.seq} replaced the result of #{first.seq}; apply it from #{boosted.seq}." in (
        response.content.decode()
    )
    apply(gm_client, table, boosted, morgana, "damage:wytrzymalosc")
    assert resources(morgana)["wytrzymalosc"] == 3


def test_a_result_of_an_ended_session_is_refused(gm_client, table, attack, morgana):
    end_session(table.session)
    response = apply(gm_client, table, attack, morgana, "damage:wytrzymalosc")
    assert response.status_code == 409
    assert "That roll is of an earlier session" in response.content.decode()
    assert resources(morgana)["wytrzymalosc"] == 8


def test_a_player_cannot_apply_a_result(client, table, attack, morgana):
    response = apply(client, table, attack, morgana, "damage:wytrzymalosc")
    assert response.status_code == 404
    assert not Roll.objects.filter(kind="damage").exists()


def test_another_tables_character_is_no_target(gm_client, table, attack, make_table):
    elsewhere = make_table(
        "caerbannog", name="Elsewhere", characters=[("Obcy", SHEET)], gm=table.gm
    )
    response = apply(gm_client, table, attack, elsewhere.hero, "damage:wytrzymalosc")
    assert response.status_code == 422
    assert "Choose a character of this table as the target." in response.content.decode()
    assert resources(elsewhere.hero)["wytrzymalosc"] == 8


def test_what_the_rules_do_not_name_is_refused(gm_client, table, attack, morgana):
    response = apply(gm_client, table, attack, morgana, "damage:zdrowie")
    assert response.status_code == 422
    assert "Choose what the result does: damage, healing or a state of the rules." in (
        response.content.decode()
    )


# --- Healing: Żywotność turned into Wytrzymałość ----------------------------------------------


def test_healing_turns_zywotnosc_into_wytrzymalosc(client, gm_client, table, julio, morgana, dice):
    dice(7, 5, 2)
    roll(client, julio, skill="Medycyna", difficulty="przeciętny")
    healing = Roll.objects.get(kind="test")
    apply(gm_client, table, healing, morgana, "healing")
    assert (resources(morgana)["zywotnosc"], resources(morgana)["wytrzymalosc"]) == (8, 10)
    entry = Roll.objects.get(kind="healing")
    assert entry.parent == healing
    assert render(entry.label_words) == (
        "Morgana turns 2 Żywotność (vitality) into Wytrzymałość (endurance) after "
        f"#{healing.seq} (Julio): Wytrzymałość 8 → 10"
    )


def test_healing_without_zywotnosc_is_refused(client, gm_client, table, julio, morgana, dice):
    morgana.data = {**SHEET, "resources": {**SHEET["resources"], "zywotnosc": 0}}
    morgana.save()
    dice(7, 5, 2)
    roll(client, julio, skill="Medycyna", difficulty="przeciętny")
    response = apply(gm_client, table, Roll.objects.get(kind="test"), morgana, "healing")
    assert response.status_code == 409
    assert "Morgana has no Żywotność left to turn into Wytrzymałość." in response.content.decode()


# --- A state of the result's strength, hindering the target's tests -----------------------------


def test_a_state_of_the_results_strength_goes_on_the_target(gm_client, table, attack, morgana):
    apply(gm_client, table, attack, morgana, "state:oszolomiony")
    state = Condition.objects.get(character=morgana)
    assert (state.preset, state.amount, state.effect, state.source) == (
        "oszolomiony", 2, "hindering_state", attack,
    )  # fmt: skip
    assert state.added_entry.parent == attack


def test_a_state_hinders_the_targets_next_test_and_is_listed_among_its_sources(
    gm_client, table, attack, morgana, other_player
):
    own = Client()
    own.force_login(other_player)
    plain = own.post(panel_url(morgana), {"skill": "Walka Wręcz"}).context["panel"]
    apply(gm_client, table, attack, morgana, "state:oszolomiony")
    shaped = own.post(panel_url(morgana), {"skill": "Walka Wręcz"}).context["panel"]
    assert (plain.params["ease"], shaped.params["ease"]) == (0, -1)
    assert shaped.success < plain.success
    assert f"a state of strength 2: hindered: stunned (oszołomiony) (condition, #{attack.seq})" in [
        source_line(entry) for entry in shaped.sources
    ]


def test_an_easing_factor_cancels_a_state(gm_client, table, attack, morgana, other_player):
    own = Client()
    own.force_login(other_player)
    apply(gm_client, table, attack, morgana, "state:oszolomiony")
    shaped = own.post(panel_url(morgana), {"skill": "Walka Wręcz", "easing": "1"})
    assert shaped.context["panel"].params["ease"] == 0


def test_the_gms_party_card_offers_the_rules_states_in_one_click(gm_client, table, morgana):
    response = gm_client.post(
        reverse("add_condition", args=[table.campaign.pk, morgana.pk]),
        {"preset": "zmeczony"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    assert "a state of strength 1: hindered: tired (zmęczony)" in response.content.decode()


def test_the_sheet_shows_its_states(gm_client, table, attack, morgana, other_player):
    own = Client()
    own.force_login(other_player)
    apply(gm_client, table, attack, morgana, "state:oszolomiony")
    html = own.get(reverse("character_detail", args=[table.campaign.pk, morgana.pk])).content
    assert 'id="sheet-conditions"' in html.decode()
    assert "a state of strength 2: hindered: stunned (oszołomiony)" in html.decode()


# --- A defence against a fixed enemy value ------------------------------------------------------


def test_a_defence_against_an_enemys_fixed_value_tests_against_it(client, julio):
    """RULES.md 4.1: the difficulty is subtracted from the die; an enemy's fixed value (its
    attack of 6, say) is that number, which the panel takes as the difficulty."""
    shown = client.post(panel_url(julio), {"defence": "Unik", "difficulty": "6"}).context["panel"]
    assert shown.params["difficulty"] == 6
    assert shown.params["dice"] == [8, 8, 8]  # Unik II
    assert "6 difficulty" in source_line(shown.sources[0])


def test_the_damage_entry_reads_in_polish(gm_client, table, attack, morgana):
    apply(gm_client, table, attack, morgana, "damage:wytrzymalosc")
    with translation.override("pl"):
        label = render(Roll.objects.get(kind="damage").label_words)
    assert label == f"Morgana traci 2: Wytrzymałość, obrażenia z #{attack.seq} (Julio): 8 → 6"


def test_the_offline_checker_reads_an_applied_result_like_any_entry(
    client, gm_client, table, julio, morgana, tmp_path
):
    """Fair dice (no script): against difficulty 0 every roll but a critical 1,1,1 succeeds."""
    for _attempt in range(3):
        roll(client, julio, skill="Walka Wręcz", difficulty="0")
        latest = Roll.objects.filter(kind="test").order_by("-seq").first()
        if successes(latest):
            break
    apply(gm_client, table, latest, morgana, "damage:wytrzymalosc")
    apply(gm_client, table, latest, morgana, "state:oszolomiony")  # refused: applied once
    end(table.session)
    result = run_checker(tmp_path, export(gm_client, table.session))
    entries = Roll.objects.filter(session=table.session).count()
    assert result.returncode == 0, result.stdout
    assert f"{entries} of {entries} entries match" in result.stdout


# --- An opposed attack: the level, initiator's result minus the opponent's ----------------------


@pytest.fixture
def opposed_nine_five(client, make_table, gm, player, other_player, dice):
    """RULES.md's "Opposed 9 vs 5 → 4": Ala's Atletyka III against Bartek's Dociekliwość II,
    both settled."""
    duel = make_table(**opposed_tests.duel("caerbannog", SHEET_3, SHEET_3))
    opposed = opposed_tests.caerbannog_duel(client, gm, duel)
    dice(9, 2, 9)
    opposed_tests.roll_side(client, player, opposed.initiator)
    dice(5, 1, 7)
    opposed_tests.roll_side(client, other_player, opposed.opponent)
    for user, side in ((player, "a"), (other_player, "b")):
        client.force_login(user)
        url = reverse("opposed_settle", args=[duel.campaign.pk, opposed.pk])
        client.post(url, {"side": side}, headers={"HX-Request": "true"})
    client.force_login(gm)
    return duel, Roll.objects.get(kind="opposed")


def test_an_opposed_attack_deals_its_level_not_the_initiators_die(client, opposed_nine_five):
    duel, result = opposed_nine_five
    ala, bartek = duel.characters
    initiator = result.parent
    refused = apply(client, duel, initiator, bartek, "damage:wytrzymalosc")
    assert refused.status_code == 409
    assert "is one side of an opposed test" in refused.content.decode()
    assert apply(client, duel, result, bartek, "damage:wytrzymalosc").status_code == 200
    assert resources(bartek)["wytrzymalosc"] == 4  # 8 − (9 − 5)
    entry = Roll.objects.get(kind="damage")
    assert render(entry.label_words) == (
        f"Bartek takes 4 damage to Wytrzymałość (endurance) from #{result.seq} (Ala): 8 → 4"
    )
