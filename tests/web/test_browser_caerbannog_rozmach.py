"""Caerbannog's Rozmach rules in real browsers, the GM and a player in separate contexts.

The GM fills the Reaction-cost table in the campaign's settings; a player picks a reaction the
pool cannot pay, the panel refuses it and the player cannot force it. The GM calls the test and
forces the spending: the panel shows the Determinacja it costs, and the roll's log entry (the
player's and the GM's) says what was lost. The GM fills the PD table, a new scene grants its
Rozmach, and the GM's surprise on a called test reaches the player's panel live."""

from __future__ import annotations

import pytest

from tests.web.browser import (
    CAERBANNOG,
    call_for,
    demo_path,
    demo_table,
    entry,
    log_in,
    open_sheet,
    roll_panel,
    session_path,
    settled,
    visit,
)

pytestmark = pytest.mark.browser


def fill_reaction_costs(gm, reaction: str, cost: int) -> None:
    """On the campaign's settings page: one row of the Reaction-cost table, saved."""
    gm.fill("input[name='reaction-0-reaction']", reaction)
    gm.fill("input[name='reaction-0-cost']", str(cost))
    gm.click("button:has-text('Save settings')")
    gm.wait_for_load_state()


def test_a_forced_reaction_is_paid_with_determinacja_and_a_scene_grants_pd_rozmach(
    browser, tmp_path
):
    with demo_table(tmp_path) as base:
        gm = log_in(browser, base, "gm", path=demo_path(CAERBANNOG, page="settings/"))
        fill_reaction_costs(gm, "Kontra", 4)
        visit(gm, base, demo_path(CAERBANNOG, page="dashboard/"))
        ala = open_sheet(browser, base, "ala", CAERBANNOG, "Julio")  # Rozmach 0, Determinacja 6

        # A reaction the pool cannot pay is refused on the panel; forcing it is the GM's.
        ala.click("button.roll-target:has-text('Unik')")
        ala.wait_for_selector("#test-panel select[name='reaction']")
        ala.select_option("#test-panel select[name='reaction']", "Kontra")
        refusal = ala.wait_for_selector("#cb-reaction-error")
        assert "Kontra costs 4 Rozmach and the pool holds 0" in refusal.inner_text()
        assert ala.locator("#test-panel .roll-button").is_disabled()
        assert ala.locator("#cb-forced").is_disabled()  # forcing is the GM's (RULES.md 4.12)

        # The GM calls the test and forces the spending: paid with Determinacja.
        card = call_for(gm, "Julio", tested="defence:Unik")
        card.locator("button", has_text="Force the spending").click()
        gm.wait_for_selector("button:has-text('Spending forced — take it back')")
        ala.wait_for_selector("#test-panel input[name='pending']", state="attached")
        ala.wait_for_selector("#cb-forced:checked")
        ala.select_option("#test-panel select[name='reaction']", "Kontra")
        cost = ala.wait_for_selector("#test-panel .cb-forced-cost")
        assert "4 Determinacja is lost" in cost.inner_text()
        roll_panel(ala)
        shown = entry(ala, 1).inner_text()
        assert "4 Determinacja lost" in shown
        assert "reaction: Kontra" in shown
        assert "4 Determinacja lost" in entry(gm, 1).inner_text()

        # The PD table: from 0 PD, 2 Rozmach at the start of each scene.
        gm.goto(f"{base}{demo_path(CAERBANNOG, page='settings/')}")
        gm.fill("input[name='pd-0-pd']", "0")
        gm.fill("input[name='pd-0-rozmach']", "2")
        gm.click("button:has-text('Save settings')")
        gm.wait_for_load_state()
        visit(gm, base, session_path(CAERBANNOG))
        gm.click("button:has-text('Start a new scene')")
        gm.wait_for_selector("#session-scenes li >> nth=1")
        visit(gm, base, demo_path(CAERBANNOG, page="dashboard/"))

        # The GM's surprise on a called test doubles it, live on the player's panel.
        card = gm.locator(".party-card", has_text="Julio")
        card.locator("details.call").evaluate("details => { details.open = true; }")
        card.locator("select[name=tested]").select_option("defence:Unik")
        # The call's own event refreshes the GM's list once more: let it land before typing.
        with gm.expect_response(lambda r: "/dashboard/live/?event=table%3Apending" in r.url):
            card.locator("button", has_text="Call").click()
        settled(gm)
        gm.wait_for_selector(".pending-card:not(.rolled)")
        ala.wait_for_selector("#test-panel:not(:has(.rolled)) .pending-note")
        surprise = gm.locator(".pending-card:not(.rolled) form.surprise")
        surprise.locator("select[name=value]").select_option("surprising")
        surprise.locator("button", has_text="Set").click()
        shown = ala.wait_for_selector("#test-panel .cb-surprise")
        assert "Rozmach 2 → 4" in shown.inner_text()
        roll_panel(ala)
        assert "+2 Rozmach (surprise)" in entry(gm, 2).inner_text()
        assert "+2 Rozmach (surprise)" in entry(ala, 2).inner_text()
