"""Caerbannog's Rozmach rules in real browsers, the GM and a player in separate contexts.

The GM fills the Reaction-cost table in the campaign's settings; a player picks a reaction the
pool cannot pay, the panel refuses it and the player cannot force it. The GM calls the test and
forces the spending: the panel shows the Determinacja it costs, and the roll's log entry (the
player's and the GM's) says what was lost. The GM fills the PD table, the scene grants its
Rozmach, and the GM's surprise on a called test reaches the player's panel live."""

from __future__ import annotations

import pytest

from tests.web.browser import demo_table, log_in
from tests.web.test_browser_gm_night import call_for
from tests.web.test_browser_table import entry
from tests.web.test_browser_wrong_today import (
    CAERBANNOG,
    open_caerbannog_sheet,
    roll_panel,
    start_session,
)

pytestmark = pytest.mark.browser


def fill_reaction_costs(gm, reaction: str, cost: int) -> None:
    gm.click(f"text={CAERBANNOG}")
    gm.click("a.button:has-text('Settings')")
    gm.fill("input[name='reaction-0-reaction']", reaction)
    gm.fill("input[name='reaction-0-cost']", str(cost))
    gm.click("button:has-text('Save settings')")
    gm.wait_for_load_state()


def test_a_reaction_the_gm_forces_is_paid_with_determinacja_on_the_panel(browser, tmp_path):
    with demo_table(tmp_path) as base:
        setter = log_in(browser, base, "gm")
        fill_reaction_costs(setter, "Kontra", 4)
        setter.context.close()
        gm = start_session(browser, base, CAERBANNOG)
        ala = open_caerbannog_sheet(browser, base, "ala", "Julio")  # Rozmach 0, Determinacja 6
        ala.click("button.roll-target:has-text('Unik')")
        ala.wait_for_selector("#test-panel select[name='reaction']")
        ala.select_option("#test-panel select[name='reaction']", "Kontra")
        refusal = ala.wait_for_selector("#cb-reaction-error")
        assert "Kontra costs 4 Rozmach and the pool holds 0" in refusal.inner_text()
        assert ala.locator("#test-panel .roll-button").is_disabled()
        assert ala.locator("#cb-forced").is_disabled()  # forcing is the GM's (RULES.md 4.12)

        gm.click(f"nav.crumbs >> text={CAERBANNOG}")
        gm.click("text=GM dashboard")
        card = call_for(gm, "Julio", tested="defence:Unik")
        card.locator("button", has_text="Force the spending").click()
        gm.wait_for_selector("button:has-text('Spending forced — take it back')")
        ala.wait_for_selector("#test-panel input[name='pending']", state="attached")
        ala.wait_for_selector("#cb-forced:checked")
        ala.select_option("#test-panel select[name='reaction']", "Kontra")
        cost = ala.wait_for_selector("#test-panel .cb-forced-cost")
        assert "4 Determinacja is lost" in cost.inner_text()
        ala.screenshot(path=str(tmp_path / "forced-spending-panel.png"))
        roll_panel(ala)
        shown = entry(ala, 1).inner_text()
        assert "4 Determinacja lost" in shown
        assert "reaction: Kontra" in shown
        assert "4 Determinacja lost" in entry(gm, 1).inner_text()


def fill_pd_table(gm, pd: int, rozmach: int) -> None:
    gm.click(f"text={CAERBANNOG}")
    gm.click("a.button:has-text('Settings')")
    gm.fill("input[name='pd-0-pd']", str(pd))
    gm.fill("input[name='pd-0-rozmach']", str(rozmach))
    gm.click("button:has-text('Save settings')")
    gm.wait_for_load_state()


def test_the_scene_grants_pd_rozmach_and_the_gms_surprise_doubles_it_live(browser, tmp_path):
    with demo_table(tmp_path) as base:
        setter = log_in(browser, base, "gm")
        fill_pd_table(setter, 0, 2)  # from 0 PD: 2 Rozmach at the start of each scene
        setter.context.close()
        gm = start_session(browser, base, CAERBANNOG)  # its first scene grants the Rozmach
        gm.click(f"nav.crumbs >> text={CAERBANNOG}")
        gm.click("text=GM dashboard")
        gm.wait_for_selector(".connection[data-connection-state='live']")
        ala = open_caerbannog_sheet(browser, base, "ala", "Julio")
        card = gm.locator(".party-card", has_text="Julio")
        card.locator("summary", has_text="Call for a test").click()
        card.locator("select[name=tested]").select_option("defence:Unik")
        card.locator("button", has_text="Call").click()
        gm.wait_for_selector(".pending-card")
        ala.wait_for_selector("#test-panel .pending-note")
        gm.wait_for_timeout(500)
        gm.wait_for_load_state("networkidle")
        surprise = gm.locator(".pending-card form.surprise")
        surprise.locator("select[name=value]").select_option("surprising")
        surprise.locator("button", has_text="Set").click()
        shown = ala.wait_for_selector("#test-panel .cb-surprise")
        assert "Rozmach 2 → 4" in shown.inner_text()
        ala.screenshot(path=str(tmp_path / "surprise-panel.png"))
        roll_panel(ala)
        assert "+2 Rozmach (surprise)" in entry(gm, 1).inner_text()
        assert "+2 Rozmach (surprise)" in entry(ala, 1).inner_text()
