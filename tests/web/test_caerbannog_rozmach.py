"""Caerbannog's Rozmach between tests (RULES.md section 4, point 12 and "Tables the text refers to
but does not contain"): the GM's PD table applied when a scene starts, PD for challenges and
fights, Rozmach spent on reactions at the GM's costs, forced spending paid with Determinacja,
and surprise in the first round."""

import copy

import pytest
from django.urls import reverse

from rolls.models import Award

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
    html = client.get(reverse("awards_panel", args=[table.campaign.pk])).content.decode()
    assert "1 PD per challenge and per fight" in html
    assert "2–5" not in html
    assert 'value="challenge"' in html
    assert 'value="fight"' in html
    assert 'name="amount" value="1"' in html


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
    html = client.get(reverse("awards_panel", args=[table.campaign.pk])).content.decode()
    assert "After an adventure the GM gives 2–5." in html
    assert 'value="fight"' not in html
