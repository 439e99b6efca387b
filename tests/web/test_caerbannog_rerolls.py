"""Caerbannog re-rolls come from abilities (RULES.md section 4, rule 11, issue 14): a re-roll
may follow a re-roll, names its ability, may re-roll chosen dice only and may cost Rozmach,
paid when it is made; only the final roll generates Rozmach."""

import uuid

import pytest
from django.urls import reverse

from rolls.labels import source_line
from rolls.models import Roll
from tests.web.live import panel_url

SHEET = {
    "skills": [
        {"name": "Charyzma", "category": "social", "level": 0},
        {"name": "Zastraszanie", "category": "social", "level": 4},
        {"name": "Przebiegłość", "category": "social", "level": 3},
        {"name": "Tresura", "category": "social", "level": 1},
    ],
    "category_bonuses": {"physical": 2, "practical": 3, "social": 3, "combat": 1,
                         "knowledge": 0, "specialist": 0, "mystic": 0},
    "defences": {"Blok": 1, "Odporność": 1, "Unik": 2, "Intuicja": 1, "Koncentracja": 1,
                 "Opanowanie": 1},
    "resources": {"wytrzymalosc": 8, "determinacja": 3, "zywotnosc": 10, "zdrowie": 10,
                  "kapital_spoleczny": 2, "pd": 0, "rozmach": 2},
}  # fmt: skip


pytestmark = [
    pytest.mark.django_db,
    pytest.mark.table(
        "caerbannog", name="Caerbannog", characters=[("Julio", SHEET)], session="first"
    ),
]


def roll(client, hero, **choices):
    return client.post(panel_url(hero, "test_roll"), {**choices, "key": str(uuid.uuid4())})


def follow(client, hero, parent, kind, **choices):
    url = reverse("test_follow_up", args=[hero.campaign_id, hero.pk, parent.pk, kind])
    return client.post(url, {**choices, "key": str(uuid.uuid4())})


def answer(entry):
    return entry.result["answer"]


def rozmach(hero):
    hero.refresh_from_db()
    return hero.data["resources"]["rozmach"]


def offered(client, hero, entry):
    from rolls.systems.caerbannog import follow_ups

    hero.refresh_from_db()
    return [f.kind for f in follow_ups.follow_ups(entry, hero, hero.campaign)]


@pytest.fixture
def group_like(client, table, player, dice):
    """The worked example's dice on one combined test: Zastraszanie d12, Przebiegłość d10,
    Tresura d6 rolled 9, 2, 1 against 5 read the 2: −3 (RULES.md, "Group 9,2,1 vs 5")."""
    hero = table.hero
    client.force_login(player)
    dice(9, 2, 1)
    roll(client, hero, skill=["Zastraszanie", "Przebiegłość", "Tresura"], main="Zastraszanie",
         difficulty="5")  # fmt: skip
    first = Roll.objects.get()
    assert (first.faces, answer(first)["result"]) == ([9, 2, 1], -3)
    return hero, first


def test_re_rolling_the_1_to_a_4_reads_the_4_and_a_boost_makes_it_2_successes(
    client, group_like, dice
):
    hero, first = group_like
    dice(4)
    follow(client, hero, first, "reroll", ability="Szczęściarz", die="2")
    rerolled = Roll.objects.get(kind="reroll")
    assert (rerolled.faces, answer(rerolled)["result"]) == ([9, 2, 4], -1)
    follow(client, hero, rerolled, "boost")
    assert answer(Roll.objects.get(kind="boost"))["result"] == 2  # −1 + 3


def test_a_re_roll_may_follow_a_re_roll(client, group_like, dice):
    hero, first = group_like
    dice(1)
    follow(client, hero, first, "reroll", ability="Szczęściarz", die="2")
    second = Roll.objects.get(kind="reroll")
    assert "reroll" in offered(client, hero, second)
    dice(7)
    response = follow(client, hero, second, "reroll", ability="Drugie podejście", die="1")
    third = Roll.objects.get(parent=second)
    assert response.status_code == 200
    assert (third.kind, third.faces, answer(third)["result"]) == ("reroll", [9, 7, 1], 2)


def test_each_re_roll_names_its_ability_and_its_dice_in_the_log(client, group_like, dice):
    hero, first = group_like
    dice(4)
    follow(client, hero, first, "reroll", ability="Szczęściarz", die="2")
    lines = [source_line(s) for s in Roll.objects.get(kind="reroll").sources]
    assert "+1 die re-rolled: Szczęściarz: d6 (1)" in lines


def test_none_ticked_re_rolls_every_die_named_as_all(client, group_like, dice):
    hero, first = group_like
    dice(8, 8, 5)
    follow(client, hero, first, "reroll", ability="Szczęściarz")
    rerolled = Roll.objects.get(kind="reroll")
    assert rerolled.faces == [8, 8, 5]
    assert "+3 dice re-rolled: Szczęściarz: all dice" in [source_line(s) for s in rerolled.sources]


def test_a_re_roll_without_an_ability_is_refused_and_rolls_nothing(client, group_like):
    hero, first = group_like
    response = follow(client, hero, first, "reroll", ability="  ", die="2")
    assert response.status_code == 409
    assert "Name the ability" in response.content.decode()
    assert Roll.objects.count() == 1


def test_an_overlong_ability_name_is_refused(client, group_like):
    hero, first = group_like
    response = follow(client, hero, first, "reroll", ability="x" * 61)
    assert response.status_code == 409
    assert Roll.objects.count() == 1


def test_a_re_roll_costing_rozmach_pays_it_when_made(client, group_like, dice):
    hero, first = group_like
    assert rozmach(hero) == 2
    dice(4)  # no die at its maximum: nothing gained
    follow(client, hero, first, "reroll", ability="Inspirująca osobowość", die="2", cost="1")
    rerolled = Roll.objects.get(kind="reroll")
    assert answer(rerolled)["rozmach"] == 1
    assert rozmach(hero) == 1
    assert "1 Rozmach spent: re-roll (Inspirująca osobowość)" in [
        source_line(s) for s in rerolled.sources
    ]


def test_a_re_roll_cannot_cost_more_rozmach_than_is_there(client, group_like):
    hero, first = group_like
    response = follow(client, hero, first, "reroll", ability="Szczęściarz", cost="3")
    assert response.status_code == 409
    assert "costs 3 Rozmach and 2 is there to pay with" in response.content.decode()
    assert Roll.objects.count() == 1
    assert rozmach(hero) == 2


@pytest.mark.parametrize("cost", ["-1", "11", "one"])
def test_a_malformed_cost_is_refused_with_a_message(client, group_like, cost):
    hero, first = group_like
    response = follow(client, hero, first, "reroll", ability="Szczęściarz", cost=cost)
    assert response.status_code == 409
    assert "from 0 to 10" in response.content.decode()


def test_the_rozmach_the_replaced_dice_gained_cannot_pay(client, table, player, dice):
    hero = table.hero
    hero.data["resources"]["rozmach"] = 0
    hero.save()
    client.force_login(player)
    dice(4, 4, 1)  # Charyzma 0: 3d4, two at their maximum: +2 Rozmach
    roll(client, hero, skill="Charyzma", difficulty="5")
    first = Roll.objects.get()
    assert rozmach(hero) == 2
    response = follow(client, hero, first, "reroll", ability="Szczęściarz", cost="1")
    assert response.status_code == 409
    assert rozmach(hero) == 2


def test_the_rozmach_a_roll_gained_pays_its_boost_but_not_a_re_roll_after_it(
    client, table, player, dice
):
    """RULES.md 4.5: what acts on the result (the boost) may spend it, what changes the roll
    itself (a re-roll's cost) may not."""
    hero = table.hero
    hero.data["resources"]["rozmach"] = 0
    hero.save()
    client.force_login(player)
    dice(4, 4, 1)  # Charyzma 0 (3d4) against 5: -1, two 4s gain 2 Rozmach
    roll(client, hero, skill="Charyzma", difficulty="5")
    boosted = follow(client, hero, Roll.objects.get(), "boost")
    assert boosted.status_code == 200
    assert answer(Roll.objects.get(kind="boost"))["result"] == 2
    assert rozmach(hero) == 1
    response = follow(client, hero, Roll.objects.get(kind="boost"), "reroll",
                      ability="Szczęściarz", cost="1")  # fmt: skip
    assert response.status_code == 409
    assert "costs 1 Rozmach and 0 is there to pay with" in response.content.decode()
    assert rozmach(hero) == 1


def test_chained_re_rolls_pay_their_costs_in_turn(client, group_like, dice):
    hero, first = group_like
    dice(3)
    follow(client, hero, first, "reroll", ability="Inspirująca osobowość", die="2", cost="1")
    second = Roll.objects.get(kind="reroll")
    dice(3)
    follow(client, hero, second, "reroll", ability="Inspirująca osobowość", die="1", cost="1")
    third = Roll.objects.get(parent=second)
    assert (third.faces, answer(third)["rozmach"]) == ([9, 3, 3], 0)
    assert rozmach(hero) == 0


def test_the_re_roll_form_asks_for_the_ability_the_dice_and_the_cost(client, group_like):
    hero, first = group_like
    html = follow(client, hero, first, "boost").content.decode()  # the panel after the boost
    assert 'name="ability"' in html
    assert 'name="die"' in html
    assert 'name="cost" min="0" max="2"' in html  # a re-roll undoes the boost: 2 to pay


def test_another_player_cannot_re_roll_this_characters_test(client, group_like, other_player):
    hero, first = group_like
    client.force_login(other_player)
    response = follow(client, hero, first, "reroll", ability="Szczęściarz")
    assert response.status_code in (403, 404)
    assert Roll.objects.count() == 1
