"""Cues survive a reload (issue 24, item 5), in a real browser: the GM calls a test, the player
reloads the sheet, and the called test's panel is in the page as it loads, with no banner above
the sheet for that character."""

from __future__ import annotations

import re

import pytest

from tests.web.browser import demo_table
from tests.web.test_browser_called_test import HERO, gm_dashboard
from tests.web.test_browser_table import open_sheet  # noqa: F401

pytestmark = pytest.mark.browser


def test_a_reloaded_sheet_shows_the_called_test_at_once(browser, tmp_path):  # noqa: F811
    with demo_table(tmp_path) as base:
        gm = gm_dashboard(browser, base)
        ala = open_sheet(browser, base, "ala", HERO)
        card = gm.locator(".party-card", has_text=HERO)
        card.locator("summary", has_text="Call for a test").click()
        card.locator("select[name=attribute]").select_option("ZRĘCZNOŚĆ")
        card.locator("button", has_text="Call").click()
        gm.wait_for_selector(".pending-card")
        ala.wait_for_selector("#test-panel .pending-note")
        # No request may fill the panel after the reload: what the page loads is all there is.
        fetched = []
        ala.route(re.compile(r"/test/(\?|$)"), lambda route: (fetched.append(1), route.abort()))
        ala.reload(wait_until="domcontentloaded")
        assert ala.locator("#test-panel .pending-note").is_visible()
        assert "The GM calls for a test" in ala.inner_text("#test-panel h2")
        ala.wait_for_selector(".connection[data-connection-state='live']")
        assert ala.locator("#call-cues .call-cue").count() == 0
        assert not fetched
        ala.screenshot(path=str(tmp_path / "reloaded-called-test.png"))
