"""The 2d6 sheet: attributes, skills, specialisations of a skill, advantages with modifiers."""

from __future__ import annotations

import pytest

from rolls.demo import DEMO_CHARACTERS
from sheets.models import Character
from sheets.systems import twod6 as module
from tests.web.sheet_helpers import HX, client_for, rolls, sheet, url
from tests.web.test_sheet_fasttest import errors_of, field_value

pytest_plugins = ["tests.web.sheet_fixtures"]

AOIFE = next(data for _p, name, data in DEMO_CHARACTERS["2d6"] if name == "Aoife")


def check(data, creating=True):
    return module.validate(data, None, creating=creating)


def advantage(name="Lornetka", category="equipment", modifier=2) -> dict:
    return {"name": name, "category": category, "modifier": modifier}


# Validation (names, lists and the form as in every sheet of named lists:
# tests/web/test_sheet_conformance.py) ----------------------------------------------------------


@pytest.mark.parametrize("value", [0, 11, "osiem", None])
def test_an_attribute_outside_one_to_ten_is_refused_at_its_field(value):
    _cleaned, errors = check(sheet(AOIFE, attributes=[{"name": "Percepcja", "value": value}]))
    assert errors == {"attributes-0-value": ["Enter a whole number from 1 to 10."]}


@pytest.mark.parametrize("value", [-1, 11, 3.0])
def test_a_skill_outside_zero_to_ten_is_refused_at_its_field(value):
    data = sheet(AOIFE, skills=[{"name": "Skradanie", "value": value}], specialisations=[])
    _cleaned, errors = check(data)
    assert errors == {"skills-0-value": ["Enter a whole number from 0 to 10."]}


def test_a_specialisation_takes_the_spelling_of_its_skill():
    cleaned, errors = check(
        sheet(AOIFE, specialisations=[{"name": "Ruiny", "skill": " skradanie "}])
    )
    assert errors == {}
    assert cleaned["specialisations"] == [{"name": "Ruiny", "skill": "Skradanie"}]


def test_a_specialisation_of_a_skill_not_on_the_sheet_is_refused_at_its_skill():
    _cleaned, errors = check(
        sheet(AOIFE, specialisations=[{"name": "Pułapki", "skill": "Przetrwanie"}])
    )
    assert errors == {
        "specialisations-0-skill": [
            "There is no skill “Przetrwanie” on this sheet; add it under Skills first."
        ]
    }


@pytest.mark.parametrize("skill", ["", "  ", None, 7, ["Skradanie"]])
def test_a_specialisation_without_a_skill_is_refused(skill):
    _cleaned, errors = check(sheet(AOIFE, specialisations=[{"name": "Ruiny", "skill": skill}]))
    assert errors == {
        "specialisations-0-skill": ["Choose the skill this specialisation belongs to."]
    }


def test_a_specialisation_of_a_skill_with_a_wrong_value_only_reports_the_value():
    data = sheet(
        AOIFE,
        skills=[{"name": "Skradanie", "value": 12}],
        specialisations=[{"name": "Ruiny", "skill": "Skradanie"}],
    )
    _cleaned, errors = check(data)
    assert errors == {"skills-0-value": ["Enter a whole number from 0 to 10."]}


def test_removing_a_skill_that_has_a_specialisation_is_refused_at_the_specialisation():
    _cleaned, errors = check(sheet(AOIFE, skills=[{"name": "Strzelanie", "value": 5}]))
    assert list(errors) == ["specialisations-0-skill"]


@pytest.mark.parametrize("category", ["magic", "", None, "Personal", 1])
def test_an_advantage_of_an_unknown_category_is_refused(category):
    _cleaned, errors = check(sheet(AOIFE, advantages=[advantage(category=category)]))
    assert errors == {"advantages-0-category": ["Choose one of the listed options."]}


@pytest.mark.parametrize("modifier", [-6, 6, "+", "dwa", None])
def test_a_modifier_beyond_five_is_refused_at_its_field(modifier):
    _cleaned, errors = check(sheet(AOIFE, advantages=[advantage(modifier=modifier)]))
    assert errors == {"advantages-0-modifier": ["Enter a whole number from −5 to +5."]}


@pytest.mark.parametrize(("typed", "modifier"), [("+3", 3), ("\u22122", -2), ("-5", -5), (0, 0)])
def test_a_weakness_is_a_negative_modifier(typed, modifier):
    cleaned, errors = check(sheet(AOIFE, advantages=[advantage(modifier=typed)]))
    assert errors == {}
    assert cleaned["advantages"][0]["modifier"] == modifier


@pytest.mark.parametrize("key", ["specialisations", "advantages"])
def test_specialisations_and_advantages_have_no_older_shape_of_an_object(key):
    # Attributes and skills read an older {name: value} object as rows; these never had one.
    _cleaned, errors = check(sheet(AOIFE, **{key: {"Ruiny": "Skradanie"}}))
    assert errors == {key: ["This must be a list of entries."]}


# Totals and derived values -------------------------------------------------------------------


def test_there_are_no_totals_without_advantages():
    assert module.totals(sheet(AOIFE, advantages=[]), None) == []


def test_a_category_total_is_the_sum_of_its_modifiers():
    data = sheet(AOIFE, advantages=[advantage(modifier=2), advantage("Latarka", modifier=-1)])
    total = module.totals(data, None)[0]
    assert (total.label, total.value, total.ok) == ("Sprzętowe (equipment)", 1, True)
    assert total.signed


def test_a_category_sum_beyond_five_is_held_at_five_and_flagged():
    data = sheet(AOIFE, advantages=[advantage(modifier=2), advantage("Zna teren", modifier=4)])
    total = module.totals(data, None)[0]
    assert (total.value, total.ok) == (5, False)
    assert "+6" in total.target


def test_each_category_is_held_on_its_own():
    data = sheet(
        AOIFE,
        advantages=[
            advantage("Lekarka", "personal", 2),
            advantage("Lornetka", "equipment", -5),
            advantage("Bez sprzętu", "equipment", -2),
        ],
    )
    values = {total.label: total.value for total in module.totals(data, None)}
    assert values == {"Osobiste (personal)": 2, "Sprzętowe (equipment)": -5}


def test_a_skill_shows_its_success_point_limit_of_skill_plus_one():
    skills = module.derived(AOIFE, None)["skills"]
    assert [(skill["name"], skill["limit"]) for skill in skills] == [
        ("Skradanie", 9),
        ("Strzelanie", 6),
    ]


def test_an_untrained_skill_still_scores_one_success_point():
    data = sheet(AOIFE, skills=[{"name": "Skradanie", "value": 0}])
    assert module.derived(data, None)["skills"][0]["limit"] == 1


def test_specialisations_are_listed_under_their_skill_as_roll_targets():
    skill = module.derived(AOIFE, None)["skills"][0]
    assert skill["specialisations"][0]["roll"] == {
        "specialisation": "W ruinach",
        "skill": "Skradanie",
    }


def test_an_advantage_is_a_roll_target_with_its_category_and_modifier():
    entry = module.derived(AOIFE, None)["advantages"][0]
    assert entry["roll"] == {"advantage": "Czujna", "category": "personal", "modifier": 1}


# Pages -----------------------------------------------------------------------------------------


@pytest.fixture
def twod6(make_campaign):
    return make_campaign("2d6")


@pytest.fixture
def aoife(twod6, player):
    return Character.objects.create(campaign=twod6, owner=player, name="Aoife", data=sheet(AOIFE))


def creation_post(**fields) -> dict:
    """The seed's Aoife: a doctor with Inteligencja 8 and Medycyna 6."""
    data = {
        "name": "Aoife",
        "attributes-0-name": "Inteligencja",
        "attributes-0-value": "8",
        "skills-0-name": "Medycyna",
        "skills-0-value": "6",
        "specialisations-0-name": "Choroby",
        "specialisations-0-skill": "medycyna",
        "advantages-0-name": "Lekarka: diagnoza chorób",
        "advantages-0-category": "personal",
        "advantages-0-modifier": "2",
        "advantages-1-name": "",
        "advantages-1-category": "personal",
        "advantages-1-modifier": "",
    }
    data.update({name.replace("__", "-"): value for name, value in fields.items()})
    return data


@pytest.mark.django_db
def test_a_player_creates_the_seeds_aoife_and_sees_her_sheet(twod6, player):
    client = client_for(player)
    response = client.post(url("character_create", campaign=twod6), creation_post())
    character = Character.objects.get(campaign=twod6)
    page = client.get(response["Location"]).content.decode()
    assert character.data["specialisations"] == [{"name": "Choroby", "skill": "Medycyna"}]
    assert {"skill": "Medycyna", "value": 6} in rolls(page)
    assert {"specialisation": "Choroby", "skill": "Medycyna"} in rolls(page)
    assert "max 7 SP" in page


@pytest.mark.django_db
def test_a_forged_category_is_shown_at_its_field_with_the_rest_kept(twod6, player):
    response = client_for(player).post(
        url("character_create", campaign=twod6), creation_post(advantages__0__category="psionic")
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert not Character.objects.filter(campaign=twod6).exists()
    assert "Choose one of the listed options." in errors_of(page, "advantages-0-category")
    assert field_value(page, "advantages-0-name") == "Lekarka: diagnoza chorób"


@pytest.mark.django_db
def test_the_running_totals_show_a_held_category(twod6, player):
    response = client_for(player).post(
        url("character_totals", campaign=twod6),
        creation_post(
            advantages__0__modifier="4",
            advantages__1__name="Stetoskop",
            advantages__1__modifier="3",
        ),
    )
    page = response.content.decode()
    assert "Osobiste (personal)" in page
    assert "the entries add up to +7" in page


@pytest.mark.django_db
def test_removing_a_skill_with_a_specialisation_is_refused_in_the_same_box(aoife, player):
    response = client_for(player).post(
        url("character_section", character=aoife, section="skills"),
        {
            "skills-0-name": "Skradanie",
            "skills-0-value": "8",
            "skills-0-remove": "1",
            "skills-1-name": "Strzelanie",
            "skills-1-value": "5",
            "specialisations-0-name": "W ruinach",
            "specialisations-0-skill": "Skradanie",
        },
        **HX,
    )
    aoife.refresh_from_db()
    assert "There is no skill “Skradanie”" in errors_of(
        response.content.decode(), "specialisations-0-skill"
    )
    assert aoife.data["skills"] == AOIFE["skills"]


@pytest.mark.django_db
def test_the_gm_reads_the_sheet_with_roll_targets(aoife, gm):
    page = client_for(gm).get(url("character_detail", character=aoife)).content.decode()
    assert {"attribute": "Zręczność", "value": 7} in rolls(page)
