"""Issue 14's rules that were wrong on screen, in a real browser: the FastTest sheet's magic-die
button rolls the magic die after the caster's spell, and a Caerbannog test is re-rolled twice in
a row, each time chosen dice only, each re-roll naming its ability."""

from __future__ import annotations

import pytest

from tests.web.browser import demo_table, start_session
from tests.web.browser import open_sheet as browser_open_sheet
from tests.web.test_browser_live_refresh import SHEET_CHANGED
from tests.web.test_browser_table import CAMPAIGN, entry, open_sheet

pytestmark = pytest.mark.browser
CAERBANNOG = "Caerbannog 2026"


def open_caerbannog_sheet(browser, base, username, character):
    return browser_open_sheet(browser, base, username, CAERBANNOG, character)


def roll_panel(page) -> None:
    page.wait_for_selector("#test-panel .roll-button:not([disabled])")
    page.click("#test-panel .roll-button")


def test_the_magic_die_button_rolls_the_magic_die_after_the_spell(browser, tmp_path):
    with demo_table(tmp_path) as base:
        gm = start_session(browser, base, CAMPAIGN)
        celina = open_sheet(browser, base, "celina", "Wiedźma Jaga")
        celina.click("button.roll-target:has-text('DUCH')")
        celina.wait_for_selector("#test-panel input[name='attribute'][value='DUCH']:checked")
        celina.check("#test-panel input[name='spell']")
        celina.wait_for_selector("#test-panel #spell_name")
        celina.fill("#test-panel #spell_name", "Ognisty pocisk")
        celina.press("#test-panel #spell_name", "Tab")
        celina.wait_for_selector("#test-panel .roll-button:not([disabled])")
        roll_panel(celina)
        assert "Spell “Ognisty pocisk”: DUCH 7" in entry(celina, 1).inner_text()
        celina.click(".magic-die button.roll-target")
        celina.wait_for_selector("#test-panel .magic-die-roll")
        assert "after the spell #1" in celina.inner_text("#test-panel")
        celina.screenshot(path=str(tmp_path / "magic-die-panel.png"))
        roll_panel(celina)
        rolled = entry(celina, 2).inner_text()
        assert "magic die → #1" in rolled
        assert "Magic die (Kość magii) d10" in rolled
        assert "magic die → #1" in entry(gm, 2).inner_text()


def re_roll(page, ability: str, die: int, seq: int) -> None:
    form = page.locator("#test-panel form.follow-up:has(input[name='ability'])")
    form.locator("input[name='ability']").fill(ability)
    form.locator(f"input[name='die'][value='{die}']").check()
    form.locator("button[type='submit']").click()
    entry(page, seq)
    page.wait_for_selector(f"#test-panel .rolled .entry[data-seq='{seq}']")


def faces(page, seq: int) -> list[str]:
    return entry(page, seq).locator(".face").all_inner_texts()


def test_a_caerbannog_test_is_re_rolled_twice_on_chosen_dice(browser, tmp_path):
    with demo_table(tmp_path) as base:
        gm = start_session(browser, base, CAERBANNOG)
        ala = open_caerbannog_sheet(browser, base, "ala", "Julio")
        ala.click("button.roll-target:has-text('Dociekliwość')")
        ala.wait_for_selector("#test-panel .roll-button:not([disabled])")
        roll_panel(ala)
        first = faces(ala, 1)
        re_roll(ala, "Szczęściarz", 0, 2)
        second = faces(ala, 2)
        assert second[1:] == first[1:]  # only the first die was re-rolled
        re_roll(ala, "Drugie podejście", 2, 3)
        third = faces(ala, 3)
        assert third[:2] == second[:2]  # only the third die this time
        ala.screenshot(path=str(tmp_path / "chained-re-roll.png"))
        shown = entry(ala, 3).inner_text()
        assert "re-roll → #2" in shown
        assert "Drugie podejście" in shown
        assert "Drugie podejście" in entry(gm, 3).inner_text()


# A promise kept once the next answer is morphed into the test panel.
PANEL_SETTLED = """() => { window.panelSettled = new Promise(function (resolve) {
  document.addEventListener("htmx:afterSettle", function done(event) {
    if (!event.detail.target || event.detail.target.id !== "test-panel") return;
    document.removeEventListener("htmx:afterSettle", done);
    resolve();
  });
}); }"""


def test_a_re_roll_being_filled_in_keeps_what_was_typed_through_the_panels_refresh(
    browser, tmp_path
):
    with demo_table(tmp_path) as base:
        start_session(browser, base, CAERBANNOG)
        ala = open_caerbannog_sheet(browser, base, "ala", "Julio")
        ala.click("button.roll-target:has-text('Dociekliwość')")
        roll_panel(ala)
        entry(ala, 1)
        form = ala.locator("#test-panel form.follow-up:has(input[name='ability'])")
        form.locator("input[name='ability']").fill("Szczęściarz")
        form.locator("input[name='die'][value='0']").check()
        # The sheet changed (a roll spent a resource): the panel refreshes from the server.
        ala.evaluate(PANEL_SETTLED)
        with ala.expect_response(lambda r: r.request.headers.get("x-panel-refresh") == "1"):
            ala.evaluate(SHEET_CHANGED)
        ala.evaluate("() => window.panelSettled")
        assert form.locator("input[name='ability']").input_value() == "Szczęściarz"
        assert form.locator("input[name='die'][value='0']").is_checked()
