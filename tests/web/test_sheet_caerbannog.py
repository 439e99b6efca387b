"""The Caerbannog sheet: skills by category with levels 0..IV, defences, resources, Rozmach."""

from __future__ import annotations

import html
import json
import re

import pytest

from sheets.models import Character
from sheets.systems import caerbannog as module
from tests.web.sheet_helpers import JULIO, client_for, url
from tests.web.test_sheet_fasttest import errors_of, field_value

pytestmark = pytest.mark.django_db
pytest_plugins = ["tests.web.sheet_fixtures"]

HX = {"HTTP_HX_REQUEST": "true"}


def creation_post(name="Julio", **changes) -> dict:
    post = {"name": name}
    for index, (skill, _category) in enumerate(module.STANDARD_SKILLS):
        post[f"std_{index}"] = {"Dociekliwość": "2", "Jazda": "2", "Percepcja": "1"}.get(skill, "0")
    for category in module.CATEGORIES:
        post[f"bonus_{category}"] = "1"
    for index, _name in enumerate(module.DEFENCE_NAMES):
        post[f"defence_{index}"] = "1"
    for key, _label, _bounds in module.RESOURCES:
        post[f"res_{key}"] = "5" if key != "rozmach" else "0"
    post["specialist_0_name"] = ""
    post["specialist_0_level"] = ""
    post.update(changes)
    return post


def create(client, campaign, **changes):
    return client.post(url("character_create", campaign=campaign), creation_post(**changes))


def selected(page: str, name: str) -> str:
    select = re.search(rf'<select name="{re.escape(name)}".*?</select>', page, re.S)
    assert select, f"no select named {name}"
    chosen = re.search(r'<option value="([^"]*)" selected', select.group(0))
    return chosen.group(1) if chosen else ""


def test_the_creation_form_prints_every_skill_grouped_by_category(caerbannog, player):
    page = client_for(player).get(url("character_create", campaign=caerbannog)).content.decode()
    for name, _category in module.STANDARD_SKILLS:
        assert f">{name}</label>" in page
    assert "Specjalistyczne (specialist)" in page
    assert "Mistyczne (mystic)" in page


def test_a_player_creates_a_character_with_a_written_in_specialist_skill(caerbannog, player):
    response = create(
        client_for(player), caerbannog, specialist_0_name="Medycyna", specialist_0_level="2"
    )
    data = Character.objects.get(campaign=caerbannog).data
    assert response.status_code == 302
    assert {"name": "Medycyna", "category": "specialist", "level": 2} in data["skills"]
    assert {"name": "Jazda", "category": "physical", "level": 2} in data["skills"]


def test_a_mystic_skill_is_written_in_too(caerbannog, player):
    create(client_for(player), caerbannog, mystic_0_name="Krąg Ognia", mystic_0_level="1")
    data = Character.objects.get(campaign=caerbannog).data
    assert {"name": "Krąg Ognia", "category": "mystic", "level": 1} in data["skills"]


def _refused(client, campaign, field: str, message: str, kept: dict, **changes) -> str:
    response = create(client, campaign, **changes)
    page = response.content.decode()
    assert response.status_code == 200
    assert not Character.objects.filter(campaign=campaign).exists()
    assert message in errors_of(page, field)
    for name, value in kept.items():
        assert field_value(page, name) == value
    return page


def test_a_skill_level_above_iv_is_refused(caerbannog, player):
    page = create(client_for(player), caerbannog, std_0="5").content.decode()
    assert "Atletyka: the level is 0, I, II, III or IV (0 to 4)." in errors_of(page, "std_0")
    assert selected(page, "std_1") == "2"  # Jazda kept as chosen
    assert not Character.objects.exists()


def test_a_category_bonus_above_10_is_refused_and_kept(caerbannog, player):
    _refused(
        client_for(player), caerbannog, "bonus_social",
        "Bonus Socjalne (social) must be between 0 and 10.",
        {"bonus_social": "11", "bonus_physical": "1"},
        bonus_social="11",
    )  # fmt: skip


def test_a_negative_resource_is_refused_and_kept(caerbannog, player):
    _refused(
        client_for(player), caerbannog, "res_wytrzymalosc",
        "Wytrzymałość (endurance) must be between 0 and 99.",
        {"res_wytrzymalosc": "-1", "res_zdrowie": "5"},
        res_wytrzymalosc="-1",
    )  # fmt: skip


def test_rozmach_above_10_is_refused(caerbannog, player):
    _refused(
        client_for(player), caerbannog, "res_rozmach",
        "Rozmach (momentum) must be between 0 and 10.",
        {"res_rozmach": "11"},
        res_rozmach="11",
    )  # fmt: skip


def test_a_written_in_skill_needs_a_name(caerbannog, player):
    page = create(client_for(player), caerbannog, specialist_0_level="2").content.decode()
    assert "Give the skill a name." in errors_of(page, "specialist_0_name")
    assert selected(page, "specialist_0_level") == "2"


def test_a_written_in_skill_cannot_repeat_a_printed_one(caerbannog, player):
    _refused(
        client_for(player), caerbannog, "specialist_0_name",
        "“Jazda” is already on the sheet.",
        {"specialist_0_name": "Jazda"},
        specialist_0_name="Jazda", specialist_0_level="1",
    )  # fmt: skip


def test_a_written_in_skill_with_a_too_long_name_is_refused(caerbannog, player):
    _refused(
        client_for(player), caerbannog, "specialist_0_name",
        "Keep the name to 60 characters.",
        {"specialist_0_name": "R" * 61},
        specialist_0_name="R" * 61, specialist_0_level="1",
    )  # fmt: skip


def test_totals_count_skill_levels_and_rozmach(caerbannog, player):
    response = client_for(player).post(
        url("character_totals", campaign=caerbannog), creation_post(res_rozmach="3"), **HX
    )
    page = re.sub(r"\s+", " ", html.unescape(response.content.decode()))
    assert 'Skill levels</span> <span class="total-value">5' in page
    assert 'Rozmach</span> <span class="total-value">3 / 10' in page


def test_a_stored_sheet_without_some_printed_skills_shows_them_at_level_0(julio, player):
    page = client_for(player).get(url("character_detail", julio)).content.decode()
    atletyka = re.search(r"Atletyka</span>.*?</span>.*?</span>", page, re.S).group(0)
    assert 'skill-level">0</span>' in atletyka
    assert "d4" in atletyka


def roll_targets(page: str) -> list[dict]:
    found = re.findall(r'<button type="button" class="roll-target[^"]*" data-roll="([^"]*)"', page)
    return [json.loads(html.unescape(value)) for value in found]


def test_skills_and_defences_are_roll_targets_with_their_die(julio, player):
    targets = roll_targets(client_for(player).get(url("character_detail", julio)).content.decode())
    assert {"skill": "Dociekliwość", "category": "practical", "die": 8} in targets
    assert {"defence": "Unik", "die": 8} in targets


def test_category_bonuses_are_on_the_sheet(julio, player):
    page = client_for(player).get(url("character_detail", julio)).content.decode()
    assert re.search(r"Praktyczne \(practical\).*?\+3</span>", page, re.S)


# Editing after creation ------------------------------------------------------------------------


def test_the_owner_edits_the_skills_box_and_adds_a_specialist_skill(julio, player):
    post = creation_post(specialist_0_name="Alchemia", specialist_0_level="1")
    client_for(player).post(url("character_section", julio, section="skills"), post, **HX)
    julio.refresh_from_db()
    assert {"name": "Alchemia", "category": "specialist", "level": 1} in julio.data["skills"]
    assert julio.data["resources"] == JULIO["resources"]


def test_the_rozmach_track_sets_the_pool(julio, player):
    response = client_for(player).post(
        url("character_section", julio, section="rozmach"), {"res_rozmach": "4"}, **HX
    )
    julio.refresh_from_db()
    assert julio.data["resources"]["rozmach"] == 4
    assert 'aria-pressed="true"><span class="visually-hidden">Set Rozmach to </span>4' in (
        response.content.decode()
    )


def test_the_rozmach_track_refuses_11_with_a_message(julio, player):
    response = client_for(player).post(
        url("character_section", julio, section="rozmach"), {"res_rozmach": "11"}, **HX
    )
    julio.refresh_from_db()
    assert "Rozmach (momentum) must be between 0 and 10." in response.content.decode()
    assert julio.data["resources"]["rozmach"] == 0


def test_the_rozmach_track_is_eleven_real_buttons(julio, player):
    page = client_for(player).get(url("character_detail", julio)).content.decode()
    assert len(re.findall(r'<button type="submit" name="res_rozmach" value="\d+"', page)) == 11


def test_another_player_sees_the_track_but_cannot_set_it(julio, other_player):
    client = client_for(other_player)
    page = client.get(url("character_detail", julio)).content.decode()
    response = client.post(url("character_section", julio, section="rozmach"), {"res_rozmach": "9"})
    julio.refresh_from_db()
    assert 'name="res_rozmach"' not in page
    assert response.status_code == 404
    assert julio.data["resources"]["rozmach"] == 0


def test_saving_resources_leaves_rozmach_alone(julio, player):
    julio.data["resources"]["rozmach"] = 6
    julio.save()
    post = {f"res_{key}": "7" for key in module.POOL_RESOURCES} | {"res_pd": "3"}
    client_for(player).post(url("character_section", julio, section="resources"), post, **HX)
    julio.refresh_from_db()
    assert julio.data["resources"]["rozmach"] == 6
    assert julio.data["resources"]["wytrzymalosc"] == 7


def test_a_defence_level_above_iv_is_refused_after_creation(julio, player):
    post = {f"defence_{index}": "1" for index in range(6)} | {"defence_2": "7"}
    response = client_for(player).post(
        url("character_section", julio, section="defences"), post, **HX
    )
    julio.refresh_from_db()
    assert "Unik: the level is 0, I, II, III or IV (0 to 4)." in response.content.decode()
    assert julio.data["defences"]["Unik"] == 2


def test_the_pd_table_of_the_campaign_shows_the_rozmach_it_grants(julio, player):
    julio.campaign.settings = {
        "caerbannog": {"pd_rozmach": [{"pd": 0, "rozmach": 0}, {"pd": 3, "rozmach": 1}]}
    }
    julio.campaign.save()
    julio.data["resources"]["pd"] = 4
    julio.save()
    page = client_for(player).get(url("character_detail", julio)).content.decode()
    assert "PD grant 1 Rozmach" in page


def test_without_a_pd_table_no_rozmach_is_promised(julio, player):
    page = client_for(player).get(url("character_detail", julio)).content.decode()
    assert "PD grant" not in page
