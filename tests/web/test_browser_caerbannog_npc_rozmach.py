"""Caerbannog's NPCs and Rozmach in a real browser (RULES.md 4.12, "NPCs and Rozmach"): the GM
gives the NPCs one shared pool in the campaign's settings, and the dashboard's "NPCs at hand"
shows it, updated live by an NPC's roll, at a laptop's size and a phone's."""

from __future__ import annotations

import re

import pytest

from tests.web.browser import demo_path, demo_table, log_in, settled, start_session
from tests.web.test_browser_table import entry
from tests.web.test_browser_wrong_today import CAERBANNOG

pytestmark = pytest.mark.browser


def share_the_pool(browser, base) -> None:
    gm = log_in(browser, base, "gm", path=demo_path(CAERBANNOG))
    gm.click("a.button:has-text('Settings')")
    gm.check("input[name='npc_rozmach']")
    gm.click("button:has-text('Save settings')")
    gm.wait_for_load_state()
    gm.context.close()


def unfold(gm) -> None:
    """Open "NPCs at hand" where the page folded it (a phone: dashboard.js)."""
    if gm.locator("#npc-hand").get_attribute("open") is None:
        gm.click("#npc-hand > summary")


@pytest.mark.parametrize(("width", "height"), [(1366, 768), (360, 740)])
def test_an_npcs_roll_fills_the_pool_the_dashboard_shows(browser, tmp_path, width, height):
    with demo_table(tmp_path) as base:
        share_the_pool(browser, base)
        gm = start_session(browser, base, CAERBANNOG, dashboard=True, width=width, height=height)
        unfold(gm)
        gm.fill("#quick-npc", "Goblin: quick")
        gm.click("button:has-text('Add NPC')")
        gm.wait_for_selector(".npc-hand details summary:has-text('Goblin')", state="attached")
        unfold(gm)
        box = gm.wait_for_selector("#npc-box")
        assert "0 of 10 in the pool all your NPCs share" in box.inner_text()
        gm.click(".npc-hand details summary:has-text('Goblin')")
        gm.click(".npc-hand details[open] button:has-text('Roll for the NPC')")
        shown = entry(gm, 1).inner_text()
        now = re.search(r"Rozmach[^\n]*now\s*(\d+)", shown)
        assert now is not None, shown
        gm.wait_for_selector(f"#npc-box .npc-pool b:text-is('{now.group(1)}')")
        settled(gm)
        gm.locator("#npc-box").scroll_into_view_if_needed()
        gm.screenshot(path=str(tmp_path / f"npc-rozmach-{width}.png"))
