"""The FastTest sheet: creation rules, running totals, locked values, wounds, magic, development."""

from __future__ import annotations

import html
import json
import re

import pytest

from sheets.models import Character
from tests.web.sheet_helpers import JAGA, client_for, sheet, url

pytestmark = pytest.mark.django_db
pytest_plugins = ["tests.web.sheet_fixtures"]

HX = {"HTTP_HX_REQUEST": "true"}


def creation_post(
    name="Wiedźma Jaga",
    attrs=(3, 4, 6, 7),
    skills=(-2, 0, 1, 2, 0, -1),
    traits=(("czarodziejka", 2, True), ("magia ognia", 1, True)),
    flaw="",
    armor=1,
) -> dict:
    post = {"name": name, "flaw": flaw, "armor": str(armor)}
    for key, value in zip(("BUDOWA", "ZRĘCZNOŚĆ", "UMYSŁ", "DUCH"), attrs, strict=True):
        post[f"attr_{key}"] = str(value)
    for index, value in enumerate(skills):
        post[f"skill_{index}"] = str(value)
    for index, (trait, level, magic) in enumerate(traits):
        post[f"trait_{index}_name"] = trait
        post[f"trait_{index}_level"] = str(level)
        if magic:
            post[f"trait_{index}_magic"] = "on"
    post["trait_9_name"] = ""  # a blank row of the form
    post["trait_9_level"] = ""
    return post


def create(client, campaign, **changes):
    return client.post(url("character_create", campaign=campaign), creation_post(**changes))


def field_value(page: str, name: str) -> str:
    match = re.search(rf'name="{re.escape(name)}"[^>]*value="([^"]*)"', page)
    assert match, f"no input named {name}"
    return html.unescape(match.group(1))


def errors_of(page: str, field: str) -> str:
    match = re.search(rf'id="{re.escape(field)}-error">(.*?)</div>', page, re.S)
    assert match, f"no errors shown for {field}"
    return html.unescape(match.group(1))


# Creation -------------------------------------------------------------------------------------


def test_a_player_creates_a_character_that_follows_every_rule(fasttest, player):
    response = create(client_for(player), fasttest)
    character = Character.objects.get(campaign=fasttest)
    assert response.status_code == 302
    assert character.owner == player
    assert character.data["attributes"] == JAGA["attributes"]
    assert character.data["traits"][0] == {"name": "czarodziejka", "level": 2, "magic": True}


def test_creation_sets_the_starting_magic_die_from_duch_and_magic_traits(fasttest, player):
    create(client_for(player), fasttest)
    assert Character.objects.get(campaign=fasttest).data["magic_die"] == 10


def test_without_the_magic_setting_a_new_character_has_no_magic_die(make_campaign, player):
    campaign = make_campaign("fasttest", {"magic": False})
    create(client_for(player), campaign)
    assert Character.objects.get(campaign=campaign).data["magic_die"] is None


def test_a_flaw_buys_a_fourth_trait_point(fasttest, player):
    traits = (("rycerz", 2, False), ("szermierka", 2, False))
    response = create(client_for(player), fasttest, traits=traits, flaw="porywczy")
    assert response.status_code == 302
    assert Character.objects.get(campaign=fasttest).data["flaw"] == "porywczy"


def _refused(client, campaign, field: str, message: str, kept: dict, **changes) -> None:
    response = create(client, campaign, **changes)
    page = response.content.decode()
    assert response.status_code == 200
    assert not Character.objects.filter(campaign=campaign).exists()
    assert message in errors_of(page, field)
    for name, value in kept.items():
        assert field_value(page, name) == value


def test_an_attribute_above_7_is_refused_at_its_field_and_kept(fasttest, player):
    _refused(
        client_for(player), fasttest, "attr_DUCH", "DUCH must be between 3 and 7.",
        {"attr_DUCH": "8", "attr_BUDOWA": "2", "name": "Wiedźma Jaga"},
        attrs=(2, 4, 6, 8),
    )  # fmt: skip


def test_an_attribute_below_3_is_refused_at_its_field(fasttest, player):
    _refused(
        client_for(player), fasttest, "attr_BUDOWA", "BUDOWA must be between 3 and 7.",
        {"attr_BUDOWA": "2", "attr_DUCH": "7"},
        attrs=(2, 5, 6, 7),
    )  # fmt: skip


def test_attributes_that_do_not_sum_to_20_are_refused_with_their_sum(fasttest, player):
    _refused(
        client_for(player), fasttest, "attributes",
        "The attributes must sum to exactly 20; they sum to 19.",
        {"attr_BUDOWA": "3", "attr_DUCH": "6"},
        attrs=(3, 4, 6, 6),
    )  # fmt: skip


def test_an_attribute_that_is_not_a_number_is_refused_and_kept_as_typed(fasttest, player):
    _refused(
        client_for(player), fasttest, "attr_UMYSŁ", "UMYSŁ: enter a whole number.",
        {"attr_UMYSŁ": "six"},
        attrs=(3, 4, "six", 7),
    )  # fmt: skip


def test_a_skill_above_plus_2_is_refused_at_its_field(fasttest, player):
    _refused(
        client_for(player), fasttest, "skill_3", "TECHNIKA must be between -2 and 2.",
        {"skill_3": "3", "skill_0": "-2"},
        skills=(-2, 0, 1, 3, -1, -1),
    )  # fmt: skip


def test_skills_that_do_not_sum_to_0_are_refused_with_their_sum(fasttest, player):
    _refused(
        client_for(player), fasttest, "skills",
        "The skills must sum to exactly 0; they sum to +1.",
        {"skill_5": "0"},
        skills=(-2, 0, 1, 2, 0, 0),
    )  # fmt: skip


def test_a_trait_of_3_levels_is_refused_at_creation(fasttest, player):
    _refused(
        client_for(player), fasttest, "trait_0_level",
        "“czarodziejka” has 3 levels; at creation a trait has at most 2.",
        {"trait_0_name": "czarodziejka", "trait_0_level": "3"},
        traits=(("czarodziejka", 3, True),),
    )  # fmt: skip


def test_spending_fewer_than_3_trait_points_is_refused(fasttest, player):
    _refused(
        client_for(player), fasttest, "traits",
        "Spend exactly 3 trait points; you spent 2.",
        {"trait_0_name": "czarodziejka", "trait_0_level": "2"},
        traits=(("czarodziejka", 2, True),),
    )  # fmt: skip


def test_spending_more_than_3_trait_points_without_a_flaw_is_refused(fasttest, player):
    _refused(
        client_for(player), fasttest, "traits",
        "Spend exactly 3 trait points; you spent 4.",
        {"trait_1_name": "szermierka", "trait_1_level": "2"},
        traits=(("rycerz", 2, False), ("szermierka", 2, False)),
    )  # fmt: skip


def test_with_a_flaw_exactly_4_points_must_be_spent(fasttest, player):
    _refused(
        client_for(player), fasttest, "traits",
        "With a flaw, spend exactly 4 trait points; you spent 3.",
        {"flaw": "chciwy", "trait_1_name": "magia ognia"},
        flaw="chciwy",
    )  # fmt: skip


def test_a_sheet_without_traits_asks_for_the_concept(fasttest, player):
    _refused(
        client_for(player), fasttest, "traits",
        "Write at least the first trait: your concept or profession.",
        {"attr_DUCH": "7", "skill_3": "2"},
        traits=(),
    )  # fmt: skip


def test_a_trait_level_without_a_name_is_refused_at_the_name(fasttest, player):
    _refused(
        client_for(player), fasttest, "trait_1_name", "Give the trait a name.",
        {"trait_1_level": "1", "trait_0_name": "czarodziejka"},
        traits=(("czarodziejka", 2, True), ("", 1, False)),
    )  # fmt: skip


def test_the_same_trait_twice_is_refused(fasttest, player):
    _refused(
        client_for(player), fasttest, "trait_1_name", "“Rycerz” is already a trait.",
        {"trait_1_name": "Rycerz"},
        traits=(("rycerz", 2, False), ("Rycerz", 1, False)),
    )  # fmt: skip


def test_a_flaw_named_like_a_trait_is_refused(fasttest, player):
    _refused(
        client_for(player), fasttest, "flaw", "The flaw cannot also be a trait.",
        {"flaw": "rycerz"},
        traits=(("rycerz", 2, False), ("szermierka", 2, False)), flaw="rycerz",
    )  # fmt: skip


def test_a_character_without_a_name_is_refused(fasttest, player):
    _refused(
        client_for(player), fasttest, "name", "Give the character a name.",
        {"attr_BUDOWA": "3", "trait_0_name": "czarodziejka"},
        name="   ",
    )  # fmt: skip


def test_the_magic_mark_is_kept_when_the_sheet_is_refused(fasttest, player):
    page = create(client_for(player), fasttest, attrs=(3, 4, 6, 6)).content.decode()
    assert re.search(r'name="trait_0_magic"[^>]*checked', page)


def _imported_traits(campaign, traits) -> tuple[list, dict]:
    from sheets.systems import fasttest as sheet_module

    clean, errors = sheet_module.validate({**JAGA, "traits": traits}, campaign, creating=False)
    return clean.get("traits", []), errors


def test_an_imported_trait_without_its_magic_mark_is_not_magic(fasttest):
    traits, errors = _imported_traits(fasttest, [{"name": "Rycerz", "level": 2}])
    assert errors == {}
    assert traits == [{"name": "Rycerz", "level": 2, "magic": False}]


def test_an_imported_magic_mark_that_is_not_true_or_false_is_refused_beside_the_name(fasttest):
    _traits, errors = _imported_traits(fasttest, [{"name": "Rycerz", "level": 2, "magic": "yes"}])
    assert errors == {"trait_0_name": ["The magic mark must be true or false."]}


def test_an_imported_trait_that_is_no_object_is_refused_at_its_name(fasttest):
    _traits, errors = _imported_traits(fasttest, [{"name": "Rycerz", "level": 2}, "Mag"])
    assert errors == {"trait_1_name": ["Each trait needs a name and a level."]}


def test_an_imported_trait_without_a_name_names_its_level_plainly(fasttest):
    _traits, errors = _imported_traits(fasttest, [{"level": 11}])
    assert errors == {
        "trait_0_name": ["Give the trait a name."],
        "trait_0_level": ["Trait level must be between 1 and 10."],
    }


def test_the_creation_form_uses_the_campaigns_skill_names(make_campaign, player):
    skills = ["WALKA", "SPRAWNOŚĆ", "KULTURA", "MAGIA", "PRZYRODA", "EKWIPUNEK"]
    campaign = make_campaign("fasttest", {"skills": skills, "magic": True})
    page = client_for(player).get(url("character_create", campaign=campaign)).content.decode()
    create(client_for(player), campaign)
    assert '<label for="id_skill_3">MAGIA</label>' in page
    assert "MAGIA" in Character.objects.get(campaign=campaign).data["skills"]


def test_more_rows_shows_the_form_again_with_nothing_saved(fasttest, player):
    post = creation_post() | {"_more": "1"}
    page = client_for(player).post(url("character_create", campaign=fasttest), post)
    assert not Character.objects.exists()
    assert field_value(page.content.decode(), "trait_3_name") == ""


# Running totals -------------------------------------------------------------------------------


def totals_page(client, campaign, **changes) -> str:
    response = client.post(
        url("character_totals", campaign=campaign), creation_post(**changes), **HX
    )
    assert response.status_code == 200
    return re.sub(r"\s+", " ", html.unescape(response.content.decode()))


def test_totals_show_the_attribute_sum_against_20(fasttest, player):
    page = totals_page(client_for(player), fasttest, attrs=(3, 4, 6, 6))
    assert 'Attributes</span> <span class="total-value">19 / 20' in page


def test_totals_show_the_skill_sum_with_its_sign(fasttest, player):
    page = totals_page(client_for(player), fasttest, skills=(-2, 0, 1, 2, 0, 0))
    assert 'Skills</span> <span class="total-value">+1 / 0' in page


def test_totals_show_trait_points_and_a_flaw_raises_the_target(fasttest, player):
    plain = totals_page(client_for(player), fasttest)
    with_flaw = totals_page(client_for(player), fasttest, flaw="chciwy")
    assert 'Trait points</span> <span class="total-value">3 / 3' in plain
    assert 'Trait points</span> <span class="total-value">3 / 4' in with_flaw


def test_totals_survive_garbage_input(fasttest, player):
    page = totals_page(client_for(player), fasttest, attrs=("x", "", "9999999999999", "-"))
    assert "Attributes" in page


def test_the_creation_form_posts_to_the_totals_as_the_player_types(fasttest, player):
    page = client_for(player).get(url("character_create", campaign=fasttest)).content.decode()
    assert f'hx-post="{url("character_totals", campaign=fasttest)}"' in page
    # Each keystroke's request replaces the one in flight, so the last answer is the one shown;
    # the fields as they are when htmx arrives are sent too (typed on a slow phone before it).
    assert 'hx-trigger="input changed, load" hx-sync="this:replace"' in page


# After creation: what is locked ----------------------------------------------------------------


def section_post(client, character, section, data, **extra):
    return client.post(url("character_section", character, section=section), data, **extra)


def attrs_post(values=(3, 4, 6, 7)) -> dict:
    keys = ("BUDOWA", "ZRĘCZNOŚĆ", "UMYSŁ", "DUCH")
    return {f"attr_{key}": str(value) for key, value in zip(keys, values, strict=True)}


def test_the_owner_cannot_change_attributes_after_creation(jaga, player):
    response = section_post(client_for(player), jaga, "attributes", attrs_post((7, 4, 6, 7)))
    jaga.refresh_from_db()
    assert response.status_code == 404
    assert jaga.data["attributes"]["BUDOWA"] == 3


def test_the_owner_cannot_change_skills_traits_or_xp(jaga, player):
    client = client_for(player)
    for section in ("skills", "traits", "experience"):
        assert section_post(client, jaga, section, {"xp": "99"}).status_code == 404
    jaga.refresh_from_db()
    assert jaga.data == JAGA


def test_the_gm_may_raise_an_attribute_beyond_the_creation_range(jaga, gm):
    response = section_post(client_for(gm), jaga, "attributes", attrs_post((8, 4, 6, 7)), **HX)
    jaga.refresh_from_db()
    assert response.status_code == 200
    assert jaga.data["attributes"]["BUDOWA"] == 8


def test_the_gm_cannot_push_an_attribute_past_10(jaga, gm):
    response = section_post(client_for(gm), jaga, "attributes", attrs_post((11, 4, 6, 7)), **HX)
    jaga.refresh_from_db()
    assert "BUDOWA must be between 1 and 10." in errors_of(response.content.decode(), "attr_BUDOWA")
    assert field_value(response.content.decode(), "attr_BUDOWA") == "11"
    assert jaga.data["attributes"]["BUDOWA"] == 3


def test_the_gm_edits_traits_and_the_three_point_rule_no_longer_applies(jaga, gm):
    post = {"trait_0_name": "czarodziejka", "trait_0_level": "4", "trait_0_magic": "on"}
    section_post(client_for(gm), jaga, "traits", post, **HX)
    jaga.refresh_from_db()
    assert jaga.data["traits"] == [{"name": "czarodziejka", "level": 4, "magic": True}]


def test_the_owner_sets_armor_within_0_to_10(jaga, player):
    client = client_for(player)
    section_post(client, jaga, "armor", {"armor": "3"}, **HX)
    refused = section_post(client, jaga, "armor", {"armor": "11"}, **HX).content.decode()
    jaga.refresh_from_db()
    assert jaga.data["armor"] == 3
    assert "Armor must be between 0 and 10." in errors_of(refused, "armor")


def test_the_owner_lowers_the_current_magic_die(jaga, player):
    section_post(client_for(player), jaga, "magic", {"magic_die": "6"}, **HX)
    jaga.refresh_from_db()
    assert jaga.data["magic_die"] == 6


def test_a_magic_die_that_does_not_exist_is_refused(jaga, player):
    page = section_post(client_for(player), jaga, "magic", {"magic_die": "7"}, **HX)
    jaga.refresh_from_db()
    assert "The magic die is none, d4, d6, d8, d10 or d12." in page.content.decode()
    assert jaga.data["magic_die"] == 10


def test_without_the_magic_setting_the_sheet_has_no_magic_box(make_campaign, player):
    campaign = make_campaign("fasttest", {"magic": False})
    character = Character.objects.create(
        campaign=campaign, owner=player, name="Zbyszko", data=sheet(JAGA, magic_die=None)
    )
    client = client_for(player)
    page = client.get(url("character_detail", character)).content.decode()
    assert 'id="section-magic"' not in page
    assert section_post(client, character, "magic", {"magic_die": "6"}).status_code == 404


def test_experience_dice_show_only_when_the_campaign_uses_them(make_campaign, player):
    campaign = make_campaign("fasttest", {"experience_dice": False})
    character = Character.objects.create(
        campaign=campaign, owner=player, name="Zbyszko", data=sheet(JAGA)
    )
    page = client_for(player).get(url("character_detail", character)).content.decode()
    assert "Experience dice" not in page


# Wounds ----------------------------------------------------------------------------------------


def add_wound(client, character, label="sword cut", severity="light"):
    return client.post(
        url("character_wound_add", character),
        {"wound_label": label, "wound_severity": severity},
        **HX,
    )


def test_the_owner_adds_a_wound_with_label_and_severity(jaga, player):
    response = add_wound(client_for(player), jaga)
    jaga.refresh_from_db()
    assert jaga.data["wounds"] == [{"label": "sword cut", "severity": "light", "bandaged": False}]
    assert "Lekka (light)" in response.content.decode()


def test_the_gm_adds_a_wound_to_a_players_character(jaga, gm):
    add_wound(client_for(gm), jaga, severity="deadly")
    jaga.refresh_from_db()
    assert jaga.data["wounds"][0]["severity"] == "deadly"


def test_an_unknown_severity_is_refused_and_the_label_kept(jaga, player):
    page = add_wound(client_for(player), jaga, severity="mortal").content.decode()
    jaga.refresh_from_db()
    assert jaga.data["wounds"] == []
    assert "Choose how severe the wound is." in errors_of(page, "wound_severity")
    assert field_value(page, "wound_label") == "sword cut"


def test_a_wound_is_bandaged_and_unbandaged(jaga, player):
    client = client_for(player)
    add_wound(client, jaga)
    change = url("character_wound_change", jaga, index=0)
    client.post(change, {"change": "bandage"}, **HX)
    jaga.refresh_from_db()
    bandaged = jaga.data["wounds"][0]["bandaged"]
    client.post(change, {"change": "unbandage"}, **HX)
    jaga.refresh_from_db()
    assert bandaged is True
    assert jaga.data["wounds"][0]["bandaged"] is False


def test_a_wound_is_removed(jaga, player):
    client = client_for(player)
    add_wound(client, jaga, label="first")
    add_wound(client, jaga, label="second")
    client.post(url("character_wound_change", jaga, index=0), {"change": "remove"}, **HX)
    jaga.refresh_from_db()
    assert [wound["label"] for wound in jaga.data["wounds"]] == ["second"]


def test_changing_a_wound_that_is_not_there_is_a_message_not_an_error(jaga, player):
    response = client_for(player).post(
        url("character_wound_change", jaga, index=5), {"change": "remove"}, **HX
    )
    assert response.status_code == 200
    assert "That wound is no longer on the sheet." in response.content.decode()


def test_an_unknown_change_to_a_wound_is_a_bad_request(jaga, player):
    add_wound(client_for(player), jaga)
    response = client_for(player).post(
        url("character_wound_change", jaga, index=0), {"change": "heal-all"}
    )
    assert response.status_code == 400


def test_wounds_count_as_penalty_dice_on_the_sheet(jaga, player):
    jaga.data["wounds"] = [
        {"label": "a", "severity": "light", "bandaged": True},
        {"label": "b", "severity": "heavy", "bandaged": False},
    ]
    jaga.save()
    page = client_for(player).get(url("character_detail", jaga)).content.decode()
    assert "Penalty dice from wounds: 2 on BUDOWA and ZRĘCZNOŚĆ, 1 on UMYSŁ and DUCH" in page


def test_wounds_without_javascript_redirect_back_to_the_wound_box(jaga, player):
    response = client_for(player).post(
        url("character_wound_add", jaga), {"wound_label": "", "wound_severity": "scratch"}
    )
    assert response.status_code == 302
    assert response["Location"].endswith("#section-wounds")


# Development -----------------------------------------------------------------------------------


def develop(client, character, **post):
    return client.post(url("character_develop", character), post, **HX)


def test_raising_a_trait_costs_the_current_sum_of_trait_levels(jaga, player):
    jaga.data["xp"] = 10
    jaga.save()
    develop(client_for(player), jaga, trait="1")
    jaga.refresh_from_db()
    assert jaga.data["xp"] == 7
    assert jaga.data["traits"][1]["level"] == 2


def test_a_new_trait_starts_at_level_1_and_costs_the_same(jaga, player):
    jaga.data["xp"] = 3
    jaga.save()
    develop(client_for(player), jaga, trait="new", new_name="latanie na miotle", new_magic="on")
    jaga.refresh_from_db()
    assert jaga.data["xp"] == 0
    assert jaga.data["traits"][-1] == {"name": "latanie na miotle", "level": 1, "magic": True}


def test_development_is_refused_when_xp_falls_short(jaga, player):
    jaga.data["xp"] = 2
    jaga.save()
    page = develop(client_for(player), jaga, trait="0").content.decode()
    jaga.refresh_from_db()
    assert "The next development costs 3 XP; this character has 2." in page
    assert jaga.data["traits"][0]["level"] == 2


def test_a_new_trait_needs_a_name(jaga, player):
    jaga.data["xp"] = 5
    jaga.save()
    page = develop(client_for(player), jaga, trait="new", new_name=" ").content.decode()
    jaga.refresh_from_db()
    assert "Name the new trait." in page
    assert jaga.data["xp"] == 5


def test_a_new_trait_cannot_repeat_an_existing_one_and_its_name_is_kept(jaga, player):
    jaga.data["xp"] = 5
    jaga.save()
    page = develop(client_for(player), jaga, trait="new", new_name="Magia ognia").content.decode()
    jaga.refresh_from_db()
    assert "“Magia ognia” is already a trait." in page
    assert field_value(page, "new_name") == "Magia ognia"
    assert jaga.data["xp"] == 5


def test_a_forged_trait_index_is_refused(jaga, player):
    jaga.data["xp"] = 5
    jaga.save()
    page = develop(client_for(player), jaga, trait="99").content.decode()
    assert "Choose a trait to raise, or a new trait." in page


def test_the_next_development_cost_is_on_the_sheet(jaga, player):
    page = client_for(player).get(url("character_detail", jaga)).content.decode()
    assert "Develop for 3 XP" in page


# Roll targets ----------------------------------------------------------------------------------


def roll_targets(page: str) -> list[dict]:
    found = re.findall(r'<button type="button" class="roll-target[^"]*" data-roll="([^"]*)"', page)
    return [json.loads(html.unescape(value)) for value in found]


def test_attributes_skills_traits_and_the_magic_die_are_roll_targets_for_the_owner(jaga, player):
    targets = roll_targets(client_for(player).get(url("character_detail", jaga)).content.decode())
    assert {"attribute": "BUDOWA"} in targets
    assert {"skill": "WALKA"} in targets
    assert {"trait": "czarodziejka"} in targets
    assert {"magic_die": 10} in targets


def test_a_roll_target_has_an_accessible_name_and_shows_no_result(jaga, player):
    page = client_for(player).get(url("character_detail", jaga)).content.decode()
    button = re.search(
        r'<button type="button" class="roll-target stat-card".*?</button>', page, re.S
    )
    text = re.sub(r"<[^>]+>|\s+", " ", button.group(0)).split()
    assert text == ["BUDOWA", "3"]
