"""Turn order (issue 28, item 2) in real browsers: the GM sets the order on the dashboard and
moves it on; Ala's and Bartek's sheets follow live. Ala's page, in the background, marks its
title when her turn comes; Bartek reads a hidden NPC's turn as "an NPC's", and never sees the
roll the GM made for its place."""

from __future__ import annotations

import pytest

from tests.web.browser import FASTTEST, demo_table, gm_at_table, open_sheet, settled
from tests.web.test_browser_attention import BACKGROUND, hide, title_is

pytestmark = pytest.mark.browser

HERO = "Brunhilda z Gór"
BAR = "#turn-bar .turn-bar__now"


def set_order(gm, numbers: dict[str, str]) -> None:
    box = gm.locator("#turn-order")
    if box.locator("details").get_attribute("open") is None:
        box.locator("summary").click()
    for name, number in numbers.items():
        box.get_by_label(name, exact=True).fill(number)
    box.get_by_role("button", name="Set the order").click()
    gm.wait_for_selector(f"#turn-order .turn-list li >> nth={len(numbers) - 1}")
    settled(gm)


def next_turn(gm) -> None:
    gm.locator("#turn-order").get_by_role("button", name="Next turn").click()
    settled(gm)


def test_the_turn_moves_on_live_on_every_sheet_and_calls_its_player(browser, tmp_path):
    with demo_table(tmp_path) as base:
        gm = gm_at_table(browser, base, FASTTEST, dashboard=True)
        ala = open_sheet(browser, base, "ala", FASTTEST, HERO, scripts=(BACKGROUND,))
        ala.wait_for_function("() => window.attention !== undefined")
        bartek = open_sheet(browser, base, "bartek", FASTTEST, "Zbyszko Cichy")
        own_title = ala.title()

        set_order(gm, {HERO: "0", "Troll": "1d10"})  # the Troll's roll, 1 to 10, comes first
        gm.wait_for_selector("#roll-log .entries li:has-text('Initiative: 1d10')")
        next_turn(gm)
        bartek.wait_for_selector(f'{BAR}:has-text("an NPC\'s turn")')
        assert "Troll" not in bartek.content()  # neither its name in the bar nor its roll
        assert "Round 1" in ala.inner_text(BAR)

        hide(ala)
        next_turn(gm)
        ala.wait_for_selector("#turn-bar .turn-bar__yours")
        title_is(ala, f"(1) {own_title}")
        bartek.wait_for_selector(f"{BAR}:has-text('{HERO}')")
        assert gm.locator("#turn-order .turn-list li.is-turn").inner_text().endswith(HERO)
