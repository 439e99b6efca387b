"""Per-system campaign settings: FastTest skills and options, Caerbannog's two tables."""

import pytest
from django.urls import reverse

from campaigns.actions import create_campaign, join_campaign
from campaigns.system_settings import DEFAULT_FASTTEST_SKILLS, system_settings
from rolls.systems.fasttest.sheet_actions import renamed_skills
from sheets.models import NPC, Character

pytestmark = pytest.mark.django_db

SKILLS = DEFAULT_FASTTEST_SKILLS


@pytest.fixture
def fasttest(gm, player):
    campaign = create_campaign(gm=gm, name="Zarith", system="fasttest")
    join_campaign(campaign, player)
    return campaign


@pytest.fixture
def caerbannog(gm):
    return create_campaign(gm=gm, name="Caerbannog", system="caerbannog")


def url(campaign):
    return reverse("campaign_settings", args=[campaign.pk])


def fasttest_post(names=SKILLS, name="Zarith", **options):
    data = {"name": name}
    data.update({f"skill_{i}": n for i, n in enumerate(names, start=1)})
    data.update({key: "on" for key, value in options.items() if value})
    return data


def table_post(prefix: str, rows: list[tuple], fields: tuple[str, str], total: int | None = None):
    data = {
        f"{prefix}-TOTAL_FORMS": str(len(rows) if total is None else total),
        f"{prefix}-INITIAL_FORMS": "0",
    }
    for index, (key, value) in enumerate(rows):
        data[f"{prefix}-{index}-{fields[0]}"] = key
        data[f"{prefix}-{index}-{fields[1]}"] = value
    return data


def caerbannog_post(pd_rows=(), reaction_rows=(), name="Caerbannog"):
    return {
        "name": name,
        **table_post("pd", list(pd_rows), ("pd", "rozmach")),
        **table_post("reaction", list(reaction_rows), ("reaction", "cost")),
    }


# Who may


def test_the_gm_sees_the_six_default_skills(client, fasttest, gm):
    client.force_login(gm)
    html = client.get(url(fasttest)).content.decode()
    for name in SKILLS:
        assert f'value="{name}"' in html


def test_a_player_gets_404_and_changes_nothing(client, fasttest, player):
    client.force_login(player)
    assert client.get(url(fasttest)).status_code == 404
    assert client.post(url(fasttest), fasttest_post(magic=True)).status_code == 404
    fasttest.refresh_from_db()
    assert system_settings(fasttest)["magic"] is False


# FastTest


def test_saving_the_options_is_read_back_through_system_settings(client, fasttest, gm):
    client.force_login(gm)
    response = client.post(url(fasttest), fasttest_post(magic=True, multi_skill=True))
    assert response.status_code == 302
    fasttest.refresh_from_db()
    settings = system_settings(fasttest)
    assert (settings["magic"], settings["multi_skill"], settings["experience_dice"]) == (
        True,
        True,
        False,
    )


def test_renaming_a_skill_keeps_every_characters_value(client, fasttest, gm, player):
    values = dict(zip(SKILLS, [2, 1, -1, -2, 0, 0], strict=True))
    hero = Character.objects.create(
        campaign=fasttest, owner=player, name="Jaga", data={"skills": values, "xp": 3}
    )
    client.force_login(gm)
    client.post(url(fasttest), fasttest_post([*SKILLS[:3], "MAGIA", *SKILLS[4:]]))
    hero.refresh_from_db()
    fasttest.refresh_from_db()
    assert system_settings(fasttest)["skills"][3] == "MAGIA"
    assert hero.data["skills"]["MAGIA"] == -2
    assert "TECHNIKA" not in hero.data["skills"]
    assert hero.data["xp"] == 3


def test_values_follow_the_position_when_two_names_swap(client, fasttest, gm, player):
    values = dict(zip(SKILLS, [2, 1, -1, -2, 0, 0], strict=True))
    hero = Character.objects.create(
        campaign=fasttest, owner=player, name="Jaga", data={"skills": values}
    )
    client.force_login(gm)
    client.post(url(fasttest), fasttest_post([SKILLS[1], SKILLS[0], *SKILLS[2:]]))
    hero.refresh_from_db()
    # Compared by name: PostgreSQL's jsonb keeps no key order (the sheet orders by the settings).
    assert (hero.data["skills"][SKILLS[1]], hero.data["skills"][SKILLS[0]]) == (2, 1)


def test_a_rename_leaves_other_campaigns_characters_alone(client, fasttest, gm, player):
    other = create_campaign(gm=gm, name="Inna", system="fasttest")
    values = dict.fromkeys(SKILLS, 0)
    stranger = Character.objects.create(
        campaign=other, owner=gm, name="Obcy", data={"skills": values}
    )
    client.force_login(gm)
    client.post(url(fasttest), fasttest_post(["MAGIA", *SKILLS[1:]]))
    stranger.refresh_from_db()
    assert stranger.data["skills"] == values


def test_a_missing_skill_value_becomes_zero_on_rename():
    assert renamed_skills({"A": 2}, ["A", "B"], ["X", "Y"]) == {"X": 2, "Y": 0}


def test_skills_that_are_not_a_dict_are_left_for_the_sheet_to_judge():
    assert renamed_skills(["junk"], ["A"], ["X"]) == ["junk"]


def test_two_skills_with_one_name_are_refused_and_nothing_is_lost(client, fasttest, gm):
    client.force_login(gm)
    names = [*SKILLS[:5], "walka"]
    response = client.post(url(fasttest), fasttest_post(names, magic=True))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Each skill needs its own name: &#x27;walka&#x27; is already skill 1." in html
    assert 'value="walka"' in html
    assert "Nothing was saved yet" in html
    assert 'id="id_magic" checked' in html
    fasttest.refresh_from_db()
    assert system_settings(fasttest)["skills"] == SKILLS


def test_an_empty_skill_name_is_refused(client, fasttest, gm):
    client.force_login(gm)
    response = client.post(url(fasttest), fasttest_post([*SKILLS[:5], "   "]))
    assert 'id="id_skill_6_error"' in response.content.decode()


def test_an_overlong_skill_name_is_refused(client, fasttest, gm):
    client.force_login(gm)
    response = client.post(url(fasttest), fasttest_post([*SKILLS[:5], "X" * 31]))
    assert "at most 30 characters" in response.content.decode()


def test_a_forged_post_with_five_skills_is_refused(client, fasttest, gm):
    client.force_login(gm)
    response = client.post(url(fasttest), fasttest_post(SKILLS[:5]))
    assert response.status_code == 200
    assert 'id="id_skill_6_error"' in response.content.decode()


def test_emanation_needs_magic(client, fasttest, gm):
    client.force_login(gm)
    response = client.post(url(fasttest), fasttest_post(emanation=True))
    assert "Magic emanation needs magic turned on." in response.content.decode()


def test_the_campaign_is_renamed_from_settings(client, fasttest, gm):
    client.force_login(gm)
    client.post(url(fasttest), fasttest_post(name="Zarith II"))
    fasttest.refresh_from_db()
    assert fasttest.name == "Zarith II"


def test_an_empty_campaign_name_is_refused(client, fasttest, gm):
    client.force_login(gm)
    response = client.post(url(fasttest), fasttest_post(name=""))
    assert 'id="id_name_error"' in response.content.decode()
    fasttest.refresh_from_db()
    assert fasttest.name == "Zarith"


def test_saving_keeps_other_systems_stored_settings(client, fasttest, gm):
    fasttest.settings = {"caerbannog": {"pd_rozmach": [{"pd": 1, "rozmach": 1}]}}
    fasttest.save()
    client.force_login(gm)
    client.post(url(fasttest), fasttest_post())
    fasttest.refresh_from_db()
    assert fasttest.settings["caerbannog"] == {"pd_rozmach": [{"pd": 1, "rozmach": 1}]}


# Caerbannog


def test_both_caerbannog_tables_start_empty(client, caerbannog, gm):
    client.force_login(gm)
    html = client.get(url(caerbannog)).content.decode()
    assert "Rozmach from PD" in html
    assert "Reaction costs" in html
    assert system_settings(caerbannog) == {
        "pd_rozmach": [],
        "reaction_costs": [],
        "npc_rozmach": False,  # RULES.md 4.12: NPCs have no Rozmach unless the GM says so
    }


def test_pd_thresholds_are_saved_in_ascending_order(client, caerbannog, gm):
    client.force_login(gm)
    post = caerbannog_post(pd_rows=[("10", "2"), ("", ""), ("5", "1")])
    assert client.post(url(caerbannog), post).status_code == 302
    caerbannog.refresh_from_db()
    assert system_settings(caerbannog)["pd_rozmach"] == [
        {"pd": 5, "rozmach": 1},
        {"pd": 10, "rozmach": 2},
    ]


def test_reaction_costs_are_saved(client, caerbannog, gm):
    client.force_login(gm)
    client.post(url(caerbannog), caerbannog_post(reaction_rows=[("Osłona", "2"), ("Unik", "0")]))
    caerbannog.refresh_from_db()
    assert system_settings(caerbannog)["reaction_costs"] == [
        {"reaction": "Osłona", "cost": 2},
        {"reaction": "Unik", "cost": 0},
    ]


def test_the_saved_rows_show_again_with_blank_rows_to_add_more(client, caerbannog, gm):
    client.force_login(gm)
    client.post(url(caerbannog), caerbannog_post(reaction_rows=[("Osłona", "2")]))
    html = client.get(url(caerbannog)).content.decode()
    assert 'value="Osłona"' in html
    assert 'name="reaction-3-reaction"' in html


def test_clearing_a_row_removes_it(client, caerbannog, gm):
    caerbannog.settings = {"caerbannog": {"reaction_costs": [{"reaction": "Osłona", "cost": 2}]}}
    caerbannog.save()
    client.force_login(gm)
    client.post(url(caerbannog), caerbannog_post(reaction_rows=[("", "")]))
    caerbannog.refresh_from_db()
    assert system_settings(caerbannog)["reaction_costs"] == []


@pytest.mark.parametrize(
    ("pd", "rozmach", "message"),
    [
        ("-1", "1", "PD cannot be negative."),
        ("5", "11", "0 to 10: the Rozmach pool never holds more."),
        ("pięć", "1", "A whole number of PD, 0 or more."),
        ("5", "", "Fill in both"),
    ],
)
def test_a_bad_pd_row_is_refused_with_its_values_kept(client, caerbannog, gm, pd, rozmach, message):
    client.force_login(gm)
    response = client.post(url(caerbannog), caerbannog_post(pd_rows=[(pd, rozmach)]))
    html = response.content.decode()
    assert response.status_code == 200
    assert message in html
    assert f'value="{pd}"' in html
    caerbannog.refresh_from_db()
    assert system_settings(caerbannog)["pd_rozmach"] == []


def test_a_threshold_given_twice_is_refused(client, caerbannog, gm):
    client.force_login(gm)
    response = client.post(url(caerbannog), caerbannog_post(pd_rows=[("5", "1"), ("5", "2")]))
    assert "The threshold 5 PD is listed twice." in response.content.decode()


def test_a_reaction_given_twice_is_refused(client, caerbannog, gm):
    client.force_login(gm)
    post = caerbannog_post(reaction_rows=[("Unik", "1"), ("unik", "2")])
    assert "listed twice" in client.post(url(caerbannog), post).content.decode()


def test_a_negative_reaction_cost_is_refused(client, caerbannog, gm):
    client.force_login(gm)
    post = caerbannog_post(reaction_rows=[("Unik", "-1")])
    assert "a cost cannot be negative" in client.post(url(caerbannog), post).content.decode()


def test_a_forged_row_count_is_refused_without_a_server_error(client, caerbannog, gm):
    client.force_login(gm)
    post = caerbannog_post()
    post["pd-TOTAL_FORMS"] = "100000"
    response = client.post(url(caerbannog), post)
    assert response.status_code == 200
    assert "Please submit at most 40 forms." in response.content.decode()


def test_a_post_without_the_tables_management_data_is_refused(client, caerbannog, gm):
    client.force_login(gm)
    response = client.post(url(caerbannog), {"name": "Caerbannog"})
    assert response.status_code == 200
    assert "ManagementForm data is missing" in response.content.decode()


# The other systems


@pytest.mark.parametrize("system", ["ast", "t10", "2d6"])
def test_systems_without_settings_say_so(client, gm, system):
    campaign = create_campaign(gm=gm, name="Bez", system=system)
    client.force_login(gm)
    assert "has no settings of its own" in client.get(url(campaign)).content.decode()
    assert client.post(url(campaign), {"name": "Z nazwą"}).status_code == 302
    campaign.refresh_from_db()
    assert campaign.name == "Z nazwą"


def test_renaming_a_skill_keeps_a_full_stat_npcs_value(client, fasttest, gm):
    values = dict(zip(SKILLS, [2, 1, -1, -2, 0, 0], strict=True))
    stats = {"attributes": {"BUDOWA": 6, "ZRĘCZNOŚĆ": 5, "UMYSŁ": 5, "DUCH": 4}, "skills": values}
    captain = NPC.objects.create(campaign=fasttest, name="Kapitan", traits=[], stats=stats)
    client.force_login(gm)
    client.post(url(fasttest), fasttest_post([*SKILLS[:3], "MAGIA", *SKILLS[4:]]))
    captain.refresh_from_db()
    assert captain.stats["skills"]["MAGIA"] == -2
    assert "TECHNIKA" not in captain.stats["skills"]
    assert captain.stats["attributes"]["BUDOWA"] == 6
