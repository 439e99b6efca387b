"""Issue 14's rules that were wrong on screen, in a real browser: a Caerbannog test is re-rolled
twice in a row, each time chosen dice only, each re-roll naming its ability, and a re-roll being
filled in keeps what was typed through the panel's refresh. (The FastTest sheet's magic-die
button, rolling the magic die after the caster's spell: tests/web/test_browser_spells.py.)"""

from __future__ import annotations

import pytest

from tests.web.browser import (
    CAERBANNOG,
    SHEET_CHANGED,
    demo_table,
    entry,
    gm_at_table,
    open_sheet,
    roll_panel,
)

pytestmark = pytest.mark.browser

# A promise kept once the next answer is morphed into the test panel.
PANEL_SETTLED = """() => { window.panelSettled = new Promise(function (resolve) {
  document.addEventListener("htmx:afterSettle", function done(event) {
    if (!event.detail.target || event.detail.target.id !== "test-panel") return;
    document.removeEventListener("htmx:afterSettle", done);
    resolve();
  });
}); }"""


def re_roll_form(page):
    return page.locator("#test-panel form.follow-up:has(input[name='ability'])")


def re_roll(page, ability: str, die: int, seq: int) -> None:
    form = re_roll_form(page)
    form.locator("input[name='ability']").fill(ability)
    form.locator(f"input[name='die'][value='{die}']").check()
    form.locator("button[type='submit']").click()
    entry(page, seq)
    page.wait_for_selector(f"#test-panel .rolled .entry[data-seq='{seq}']")


def faces(page, seq: int) -> list[str]:
    return entry(page, seq).locator(".face").all_inner_texts()


def test_a_caerbannog_test_is_re_rolled_twice_on_chosen_dice_what_is_typed_kept(browser, tmp_path):
    with demo_table(tmp_path) as base:
        gm = gm_at_table(browser, base, CAERBANNOG)
        ala = open_sheet(browser, base, "ala", CAERBANNOG, "Julio")
        ala.click("button.roll-target:has-text('Dociekliwość')")
        roll_panel(ala)
        first = faces(ala, 1)

        # A re-roll being filled in keeps what was typed through the panel's refresh (the sheet
        # changed: a roll spent a resource).
        form = re_roll_form(ala)
        form.locator("input[name='ability']").fill("Szczęściarz")
        form.locator("input[name='die'][value='0']").check()
        ala.evaluate(PANEL_SETTLED)
        with ala.expect_response(lambda r: r.request.headers.get("x-panel-refresh") == "1"):
            ala.evaluate(SHEET_CHANGED)
        ala.evaluate("() => window.panelSettled")
        assert form.locator("input[name='ability']").input_value() == "Szczęściarz"
        assert form.locator("input[name='die'][value='0']").is_checked()

        # Re-rolled twice, on the dice chosen each time.
        re_roll(ala, "Szczęściarz", 0, 2)
        second = faces(ala, 2)
        assert second[1:] == first[1:]  # only the first die was re-rolled
        re_roll(ala, "Drugie podejście", 2, 3)
        third = faces(ala, 3)
        assert third[:2] == second[:2]  # only the third die this time
        shown = entry(ala, 3).inner_text()
        assert "re-roll → #2" in shown
        assert "Drugie podejście" in shown
        assert "Drugie podejście" in entry(gm, 3).inner_text()
