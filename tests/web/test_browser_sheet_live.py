"""A sheet open in the browser follows a change made elsewhere from its own endpoint, but not
while its reader is typing in it: the refresh waits until they leave the field."""

from __future__ import annotations

import pytest

from tests.web.test_browser_game_night import FASTTEST, base, browser, open_sheet, run_session

pytestmark = pytest.mark.browser
__all__ = ["base", "browser"]  # the fixtures, imported for this module's tests

FRESH = "[data-live-sheet]:not([data-seen])"


def test_the_sheet_waits_for_its_reader_to_stop_typing_before_it_refreshes(browser, base):
    gm = run_session(browser, base, FASTTEST, dashboard=True)
    ala = open_sheet(browser, base, "ala", FASTTEST, "Brunhilda z Gór")
    ala.fill("#id_wound_label", "cięcie w ramię")
    ala.focus("#id_wound_label")
    ala.evaluate("document.querySelector('[data-live-sheet]').dataset.seen = 'yes'")
    card = gm.locator(".party-card", has_text="Brunhilda z Gór")
    card.locator("button", has_text="+1 experience die").click()
    dice = ".vitals div:has(dt:text-is('Experience dice')) dd:text-is('1')"
    gm.wait_for_selector(f".party-card:has-text('Brunhilda z Gór') {dice}")
    ala.wait_for_timeout(2500)
    assert ala.locator(FRESH).count() == 0
    assert ala.input_value("#id_wound_label") == "cięcie w ramię"
    ala.evaluate("document.activeElement.blur()")
    ala.wait_for_selector(FRESH)
