"""The T10 (Moorcrest) sheet: named attributes and skills, items that add or take dice."""

from __future__ import annotations

import pytest

from rolls.demo import DEMO_CHARACTERS
from sheets.models import Character
from sheets.systems import t10 as module
from tests.web.sheet_helpers import HX, client_for, post, rolls, sheet, url
from tests.web.test_sheet_fasttest import errors_of, field_value

pytest_plugins = ["tests.web.sheet_fixtures"]

ASTRID = next(data for _p, name, data in DEMO_CHARACTERS["t10"] if name == "Astrid")


def check(data, creating=True):
    return module.validate(data, None, creating=creating)


# Validation (names, lists and the form as in every sheet of named lists:
# tests/web/test_sheet_conformance.py) ----------------------------------------------------------


def test_an_older_sheet_of_name_value_objects_is_read_as_rows():
    cleaned, errors = check({"attributes": {"Styrka": 4}, "skills": {"Svärd": 3}})
    assert errors == {}
    assert cleaned["attributes"] == [{"name": "Styrka", "value": 4}]
    assert cleaned["skills"] == [{"name": "Svärd", "value": 3}]


@pytest.mark.parametrize("value", [0, 11, "x", None, 2.5, True])
def test_an_attribute_outside_one_to_ten_is_refused_at_its_field(value):
    _cleaned, errors = check(sheet(ASTRID, attributes=[{"name": "Styrka", "value": value}]))
    assert errors == {"attributes-0-value": ["Enter a whole number from 1 to 10."]}


@pytest.mark.parametrize("value", [0, 10])
def test_a_skill_may_be_untrained_or_at_ten(value):
    _cleaned, errors = check(sheet(ASTRID, skills=[{"name": "Rida", "value": value}]))
    assert errors == {}


@pytest.mark.parametrize("value", [-1, 11, "1e3"])
def test_a_skill_outside_zero_to_ten_is_refused_at_its_field(value):
    _cleaned, errors = check(sheet(ASTRID, skills=[{"name": "Rida", "value": value}]))
    assert errors == {"skills-0-value": ["Enter a whole number from 0 to 10."]}


@pytest.mark.parametrize(("typed", "dice"), [("-5", -5), ("\u22122", -2), ("+5", 5), (0, 0)])
def test_an_item_gives_or_takes_up_to_five_dice(typed, dice):
    cleaned, errors = check(sheet(ASTRID, equipment=[{"name": "Sköld", "dice": typed}]))
    assert errors == {}
    assert cleaned["equipment"] == [{"name": "Sköld", "dice": dice}]


@pytest.mark.parametrize("dice", [-6, 6, "mycket"])
def test_an_item_beyond_five_dice_is_refused_at_its_field(dice):
    _cleaned, errors = check(sheet(ASTRID, equipment=[{"name": "Sköld", "dice": dice}]))
    assert errors == {"equipment-0-dice": ["Enter a whole number from −5 to +5."]}


# Totals and derived values -------------------------------------------------------------------


def test_the_largest_pool_is_the_best_attribute_plus_the_best_skill():
    totals = module.totals(ASTRID, None)
    assert [(total.label, total.value) for total in totals] == [
        ("Largest pool (attribute + skill)", 7)
    ]


def test_there_is_no_pool_total_until_there_is_a_skill():
    assert module.totals(sheet(ASTRID, skills=[]), None) == []


def test_the_pool_total_skips_values_typed_wrongly():
    data = module.data_from_post(
        post(
            attributes__0__name="Styrka",
            attributes__0__value="99",
            attributes__1__name="Smidighet",
            attributes__1__value="3",
            skills__0__name="Svärd",
            skills__0__value="2",
        ),
        None,
    )
    assert module.totals(data, None)[0].value == 5


def test_attributes_skills_and_items_are_roll_targets_with_their_dice():
    derived = module.derived(ASTRID, None)
    assert derived["attributes"][0]["roll"] == {"attribute": "Styrka", "dice": 4}
    assert derived["skills"][0]["roll"] == {"skill": "Svärd", "dice": 3}
    assert derived["equipment"][0]["roll"] == {"item": "Långsvärd", "dice": 1}


# Pages -----------------------------------------------------------------------------------------


@pytest.fixture
def t10(make_campaign):
    return make_campaign("t10")


@pytest.fixture
def astrid(t10, player):
    return Character.objects.create(campaign=t10, owner=player, name="Astrid", data=sheet(ASTRID))


def creation_post(**fields) -> dict:
    data = {
        "name": "Erik",
        "attributes-0-name": "Styrka",
        "attributes-0-value": "2",
        "attributes-1-name": "Smidighet",
        "attributes-1-value": "4",
        "skills-0-name": "Båge",
        "skills-0-value": "3",
        "equipment-0-name": "Jaktbåge",
        "equipment-0-dice": "1",
    }
    data.update({name.replace("__", "-"): value for name, value in fields.items()})
    return data


@pytest.mark.django_db
def test_a_player_creates_a_t10_character_and_sees_the_pool_parts(t10, player):
    client = client_for(player)
    response = client.post(url("character_create", campaign=t10), creation_post())
    character = Character.objects.get(campaign=t10)
    page = client.get(response["Location"]).content.decode()
    assert character.data["skills"] == [{"name": "Båge", "value": 3}]
    assert {"attribute": "Smidighet", "dice": 4} in rolls(page)
    assert {"item": "Jaktbåge", "dice": 1} in rolls(page)
    assert "7 dice" in page


@pytest.mark.django_db
def test_a_wrong_attribute_on_creation_is_shown_at_its_field_and_kept(t10, player):
    response = client_for(player).post(
        url("character_create", campaign=t10), creation_post(attributes__1__value="0")
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "Enter a whole number from 1 to 10." in errors_of(page, "attributes-1-value")
    assert field_value(page, "attributes-1-value") == "0"
    assert field_value(page, "skills-0-name") == "Båge"


def totals_bar(page: str) -> str:
    """What the new-character form's running totals hold (their host, ``#sheet-totals``)."""
    return page.split('id="sheet-totals">', 1)[1].split("</div>", 1)[0]


@pytest.mark.django_db
def test_a_new_t10_sheet_shows_no_totals_bar_while_it_has_no_pool(t10, player):
    page = client_for(player).get(url("character_create", campaign=t10)).content.decode()
    assert totals_bar(page).strip() == ""


@pytest.mark.django_db
def test_a_refused_t10_sheet_without_a_pool_shows_no_totals_bar(t10, player):
    response = client_for(player).post(url("character_create", campaign=t10), {"name": ""})
    page = response.content.decode()
    assert 'class="form-errors"' in page
    assert totals_bar(page).strip() == ""


@pytest.mark.django_db
def test_the_totals_bar_comes_with_the_first_pool_and_goes_with_it(t10, player):
    client = client_for(player)
    with_pool = client.post(url("character_totals", campaign=t10), creation_post(), **HX)
    assert 'class="totals-list"' in with_pool.content.decode()
    without = client.post(url("character_totals", campaign=t10), {"name": "Erik"}, **HX)
    assert without.content.decode().strip() == ""


@pytest.mark.django_db
def test_an_older_sheet_is_saved_in_the_new_shape_on_its_next_edit(astrid, player):
    astrid.data = {"attributes": {"Styrka": 4}, "skills": {"Svärd": 3}}
    astrid.save()
    client_for(player).post(
        url("character_section", character=astrid, section="equipment"),
        {"equipment-0-name": "Sköld", "equipment-0-dice": "1"},
    )
    astrid.refresh_from_db()
    assert astrid.data["attributes"] == [{"name": "Styrka", "value": 4}]
    assert astrid.data["equipment"] == [{"name": "Sköld", "dice": 1}]


@pytest.mark.django_db
def test_a_box_saved_with_an_error_keeps_the_typed_rows(astrid, player):
    response = client_for(player).post(
        url("character_section", character=astrid, section="attributes"),
        {"attributes-0-name": "Styrka", "attributes-0-value": "11"},
        **HX,
    )
    page = response.content.decode()
    astrid.refresh_from_db()
    assert field_value(page, "attributes-0-value") == "11"
    assert "Enter a whole number from 1 to 10." in errors_of(page, "attributes-0-value")
    assert astrid.data["attributes"] == ASTRID["attributes"]
