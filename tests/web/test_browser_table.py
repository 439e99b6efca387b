"""The live table in real browsers: the GM and two players at one table, on a live server. One
evening's story: rolls from the panel and a quick roll reach every log, each once, through a cut
connection and a reload, and the panel keeps its choices from one roll to the next."""

from __future__ import annotations

import pytest

from tests.web.browser import FASTTEST, demo_table, entry, gm_at_table, open_sheet, roll_budowa

pytestmark = pytest.mark.browser

ENTRIES = "#roll-log [data-entries] > li"


def test_rolls_reach_every_log_once_through_a_cut_connection_and_a_reload(browser, tmp_path):
    with demo_table(tmp_path) as base:
        gm = gm_at_table(browser, base, FASTTEST)
        ala = open_sheet(browser, base, "ala", FASTTEST, "Brunhilda z Gór")
        bartek = open_sheet(browser, base, "bartek", FASTTEST, "Zbyszko Cichy")

        # A player's roll shows in all three logs.
        roll_budowa(ala)
        for page in (gm, ala, bartek):
            assert "BUDOWA 7" in entry(page, 1).inner_text()

        # Rolling again from the same panel is a new roll with the choices kept, and a page
        # whose connection was cut meanwhile ends with every roll once.
        ala.check("#test-panel input[name='skill'][value='WALKA']")
        ala.wait_for_selector("#test-panel input[name='skill'][value='WALKA']:checked")
        bartek.evaluate("window.tableSocket.drop()")
        roll_budowa(ala)
        roll_budowa(ala)
        assert ala.locator("#test-panel .rolled .entry").get_attribute("data-seq") == "3"
        assert ala.is_checked("#test-panel input[name='skill'][value='WALKA']")
        assert "WALKA" in entry(ala, 3).inner_text()
        bartek.wait_for_selector(".connection[data-connection-state='live']", timeout=15_000)
        for seq in (1, 2, 3):
            assert entry(bartek, seq).count() == 1
        assert bartek.locator(ENTRIES).count() == 3

        # A reload shows the same log.
        before = entry(ala, 3).inner_text()
        ala.reload()
        assert entry(ala, 3).inner_text() == before
        assert ala.locator(ENTRIES).count() == 3

        # A quick roll shows live in every log, with its dice and the nonce the page made.
        ala.fill("#quick-dice-expression", "2d6+3")
        ala.click("#quick-dice button[type='submit']")
        rolled = ala.wait_for_selector("#quick-dice .quick-rolled").inner_text()
        assert rolled.startswith("Rolled 2d6+3 = ")
        for page in (gm, ala, bartek):
            shown = entry(page, 4)
            assert "2d6+3" in shown.inner_text()
            assert shown.locator(".dice .die").count() == 2
            assert shown.get_attribute("data-nonce")  # checkable later
            assert "nonce made by the server" not in shown.inner_text()
        total = rolled.removeprefix("Rolled 2d6+3 = ").split(" ")[0]
        assert f"= {total}" in entry(bartek, 4).inner_text()
