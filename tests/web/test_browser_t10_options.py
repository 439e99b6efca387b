"""Issue 25 item 3 in real browsers: after a T10 roll the options are the player's. On a phone's
width the player picks one from the menu under the result, by keyboard; the GM's dashboard
shows the pick without a reload, the GM adds a counter-move, and the player's panel shows it
without a reload. The demo table rolls fair dice, so the test rolls until a result that gives
the player options comes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.web.browser import PHONE, T10, demo_table, gm_at_table, open_sheet
from tests.web.test_browser_conditions import choose, roll

pytestmark = pytest.mark.browser

#: Where the screenshots go to be looked at by hand: this directory when set, else the test's.
SHOTS_DIR = "OPTION_SHOTS"
#: The player picks after these (a catastrophe's options are the GM's; 0 and 3 give none).
PLAYERS = ("Misslyckande, men", "Lyckat, men", "Imponerande")
#: Seven dice against 7 give one of these more often than not; a miss in 40 is beyond reach.
TRIES = 40
COUNTER = "The watch hears the clatter."


def test_the_player_picks_on_the_sheet_and_the_gms_dashboard_shows_it_live(browser, tmp_path):
    shots = Path(os.environ.get(SHOTS_DIR) or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    with demo_table(tmp_path) as base:
        gm = gm_at_table(browser, base, T10, dashboard=True)
        ala = open_sheet(browser, base, "ala", T10, "Astrid", **PHONE)
        for page in (gm, ala):
            page.context.set_default_timeout(10_000)
        choose(ala, "Styrka", "Svärd")
        for _attempt in range(TRIES):
            if any(outcome in roll(ala) for outcome in PLAYERS):
                break
        else:
            pytest.fail("no result with the player's options came in the tries")

        # The menu is under the result on the player's own panel, and fits the phone's width.
        menu = ala.locator("#roll-menu")
        menu.locator("form.roll-menu-form").wait_for()
        assert "Du får chansen att vrida din handling" in menu.inner_text()
        assert ala.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        menu.screenshot(path=str(shots / "phone_menu.png"))

        # By keyboard: the first option ticked with Space, then Pick with Enter.
        first = menu.locator("label.option").first
        option = first.inner_text().split("\n")[0].strip()
        first.locator("input").focus()
        ala.keyboard.press("Space")
        assert first.locator("input").is_checked()
        menu.get_by_role("button", name="Pick").press("Enter")
        menu.locator(".menu-picked", has_text=option).wait_for()
        assert ala.evaluate("document.activeElement.id") == "roll-menu"

        # The GM's dashboard shows the pick without a reload, and takes the counter-move.
        # (The earlier rolls' offers list the same options; only this one has a pick.)
        picked = gm.locator(".options-picked", has_text="Picked by ala")
        offer = gm.locator("#roll-options li.after-item", has=picked)
        offer.locator(".options-picked", has_text=option).wait_for()
        offer.screenshot(path=str(shots / "dashboard_pick.png"))
        offer.locator("input[name=text]").fill(COUNTER)
        offer.get_by_role("button", name="Add the counter-move").click()

        # The player's panel shows the counter-move without a reload; both logs hold both entries.
        menu.locator(".menu-counter", has_text=COUNTER).wait_for()
        for page in (gm, ala):
            log = page.locator("#roll-log")
            log.locator(".entry.options", has_text=option).wait_for()
            log.locator(".entry.counter_move", has_text=COUNTER).wait_for()
        menu.screenshot(path=str(shots / "phone_picked.png"))
