"""A FastTest NPC with full stats in a real browser: the GM picks its attribute and skill on the
dashboard, the exact odds follow each choice, and the roll, made public, reaches a player's log
with its stats named (the seed's second kind of NPC)."""

from __future__ import annotations

import pytest

from tests.web.browser import FASTTEST, demo_table, entry, gm_at_table, open_sheet

pytestmark = pytest.mark.browser
CAPTAIN = "Kapitan straży (Guard captain)"


def choose(page, name: str, label: str) -> None:
    """Pick ``label`` in the open NPC's select and wait for the odds the server answers."""
    odds = ".npc-hand details[open] .npc-odds"
    before = page.inner_text(odds)
    page.select_option(f".npc-hand details[open] select[name='{name}']", label=label)
    page.wait_for_function(
        "([sel, before]) => { const o = document.querySelector(sel);"
        " return o && o.innerText !== before; }",
        arg=[odds, before],
    )


def test_the_gm_rolls_a_full_stat_npc_with_its_odds_and_a_player_sees_it(browser, tmp_path):
    with demo_table(tmp_path) as base:
        dashboard = gm_at_table(browser, base, FASTTEST, dashboard=True)
        celina = open_sheet(browser, base, "celina", FASTTEST, "Wiedźma Jaga")
        dashboard.click(f".npc-hand details summary:has-text('{CAPTAIN}')")
        choose(dashboard, "attribute", "ZRĘCZNOŚĆ 5")
        choose(dashboard, "attribute", "BUDOWA 6")
        choose(dashboard, "skill", "WALKA +2")
        box = dashboard.locator(".npc-hand details[open] .npc-roll")
        assert "Exact odds:" in box.locator(".npc-odds").inner_text()
        assert box.locator("select[name='skill']").input_value() == "1"
        box.locator("input[name='what']").fill("przesłuchuje")
        box.locator("select[name='visibility']").select_option("public")
        box.locator("button:has-text('Roll for the NPC')").click()
        seen = entry(celina, 1).inner_text()
        assert "przesłuchuje" in seen
        assert "attribute: BUDOWA" in seen
        assert "skill: WALKA" in seen
