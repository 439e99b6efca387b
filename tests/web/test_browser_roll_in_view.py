"""Issue 24, item 7: on a desktop, a click on a stat anywhere on the sheet shows the odds and Roll
of the test it opens without a scroll: the panel stays beside the sheet, what decides the roll
at its top; on a wide screen the log has a column of its own."""

from __future__ import annotations

import pytest

from tests.web.test_browser_game_night import (  # noqa: F401 (fixtures)
    AST,
    CAERBANNOG,
    FASTTEST,
    T10,
    TWOD6,
    base,
    click_stat,
    open_sheet,
    run_session,
)

pytestmark = pytest.mark.browser
LAPTOP = {"width": 1366, "height": 768}
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


def open_a_test(browser, base, system: str, **size):  # noqa: F811
    campaign, hero, stat, checked = SYSTEMS[system]
    run_session(browser, base, campaign)
    ala = open_sheet(browser, base, "ala", campaign, hero, **size)
    click_stat(ala, stat, checked)
    ala.wait_for_timeout(300)  # any scrolling has ended
    return ala


@pytest.mark.parametrize("system", SYSTEMS)
def test_on_a_laptop_a_clicked_stat_shows_its_odds_and_roll(browser, base, system):  # noqa: F811
    ala = open_a_test(browser, base, system, **LAPTOP)
    assert on_screen(ala, "#test-panel .odds")
    assert on_screen(ala, "#test-panel .roll-button:not([disabled])")


def test_on_a_wide_screen_the_odds_roll_and_the_log_are_side_by_side(browser, base):  # noqa: F811
    ala = open_a_test(browser, base, "ast", **WIDE)
    assert on_screen(ala, "#test-panel .odds")
    assert on_screen(ala, "#test-panel .roll-button:not([disabled])")
    assert on_screen(ala, "#roll-log .log-head")
