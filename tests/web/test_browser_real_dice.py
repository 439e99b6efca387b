"""Real dice in a real browser: the GM allows them on the settings page, a player ticks "I rolled
real dice" on her panel, types one face per labelled box and rolls; the
log says the dice were typed and by whom."""

from __future__ import annotations

import pytest

from tests.web.browser import (
    FASTTEST,
    demo_path,
    demo_table,
    gm_at_table,
    open_sheet,
)

pytestmark = pytest.mark.browser


def test_a_player_rolls_the_real_dice_she_typed(browser, tmp_path):
    with demo_table(tmp_path) as base:
        gm = gm_at_table(browser, base, FASTTEST)
        table_url = gm.url
        gm.goto(f"{base}{demo_path(FASTTEST, page='settings/')}")
        gm.get_by_label("Everyone may type the real dice they rolled").check()
        gm.click("button:has-text('Save settings')")
        gm.wait_for_selector("text=Settings saved.")

        ala = open_sheet(browser, base, "ala", FASTTEST, "Brunhilda z Gór")
        ala.click("button.roll-target:has-text('BUDOWA')")
        ala.wait_for_selector("#test-panel form")
        ala.get_by_label("I rolled real dice").check()
        boxes = ala.locator("#test-panel input[name=real_face]")
        boxes.first.wait_for()
        for index in range(boxes.count()):
            boxes.nth(index).fill("1")
        labels = ala.locator(".real-dice-faces label").all_inner_texts()
        assert labels
        assert all(text.startswith("Die ") for text in labels)
        ala.wait_for_function("() => !document.querySelector('.htmx-request')")
        ala.click("#test-panel .roll-button")
        ala.wait_for_selector("#test-panel .rolled .entry")
        assert "real dice, typed by ala" in ala.inner_text("#test-panel .rolled")
        gm.goto(table_url)
        gm.wait_for_selector("#roll-log .typed-note")
        assert "real dice, typed by ala" in gm.inner_text("#roll-log .typed-note")
