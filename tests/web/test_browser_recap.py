"""The night's recap in a browser: while the session runs it follows the table, each new entry
refreshing it in place (table.js's table:entry, heard on a page without the log)."""

from __future__ import annotations

import pytest

from tests.web.browser import (
    FASTTEST,
    PHONE,
    demo_table,
    log_in,
    open_sheet,
    roll_budowa,
    session_path,
)

pytestmark = pytest.mark.browser

LIVE_EVENTS = "[data-table-events][data-connection-state='live']"
BARTEKS_TESTS = "#recap .recap-glance tbody tr:has(th a:text-is('bartek')) [data-figure='tests']"


def test_the_recap_counts_a_roll_made_at_the_table_while_it_is_open(browser, tmp_path):
    with demo_table(tmp_path) as base:
        ala = log_in(browser, base, "ala", path=session_path(FASTTEST) + "recap/", **PHONE)
        ala.wait_for_selector(LIVE_EVENTS, state="attached")
        assert ala.locator(BARTEKS_TESTS).count() == 0
        bartek = open_sheet(browser, base, "bartek", FASTTEST, "Zbyszko Cichy")
        roll_budowa(bartek)
        ala.wait_for_selector(f"{BARTEKS_TESTS}:text-is('1')", timeout=30_000)
        roll_budowa(bartek, "secret")  # his secret roll: not Ala's to count
        roll_budowa(bartek)
        ala.wait_for_selector(f"{BARTEKS_TESTS}:text-is('2')", timeout=30_000)
        assert ala.locator("#recap").get_attribute("hx-get").endswith("/recap/part/")
