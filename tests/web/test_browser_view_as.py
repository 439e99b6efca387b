"""The GM's read-only view of a player's table in real browsers (campaigns/view_as.py): from the
dashboard's "View as ala" the GM reads Ala's table page under a band that says so; a roll of
another player reaches the view's log live as it reaches Ala's own page, the GM's hidden roll
reaches it as it reaches her (a stub, nothing of the roll), and a click on Roll in the view is
refused with a sentence and rolls nothing; a test the GM calls on Ala opens on the view's
panel as it opens on hers."""

from __future__ import annotations

import pytest

from tests.web.browser import (
    FASTTEST,
    LIVE,
    call_for,
    demo_path,
    demo_table,
    entry,
    gm_at_table,
    open_sheet,
    roll_budowa,
)

pytestmark = pytest.mark.browser

ENTRIES = "#roll-log [data-entries] > li"


def test_the_gm_reads_alas_table_live_and_cannot_roll_from_it(browser, tmp_path):
    with demo_table(tmp_path) as base:
        ala = open_sheet(browser, base, "ala", FASTTEST, "Brunhilda z Gór")
        bartek = open_sheet(browser, base, "bartek", FASTTEST, "Zbyszko Cichy")
        dashboard = gm_at_table(browser, base, FASTTEST, dashboard=True)

        # The way in: Ala's party card; the view opens in a tab of its own, the dashboard stays.
        view = dashboard.context.new_page()
        link = dashboard.locator("#party .view-as-link a", has_text="View as ala").first
        view.goto(base + link.get_attribute("href"))
        view.wait_for_selector(LIVE)
        banner = view.locator(".view-as[role=status]")
        assert "You are viewing the table as ala (read-only)" in banner.inner_text()
        assert view.locator("#test-panel").count() == 1  # her table page, her panel

        # Bartek's roll reaches the view's log as it reaches Ala's own page.
        roll_budowa(bartek)
        assert "BUDOWA" in entry(view, 1).inner_text()
        assert entry(view, 1).inner_text() == entry(ala, 1).inner_text()

        # The GM's hidden roll reaches both as the same stub, nothing of the roll in it.
        gm_sheet = dashboard.context.new_page()
        gm_sheet.goto(base + demo_path(FASTTEST, "Brunhilda z Gór"))
        gm_sheet.wait_for_selector(LIVE)
        roll_budowa(gm_sheet, "hidden")
        assert "BUDOWA" in entry(gm_sheet, 2).inner_text()
        assert entry(view, 2).inner_text() == entry(ala, 2).inner_text()
        assert "BUDOWA" not in entry(view, 2).inner_text()

        # A click on Roll in the view is refused where the page shows refusals; nothing rolled.
        view.click("button.roll-target:has-text('BUDOWA')")
        view.wait_for_selector("#test-panel .roll-button:not([disabled])")
        view.click("#test-panel .roll-button")
        refusal = view.wait_for_selector("#request-refusal .refusal")
        assert "read-only view" in refusal.inner_text()
        view.wait_for_function("() => !document.querySelector('.htmx-request')")
        assert view.locator(ENTRIES).count() == ala.locator(ENTRIES).count() == 2

        # A test the GM calls on Brunhilda opens on the view's panel as on Ala's, live (the
        # view's panel refreshes by GET, static/js/panel.js).
        call_for(dashboard, "Brunhilda z Gór")
        for page in (ala, view):
            page.wait_for_selector(
                "#test-panel form.panel-choices input[name='pending']", state="attached"
            )
        assert view.locator("#test-panel h2, #test-panel h3").first.inner_text() == (
            ala.locator("#test-panel h2, #test-panel h3").first.inner_text()
        )
