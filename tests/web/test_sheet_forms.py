"""The forms every sheet module reads its post with (``sheets.systems.sheet_forms``)."""

from __future__ import annotations

import pytest
from django import forms
from django.http import QueryDict

from sheets.systems.sheet_forms import (
    Number,
    RowForm,
    SheetForm,
    Ticked,
    Typed,
    read_rows,
)


def post(*pairs: tuple[str, str]) -> QueryDict:
    query = QueryDict(mutable=True)
    for name, value in pairs:
        query.appendlist(name, value)
    return query


class Box(SheetForm):
    text = Typed()
    trimmed = Typed(strip=True, empty_value=None)
    amount = Number()
    armor = Number(if_sent=True)
    ticked = Ticked()
    on = Ticked(value="on")


class Row(RowForm):
    name = Typed()
    value = Typed(initial="1")
    remove = Ticked()
    remove_field = "remove"


class UnderscoreRow(RowForm):
    separator = "_"
    index_digits = 3
    name = Typed(strip=True)
    level = Number()
    magic = Ticked(value="on")


def test_a_field_missing_from_the_post_reads_blank_and_nothing_is_refused():
    assert Box(post()).values() == {
        "text": "",
        "trimmed": None,
        "amount": "",
        "ticked": False,
        "on": False,
    }


def test_text_is_kept_as_typed_even_what_validation_refuses():
    values = Box(post(("text", "  Ciało\x00 "), ("trimmed", "  chciwy "))).values()
    assert values["text"] == "  Ciało\x00 "
    assert values["trimmed"] == "chciwy"


@pytest.mark.parametrize(
    ("typed", "read"),
    [("3", 3), (" -2 ", -2), ("+4", 4), ("abc", "abc"), ("  1.5 ", "1.5"), ("", ""), (" ", "")],
)
def test_a_number_is_an_int_when_it_is_one_else_the_trimmed_text(typed, read):
    assert Box(post(("amount", typed))).values()["amount"] == read


def test_the_last_value_of_a_field_sent_twice_is_read():
    assert Box(post(("amount", "1"), ("amount", "2"))).values()["amount"] == 2


def test_a_field_read_only_when_sent_is_left_out_when_missing_and_read_when_blank():
    assert "armor" not in Box(post()).values()
    assert Box(post(("armor", ""))).values()["armor"] == ""
    assert Box(post(("armor", "2"))).values()["armor"] == 2


def test_a_box_is_ticked_by_any_text_or_by_exactly_its_value():
    values = Box(post(("ticked", "1"), ("on", "on"))).values()
    assert (values["ticked"], values["on"]) == (True, True)
    values = Box(post(("ticked", "0"), ("on", "true"))).values()
    assert (values["ticked"], values["on"]) == (True, False)
    values = Box(post(("ticked", ""), ("on", "On"))).values()
    assert (values["ticked"], values["on"]) == (False, False)


def test_a_field_that_refuses_is_a_mistake_not_a_silent_blank():
    class Strict(SheetForm):
        needed = forms.CharField()

    with pytest.raises(ValueError, match="required"):
        Strict(post()).values()


def test_rows_are_read_in_index_order_without_blank_or_removed_rows():
    rows = read_rows(
        post(
            ("list-2-name", "druga"),
            ("list-0-name", "zero"),
            ("list-0-value", " 3"),
            ("list-1-name", " "),
            ("list-1-value", "1"),  # what a blank row shows: still blank
            ("list-3-name", "usunięta"),
            ("list-3-remove", "1"),
            ("list-4-value", "2"),  # a value without a name is kept, to be refused
        ),
        "list",
        Row,
    )
    assert rows == [
        {"name": "zero", "value": " 3"},
        {"name": "druga", "value": ""},
        {"name": "", "value": "2"},
    ]


@pytest.mark.parametrize(
    "name",
    [
        "list-10000-name",  # more digits than an index has
        "list-007-name",  # not written plainly
        "list-٣-name",  # not ASCII digits
        "list-x-name",
        "list-0-name\n",
        "list-0-forged",  # not a field of the row
        "list-0-remove",  # a remove box alone is no row
        "other-0-name",
    ],
)
def test_a_forged_row_name_is_ignored(name):
    assert read_rows(post((name, "forged")), "list", Row) == []


def test_rows_may_be_named_with_underscores_and_fewer_digits():
    rows = read_rows(
        post(
            ("trait_1_name", " Rycerz "),
            ("trait_1_level", " 2"),
            ("trait_1_magic", "on"),
            ("trait_0_level", "dwa"),
            ("trait_2_magic", "on"),  # ticked, but nothing typed: a blank row
            ("trait_1000_name", "za daleko"),
        ),
        "trait",
        UnderscoreRow,
    )
    assert rows == [
        {"name": "", "level": "dwa", "magic": False},
        {"name": "Rycerz", "level": 2, "magic": True},
    ]


def test_a_row_level_of_zero_is_typed_not_blank():
    rows = read_rows(post(("trait_0_level", "0")), "trait", UnderscoreRow)
    assert rows == [{"name": "", "level": 0, "magic": False}]
