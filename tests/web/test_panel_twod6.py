"""The 2d6 test panel on a sheet: categories, clamps, cap, automatic flags and exact odds."""

import uuid

import pytest

from campaigns.sessions import start_session
from config.text import MESSAGE as UNSAFE_TEXT
from rolls import actions
from rolls.models import Roll
from rolls.systems.twod6 import panel as panel_module
from sheets.models import Character
from tests.web.live import panel_url
from tests.web.words_helpers import in_words

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.table("2d6", name="Pustkowia", characters=(), session=False),
]

NO_MODIFIERS = {"circumstance": [], "personal": [], "equipment": [], "supernatural": []}


def sheet(attributes, skills, specialisations=(), advantages=()):
    return {
        "attributes": [{"name": n, "value": v} for n, v in attributes.items()],
        "skills": [{"name": n, "value": v} for n, v in skills.items()],
        "specialisations": [{"name": n, "skill": s} for n, s in specialisations],
        "advantages": [{"name": n, "category": c, "modifier": m} for n, c, m in advantages],
    }


# The characters of RULES.md's worked examples (seed 004).
SIODEMKA = sheet({"Percepcja": 7}, {"Biurokracja": 4})
NOMAD = sheet(
    {"Percepcja": 8, "Zręczność": 7},
    {"Przetrwanie": 5, "Skradanie": 5},
    advantages=[("Lornetka", "equipment", 2), ("Ubranie maskujące", "equipment", 2)],
)
MCKINLEY = sheet(
    {"Charyzma": 8},
    {"Perswazja": 6},
    advantages=[("Mówca", "personal", 2), ("Zmęczony", "personal", -1)],
)
AOIFE = sheet(
    {"Inteligencja": 8, "Zręczność": 6},
    {"Medycyna": 6, "Skradanie": 3},
    specialisations=[("Choroby", "Medycyna"), ("Rany", "Medycyna"), ("W ruinach", "Skradanie")],
    advantages=[("Lekarka", "personal", 2), ("Medium", "supernatural", 1)],
)


@pytest.fixture
def make_hero(table, player):
    def make(data, name="Bohater"):
        return Character.objects.create(campaign=table.campaign, owner=player, name=name, data=data)

    return make


@pytest.fixture
def nomad(make_hero):
    return make_hero(NOMAD, "Nomad")


@pytest.fixture
def aoife(make_hero):
    return make_hero(AOIFE, "Aoife")


def open_panel(client, hero, **choices):
    response = client.post(panel_url(hero), choices)
    assert response.status_code == 200
    return response


def built(client, hero, **choices):
    return open_panel(client, hero, **choices).context["panel"]


def roll_with_faces(panel, hero, user, faces):
    """Roll the panel as built, on the given faces (a resolver instead of the random source)."""
    session = start_session(hero.campaign)
    roll, _created = actions.roll_from_panel(
        session=session,
        actor=user,
        character=hero,
        panel=panel,
        key=uuid.uuid4(),
        visibility="public",
        resolver=lambda module, params, rng: module.resolve(params, faces),
    )
    return roll.result["answer"]


# Opening the panel -----------------------------------------------------------------------------


def test_a_click_on_an_attribute_opens_the_panel_with_exact_odds(client, nomad, player):
    client.force_login(player)
    response = client.get(panel_url(nomad), {"attribute": "Percepcja"})
    html = response.content.decode()
    assert 'value="Percepcja" checked' in html
    assert "Exact odds" in html
    assert response.context["panel"].ready


def test_without_a_skill_the_attribute_is_tested_alone_with_one_success_point_at_most(
    client, nomad, player
):
    client.force_login(player)
    panel = built(client, nomad, attribute="Percepcja")
    assert panel.params["skill"] == 0
    assert panel.context["cap"] == 1
    assert in_words(panel.label) == "Percepcja 8 vs 15"


def test_a_click_on_a_specialisation_ticks_it_and_raises_the_cap_by_one(client, aoife, player):
    client.force_login(player)
    response = client.get(
        panel_url(aoife),
        {"attribute": "Inteligencja", "skill": "Medycyna", "specialisation": "Choroby"},
    )
    panel = response.context["panel"]
    assert 'value="Choroby" checked' in response.content.decode()
    assert panel.params["cap_bonus"] == 1
    assert panel.context["cap"] == 6 + 1 + 1
    assert {"kind": "cap", "amount": 1, "source": "specialisation Choroby"} in in_words(
        panel.sources
    )


def test_only_the_chosen_skills_specialisations_are_offered(client, aoife, player):
    client.force_login(player)
    html = open_panel(client, aoife, attribute="Zręczność", skill="Skradanie").content.decode()
    assert 'value="W ruinach"' in html
    assert 'value="Choroby"' not in html


def test_a_specialisation_of_another_skill_is_ignored(client, aoife, player):
    client.force_login(player)
    panel = built(client, aoife, attribute="Zręczność", skill="Skradanie", specialisation="Choroby")
    assert panel.params["cap_bonus"] == 0
    assert panel.context["chosen_specialisation"] == ""


def test_a_sheet_without_attributes_says_to_add_them_first(client, make_hero, player):
    client.force_login(player)
    hero = make_hero(sheet({}, {"Medycyna": 6}))
    response = open_panel(client, hero, skill="Medycyna")
    assert not response.context["panel"].ready
    assert "This sheet has no attributes yet" in response.content.decode()


# Modifiers by category ---------------------------------------------------------------------------


def test_a_ticked_advantage_goes_into_its_own_category(client, aoife, player):
    client.force_login(player)
    panel = built(
        client, aoife, attribute="Inteligencja", skill="Medycyna", advantage=["Lekarka", "Medium"]
    )
    assert panel.params["modifiers"] == NO_MODIFIERS | {"personal": [2], "supernatural": [1]}
    assert {"kind": "personal", "amount": 2, "source": "Lekarka +2"} in in_words(panel.sources)


def test_an_unticked_advantage_counts_nothing(client, nomad, player):
    client.force_login(player)
    panel = built(client, nomad, attribute="Percepcja", skill="Przetrwanie")
    assert panel.params["modifiers"] == NO_MODIFIERS
    assert panel.sources == []


def test_a_typed_modifier_counts_in_its_category_with_its_source(client, nomad, player):
    client.force_login(player)
    panel = built(
        client,
        nomad,
        attribute="Percepcja",
        **{"mod-supernatural-0-value": "-3", "mod-supernatural-0-source": "PSI: mgła"},
    )
    assert panel.params["modifiers"]["supernatural"] == [-3]
    assert in_words(panel.sources) == [
        {"kind": "supernatural", "amount": -3, "source": "PSI: mgła −3"}
    ]


def test_a_typed_modifier_without_a_source_is_logged_as_other(client, nomad, player):
    client.force_login(player)
    panel = built(client, nomad, attribute="Percepcja", **{"mod-personal-0-value": "1"})
    assert in_words(panel.sources) == [{"kind": "personal", "amount": 1, "source": "other +1"}]


def test_a_typographic_minus_is_read_as_a_minus(client, nomad, player):
    client.force_login(player)
    panel = built(client, nomad, attribute="Percepcja", **{"mod-equipment-0-value": "\u22122"})
    assert panel.params["modifiers"]["equipment"] == [-2]


def test_a_source_without_a_number_yet_counts_nothing_and_asks_nothing(client, nomad, player):
    client.force_login(player)
    panel = built(client, nomad, attribute="Percepcja", **{"mod-personal-0-source": "głodny"})
    assert panel.ready
    assert panel.params["modifiers"]["personal"] == []


def test_each_category_offers_one_more_blank_row_after_the_typed_ones(client, nomad, player):
    client.force_login(player)
    html = open_panel(
        client, nomad, attribute="Percepcja", **{"mod-personal-0-value": "1"}
    ).content.decode()
    assert 'name="mod-personal-1-value"' in html
    assert 'name="mod-personal-2-value"' not in html
    assert 'name="mod-equipment-0-value"' in html
    assert 'name="mod-equipment-1-value"' not in html


def test_a_category_adding_up_past_five_is_held_at_five_and_says_so(client, nomad, player):
    client.force_login(player)
    response = open_panel(
        client,
        nomad,
        attribute="Percepcja",
        advantage=["Lornetka", "Ubranie maskujące"],
        **{"mod-equipment-0-value": "3", "mod-equipment-0-source": "luneta"},
    )
    panel = response.context["panel"]
    assert panel.params["modifiers"]["equipment"] == [2, 2, 3]
    assert panel.context["modifier"] == 5
    assert "Adds up to +7, held at <b>+5</b>" in response.content.decode()
    assert in_words(panel.sources)[0] == {
        "kind": "equipment",
        "amount": 5,
        "source": "Lornetka +2, Ubranie maskujące +2, luneta +3 (adds up to +7, held at +5)",
    }


def test_each_category_is_clamped_on_its_own(client, nomad, player):
    client.force_login(player)
    panel = built(
        client,
        nomad,
        attribute="Percepcja",
        **{
            "mod-circumstance-0-value": "5",
            "mod-circumstance-1-value": "4",
            "mod-personal-0-value": "-5",
            "mod-personal-1-value": "-5",
        },
    )
    sums = {c["key"]: c["sum"]["clamped"] for c in panel.context["categories"]}
    assert sums == {"circumstance": 5, "personal": -5, "equipment": 0, "supernatural": 0}
    assert panel.context["base"] == 8


def test_helpers_add_one_circumstance_each_inside_its_clamp(client, nomad, player):
    client.force_login(player)
    panel = built(
        client, nomad, attribute="Percepcja", helpers="3", **{"mod-circumstance-0-value": "4"}
    )
    assert panel.params["helpers"] == 3
    circumstance = panel.context["categories"][0]["sum"]
    assert (circumstance["raw"], circumstance["clamped"]) == (7, 5)
    assert (
        in_words(panel.sources)[0]["source"] == "other +4, 3 helpers +3 (adds up to +7, held at +5)"
    )


def test_one_helper_is_logged_in_the_singular(client, nomad, player):
    client.force_login(player)
    panel = built(client, nomad, attribute="Percepcja", helpers="1")
    assert in_words(panel.sources) == [
        {"kind": "circumstance", "amount": 1, "source": "1 helper +1"}
    ]


@pytest.mark.parametrize("typed", ["5", "-1", "kilku"])
def test_helpers_outside_zero_to_four_are_refused_at_the_field(client, nomad, player, typed):
    client.force_login(player)
    response = open_panel(client, nomad, attribute="Percepcja", helpers=typed)
    assert not response.context["panel"].ready
    html = response.content.decode()
    assert "Helpers: Enter a whole number from 0 to 4." in html
    assert f'value="{typed}" aria-invalid="true"' in html


@pytest.mark.parametrize("typed", ["6", "-9", "dużo", "1.5"])
def test_a_typed_modifier_outside_five_is_refused_and_kept_as_typed(client, nomad, player, typed):
    client.force_login(player)
    response = open_panel(
        client,
        nomad,
        attribute="Percepcja",
        **{"mod-equipment-1-value": typed, "mod-equipment-1-source": "luneta"},
    )
    panel = response.context["panel"]
    assert panel.errors["mod-equipment-1-value"] == [
        "Sprzętowe (equipment), modifier 2: Enter a whole number from −5 to +5."
    ]
    html = response.content.decode()
    assert f'value="{typed}" placeholder="±0" aria-invalid="true"' in html
    assert 'value="luneta"' in html


def test_a_long_source_is_cut_to_sixty_characters(client, nomad, player):
    client.force_login(player)
    panel = built(
        client,
        nomad,
        attribute="Percepcja",
        **{"mod-personal-0-value": "1", "mod-personal-0-source": "zły  " + "x" * 100},
    )
    text = in_words(panel.sources)[0]["source"]
    assert text == "zły " + "x" * 56 + " +1"


def test_a_source_with_control_characters_is_refused(client, nomad, player):
    client.force_login(player)
    panel = built(
        client,
        nomad,
        attribute="Percepcja",
        **{"mod-personal-0-value": "1", "mod-personal-0-source": "zły\x07"},
    )
    assert panel.errors["mod-personal-0-source"] == [str(UNSAFE_TEXT)]


# Difficulty, cap raise, automatic flags, odds ----------------------------------------------------


def test_the_difficulty_starts_at_fifteen_and_the_seeds_examples_are_offered(client, nomad, player):
    client.force_login(player)
    response = client.get(panel_url(nomad), {"attribute": "Percepcja"})
    html = response.content.decode()
    assert response.context["panel"].params["difficulty"] == 15
    assert '<option value="15"' in html
    assert '<option value="20"' in html


@pytest.mark.parametrize("typed", ["trudny", "0", "61"])
def test_a_difficulty_that_is_not_a_sensible_number_is_refused(client, nomad, player, typed):
    client.force_login(player)
    response = open_panel(client, nomad, attribute="Percepcja", difficulty=typed)
    assert not response.context["panel"].ready
    assert "The difficulty: Enter a whole number from 1 to 60." in response.content.decode()


def test_a_cap_raise_from_equipment_is_added_to_the_cap_with_its_source(client, aoife, player):
    client.force_login(player)
    panel = built(
        client,
        aoife,
        attribute="Inteligencja",
        skill="Medycyna",
        specialisation="Rany",
        cap_raise="2",
        cap_source="zestaw chirurgiczny",
    )
    assert panel.params["cap_bonus"] == 3
    assert panel.context["cap"] == 10
    assert {"kind": "cap", "amount": 2, "source": "zestaw chirurgiczny"} in panel.sources


def test_a_negative_cap_raise_is_refused(client, aoife, player):
    client.force_login(player)
    panel = built(client, aoife, attribute="Inteligencja", cap_raise="-1")
    assert panel.errors["cap_raise"] == ["The cap raise: Enter a whole number from 0 to 10."]


def test_an_automatic_success_is_flagged_before_the_roll(client, nomad, player):
    client.force_login(player)
    response = open_panel(
        client, nomad, attribute="Percepcja", skill="Przetrwanie", difficulty="12"
    )
    assert response.context["panel"].context["automatic"] == "success"
    assert "Automatic success (Automatyczny sukces)" in response.content.decode()


def test_an_automatic_failure_is_flagged_before_the_roll(client, nomad, player):
    client.force_login(player)
    response = open_panel(
        client, nomad, attribute="Percepcja", skill="Przetrwanie", difficulty="26"
    )
    panel = response.context["panel"]
    assert panel.context["automatic"] == "failure"
    assert panel.success == 0
    assert "even 12 on the dice makes only 25, short of 26" in response.content.decode()


def test_the_odds_and_the_success_points_are_exact(client, make_hero, player):
    client.force_login(player)
    hero = make_hero(SIODEMKA)
    panel = built(client, hero, attribute="Percepcja", skill="Biurokracja", difficulty="15")
    # 11 + 2d6 vs 15: 4..12 on the dice succeed; 4 -> 1 SP ... 8 or more -> the cap, 5 SP.
    assert panel.odds == [("success", 33 / 36), ("failure", 3 / 36)]
    # In 36ths of a chance: exactly that many success points, and at least that many.
    points = [
        (row["points"], round(row["exactly"] * 36), round(row["at_least"] * 36))
        for row in panel.context["points"]
    ]
    assert points == [(1, 3, 33), (2, 4, 30), (3, 5, 26), (4, 6, 21), (5, 15, 15)]


# Forged input -----------------------------------------------------------------------------------


def test_an_unknown_attribute_is_refused_with_a_message(client, nomad, player):
    client.force_login(player)
    response = open_panel(client, nomad, attribute="Siła")
    assert not response.context["panel"].ready
    assert "Choose the attribute to test." in response.content.decode()


def test_an_unknown_skill_is_refused_with_a_message(client, nomad, player):
    client.force_login(player)
    panel = built(client, nomad, attribute="Percepcja", skill="Hakowanie")
    assert panel.errors["skill"] == ["Choose one of the skills on this sheet."]


def test_forged_advantages_and_rows_beyond_the_limit_are_ignored(client, nomad, player):
    client.force_login(player)
    panel = built(
        client,
        nomad,
        attribute="Percepcja",
        advantage=["Jetpack", "0"],
        **{"mod-personal-5-value": "5", "mod-cosmic-0-value": "5"},
    )
    assert panel.params["modifiers"] == NO_MODIFIERS


def test_a_plain_dict_of_choices_with_junk_values_gives_messages_not_errors(nomad):
    choices = {"attribute": ["Percepcja"], "advantage": ["Lornetka", 3]}
    panel = panel_module.build(nomad, nomad.campaign, choices)
    assert panel.params["modifiers"]["equipment"] == [2]
    junk = panel_module.build(nomad, nomad.campaign, choices | {"helpers": [None], "skill": 7})
    assert set(junk.errors) == {"helpers", "skill"}


def test_rolling_a_panel_with_errors_rolls_nothing(client, nomad, player):
    start_session(nomad.campaign)
    client.force_login(player)
    response = client.post(
        panel_url(nomad, "test_roll"),
        {"attribute": "Percepcja", "difficulty": "x", "key": str(uuid.uuid4())},
    )
    assert response.status_code == 422
    assert not Roll.objects.exists()


# Rolling ----------------------------------------------------------------------------------------


def test_a_roll_logs_the_test_every_modifier_and_the_engines_answer(client, make_hero, player):
    hero = make_hero(MCKINLEY, "McKinley")
    start_session(hero.campaign)
    client.force_login(player)
    client.post(
        panel_url(hero, "test_roll"),
        {"attribute": "Charyzma", "skill": "Perswazja", "advantage": "Mówca", "difficulty": "20",
         "mod-circumstance-0-value": "-2", "mod-circumstance-0-source": "społeczność pragnie krwi",
         "key": str(uuid.uuid4())},
    )  # fmt: skip
    roll = Roll.objects.get()
    assert roll.label == "Charyzma 8 + Perswazja 6 vs 20"
    assert in_words(roll.sources) == [
        {"kind": "circumstance", "amount": -2, "source": "społeczność pragnie krwi −2"},
        {"kind": "personal", "amount": 2, "source": "Mówca +2"},
    ]
    answer = roll.result["answer"]
    assert answer["total"] == 14 + sum(roll.faces)
    assert answer["outcome"] == ("success" if answer["total"] >= 20 else "failure")


def test_nothing_follows_a_2d6_roll(client, nomad, player):
    start_session(nomad.campaign)
    client.force_login(player)
    response = client.post(
        panel_url(nomad, "test_roll"), {"attribute": "Percepcja", "key": str(uuid.uuid4())}
    )
    assert response.context["follow_ups"] == []
    assert not hasattr(panel_module, "follow_ups")
    assert 'class="follow-up"' not in response.content.decode()


def test_the_gm_rolls_hidden_for_a_players_character(client, nomad, gm):
    start_session(nomad.campaign)
    client.force_login(gm)
    form = {"attribute": "Percepcja", "visibility": "hidden", "key": str(uuid.uuid4())}
    assert client.post(panel_url(nomad, "test_roll"), form).status_code == 200
    roll = Roll.objects.get()
    assert (roll.actor, roll.visibility) == (gm, "hidden")


# RULES.md section 5's worked examples ----------------------------------------------------------


def test_library_4_plus_7_rolling_3_and_2_against_15_scores_2_success_points(
    client, make_hero, player
):
    client.force_login(player)
    hero = make_hero(SIODEMKA, "Siódemka")
    panel = built(client, hero, attribute="Percepcja", skill="Biurokracja", difficulty="15")
    assert panel.params == {
        "attribute": 7, "skill": 4, "modifiers": NO_MODIFIERS, "helpers": 0,
        "difficulty": 15, "cap_bonus": 0,
    }  # fmt: skip
    answer = roll_with_faces(panel, hero, player, (3, 2))
    assert (answer["total"], answer["success"], answer["success_points"]) == (16, True, 2)


def test_ambush_8_plus_5_minus_2_without_the_binoculars_rolling_3_and_3_scores_3(
    client, nomad, player
):
    client.force_login(player)
    panel = built(
        client,
        nomad,
        attribute="Percepcja",
        skill="Przetrwanie",
        difficulty="15",
        **{"mod-circumstance-0-value": "-2", "mod-circumstance-0-source": "nieznany teren"},
    )
    # The binoculars (Lornetka, equipment +2) stay unticked: they do not apply to this test.
    assert panel.params["modifiers"] == NO_MODIFIERS | {"circumstance": [-2]}
    assert panel.context["cap"] == 6
    answer = roll_with_faces(panel, nomad, player, (3, 3))
    assert (answer["total"], answer["success"], answer["success_points"]) == (17, True, 3)


def test_mayor_8_plus_6_plus_2_minus_2_rolling_1_and_2_against_20_fails_by_3(
    client, make_hero, player
):
    client.force_login(player)
    hero = make_hero(MCKINLEY, "McKinley")
    panel = built(
        client,
        hero,
        attribute="Charyzma",
        skill="Perswazja",
        advantage="Mówca",
        difficulty="20",
        **{"mod-circumstance-0-value": "-2", "mod-circumstance-0-source": "społeczność"},
    )
    assert panel.params["modifiers"] == NO_MODIFIERS | {"circumstance": [-2], "personal": [2]}
    assert panel.context["need"] == 6  # "the mayor must roll at least 6 on 2d6"
    answer = roll_with_faces(panel, hero, player, (1, 2))
    assert (answer["total"], answer["success"], answer["failure_points"]) == (17, False, 3)


def test_aoife_6_plus_8_with_minus_2_minus_2_plus_2_against_15_needs_3(client, aoife, player):
    client.force_login(player)
    panel = built(
        client,
        aoife,
        attribute="Inteligencja",
        skill="Medycyna",
        specialisation="Choroby",
        advantage="Lekarka",
        difficulty="15",
        **{"mod-equipment-0-value": "-2", "mod-equipment-0-source": "brak sprzętu",
           "mod-circumstance-0-value": "-2", "mod-circumstance-0-source": "brak pomocy"},
    )  # fmt: skip
    assert panel.context["modifier"] == -2
    assert panel.context["need"] == 3
    assert panel.success == pytest.approx(35 / 36)
