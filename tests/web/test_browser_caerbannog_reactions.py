"""Caerbannog's reaction limits in real browsers, the GM and a player in separate contexts: the
GM's "Turn starts" and "New round" (by keyboard) reach the dashboard's round line and the
player's panel live, which says why it offers no reaction on the character's own turn and
offers one again in the next round."""

from __future__ import annotations

import pytest

from tests.web.browser import CAERBANNOG, demo_path, demo_table, log_in, open_sheet, visit
from tests.web.test_browser_caerbannog_rozmach import fill_reaction_costs

pytestmark = pytest.mark.browser


def test_the_turns_reach_the_dashboard_and_the_players_panel_live(browser, tmp_path):
    with demo_table(tmp_path) as base:
        gm = log_in(browser, base, "gm", path=demo_path(CAERBANNOG, page="settings/"))
        fill_reaction_costs(gm, "Kontra", 0)
        visit(gm, base, demo_path(CAERBANNOG, page="dashboard/"))
        assert "No fight in this scene" in gm.locator("#turn-now").inner_text()
        ala = open_sheet(browser, base, "ala", CAERBANNOG, "Julio")
        ala.click("button.roll-target:has-text('Unik')")
        ala.wait_for_selector("#test-panel select[name='reaction']")

        turn = gm.locator(".party-card", has_text="Julio").locator("button", has_text="Turn starts")
        turn.focus()
        gm.keyboard.press("Enter")
        gm.wait_for_selector('#turn-now:has-text("Julio\'s turn")')
        assert "Round 1" in gm.locator("#turn-now").inner_text()
        assert gm.locator(".party-card.is-turn", has_text="Julio").count() == 1
        refusal = ala.wait_for_selector("#test-panel .cb-no-reaction")
        assert "Reactions only outside your own turn: it is Julio's turn (round 1)." in (
            refusal.inner_text()
        )
        assert ala.locator("#test-panel select[name='reaction']").count() == 0

        gm.locator("#turns button", has_text="New round").focus()
        gm.keyboard.press("Enter")
        gm.wait_for_selector("#turn-now:has-text('Round 2')")
        assert "no turn started yet" in gm.locator("#turn-now").inner_text()
        ala.wait_for_selector("#test-panel select[name='reaction']")
        assert "Round 2: one reaction this round." in ala.locator("#test-panel").inner_text()
