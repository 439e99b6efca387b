"""The AST sheet: free lists of entries, states with values, the FUNT counter."""

from __future__ import annotations

import pytest

from rolls.demo import DEMO_CHARACTERS
from sheets.models import Character
from sheets.systems import ast as module
from tests.web.sheet_helpers import HX, client_for, post, rolls, sheet, url
from tests.web.test_sheet_fasttest import errors_of, field_value

pytest_plugins = ["tests.web.sheet_fixtures"]

OLAF = next(data for _p, name, data in DEMO_CHARACTERS["ast"] if name == "Olaf")


def check(data, creating=True):
    return module.validate(data, None, creating=creating)


# Reading the form (what every sheet of named lists does: tests/web/test_sheet_conformance.py) --


def test_funt_is_read_from_its_box_as_typed():
    assert module.data_from_post(post(funt="3"), None)["funt"] == "3"


def test_a_positive_state_is_read_from_the_form_without_a_value():
    data = module.data_from_post(
        post(positive_states__0__name="wypoczęty", positive_states__0__value="3"), None
    )
    assert data["positive_states"] == [{"name": "wypoczęty"}]


# Validation (names and lists as in every sheet of named lists: test_sheet_conformance.py) -----


@pytest.mark.parametrize("value", [0, 11, -1, "abc", "", "1.5", 1.5, True, None, [1], "9" * 40])
def test_a_state_value_outside_one_to_ten_is_refused_at_its_field(value):
    _cleaned, errors = check(sheet(OLAF, negative_states=[{"name": "ranny", "value": value}]))
    assert errors == {"negative_states-0-value": ["Enter a whole number from 1 to 10."]}


@pytest.mark.parametrize(("typed", "value"), [("1", 1), (" 10 ", 10), ("+2", 2), (7, 7)])
def test_a_state_value_may_be_typed_or_stored(typed, value):
    cleaned, errors = check(sheet(OLAF, negative_states=[{"name": "zmęczony", "value": typed}]))
    assert errors == {}
    assert cleaned["negative_states"] == [{"name": "zmęczony", "value": value}]


def test_a_state_without_a_value_is_refused():
    _cleaned, errors = check(sheet(OLAF, negative_states=[{"name": "ranny"}]))
    assert errors == {"negative_states-0-value": ["Enter a whole number from 1 to 10."]}


@pytest.mark.parametrize("funt", [-1, 100, "dużo", 2.0, False])
def test_funt_outside_zero_to_ninety_nine_is_refused(funt):
    _cleaned, errors = check(sheet(OLAF, funt=funt))
    assert errors == {"funt": ["Enter a whole number from 0 to 99."]}


def test_a_sheet_without_funt_starts_with_none():
    data = sheet(OLAF)
    del data["funt"]
    cleaned, errors = check(data)
    assert errors == {}
    assert cleaned["funt"] == 0


# Totals and derived values -------------------------------------------------------------------


def test_olaf_has_six_white_dice_if_everything_applies():
    assert module.totals(OLAF, None)[0].value == 6


def test_a_positive_state_gives_one_white_die_whatever_value_an_old_sheet_gave_it():
    data = sheet(OLAF, positive_states=[{"name": "natchniony", "value": 2}])
    assert module.totals(data, None)[0].value == 7
    assert check(data)[0]["positive_states"] == [{"name": "natchniony"}]


def test_negative_states_add_their_values_to_the_test_level():
    data = sheet(
        OLAF, negative_states=[{"name": "zmęczony", "value": 1}, {"name": "ranny", "value": 1}]
    )
    assert module.totals(data, None)[1].value == 2


def test_no_white_dice_is_flagged_as_a_hindered_test():
    total = module.totals(module.default_data(None), None)[0]
    assert (total.value, total.ok) == (0, False)
    assert "hindered" in total.label


def test_totals_count_only_what_was_typed_correctly():
    data = module.data_from_post(
        post(
            attributes__0__name="Ciało: silny",
            negative_states__0__name="zmęczony",
            negative_states__0__value="abc",
            funt="x",
        ),
        None,
    )
    values = [total.value for total in module.totals(data, None)]
    assert values == [1, 0, 0]


def test_every_entry_is_a_roll_target_naming_its_list_and_what_it_counts_for():
    data = sheet(
        OLAF,
        positive_states=[{"name": "wypoczęty", "value": 3}],
        negative_states=[{"name": "ranny", "value": 2}],
    )
    lists = module.derived(data, None)["lists"]
    assert lists["attributes"]["entries"][0]["roll"] == {
        "list": "attributes",
        "item": "Ciało: silny",
        "white": 1,
    }
    assert lists["positive_states"]["entries"][0]["roll"] == {
        "list": "positive_states",
        "item": "wypoczęty",
        "white": 1,
    }
    assert lists["negative_states"]["entries"][0]["roll"] == {
        "list": "negative_states",
        "item": "ranny",
        "level": 2,
    }


# Pages -----------------------------------------------------------------------------------------


@pytest.fixture
def ast(make_campaign):
    return make_campaign("ast")


@pytest.fixture
def olaf(ast, player):
    return Character.objects.create(campaign=ast, owner=player, name="Olaf", data=sheet(OLAF))


def creation_post(name="Olaf", **fields) -> dict:
    data = {
        "name": name,
        "attributes-0-name": "Ciało: silny",
        "attributes-1-name": "Umysł: sprytny",
        "attributes-2-name": "",
        "advantages-0-name": "walka toporem",
        "equipment-0-name": "ostry topór",
        "positive_states-0-name": "",
        "positive_states-0-value": "1",
        "negative_states-0-name": "zmęczony",
        "negative_states-0-value": "1",
        "funt": "1",
    }
    data.update({name.replace("__", "-"): value for name, value in fields.items()})
    return data


@pytest.mark.django_db
def test_a_player_creates_an_ast_character_and_sees_the_sheet(ast, player):
    client = client_for(player)
    response = client.post(url("character_create", campaign=ast), creation_post())
    character = Character.objects.get(campaign=ast)
    page = client.get(response["Location"]).content.decode()
    assert character.data["negative_states"] == [{"name": "zmęczony", "value": 1}]
    assert character.data["funt"] == 1
    assert "Umysł: sprytny" in page
    assert {"list": "advantages", "item": "walka toporem", "white": 1} in rolls(page)


@pytest.mark.django_db
def test_a_wrong_value_on_creation_is_shown_at_its_field_and_everything_typed_stays(ast, player):
    response = client_for(player).post(
        url("character_create", campaign=ast),
        creation_post(negative_states__0__value="12", funt="-3"),
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert not Character.objects.filter(campaign=ast).exists()
    assert "Enter a whole number from 1 to 10." in errors_of(page, "negative_states-0-value")
    assert "Enter a whole number from 0 to 99." in errors_of(page, "funt")
    assert field_value(page, "negative_states-0-value") == "12"
    assert field_value(page, "attributes-1-name") == "Umysł: sprytny"


@pytest.mark.django_db
def test_a_forged_box_post_is_refused_with_a_message_not_an_error_page(olaf, player):
    response = client_for(player).post(
        url("character_section", character=olaf, section="funt"), {"funt": "9" * 5000}, **HX
    )
    olaf.refresh_from_db()
    assert response.status_code == 200
    assert "Enter a whole number from 0 to 99." in errors_of(response.content.decode(), "funt")
    assert olaf.data["funt"] == 1
