"""An opposed test built and rolled live, in three browsers: the GM and the two players."""

from __future__ import annotations

import pytest

from tests.web.browser import demo_table, log_in
from tests.web.test_browser_table import CAMPAIGN, entry, open_sheet  # noqa: F401

pytestmark = pytest.mark.browser


def test_an_opposed_test_is_built_and_rolled_live_on_all_three_pages(
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

        gm.click(".opposed-start summary")
        form = gm.locator(".opposed-start form")
        first = form.locator("fieldset", has_text="The initiator").locator(
            ".opposed-side", has_text="Brunhilda z Gór"
        )
        first.locator("input[type=radio]").check()
        first.locator("select[name$='-attribute']").select_option("BUDOWA")
        second = form.locator("fieldset", has_text="The opponent").locator(
            ".opposed-side", has_text="Zbyszko Cichy"
        )
        second.locator("input[type=radio]").check()
        second.locator("select[name$='-attribute']").select_option("ZRĘCZNOŚĆ")
        form.locator("button", has_text="Start the opposed test").click()
        gm.wait_for_selector(".opposed-tests .opposed-box")
        assert "Odds of winning" in gm.inner_text(".opposed-tests .opposed-box")

        # Both players' pages show the opposed test at once, with their own odds of winning.
        for page in (ala, bartek):
            page.wait_for_selector("#test-panel .opposed-box")
            assert "Brunhilda z Gór against Zbyszko Cichy" in page.inner_text(".opposed-box")
            assert "Your odds of winning" in page.inner_text(".opposed-box")

        ala.click("#test-panel .roll-button")
        # Bartek's page follows without a reload: Brunhilda's side has rolled.
        bartek.wait_for_selector("#test-panel .opposed-sides li:has-text('rolled, #1')")
        bartek.click("#test-panel .roll-button")
        for page in (gm, ala, bartek):
            assert "Opposed test (#1 against #2)" in entry(page, 3).inner_text()
