"""Each system's typed read-only view of ``Character.data`` (``get_system(key).view(data)``)."""

from __future__ import annotations

import pytest

from campaigns.systems import BaseSystem, SheetView, all_systems, get_system
from rolls.engine.fasttest_combat import Wound


@pytest.mark.parametrize("system", all_systems(), ids=lambda system: system.key)
def test_every_system_reads_its_default_sheet_through_a_view(system):
    assert isinstance(system.view({}), SheetView)


@pytest.mark.parametrize("system", all_systems(), ids=lambda system: system.key)
def test_every_view_reads_a_sheet_that_is_not_an_object_as_empty(system):
    assert system.view(["not", "a", "sheet"]).attributes in ({}, ())


def test_a_view_cannot_be_written_to():
    sheet = get_system("fasttest").view({"xp": 3})
    with pytest.raises(AttributeError):
        sheet.xp = 4


def test_changing_what_a_view_returns_leaves_the_sheet_as_it_was():
    data = {"attributes": {"BUDOWA": 7}}
    get_system("fasttest").view(data).attributes["BUDOWA"] = 1
    assert data["attributes"]["BUDOWA"] == 7


def test_a_system_without_a_view_of_its_own_reads_named_values():
    assert BaseSystem().view({"attributes": [{"name": "Luck", "value": 3}]}).attributes == (
        ("Luck", 3),
    )


# --- FastTest ---------------------------------------------------------------------------------

FASTTEST = {
    "attributes": {"BUDOWA": 7, "ZRĘCZNOŚĆ": 5, "UMYSŁ": 4, "DUCH": 4},
    "skills": {"WALKA": 2},
    "traits": [
        {"name": "Rycerz", "level": 2, "magic": False},
        {"name": "Mag", "level": 1, "magic": True},
    ],
    "flaw": "chciwy",
    "wounds": [{"label": "cut", "severity": "light", "bandaged": True}],
    "armor": 2,
    "magic_die": 8,
    "xp": 12,
    "experience_dice": 3,
}


def test_the_fasttest_view_reads_attributes_and_skills():
    sheet = get_system("fasttest").view(FASTTEST)
    assert sheet.attribute("BUDOWA") == 7
    assert sheet.skill("WALKA") == 2
    assert sheet.skill("UNKNOWN") == 0


def test_the_fasttest_view_reads_traits_and_counts_the_magic_ones():
    sheet = get_system("fasttest").view(FASTTEST)
    assert [(t.name, t.level) for t in sheet.traits] == [("Rycerz", 2), ("Mag", 1)]
    assert sheet.magic_traits == 1


def test_the_fasttest_view_reads_wounds_as_the_engine_counts_them():
    assert get_system("fasttest").view(FASTTEST).wounds == (Wound("light", True, "cut"),)


def test_the_fasttest_view_reads_the_numbers_of_the_sheet():
    sheet = get_system("fasttest").view(FASTTEST)
    assert (sheet.armor, sheet.magic_die, sheet.xp, sheet.experience_dice) == (2, 8, 12, 3)
    assert sheet.flaw == "chciwy"


def test_the_fasttest_view_reads_forged_values_as_their_defaults():
    sheet = get_system("fasttest").view(
        {"armor": 99, "magic_die": 7, "xp": "lots", "experience_dice": True, "wounds": "many"}
    )
    assert (sheet.armor, sheet.magic_die, sheet.xp, sheet.experience_dice) == (0, None, 0, 0)
    assert sheet.wounds == ()


# --- Caerbannog -------------------------------------------------------------------------------


def test_the_caerbannog_view_reads_resources_and_rozmach():
    sheet = get_system("caerbannog").view(
        {"resources": {"wytrzymalosc": 8, "determinacja": "x", "rozmach": 4}}
    )
    assert (sheet.resource("wytrzymalosc"), sheet.resource("determinacja")) == (8, 0)
    assert sheet.rozmach == 4


def test_the_caerbannog_view_keeps_rozmach_within_its_pool():
    assert get_system("caerbannog").view({"resources": {"rozmach": 40}}).rozmach == 10


def test_the_caerbannog_view_reads_a_printed_skill_left_out_at_level_0():
    groups = get_system("caerbannog").view({}).skill_groups
    physical = next(group for group in groups if group["key"] == "physical")
    assert {row["name"]: row["level"] for row in physical["skills"]}["Jazda"] == 0


# --- AST, T10, 2d6 -----------------------------------------------------------------------------


def test_the_ast_view_reads_funt_and_negative_states():
    sheet = get_system("ast").view({"funt": 3, "negative_states": [{"name": "Ranny", "value": 2}]})
    assert sheet.funt == 3
    assert sheet.negative_states == ({"name": "Ranny", "value": 2},)


def test_the_ast_view_reads_only_the_lists_of_its_schema():
    with pytest.raises(KeyError):
        get_system("ast").view({}).entries("wounds")


def test_the_t10_view_reads_an_older_sheet_of_name_value_objects_as_rows():
    sheet = get_system("t10").view(
        {"attributes": {"Styrka": 4}, "skills": [{"name": "Svärd", "value": 3}]}
    )
    assert sheet.attributes == ({"name": "Styrka", "value": 4},)
    assert sheet.skills == ({"name": "Svärd", "value": 3},)


def test_the_2d6_view_reads_skills_specialisations_and_advantages():
    sheet = get_system("2d6").view(
        {
            "skills": [{"name": "Medycyna", "value": 6}],
            "specialisations": [{"name": "Choroby", "skill": "Medycyna"}],
            "advantages": [{"name": "Lekarka", "category": "personal", "modifier": 2}],
        }
    )
    assert sheet.skills[0]["value"] == 6
    assert sheet.specialisations[0]["skill"] == "Medycyna"
    assert sheet.advantages[0]["modifier"] == 2
