"""What every sheet module (``sheets.systems``) must do, written once for any rule system.

A test class that inherits ``SheetConformance`` and provides the fixtures ``system`` (a
registered system) and ``case`` (its ``SheetCase``) runs the suite against that system's sheet;
``NamedListConformance`` does the same for a sheet of free named lists
(``sheets.systems.named_lists``), given ``lists`` (its ``NamedLists``).
``test_sheet_conformance.py`` runs both over the registry. What the suite knows of a system
beyond its own members (``System.sheet``, ``System.demo``: the seed's example character is the
demo table's first) is the small ``SheetCase`` of its row in that module's table.
"""

from __future__ import annotations

import copy
import html
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.http import QueryDict

from campaigns.models import Campaign
from campaigns.systems import all_systems
from config.text import MESSAGE as UNSAFE_TEXT
from sheets.models import Character
from sheets.systems import sections
from tests.web.live import seat
from tests.web.sheet_helpers import HX, SHEET_PAGE_QUERIES, client_for, rolls, url
from tests.web.test_sheet_fasttest import field_value

#: Values a forged import may hold where the sheet expects something else.
ODD_JSON: tuple[Any, ...] = ("text", 4, 2.5, True, None, [None], [["Styrka", 4]], {"x": [1]})


@dataclass(frozen=True)
class NamedList:
    """One free list of named rows, as the suite fills it.

    ``fields``: a valid row's fields besides its name, as stored (``{"value": 2}``);
    ``blank``: what a blank row of the form shows before anything is typed (a select always
    sends its first option, a number field may start at a default).
    """

    fields: Mapping[str, Any] = field(default_factory=dict)
    blank: Mapping[str, str] = field(default_factory=dict)

    def row(self, name: str) -> dict[str, Any]:
        """A valid stored row of that name."""
        return {"name": name, **self.fields}

    def typed(self, name: str) -> dict[str, str]:
        """The same row as a player types it in the form."""
        return {"name": name, **{key: str(value) for key, value in self.fields.items()}}


@dataclass(frozen=True)
class NamedLists:
    """A sheet of free named lists: its blank sheet exactly, and the lists the suite fills.

    ``lists`` holds those it may replace in the example character on their own (a 2d6 sheet's
    skills are named by its specialisations, so they are not among them). ``refreshes``: for a
    box of lists, the other boxes showing values computed from it (AST's FUNT box counts the
    dice of every list), which saving it asks to refresh; a box not named refreshes none.
    """

    blank: Mapping[str, Any]
    lists: Mapping[str, NamedList]
    refreshes: Mapping[str, list[str]] = field(default_factory=dict)
    max_entries: int = 30


@dataclass(frozen=True)
class SheetCase:
    """One system's row of the table: what its sheet module does not say itself.

    ``blank_errors``: what validation answers for a blank sheet (FastTest asks for the concept
    trait); ``named_lists``: set when the sheet is one of free named lists.
    """

    blank_errors: Mapping[str, list[str]] = field(default_factory=dict)
    named_lists: NamedLists | None = None


def form(fields: Mapping[str, str]) -> QueryDict:
    """A posted form holding exactly ``fields``."""
    query = QueryDict(mutable=True)
    for name, value in fields.items():
        query[name] = value
    return query


def row_fields(key: str, index: int, row: Mapping[str, Any]) -> dict[str, str]:
    """A row's form fields: ``<list>-<index>-<field>``, every value as text."""
    return {f"{key}-{index}-{name}": str(value) for name, value in row.items()}


def rows_fields(key: str, rows: list[Mapping[str, Any]]) -> dict[str, str]:
    fields: dict[str, str] = {}
    for index, row in enumerate(rows):
        fields |= row_fields(key, index, row)
    return fields


def replaced(data: Mapping[str, Any], **changes: Any) -> dict[str, Any]:
    """A deep copy of a sheet with top-level keys replaced."""
    return copy.deepcopy({**data, **changes})


def text(response) -> str:
    return response.content.decode()


def box_lists(section, data: Mapping[str, Any]) -> list[str]:
    """The lists a box's form holds: its fields, or every list of a whole-sheet box."""
    if section.fields == ("*",):
        return [key for key, value in data.items() if isinstance(value, list)]
    return list(section.fields)


def section_of(module, key: str, data: Mapping[str, Any]):
    """The box of the sheet whose form holds list ``key``."""
    return next(box for box in sections(module) if key in box_lists(box, data))


def box_post(module, data: Mapping[str, Any], key: str, rows: list) -> dict[str, str]:
    """The form of the box holding list ``key``: ``rows`` in it, its other lists as in ``data``."""
    fields: dict[str, str] = {}
    for other in box_lists(section_of(module, key, data), data):
        fields |= rows_fields(other, rows if other == key else data[other])
    return fields


class _SheetOfASystem:
    """Fixtures of both suites, from the ``system`` a subclass provides."""

    @pytest.fixture
    def module(self, system):
        return system.sheet

    @pytest.fixture
    def campaign(self, system) -> Campaign:
        # Unsaved: validation reads only the campaign's system and settings.
        return Campaign(name="Stół", system=system.key)

    @pytest.fixture
    def example(self, system) -> dict[str, Any]:
        """The seed's example character (the demo table's first), a copy to change freely."""
        return copy.deepcopy(system.demo.CHARACTERS[0][2])


class SheetConformance(_SheetOfASystem):
    """The suite of every sheet; a subclass provides ``system`` and ``case``."""

    def test_a_sheet_that_is_not_an_object_is_refused_as_a_whole(self, module, campaign):
        for data in ([], "sheet", 7, None):
            _cleaned, errors = module.validate(data, campaign, creating=True)
            assert errors == {"": ["The sheet must be a JSON object."]}, data

    def test_keys_of_other_sheets_and_forged_keys_are_dropped(
        self, system, module, campaign, example
    ):
        others = {key for other in all_systems() for key in other.demo.CHARACTERS[0][2]}
        forged = {key: {"Walka": 3} for key in (others - set(example)) | {"forged"}}
        cleaned, errors = module.validate({**example, **forged}, campaign, creating=True)
        assert errors == {}
        assert not set(forged) & set(cleaned)

    def test_the_seeds_characters_are_valid_sheets(self, system, module, campaign):
        for _player, name, data in system.demo.CHARACTERS:
            for creating in (True, False):
                _cleaned, errors = module.validate(copy.deepcopy(data), campaign, creating=creating)
                assert errors == {}, (name, creating)

    def test_a_cleaned_sheet_is_cleaned_again_unchanged(self, system, module, campaign):
        for _player, name, data in system.demo.CHARACTERS:
            cleaned, _errors = module.validate(copy.deepcopy(data), campaign, creating=True)
            again = module.validate(copy.deepcopy(cleaned), campaign, creating=True)
            assert again == (cleaned, {}), name

    def test_a_blank_sheet_is_refused_only_for_what_creation_asks(self, case, module, campaign):
        _cleaned, errors = module.validate(module.default_data(campaign), campaign, creating=True)
        assert errors == case.blank_errors

    def test_odd_json_anywhere_in_a_sheet_is_answered_with_messages_never_raised(
        self, module, campaign, example
    ):
        for key in example:
            for value in ODD_JSON:
                cleaned, errors = module.validate(
                    replaced(example, **{key: value}), campaign, creating=True
                )
                assert isinstance(cleaned, dict), (key, value)
                assert all(isinstance(messages, list) for messages in errors.values())

    def test_a_post_holding_no_field_is_read_totalled_and_validated_without_raising(
        self, module, campaign
    ):
        data = module.data_from_post(form({}), campaign)
        module.totals(data, campaign)
        _cleaned, errors = module.validate(data, campaign, creating=True)
        assert isinstance(errors, dict)

    @pytest.mark.django_db
    def test_an_outsider_gets_404_for_the_sheet(self, system, example, gm, player, outsider):
        campaign = Campaign.objects.create(name="Stół", system=system.key, gm=gm)
        seat(campaign, gm, player)
        hero = Character.objects.create(campaign=campaign, owner=player, name="Hero", data=example)
        response = client_for(outsider).get(url("character_detail", character=hero))
        assert response.status_code == 404


class NamedListConformance(_SheetOfASystem):
    """The suite of a sheet of free named lists; a subclass provides ``system`` and ``lists``."""

    @pytest.fixture
    def check(self, module, campaign):
        """Validate as on creation, the strictest."""
        return lambda data: module.validate(data, campaign, creating=True)

    @pytest.fixture
    def read(self, module, campaign):
        """Read a form holding exactly the given fields."""
        return lambda fields: module.data_from_post(form(fields), campaign)

    # Defaults and the example ------------------------------------------------------------------

    def test_a_blank_sheet_is_the_one_of_the_table_and_valid_as_it_is(
        self, module, lists, campaign, check
    ):
        data = module.default_data(campaign)
        assert data == lists.blank
        assert check(data) == (data, {})

    def test_the_seeds_example_character_is_valid_and_kept_as_stored(self, example, check):
        assert check(example) == (example, {})

    # Names -------------------------------------------------------------------------------------

    def test_names_are_trimmed_and_inner_spaces_collapsed(self, lists, example, check):
        for key, spec in lists.lists.items():
            cleaned, errors = check(replaced(example, **{key: [spec.row("  walka    toporem ")]}))
            assert errors == {}, key
            assert cleaned[key] == [spec.row("walka toporem")]

    def test_an_empty_name_is_refused_at_its_field(self, lists, example, check):
        for key, spec in lists.lists.items():
            rows = [spec.row("ostry topór"), spec.row(" ")]
            _cleaned, errors = check(replaced(example, **{key: rows}))
            assert errors == {f"{key}-1-name": ["Enter a name."]}

    def test_a_row_without_a_name_is_refused_at_its_name(self, lists, example, check):
        for key, spec in lists.lists.items():
            _cleaned, errors = check(replaced(example, **{key: [dict(spec.fields)]}))
            assert errors == {f"{key}-0-name": ["Enter a name."]}

    def test_a_name_longer_than_sixty_characters_is_refused(self, lists, example, check):
        for key, spec in lists.lists.items():
            _cleaned, errors = check(replaced(example, **{key: [spec.row("x" * 61)]}))
            assert errors == {f"{key}-0-name": ["At most 60 characters (this name has 61)."]}

    def test_a_name_with_control_characters_is_refused(self, lists, example, check):
        for key, spec in lists.lists.items():
            _cleaned, errors = check(replaced(example, **{key: [spec.row("Ciało\x00silne")]}))
            assert errors == {f"{key}-0-name": [str(UNSAFE_TEXT)]}

    def test_the_same_name_twice_in_a_list_is_refused_whatever_its_case(
        self, lists, example, check
    ):
        for key, spec in lists.lists.items():
            for first, second in (("Ciało: silny", "CIAŁO: SILNY"), ("Svärd", "svärd")):
                rows = [spec.row(first), spec.row(second)]
                _cleaned, errors = check(replaced(example, **{key: rows}))
                assert errors == {f"{key}-1-name": [f"“{second}” is already in this list."]}

    def test_the_same_name_in_every_list_is_fine(self, lists, example, check):
        rows = {key: [spec.row("czujny")] for key, spec in lists.lists.items()}
        _cleaned, errors = check(replaced(example, **rows))
        assert errors == {}

    # Lists -------------------------------------------------------------------------------------

    def test_an_entry_that_is_not_an_object_is_refused_at_its_name(self, lists, example, check):
        for key in lists.lists:
            for entry in ("walka toporem", None, 7, ["Styrka", 4]):
                _cleaned, errors = check(replaced(example, **{key: [entry]}))
                assert errors == {f"{key}-0-name": ["Each entry must be an object with a name."]}

    def test_a_list_that_is_not_a_list_is_refused_at_the_list(self, lists, example, check):
        for key in lists.lists:
            for value in ("ostry topór", 4, 2.5, True):
                _cleaned, errors = check(replaced(example, **{key: value}))
                assert errors == {key: ["This must be a list of entries."]}, value

    def test_a_missing_list_is_an_empty_list(self, lists, example, check):
        for key in lists.lists:
            data = replaced(example)
            del data[key]
            cleaned, errors = check(data)
            assert errors == {}, key
            assert cleaned[key] == []

    def test_one_entry_more_than_a_list_holds_is_refused_at_the_list(self, lists, example, check):
        most = lists.max_entries
        for key, spec in lists.lists.items():
            rows = [spec.row(f"atut {number}") for number in range(most + 1)]
            _cleaned, errors = check(replaced(example, **{key: rows}))
            assert errors == {key: [f"At most {most} entries (this list has {most + 1})."]}

    def test_a_huge_forged_list_is_refused_without_trouble(self, lists, example, check):
        # Every entry is still checked (and shown again): one list is enough to time it.
        most = lists.max_entries
        key, spec = next(iter(lists.lists.items()))
        rows = [spec.row(f"atut {number}") for number in range(20_000)]
        cleaned, errors = check(replaced(example, **{key: rows}))
        assert errors == {key: [f"At most {most} entries (this list has 20000)."]}
        assert len(cleaned[key]) == most

    # Reading the form --------------------------------------------------------------------------

    def test_the_form_is_read_in_row_order_with_blank_rows_left_out(self, lists, read):
        for key, spec in lists.lists.items():
            shown_blank = {name: spec.blank.get(name, "") for name in spec.fields}
            data = read(
                row_fields(key, 2, spec.typed("Umysł: sprytny"))
                | row_fields(key, 0, spec.typed("Ciało: silny"))
                | row_fields(key, 1, {"name": "  ", **shown_blank})
                | row_fields(key, 3, {"name": "", **{name: "" for name in spec.fields}})
            )
            assert data[key] == [spec.typed("Ciało: silny"), spec.typed("Umysł: sprytny")]

    def test_values_that_do_not_parse_are_read_as_typed(self, lists, read):
        for key, spec in lists.lists.items():
            typed = {"name": "Svärd", **{name: "tre" for name in spec.fields}}
            assert read(row_fields(key, 0, typed))[key] == [typed]

    def test_a_row_with_values_but_no_name_is_kept_to_be_refused(self, lists, example, read, check):
        for key, spec in lists.lists.items():
            if not spec.fields:
                continue  # a row of a name alone is blank without it
            rows = read(row_fields(key, 0, spec.typed("")))[key]
            _cleaned, errors = check(replaced(example, **{key: rows}))
            assert rows == [spec.typed("")]
            assert errors == {f"{key}-0-name": ["Enter a name."]}

    def test_a_ticked_remove_box_drops_its_row(self, lists, read):
        for key, spec in lists.lists.items():
            data = read(
                row_fields(key, 0, spec.typed("ostry topór"))
                | {f"{key}-0-remove": "1"}
                | row_fields(key, 1, spec.typed("tarcza"))
            )
            assert data[key] == [spec.typed("tarcza")]

    def test_forged_field_names_are_ignored(self, lists, read):
        for key in lists.lists:
            data = read(
                {
                    f"{key}-99999-name": "too far",
                    f"{key}-x-name": "not a number",
                    f"{key}-٣-name": "not ascii digits",
                    f"{key}-0-forged": "not a field of the row",
                }
            )
            assert data[key] == []

    def test_a_post_of_one_list_reads_every_other_list_as_empty(self, lists, read):
        every_list = [key for key, value in lists.blank.items() if value == []]
        for key, spec in lists.lists.items():
            data = read(row_fields(key, 0, spec.typed("Styrka")))
            assert set(data) == set(lists.blank)
            assert data[key] == [spec.typed("Styrka")]
            assert {other: data[other] for other in every_list if other != key} == {
                other: [] for other in every_list if other != key
            }

    # Pages -------------------------------------------------------------------------------------

    @pytest.fixture
    def table(self, system, gm, player, other_player) -> Campaign:
        campaign = Campaign.objects.create(name="Stół", system=system.key, gm=gm)
        seat(campaign, gm, player, other_player)
        return campaign

    @pytest.fixture
    def hero(self, table, player, example) -> Character:
        return Character.objects.create(
            campaign=table, owner=player, name="Hero", data=copy.deepcopy(example)
        )

    @pytest.mark.django_db
    def test_the_creation_form_offers_three_blank_rows_per_list(self, lists, table, player):
        page = text(client_for(player).get(url("character_create", campaign=table)))
        for key in lists.lists:
            assert f'name="{key}-2-name"' in page
            assert f'name="{key}-3-name"' not in page

    @pytest.mark.django_db
    def test_more_empty_rows_keeps_what_was_typed_and_adds_three_blank_rows(
        self, lists, table, player
    ):
        post = {"name": "Erik", "_more": "1"}
        for key, spec in lists.lists.items():
            post |= rows_fields(key, [spec.typed(f"Cecha {n}") for n in range(3)])
        page = text(client_for(player).post(url("character_create", campaign=table), post))
        assert not Character.objects.filter(campaign=table).exists()
        for key in lists.lists:
            assert field_value(page, f"{key}-2-name") == "Cecha 2"
            assert f'name="{key}-5-name"' in page
            assert f'name="{key}-6-name"' not in page

    @pytest.mark.django_db
    def test_the_wrong_field_points_to_its_message(self, lists, table, player):
        post = {"name": "Erik"}
        for key, spec in lists.lists.items():
            post |= rows_fields(key, [spec.typed("Ciało: silny"), spec.typed("ciało: SILNY")])
        page = text(client_for(player).post(url("character_create", campaign=table), post))
        for key in lists.lists:
            assert f'id="{key}-1-name" name="{key}-1-name" value="ciało: SILNY"' in page
            assert f'aria-invalid="true" aria-describedby="{key}-1-name-error"' in page

    @pytest.mark.django_db
    def test_the_edit_box_shows_the_stored_rows_and_two_blank_ones(
        self, module, lists, hero, player, example
    ):
        client = client_for(player)
        for key in lists.lists:
            box = section_of(module, key, example).key
            page = text(client.get(url("character_section", character=hero, section=box), **HX))
            stored = example[key]
            if stored:
                assert field_value(page, f"{key}-{len(stored) - 1}-name") == stored[-1]["name"]
            assert f'name="{key}-{len(stored) + 1}-name"' in page
            assert f'name="{key}-{len(stored) + 2}-name"' not in page

    @pytest.mark.django_db
    def test_the_owner_saves_one_box_and_the_rest_of_the_sheet_stays(
        self, module, lists, hero, player, example
    ):
        client = client_for(player)
        for key, spec in lists.lists.items():
            box = section_of(module, key, example).key
            post = box_post(module, example, key, [spec.typed("ranny")])
            response = client.post(url("character_section", character=hero, section=box), post)
            hero.refresh_from_db()
            assert response.status_code == 302
            assert hero.data == {**example, key: [spec.row("ranny")]}
            hero.data = copy.deepcopy(example)
            hero.save()

    @pytest.mark.django_db
    def test_the_owner_removes_an_entry_with_its_box(self, module, lists, hero, player, example):
        client = client_for(player)
        filled = [key for key in lists.lists if example[key]]
        assert filled, "the example character has no entry to remove"
        for key in filled:
            box = section_of(module, key, example).key
            post = box_post(module, example, key, example[key]) | {f"{key}-0-remove": "1"}
            client.post(url("character_section", character=hero, section=box), post)
            hero.refresh_from_db()
            assert hero.data[key] == example[key][1:]

    @pytest.mark.django_db
    def test_saving_a_box_asks_exactly_the_boxes_computed_from_it_to_refresh(
        self, module, lists, hero, player, example
    ):
        client = client_for(player)
        boxes = [
            box
            for box in sections(module)
            if all(isinstance(example.get(key), list) for key in box_lists(box, example))
        ]
        assert set(lists.refreshes) <= {box.key for box in boxes}
        for section in boxes:  # the boxes of lists (not AST's FUNT)
            first = box_lists(section, example)[0]
            post = box_post(module, example, first, example[first])
            path = url("character_section", character=hero, section=section.key)
            response = client.post(path, post, **HX)
            trigger = response.get("HX-Trigger")
            assert "aria-invalid" not in text(response), section.key
            assert json.loads(trigger or "{}") == (
                {"sheet-changed": {"boxes": lists.refreshes[section.key]}}
                if section.key in lists.refreshes
                else {}
            ), section.key

    @pytest.mark.django_db
    def test_another_player_cannot_edit_the_sheet(self, module, lists, hero, other_player, example):
        client = client_for(other_player)
        for key, spec in lists.lists.items():
            box = section_of(module, key, example).key
            post = box_post(module, example, key, [spec.typed("Svärd")])
            response = client.post(url("character_section", character=hero, section=box), post)
            hero.refresh_from_db()
            assert response.status_code == 404
            assert hero.data == example

    @pytest.mark.django_db
    def test_another_player_reads_every_entry_without_roll_targets(
        self, hero, player, other_player, example
    ):
        owners = text(client_for(player).get(url("character_detail", character=hero)))
        page = text(client_for(other_player).get(url("character_detail", character=hero)))
        names = [row["name"] for rows in example.values() if isinstance(rows, list) for row in rows]
        assert rolls(owners), "the owner's sheet offers no roll target"
        assert rolls(page) == []
        assert [name for name in names if html.escape(name) not in page] == []

    @pytest.mark.django_db
    @pytest.mark.parametrize("size", [1, 30])
    def test_the_sheet_costs_the_same_queries_however_long_its_lists(
        self, lists, hero, player, size, django_assert_num_queries
    ):
        long = {
            key: [spec.row(f"atut {n}") for n in range(size)] for key, spec in lists.lists.items()
        }
        hero.data = replaced(hero.data, **long)
        hero.save()
        client = client_for(player)
        client.get(url("character_detail", character=hero))  # warm the session and caches
        with django_assert_num_queries(SHEET_PAGE_QUERIES):
            client.get(url("character_detail", character=hero))
