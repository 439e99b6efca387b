"""What looks for a few entries in a long log finds them through an index, never by reading the
whole session or every roll a member made (issue 42): the database's own plan says so.

PostgreSQL plans a sequential scan of a test's tiny tables whatever their indexes, so there the
plan is asked with sequential scans priced out (``enable_seqscan``): it still reads the whole
table when no index serves the query, which is what these tests catch."""

from __future__ import annotations

import pytest
from django.db import connection

from rolls.tables.quick_dice import recent_params
from rolls.tables.random_tables import table_rolls

pytestmark = pytest.mark.django_db


def plan(queryset) -> str:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL enable_seqscan = off")
    return queryset.explain()


def test_the_quick_dice_box_reads_a_members_quick_rolls_through_their_index(table):
    assert "roll_kind_of_actor" in plan(recent_params(table.campaign, table.players[0]))


def test_the_tables_box_reads_the_last_table_roll_through_the_kind_index(table):
    assert "roll_kind_in_session" in plan(table_rolls(table.session))
