"""A Caerbannog combined test with a defence, in real browsers: Julio's player names Opanowanie,
Percepcja and Ukrycie from the sheet, puts Ukrycie before Percepcja with the keyboard, rolls, and
the GM's log shows the test in that order (RULES.md section 4, rule 8); then the GM calls the
same combined test in order, and the player cannot reorder it."""

from __future__ import annotations

import pytest

from tests.web.browser import (
    CAERBANNOG,
    change_sheet,
    demo_table,
    entry,
    gm_at_table,
    open_sheet,
    roll_panel,
)

pytestmark = pytest.mark.browser


def julio_as_the_rules_have_him(sheet) -> None:
    """Julio as RULES.md's worked example has him: Ukrycie II (d8), Percepcja III (d10); the
    demo's Julio has Percepcja I and no Ukrycie."""
    skills = [s for s in sheet["skills"] if s["name"] not in ("Percepcja", "Ukrycie")]
    sheet["skills"] = skills + [
        {"name": "Percepcja", "category": "practical", "level": 3},
        {"name": "Ukrycie", "category": "physical", "level": 2},
    ]


def order(page) -> list[str]:
    items = page.locator("#test-panel .cb-tested-item")
    return [items.nth(i).get_attribute("data-token") for i in range(items.count())]


def wait_for_order(page, *tokens: str) -> None:
    for place, token in enumerate(tokens, start=1):
        page.wait_for_selector(
            f"#test-panel .cb-order > li:nth-child({place})[data-token='{token}']"
        )
    assert order(page) == list(tokens)


def test_julios_player_orders_a_combined_test_then_the_gm_calls_one_that_stays_in_order(
    browser, tmp_path
):
    with demo_table(tmp_path) as base:
        change_sheet(tmp_path, "Julio", julio_as_the_rules_have_him)
        gm = gm_at_table(browser, base, CAERBANNOG, dashboard=True)
        ala = open_sheet(browser, base, "ala", CAERBANNOG, "Julio")

        # Named from the sheet, one after the other: the defence first, so it is the main one.
        ala.click("button.roll-target:has-text('Opanowanie')")
        wait_for_order(ala, "defence:Opanowanie")
        ala.click("button.roll-target:has-text('Percepcja')")
        wait_for_order(ala, "defence:Opanowanie", "skill:Percepcja")
        ala.click("button.roll-target:has-text('Ukrycie')")
        wait_for_order(ala, "defence:Opanowanie", "skill:Percepcja", "skill:Ukrycie")

        # Ukrycie up one place, with the keyboard; the focus stays on its button.
        ala.focus("#test-panel button[aria-label='Move Ukrycie up']")
        ala.keyboard.press("Enter")
        wait_for_order(ala, "defence:Opanowanie", "skill:Ukrycie", "skill:Percepcja")
        focused = ala.evaluate("document.activeElement.dataset.keepFocus")
        assert focused == "up:skill:Ukrycie"
        main = ala.locator("#test-panel .cb-tested-item").first
        assert "main" in main.locator(".cb-main-badge").inner_text()
        assert ala.locator("#test-panel button[aria-label='Move Opanowanie up']").is_disabled()
        assert "No boost: a defence has no category bonus." in ala.inner_text("#test-panel")

        roll_panel(ala)
        label = "Opanowanie I + Ukrycie II + Percepcja III (1d6+1d8+1d10)"
        assert label in entry(ala, 1).inner_text()
        shown = entry(gm, 1).inner_text()
        assert label in shown
        assert "Opanowanie 1d6 + Ukrycie 1d8 + Percepcja 1d10 (combined test)" in shown

        # The GM calls Julio's combined test in order: the player cannot reorder it.
        card = gm.locator(".party-card", has_text="Julio")
        card.locator("summary", has_text="Call for a test").click()
        card.locator("select[name=tested]").select_option("defence:Opanowanie")
        card.locator("select[name=tested_2]").select_option("skill:Ukrycie")
        card.locator("select[name=tested_3]").select_option("skill:Percepcja")
        card.locator("select[name=difficulty]").select_option("trudny")
        card.locator("button", has_text="Call").click()

        ala.wait_for_selector("#test-panel .pending-note")
        wait_for_order(ala, "defence:Opanowanie", "skill:Ukrycie", "skill:Percepcja")
        assert ala.locator("#test-panel .cb-move").count() == 0
        assert ala.locator("#test-panel input[name=order]:not([disabled])").count() == 0
        assert ala.locator("#test-panel #cb-form").is_disabled()
        roll_panel(ala)
        shown = entry(gm, 2).inner_text()
        assert "Opanowanie I + Ukrycie II + Percepcja III (1d6+1d8+1d10) vs 5" in shown
