"""FastTest NPCs with full stats like a player's (the seed allows both kinds of NPC): the GM gives
an NPC attributes and skills on its form and rolls its tests from the dashboard with the same
engine and exact odds, logged like any roll."""

import uuid

import pytest
from django.urls import reverse

from rolls.engine import fasttest
from rolls.labels import source_line
from rolls.models import Roll
from sheets.models import NPC
from tests.web.test_npc_rolls import TROLL

pytestmark = pytest.mark.django_db

STATS = {
    "attributes": {"BUDOWA": 9, "ZRĘCZNOŚĆ": 3, "UMYSŁ": 2, "DUCH": 4},
    "skills": {"WALKA": 2, "SPRAWNOŚĆ": 0, "KULTURA": -2, "TECHNIKA": 0, "PRZYRODA": 1,
               "EKWIPUNEK": -1},
}  # fmt: skip
SKILLS = ("WALKA", "SPRAWNOŚĆ", "KULTURA", "TECHNIKA", "PRZYRODA", "EKWIPUNEK")


@pytest.fixture
def table(make_table):
    table = make_table(system="fasttest", players=1, characters=(), npcs=[("Troll", TROLL)])
    NPC.objects.filter(pk=table.npc.pk).update(stats=STATS)
    table.npc.refresh_from_db()
    return table


def npc_post(name="Troll", attributes=("9", "3", "2", "4"), skills=("2", "", "-2", "", "1", "-1")):
    data = {
        "name": name,
        "notes": "",
        "traits-TOTAL_FORMS": "1",
        "traits-INITIAL_FORMS": "0",
        "traits-0-name": "wielki",
        "traits-0-dice": "3",
    }
    data |= {f"stats-a{i}": value for i, value in enumerate(attributes)}
    data |= {f"stats-s{i}": value for i, value in enumerate(skills)}
    return data


def roll_for(client, table, **form):
    form.setdefault("key", str(uuid.uuid4()))
    url = reverse("npc_roll", args=[table.campaign.pk, table.npc.pk])
    return client.post(url, form)


# --- The GM writes the stats -------------------------------------------------------------------


def test_the_gm_gives_a_new_npc_full_stats(client, make_table, gm):
    campaign = make_table(system="fasttest", players=1, characters=()).campaign
    client.force_login(gm)
    client.post(reverse("npc_create", args=[campaign.pk]), npc_post())
    npc = NPC.objects.get()
    assert npc.stats == {
        "attributes": {"BUDOWA": 9, "ZRĘCZNOŚĆ": 3, "UMYSŁ": 2, "DUCH": 4},
        "skills": dict(zip(SKILLS, (2, 0, -2, 0, 1, -1), strict=True)),
    }
    assert npc.traits == [{"name": "wielki", "dice": 3}]


def test_blank_attributes_leave_a_trait_only_npc(client, table, gm):
    client.force_login(gm)
    url = reverse("npc_edit", args=[table.campaign.pk, table.npc.pk])
    client.post(url, npc_post(attributes=("", "", "", ""), skills=("",) * 6))
    table.npc.refresh_from_db()
    assert table.npc.stats == {}


def test_the_edit_form_shows_the_stats_it_holds(client, table, gm):
    client.force_login(gm)
    html = client.get(reverse("npc_edit", args=[table.campaign.pk, table.npc.pk])).content
    assert 'name="stats-a0" value="9"' in html.decode()
    assert "Full stats, like a player" in html.decode()


def test_some_attributes_without_the_others_are_refused(client, table, gm):
    client.force_login(gm)
    url = reverse("npc_edit", args=[table.campaign.pk, table.npc.pk])
    response = client.post(url, npc_post(attributes=("9", "", "2", "4")))
    table.npc.refresh_from_db()
    assert response.status_code == 200
    assert "Give every attribute a value, or leave them all blank" in response.content.decode()
    assert table.npc.stats == STATS


def test_skills_without_attributes_are_refused(client, table, gm):
    client.force_login(gm)
    url = reverse("npc_edit", args=[table.campaign.pk, table.npc.pk])
    response = client.post(url, npc_post(attributes=("", "", "", "")))
    assert "Skills need the attributes they modify" in response.content.decode()


@pytest.mark.parametrize(("field", "value"), [("stats-a0", "13"), ("stats-a1", "0"),
                                              ("stats-s0", "6"), ("stats-s2", "x")])  # fmt: skip
def test_a_stat_out_of_range_is_refused_with_its_name(client, table, gm, field, value):
    client.force_login(gm)
    url = reverse("npc_edit", args=[table.campaign.pk, table.npc.pk])
    response = client.post(url, npc_post() | {field: value})
    table.npc.refresh_from_db()
    assert "a whole number from" in response.content.decode()
    assert table.npc.stats == STATS


def test_a_player_cannot_write_an_npcs_stats(client, table, player):
    client.force_login(player)
    url = reverse("npc_edit", args=[table.campaign.pk, table.npc.pk])
    assert client.post(url, npc_post(attributes=("1", "1", "1", "1"))).status_code in (403, 404)
    table.npc.refresh_from_db()
    assert table.npc.stats == STATS


# --- The GM rolls its tests -------------------------------------------------------------------


def test_the_dashboard_offers_the_npcs_attributes_and_skills(client, table, gm):
    client.force_login(gm)
    html = client.get(reverse("dashboard", args=[table.campaign.pk])).content.decode()
    assert ">BUDOWA 9</option>" in html
    assert ">WALKA +2</option>" in html


def test_the_npc_tests_an_attribute_and_a_skill_of_its_stats(client, table, gm, dice):
    client.force_login(gm)
    dice(3, 4)
    roll_for(client, table, what="węszy", attribute="3", skill="5", bonus="0", penalty="0")
    roll = Roll.objects.get()
    assert roll.params == {"attribute": 4, "skills": [1], "bonus": 0, "penalty": 0}
    assert roll.label == "Troll: węszy"
    assert roll.npc == table.npc
    assert roll.result["answer"]["outcome"] == "yes"


def test_the_entry_names_the_attribute_the_skill_and_the_overflow(client, table, gm, dice):
    client.force_login(gm)
    dice(10, 6, 4)
    roll_for(client, table, attribute="0", skill="1", penalty="1")
    roll = Roll.objects.get()
    # BUDOWA 9 + WALKA +2 = 11: chance 9 and two bonus dice, one cancelled by the penalty die.
    assert (roll.params["bonus"], roll.params["penalty"]) == (0, 1)
    assert [source_line(s) for s in roll.sources] == [
        "+9 attribute: BUDOWA",
        "+2 skill: WALKA",
        "+1 penalty die: typed by the GM",
        "+2 bonus dice: chance above 9",
    ]
    assert roll.result["answer"]["outcome"] == "yes"


def test_the_form_shows_the_exact_odds_of_the_test_as_chosen(client, table, gm):
    client.force_login(gm)
    url = reverse("npc_roll_box", args=[table.campaign.pk, table.npc.pk])
    response = client.get(url, {"attribute": "2", "skill": "3", "bonus": "0", "penalty": "1"})
    form = response.context["npc_roll"]["form"]
    parsed = fasttest.parse_params({"attribute": 2, "skills": [-2], "penalty": 1})
    assert dict(form.odds) == pytest.approx(fasttest.odds(parsed)["odds"])
    assert [key for key, _p in form.odds][0] == "yes_and"
    assert "Exact odds:" in response.content.decode()


def test_a_forged_attribute_index_is_refused(client, table, gm):
    client.force_login(gm)
    response = roll_for(client, table, attribute="4", skill="0")
    assert response.status_code == 422
    assert not Roll.objects.exists()


def test_a_trait_only_npc_keeps_the_typed_chance(client, make_table, gm, dice):
    table = make_table(system="fasttest", players=1, characters=(), npcs=[("Troll", TROLL)])
    client.force_login(gm)
    dice(3, 4)
    roll_for(client, table, chance="6")
    assert Roll.objects.get().params == {"attribute": 6, "skills": [], "bonus": 0, "penalty": 0}
