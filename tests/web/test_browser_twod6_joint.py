"""A 2d6 joint test the GM calls, in two browsers: the GM names a helper from the table on the
call, the player's panel shows that helper fixed, and the roll's entry names the helper on the
GM's page."""

from __future__ import annotations

import pytest

from tests.web.browser import TWOD6, call_for, demo_table, entry, gm_at_table, open_sheet

pytestmark = pytest.mark.browser


def test_the_gm_names_a_helper_on_the_call_and_the_player_rolls_with_it_fixed(browser, tmp_path):
    with demo_table(tmp_path) as base:
        gm = gm_at_table(browser, base, TWOD6, dashboard=True)
        ala = open_sheet(browser, base, "ala", TWOD6, "Aoife")
        call_for(gm, "Aoife", attribute="Zręczność", skill="Skradanie", helper="Rurik")

        ala.wait_for_selector("#test-panel .pending-note")
        helpers = ala.locator("#test-panel .twod6-table-helpers")
        helpers.wait_for()
        assert "Helpers the GM named" in helpers.inner_text()
        rurik = helpers.locator("input[name=helper][value=Rurik]")
        assert rurik.is_checked()
        assert rurik.is_disabled()
        assert "1 helper +1: Rurik" in ala.inner_text("#test-panel .sources")

        ala.wait_for_selector("#test-panel .roll-button:not([disabled])")
        ala.click("#test-panel .roll-button")
        assert "1 helper +1: Rurik" in entry(gm, 1).inner_text()
