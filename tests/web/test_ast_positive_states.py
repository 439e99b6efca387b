"""AST positive states are one white die each (RULES.md 2, Sheet; issue 25, item 1): the sheet
keeps no value for them, and sheets saved with a value are migrated, each change named."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from sheets.models import Character

pytest_plugins = ["tests.web.sheet_fixtures"]
migration = importlib.import_module("sheets.migrations.0003_ast_positive_states_one_die")
pytestmark = pytest.mark.django_db


def test_a_state_worth_three_dice_is_one_die_and_named_as_changed():
    data = {"positive_states": [{"name": "wypoczęty", "value": 3}, {"name": "czujny", "value": 1}]}
    migrated, changed = migration.one_die_each(data)
    assert migrated["positive_states"] == [{"name": "wypoczęty"}, {"name": "czujny"}]
    assert changed == [("wypoczęty", 3)]


def test_a_sheet_without_positive_states_is_left_as_it_is():
    assert migration.one_die_each({"funt": 2}) == ({"funt": 2}, [])


def test_the_migration_rewrites_ast_sheets_only_and_says_what_changed(
    make_campaign, player, capsys
):
    ast, t10 = make_campaign("ast"), make_campaign("t10")
    olaf = Character.objects.create(
        campaign=ast, owner=player, name="Olaf",
        data={"positive_states": [{"name": "wypoczęty", "value": 3}], "funt": 1},
    )  # fmt: skip
    other = Character.objects.create(
        campaign=t10, owner=player, name="Astrid", data={"positive_states": [{"value": 3}]}
    )
    migration.forwards(apps, None)
    olaf.refresh_from_db()
    other.refresh_from_db()
    assert olaf.data == {"positive_states": [{"name": "wypoczęty"}], "funt": 1}
    assert other.data == {"positive_states": [{"value": 3}]}
    assert "Olaf: positive state “wypoczęty” gave 3 white dice, now 1" in capsys.readouterr().out
