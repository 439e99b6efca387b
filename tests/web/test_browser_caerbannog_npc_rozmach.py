"""Caerbannog's NPCs and Rozmach in a real browser (RULES.md 4.12, "NPCs and Rozmach"): the GM
gives the NPCs one shared pool in the campaign's settings, and the dashboard's "NPCs at hand"
shows it, updated live by an NPC's roll, at a laptop's size and a phone's."""

from __future__ import annotations

import re

import pytest

from tests.web.browser import (
    CAERBANNOG,
    LAPTOP,
    PHONE,
    demo_path,
    demo_table,
    entry,
    log_in,
    visit,
)

pytestmark = pytest.mark.browser


def unfold(gm) -> None:
    """Open "NPCs at hand" where the page folded it (a phone: dashboard.js)."""
    if gm.locator("#npc-hand").get_attribute("open") is None:
        gm.click("#npc-hand > summary")


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_an_npcs_roll_fills_the_pool_the_dashboard_shows(browser, tmp_path, size):
    with demo_table(tmp_path) as base:
        gm = log_in(browser, base, "gm", path=demo_path(CAERBANNOG, page="settings/"), **size)
        gm.check("input[name='npc_rozmach']")
        gm.click("button:has-text('Save settings')")
        gm.wait_for_load_state()
        visit(gm, base, demo_path(CAERBANNOG, page="dashboard/"))
        unfold(gm)
        gm.fill("#quick-npc", "Goblin: quick")
        gm.click("button:has-text('Add NPC')")
        gm.wait_for_selector(".npc-hand details summary:has-text('Goblin')", state="attached")
        # The new NPC came with a page load: on a phone its script folds the hand once loaded,
        # and unfolding before that was undone (it failed so on a busy machine).
        gm.wait_for_load_state()
        unfold(gm)
        box = gm.wait_for_selector("#npc-box")
        assert "0 of 10 in the pool all your NPCs share" in box.inner_text()
        gm.click(".npc-hand details summary:has-text('Goblin')")
        gm.click(".npc-hand details[open] button:has-text('Roll for the NPC')")
        shown = entry(gm, 1).inner_text()
        now = re.search(r"Rozmach[^\n]*now\s*(\d+)", shown)
        assert now is not None, shown
        gm.wait_for_selector(f"#npc-box .npc-pool b:text-is('{now.group(1)}')")
