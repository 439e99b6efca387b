"""Caerbannog's Rozmach between tests (RULES.md section 4, point 12 and "Tables the text refers to
but does not contain"): the GM's PD table applied when a scene starts, PD for challenges and
fights, Rozmach spent on reactions at the GM's costs, forced spending paid with Determinacja,
and surprise in the first round."""

import copy

import pytest
from django.urls import reverse

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
