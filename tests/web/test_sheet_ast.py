"""The AST sheet: free lists of entries, states with values, the FUNT counter."""

from __future__ import annotations

import json

import pytest

from campaigns.models import System
from config.text import MESSAGE as UNSAFE_TEXT
from rolls.demo import DEMO_CHARACTERS
from sheets.models import Character
from sheets.systems import ast as module
from tests.web.sheet_helpers import HX, SHEET_PAGE_QUERIES, client_for, post, rolls, sheet, url
from tests.web.test_sheet_fasttest import errors_of, field_value

pytest_plugins = ["tests.web.sheet_fixtures"]

OLAF = next(data for _p, name, data in DEMO_CHARACTERS[System.AST] if name == "Olaf")


def check(data, creating=True):
    return module.validate(data, None, creating=creating)


# Defaults and reading the form -----------------------------------------------------------------


def test_a_blank_sheet_has_five_empty_lists_and_no_funt():
    data = module.default_data(None)
    assert data == {
        "attributes": [],
        "advantages": [],
        "equipment": [],
        "positive_states": [],
        "negative_states": [],
        "funt": 0,
    }
    assert check(data) == (data, {})


def test_the_form_is_read_in_row_order_with_blank_rows_left_out():
    data = module.data_from_post(
        post(
            attributes__2__name="Umysł: sprytny",
            attributes__0__name="Ciało: silny",
            attributes__1__name="  ",
            negative_states__0__name="zmęczony",
            negative_states__0__value="1",
            negative_states__1__name="",
            negative_states__1__value="1",
            funt="2",
        ),
        None,
    )
    assert data["attributes"] == [{"name": "Ciało: silny"}, {"name": "Umysł: sprytny"}]
    assert data["negative_states"] == [{"name": "zmęczony", "value": "1"}]
    assert data["funt"] == "2"


def test_a_ticked_remove_box_drops_its_row():
    data = module.data_from_post(
        post(
            equipment__0__name="ostry topór", equipment__0__remove="1", equipment__1__name="tarcza"
        ),
        None,
    )
    assert data["equipment"] == [{"name": "tarcza"}]


def test_a_state_with_a_value_but_no_name_is_kept_to_be_refused():
    data = module.data_from_post(
        post(negative_states__0__name="", negative_states__0__value="3"), None
    )
    cleaned, errors = check(data)
    assert data["negative_states"] == [{"name": "", "value": "3"}]
    assert errors["negative_states-0-name"] == ["Enter a name."]


def test_a_positive_state_is_read_from_the_form_without_a_value():
    data = module.data_from_post(
        post(positive_states__0__name="wypoczęty", positive_states__0__value="3"), None
    )
    assert data["positive_states"] == [{"name": "wypoczęty"}]


def test_a_post_of_one_box_reads_the_other_lists_as_empty():
    data = module.data_from_post(post(funt="3"), None)
    assert data["attributes"] == []
    assert data["funt"] == "3"


def test_forged_field_names_are_ignored():
    data = module.data_from_post(
        post(
            attributes__99999__name="too far",
            attributes__x__name="not a number",
            **{"attributes-٣-name": "not ascii digits"},
        ),
        None,
    )
    assert data["attributes"] == []


# Validation ----------------------------------------------------------------------------------


def test_olaf_of_the_seed_is_a_valid_sheet():
    assert check(OLAF) == (OLAF, {})


def test_names_are_trimmed_and_inner_spaces_collapsed():
    cleaned, errors = check(sheet(OLAF, advantages=[{"name": "  walka    toporem "}]))
    assert errors == {}
    assert cleaned["advantages"] == [{"name": "walka toporem"}]


def test_an_empty_name_is_refused_at_its_field():
    _cleaned, errors = check(sheet(OLAF, equipment=[{"name": "ostry topór"}, {"name": " "}]))
    assert errors == {"equipment-1-name": ["Enter a name."]}


def test_a_name_longer_than_sixty_characters_is_refused():
    _cleaned, errors = check(sheet(OLAF, attributes=[{"name": "x" * 61}]))
    assert errors["attributes-0-name"] == ["At most 60 characters (this name has 61)."]


def test_a_name_with_control_characters_is_refused():
    _cleaned, errors = check(sheet(OLAF, attributes=[{"name": "Ciało\x00silne"}]))
    assert errors["attributes-0-name"] == [str(UNSAFE_TEXT)]


def test_the_same_entry_twice_in_a_list_is_refused_whatever_its_case():
    _cleaned, errors = check(
        sheet(OLAF, attributes=[{"name": "Ciało: silny"}, {"name": "CIAŁO: SILNY"}])
    )
    assert errors == {"attributes-1-name": ["“CIAŁO: SILNY” is already in this list."]}


def test_the_same_name_in_two_lists_is_fine():
    _cleaned, errors = check(
        sheet(
            OLAF, positive_states=[{"name": "czujny", "value": 1}], advantages=[{"name": "czujny"}]
        )
    )
    assert errors == {}


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


def test_a_missing_list_is_an_empty_list():
    data = sheet(OLAF)
    del data["positive_states"]
    cleaned, errors = check(data)
    assert errors == {}
    assert cleaned["positive_states"] == []


def test_a_list_that_is_not_a_list_is_refused_at_the_list():
    _cleaned, errors = check(sheet(OLAF, equipment="ostry topór"))
    assert errors == {"equipment": ["This must be a list of entries."]}


def test_an_entry_that_is_not_an_object_is_refused_at_its_name():
    _cleaned, errors = check(sheet(OLAF, advantages=["walka toporem"]))
    assert errors == {"advantages-0-name": ["Each entry must be an object with a name."]}


def test_more_than_thirty_entries_in_a_list_are_refused():
    many = [{"name": f"atut {number}"} for number in range(31)]
    _cleaned, errors = check(sheet(OLAF, advantages=many))
    assert errors == {"advantages": ["At most 30 entries (this list has 31)."]}


def test_a_huge_forged_list_is_refused_without_trouble():
    many = [{"name": f"atut {number}"} for number in range(20_000)]
    cleaned, errors = check(sheet(OLAF, advantages=many))
    assert errors["advantages"] == ["At most 30 entries (this list has 20000)."]
    assert len(cleaned["advantages"]) == module.MAX_ITEMS


@pytest.mark.parametrize("data", [[], "sheet", 7, None])
def test_a_sheet_that_is_not_an_object_is_refused_as_a_whole(data):
    _cleaned, errors = check(data)
    assert errors == {"": ["The sheet must be a JSON object."]}


def test_unknown_keys_are_dropped():
    cleaned, errors = check(sheet(OLAF, skills={"Walka": 3}))
    assert errors == {}
    assert "skills" not in cleaned


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
def test_the_wrong_field_points_to_its_message(ast, player):
    page = (
        client_for(player)
        .post(
            url("character_create", campaign=ast), creation_post(attributes__1__name="ciało: SILNY")
        )
        .content.decode()
    )
    assert 'id="attributes-1-name" name="attributes-1-name" value="ciało: SILNY"' in page
    assert 'aria-invalid="true" aria-describedby="attributes-1-name-error"' in page


@pytest.mark.django_db
def test_the_creation_form_offers_three_blank_rows_per_list(ast, player):
    page = client_for(player).get(url("character_create", campaign=ast)).content.decode()
    assert 'name="attributes-2-name"' in page
    assert 'name="attributes-3-name"' not in page


@pytest.mark.django_db
def test_the_owner_edits_one_box_and_adds_a_state(olaf, player):
    response = client_for(player).post(
        url("character_section", character=olaf, section="negative_states"),
        {"negative_states-0-name": "ranny", "negative_states-0-value": "2"},
    )
    olaf.refresh_from_db()
    assert response.status_code == 302
    assert olaf.data["negative_states"] == [{"name": "ranny", "value": 2}]
    assert olaf.data["attributes"] == OLAF["attributes"]


@pytest.mark.django_db
def test_the_owner_removes_an_entry_with_its_box(olaf, player):
    client_for(player).post(
        url("character_section", character=olaf, section="equipment"),
        {
            "equipment-0-name": "ostry topór",
            "equipment-0-remove": "1",
            "equipment-1-name": "bogato zdobiona skórznia",
        },
    )
    olaf.refresh_from_db()
    assert olaf.data["equipment"] == [{"name": "bogato zdobiona skórznia"}]


@pytest.mark.django_db
def test_a_forged_box_post_is_refused_with_a_message_not_an_error_page(olaf, player):
    response = client_for(player).post(
        url("character_section", character=olaf, section="funt"), {"funt": "9" * 5000}, **HX
    )
    olaf.refresh_from_db()
    assert response.status_code == 200
    assert "Enter a whole number from 0 to 99." in errors_of(response.content.decode(), "funt")
    assert olaf.data["funt"] == 1


@pytest.mark.django_db
def test_the_edit_box_shows_the_stored_rows_and_two_blank_ones(olaf, player):
    response = client_for(player).get(
        url("character_section", character=olaf, section="advantages"), **HX
    )
    page = response.content.decode()
    assert field_value(page, "advantages-1-name") == "orientacja w terenie"
    assert 'name="advantages-3-name"' in page
    assert 'name="advantages-4-name"' not in page


@pytest.mark.django_db
def test_another_player_reads_the_sheet_without_roll_targets(olaf, other_player):
    page = client_for(other_player).get(url("character_detail", character=olaf)).content.decode()
    assert "walka toporem" in page
    assert rolls(page) == []


@pytest.mark.django_db
def test_an_outsider_gets_404_for_the_sheet(olaf, outsider):
    response = client_for(outsider).get(url("character_detail", character=olaf))
    assert response.status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("size", [1, 30])
def test_the_sheet_costs_the_same_queries_however_long_its_lists(
    olaf, player, size, django_assert_num_queries
):
    olaf.data = sheet(OLAF, advantages=[{"name": f"atut {n}"} for n in range(size)])
    olaf.save()
    client = client_for(player)
    client.get(url("character_detail", character=olaf))  # warm the session and caches
    with django_assert_num_queries(SHEET_PAGE_QUERIES):
        client.get(url("character_detail", character=olaf))


@pytest.mark.django_db
def test_more_empty_rows_keeps_what_was_typed_and_adds_three_blank_rows(ast, player):
    filled = {f"attributes__{n}__name": f"Cecha {n}" for n in range(3)}
    response = client_for(player).post(
        url("character_create", campaign=ast), {**creation_post(**filled), "_more": "1"}
    )
    page = response.content.decode()
    assert not Character.objects.filter(campaign=ast).exists()
    assert field_value(page, "attributes-2-name") == "Cecha 2"
    assert 'name="attributes-5-name"' in page
    assert 'name="attributes-6-name"' not in page


@pytest.mark.django_db
def test_saving_a_list_box_refreshes_the_dice_count_in_the_funt_box(olaf, player):
    response = client_for(player).post(
        url("character_section", character=olaf, section="advantages"),
        {"advantages-0-name": "walka toporem"},
        **HX,
    )
    assert json.loads(response["HX-Trigger"]) == {"sheet-changed": {"boxes": ["funt"]}}
