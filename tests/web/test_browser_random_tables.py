"""The GM rolls a random table hidden from the dashboard; the players see only that it happened."""

from __future__ import annotations

import pytest

from tests.web.browser import demo_table, log_in
from tests.web.test_browser_table import CAMPAIGN, entry, open_sheet  # noqa: F401

pytestmark = pytest.mark.browser

TABLE = "Erupcja magii"
ROWS = ("Iskry", "dźwięku", "Cienie", "łokieć", "płomień", "najbliższą")


def test_the_gm_rolls_a_table_hidden_and_two_players_see_only_a_hidden_roll(
    browser,
    tmp_path,
):
    with demo_table(tmp_path) as base:
        gm = log_in(browser, base, "gm")
        gm.click(f"text={CAMPAIGN}")
        gm.click("text=Start a session")
        gm.click(f"nav.crumbs >> text={CAMPAIGN}")
        gm.click("text=GM dashboard")
        gm.wait_for_selector(".connection[data-connection-state='live']")
        ala = open_sheet(browser, base, "ala", "Brunhilda z Gór")
        bartek = open_sheet(browser, base, "bartek", "Zbyszko Cichy")

        form = gm.locator("#random-tables form.table-roll", has_text=TABLE)
        form.locator("button[data-roll-hidden]").click()
        rolled = gm.wait_for_selector("#random-tables .table-rolled .entry")
        assert "hidden" in rolled.inner_text()
        shown = entry(gm, 1).inner_text()
        assert f"Table: {TABLE} (1d6)" in shown
        assert any(word in shown for word in ROWS)

        for page in (ala, bartek):
            seen = entry(page, 1).inner_text()
            assert "A hidden roll was made." in seen
            assert TABLE not in seen
            assert not any(word in page.inner_text("#roll-log") for word in ROWS)
