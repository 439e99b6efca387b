"""A table page lives no longer than its login (rolls/live/consumers.py, 4401): a logout in one
tab closes the table in the browser's other tabs and says why; a password changed in one tab
leaves the others live, on the browser's new login; a click on a page whose login ended takes
the whole page to log in, and back (config.redirects.HtmxLoginMiddleware)."""

from __future__ import annotations

import pytest

from tests.web.browser import LIVE, demo_table, open_sheet, until
from tests.web.test_browser_table import CAMPAIGN

pytestmark = pytest.mark.browser
HERO = "Brunhilda z Gór"


def second_tab(page):
    """Another tab of the same browser (its login) on the same page, live."""
    tab = page.context.new_page()
    tab.goto(page.url)
    tab.wait_for_selector(LIVE)
    return tab


def test_a_logout_in_one_tab_closes_the_table_in_the_other_and_says_why(browser, tmp_path):
    with demo_table(tmp_path) as base:
        ala = open_sheet(browser, base, "ala", CAMPAIGN, HERO)
        tab = second_tab(ala)
        tab.click(".site-nav button:has-text('Log out')")
        ala.wait_for_selector(".connection[data-connection-state='loggedout']")
        assert "Log in again, then reload this page" in ala.inner_text(".connection")


def test_a_password_changed_in_one_tab_leaves_the_other_live(browser, tmp_path):
    with demo_table(tmp_path) as base:
        ala = open_sheet(browser, base, "ala", CAMPAIGN, HERO)
        sockets = []
        ala.on("websocket", lambda socket: sockets.append(socket))
        tab = second_tab(ala)
        tab.goto(f"{base}/accounts/password/")
        tab.fill("#id_old_password", "demo-table")
        tab.fill("#id_new_password1", "a long enough password 1")
        tab.fill("#id_new_password2", "a long enough password 1")
        tab.click("form:has(#id_old_password) [type=submit]")
        tab.wait_for_url("**/password/done/")
        # The old login's socket was closed; the page connected again on the new one.
        until(lambda: sockets, ala)
        ala.wait_for_selector(LIVE)
        assert ala.get_attribute(".connection", "data-connection-state") == "live"


def test_a_click_on_a_page_whose_login_ended_goes_to_log_in_and_back(browser, tmp_path):
    with demo_table(tmp_path) as base:
        ala = open_sheet(browser, base, "ala", CAMPAIGN, HERO)
        sheet = ala.url
        tab = second_tab(ala)
        tab.click(".site-nav button:has-text('Log out')")
        ala.wait_for_selector(".connection[data-connection-state='loggedout']")
        # The whole page goes to log in, not a login form into the test panel.
        ala.click("button.roll-target:has-text('BUDOWA')")
        ala.wait_for_url("**/accounts/login/**")
        ala.fill("#id_username", "ala")
        ala.fill("#id_password", "demo-table")
        ala.click("form:has(#id_username) [type=submit]")
        ala.wait_for_url(sheet)
        ala.wait_for_selector(LIVE)
