"""The GM shapes a player's test live, in real browsers."""

from __future__ import annotations

import pytest

from tests.web.browser import FASTTEST, demo_table, entry, gm_at_table, open_sheet

pytestmark = pytest.mark.browser


def test_the_gm_adds_troll_traits_and_the_player_sees_the_odds_change_then_rolls(browser, tmp_path):
    with demo_table(tmp_path) as base:
        gm = gm_at_table(browser, base, FASTTEST, dashboard=True)
        ala = open_sheet(browser, base, "ala", FASTTEST, "Brunhilda z Gór")
        bartek = open_sheet(browser, base, "bartek", FASTTEST, "Zbyszko Cichy")

        card = gm.locator(".party-card", has_text="Brunhilda z Gór")
        card.locator("summary", has_text="Call for a test").click()
        card.locator("select[name=attribute]").select_option("BUDOWA")
        card.locator("select[name=skill]").select_option("WALKA")
        card.locator("button", has_text="Call").click()
        gm.wait_for_selector(".pending-card")

        ala.wait_for_selector("#test-panel .pending-note")
        assert "The GM calls for a test" in ala.inner_text("#test-panel h2")
        odds_before = ala.inner_text(".success-chance")

        gm.wait_for_load_state("networkidle")
        gm.click(".pending-card .npc-pick summary")
        troll = gm.locator(".npc-form", has_text="Troll")
        troll.locator("label", has_text="wielki").wait_for(state="visible")
        troll.locator("label", has_text="wielki").click()
        troll.locator("label", has_text="śmierdzący").click()
        troll.locator("button", has_text="Apply").click()

        ala.wait_for_selector("#test-panel .sources li:has-text('Troll')")
        assert "+5 penalty dice: Troll (wielki 3k, śmierdzący 4k)" in ala.inner_text(
            "#test-panel .sources"
        )
        assert ala.inner_text(".success-chance") != odds_before

        ala.click("#test-panel .roll-button")
        for page in (gm, ala, bartek):
            assert "Troll (wielki 3k, śmierdzący 4k)" in entry(page, 1).inner_text()
        # The card no longer offers the GM's controls: it shows the roll (issue 13).
        gm.wait_for_selector(".pending-card.rolled [data-rolled-seq='1']")
        assert gm.locator(".pending-card .gm-controls").count() == 0
