"""A Caerbannog opposed test settled in turn, in three browsers (the GM and two players): both
sides roll, the initiator re-rolls and reveals the final result, then the opponent settles, and
every page follows without a reload."""

from __future__ import annotations

import pytest

from tests.web.browser import demo_table
from tests.web.test_browser_table import entry  # noqa: F401
from tests.web.test_browser_wrong_today import (
    CAERBANNOG,
    open_caerbannog_sheet,
    roll_panel,
    start_session,
)

pytestmark = pytest.mark.browser


def start_duel(gm) -> None:
    gm.click(f"nav.crumbs >> text={CAERBANNOG}")
    gm.click("text=GM dashboard")
    gm.wait_for_selector(".connection[data-connection-state='live']")
    gm.click(".opposed-start summary")
    form = gm.locator(".opposed-start form")
    first = form.locator("fieldset", has_text="The initiator").locator(
        ".opposed-side", has_text="Julio"
    )
    first.locator("input[type=radio]").check()
    first.locator("select[name$='-tested']").select_option("skill:Dociekliwość")
    second = form.locator("fieldset", has_text="The opponent").locator(
        ".opposed-side", has_text="Morgana"
    )
    second.locator("input[type=radio]").check()
    second.locator("select[name$='-tested']").select_option("skill:Ukrycie")
    form.locator("button", has_text="Start the opposed test").click()
    gm.wait_for_selector(".opposed-tests .opposed-box")


def test_the_initiator_settles_first_then_the_opponent_live_on_all_three_pages(
    browser,
    tmp_path,
):
    with demo_table(tmp_path) as base:
        gm = start_session(browser, base, CAERBANNOG)
        ala = open_caerbannog_sheet(browser, base, "ala", "Julio")
        bartek = open_caerbannog_sheet(browser, base, "bartek", "Morgana")
        start_duel(gm)
        for page in (ala, bartek):
            page.wait_for_selector("#test-panel .opposed-box")

        roll_panel(ala)
        bartek.wait_for_selector("#test-panel .opposed-sides li:has-text('rolled, #1')")
        roll_panel(bartek)

        # Both have rolled: Julio's turn. His page offers the re-roll and "my result stands";
        # Morgana's page and the GM's say whose turn it is.
        ala.wait_for_selector("#test-panel .opposed-settle[data-turn='a'] .settle-button")
        bartek.wait_for_selector("#test-panel .opposed-settle[data-turn='a']")
        assert bartek.locator("#test-panel .settle-button").count() == 0
        assert "Julio settles their modifiers first" in bartek.inner_text(".opposed-settle")
        gm.wait_for_selector(".opposed-tests .opposed-settle[data-turn='a']")

        reroll = ala.locator(".opposed-follow-ups form.follow-up", has_text="Re-roll")
        reroll.locator("input[name='ability']").fill("Szczęście")
        reroll.locator("button[type=submit]").click()
        assert "Szczęście" in entry(ala, 3).inner_text()
        ala.wait_for_selector("#test-panel .opposed-settle[data-turn='a'] .settle-button")
        ala.click("#test-panel .settle-button")

        # Morgana's turn: her page follows, with Julio's final result (the re-roll, #3).
        bartek.wait_for_selector("#test-panel .opposed-settle[data-turn='b'] .settle-button")
        assert "Julio's final result is #3" in bartek.inner_text(".opposed-settle")
        ala.wait_for_selector("#test-panel .opposed-settle[data-turn='b']")
        assert ala.locator("#test-panel .settle-button").count() == 0
        assert ala.locator("#test-panel .opposed-follow-ups").count() == 0
        gm.wait_for_selector(".opposed-tests .opposed-settle[data-turn='b']")
        bartek.click("#test-panel .settle-button")

        for page in (gm, ala, bartek):
            assert "Opposed test (#3 against #2)" in entry(page, 4).inner_text()
        ala.wait_for_selector("#test-panel .opposed-settle", state="detached")
