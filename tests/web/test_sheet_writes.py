"""The writes the rules make on a sheet go through ``sheets.actions`` and its schema: dice or
FUNT spent, what a roll leaves (Rozmach, the magic die), XP and experience dice; FastTest's own
(the magic die, a wound taken back) through ``rolls.systems.fasttest.sheet_actions``, built on
them."""

from __future__ import annotations

import pytest

from rolls.systems.fasttest import sheet_actions as fasttest_actions
from sheets import actions
from sheets.models import Character

pytestmark = pytest.mark.django_db
pytest_plugins = ["tests.web.sheet_fixtures"]


def stored(character):
    return Character.objects.get(pk=character.pk).data


def test_a_change_the_schema_accepts_is_saved(jaga):
    actions.change_sheet(jaga, lambda data: data.update(armor=3))
    assert stored(jaga)["armor"] == 3


def test_a_change_the_schema_refuses_is_refused_with_its_message_and_not_saved(jaga):
    before = stored(jaga)
    with pytest.raises(actions.SheetRefused, match="Armor"):
        actions.change_sheet(jaga, lambda data: data.update(armor=11))
    assert stored(jaga) == before


def test_spending_more_than_the_sheet_holds_is_refused(jaga):
    with pytest.raises(actions.SheetRefused, match="Not enough left to spend"):
        actions.change_sheet(jaga, lambda data: None, {"experience_dice": 1})


def test_spending_takes_the_amount_off_the_sheet(jaga):
    actions.set_numbers(jaga, {("experience_dice",): 2})
    actions.change_sheet(jaga, lambda data: None, {"experience_dice": 1})
    assert stored(jaga)["experience_dice"] == 1


def test_the_change_edits_a_copy_so_a_refused_one_leaves_the_callers_sheet_alone(jaga):
    with pytest.raises(actions.SheetRefused):
        actions.change_sheet(jaga, lambda data: data.update(xp=-1))
    assert jaga.data.get("xp", 0) == 0


def test_a_number_is_set_at_its_path_inside_the_sheet(julio):
    actions.set_numbers(julio, {("resources", "pd"): 7})
    assert stored(julio)["resources"]["pd"] == 7


def test_a_number_beyond_the_schema_is_refused(julio):
    with pytest.raises(actions.SheetRefused):
        actions.set_numbers(julio, {("resources", "rozmach"): 11})


def test_the_magic_die_is_set_through_the_schema(jaga):
    fasttest_actions.set_magic_die(jaga, 6)
    assert stored(jaga)["magic_die"] == 6
    with pytest.raises(actions.SheetRefused):
        fasttest_actions.set_magic_die(jaga, 7)


def test_the_wound_the_armor_turned_aside_is_taken_back_newest_first(jaga):
    fasttest_actions.add_wound(jaga, "cut", "light")
    fasttest_actions.add_wound(jaga, "cut", "light")
    fasttest_actions.add_wound(jaga, "cut", "heavy")
    fasttest_actions.take_back_wound(jaga, "cut", "light")
    assert [w["severity"] for w in stored(jaga)["wounds"]] == ["light", "heavy"]


def test_a_write_on_a_sheet_outside_its_schema_elsewhere_is_saved(julio):
    Character.objects.filter(pk=julio.pk).update(data={"resources": {"rozmach": 7}})
    julio.refresh_from_db()
    actions.set_numbers(julio, {("resources", "rozmach"): 0})
    assert stored(julio) == {"resources": {"rozmach": 0}}


def test_what_a_write_breaks_on_a_sheet_outside_its_schema_is_still_refused(julio):
    Character.objects.filter(pk=julio.pk).update(data={"resources": {"rozmach": 7}})
    julio.refresh_from_db()
    with pytest.raises(actions.SheetRefused):
        actions.set_numbers(julio, {("resources", "rozmach"): 11})
