"""Issue 24, item 7: on a desktop, a click on a stat anywhere on the sheet shows the odds and Roll
of the test it opens without a scroll, in every system: the panel stays beside the sheet, what
decides the roll at its top; on a wide screen the log has a column of its own."""

from __future__ import annotations

import pytest

from tests.web.browser import (
    AST,
    CAERBANNOG,
    FASTTEST,
    LAPTOP,
    LIVE,
    T10,
    TWOD6,
    at_rest,
    click_stat,
    demo_path,
    demo_table,
    log_in,
    visit,
)

pytestmark = pytest.mark.browser
WIDE = {"width": 1920, "height": 1080}

#: Each demo system: its campaign, ala's character there, a stat to click and what it ticks.
SYSTEMS = {
    "fasttest": (FASTTEST, "Brunhilda z Gór", "BUDOWA", "input[name=attribute][value='BUDOWA']"),
    "twod6": (TWOD6, "Aoife", "Zręczność", "input[name=attribute][value='Zręczność']"),
    "t10": (T10, "Astrid", "Styrka", "input[name=attribute][value='Styrka']"),
    "ast": (AST, "Olaf", "Ciało: silny", "input[name=item][data-name='Ciało: silny']"),
    "caerbannog": (CAERBANNOG, "Julio", "Jazda", "input[name=skill][value='Jazda']"),
}


def on_screen(page, selector: str) -> bool:
    """Whether the element is wholly inside the viewport and not clipped or covered there (its
    middle is its own): what the reader sees without scrolling the page or the panel's column."""
    return page.evaluate(
        """selector => {
            const element = document.querySelector(selector);
            const box = element.getBoundingClientRect();
            const inside = box.top >= 0 && box.left >= 0 && box.height > 0
                && box.bottom <= innerHeight && box.right <= innerWidth;
            const x = box.left + box.width / 2, y = box.top + box.height / 2;
            const middle = document.elementFromPoint(x, y);
            return inside && element.contains(middle);
        }""",
        selector,
    )


def open_a_test(page, base, system: str) -> None:
    campaign, hero, stat, checked = SYSTEMS[system]
    visit(page, base, demo_path(campaign, hero))
    click_stat(page, stat, checked)
    at_rest(page, "#test-panel")  # any scrolling has ended


def test_a_clicked_stat_shows_its_odds_and_roll_on_a_laptop_and_the_log_beside_on_a_wide_screen(
    browser, tmp_path
):
    with demo_table(tmp_path) as base:
        ala = log_in(browser, base, "ala", **LAPTOP)
        for system in SYSTEMS:
            open_a_test(ala, base, system)
            assert on_screen(ala, "#test-panel .odds"), system
            assert on_screen(ala, "#test-panel .roll-button:not([disabled])"), system

        ala.set_viewport_size(WIDE)
        open_a_test(ala, base, "ast")
        ala.wait_for_selector(LIVE)
        assert on_screen(ala, "#test-panel .odds")
        assert on_screen(ala, "#test-panel .roll-button:not([disabled])")
        assert on_screen(ala, "#roll-log .log-head")
