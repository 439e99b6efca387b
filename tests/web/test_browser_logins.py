"""A table page lives no longer than its login (rolls/live/consumers.py, 4401), in one browser
with two tabs: a password changed in one tab leaves the other live, on the browser's new login;
a logout in one tab closes the table in the other and says why; a click on a page whose login
ended takes the whole page to log in, and back (config.redirects.HtmxLoginMiddleware)."""

from __future__ import annotations

import pytest

from tests.web.browser import FASTTEST, LIVE, demo_table, open_sheet, until

pytestmark = pytest.mark.browser
HERO = "Brunhilda z Gór"
NEW_PASSWORD = "a long enough password 1"


def test_a_table_page_follows_its_browsers_login_changed_ended_and_made_again(browser, tmp_path):
    with demo_table(tmp_path) as base:
        ala = open_sheet(browser, base, "ala", FASTTEST, HERO)
        sheet = ala.url
        sockets = []
        ala.on("websocket", lambda socket: sockets.append(socket))
        tab = ala.context.new_page()  # another tab of the same browser (its login)

        # A password changed in one tab leaves the other live: the old login's socket was
        # closed; the page connected again on the new one.
        tab.goto(f"{base}/accounts/password/")
        tab.fill("#id_old_password", "demo-table")
        tab.fill("#id_new_password1", NEW_PASSWORD)
        tab.fill("#id_new_password2", NEW_PASSWORD)
        tab.click("form:has(#id_old_password) [type=submit]")
        tab.wait_for_url("**/password/done/")
        until(lambda: sockets, ala)
        ala.wait_for_selector(LIVE)
        assert ala.get_attribute(".connection", "data-connection-state") == "live"

        # A logout in one tab closes the table in the other and says why.
        tab.goto(sheet)
        tab.wait_for_selector(LIVE)
        tab.click(".site-nav button:has-text('Log out')")
        ala.wait_for_selector(".connection[data-connection-state='loggedout']")
        assert "Log in again, then reload this page" in ala.inner_text(".connection")

        # A click on that page goes to log in, the whole page, not a login form into the test
        # panel; and back once logged in.
        ala.click("button.roll-target:has-text('BUDOWA')")
        ala.wait_for_url("**/accounts/login/**")
        ala.fill("#id_username", "ala")
        ala.fill("#id_password", NEW_PASSWORD)
        ala.click("form:has(#id_username) [type=submit]")
        ala.wait_for_url(sheet)
        ala.wait_for_selector(LIVE)
