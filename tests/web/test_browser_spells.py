"""Casting a FastTest spell in a real browser: the caster marks the test as a spell and names
it, the panel adds its penalty dice and, on the second similar spell, one more with the earlier
spell's number; the log says so on the GM's page too, and the magic die is rolled after the
spell, as the roll's follow-up or from the sheet's magic-die button (RULES.md section 1,
"Magic"; issue 14)."""

from __future__ import annotations

import pytest

from tests.web.browser import FASTTEST, demo_table, entry, gm_at_table, open_sheet, roll_panel

pytestmark = pytest.mark.browser


def mark_spell(page, name: str) -> None:
    """On the open panel: tick "cast a spell", type its name and leave the field."""
    page.check("#test-panel input[name='spell']")
    page.wait_for_selector("#test-panel #spell_name")
    page.fill("#test-panel #spell_name", name)
    page.press("#test-panel #spell_name", "Tab")


def new_test_on(page, attribute: str) -> None:
    """Click the attribute on the sheet for a new test and wait for that test's panel. The rolled
    test's panel stays until then with the same attribute chosen, so a spell marked on it was
    undone by the new test's arrival (CI, on a busy machine)."""
    page.click(f"button.roll-target:has-text('{attribute}')")
    page.wait_for_function("document.querySelector('#test-panel-shown').value === ''")
    page.wait_for_selector(f"#test-panel input[name='attribute'][value='{attribute}']:checked")


def test_a_spell_is_cast_counted_and_followed_by_its_magic_die(browser, tmp_path):
    with demo_table(tmp_path) as base:
        gm = gm_at_table(browser, base, FASTTEST)
        celina = open_sheet(browser, base, "celina", FASTTEST, "Wiedźma Jaga")
        celina.click("button.roll-target:has-text('DUCH')")
        celina.wait_for_selector("#test-panel input[name='attribute'][value='DUCH']:checked")
        mark_spell(celina, "Ognisty pocisk")
        celina.wait_for_function(
            "document.querySelector('#test-panel').innerText.includes('2 penalty dice')"
        )
        roll_panel(celina)
        first = entry(celina, 1).inner_text()
        assert "Spell “Ognisty pocisk”: DUCH 7" in first
        assert "spell difficulty (Ognisty pocisk)" in first
        assert "Spell “Ognisty pocisk”" in entry(gm, 1).inner_text()

        celina.click("#test-panel form.follow-up button[type='submit']")
        magic = entry(celina, 2).inner_text()
        assert "magic die → #1" in magic
        assert "Magic die (Kość magii) d10" in magic  # Wiedźma Jaga's die as the demo starts
        # A 1 or a 2 on it (one roll in five) drops it a step for the next spell.
        die_now = "d8" if "drops a step" in magic else "d10"
        assert "magic die → #1" in entry(gm, 2).inner_text()

        new_test_on(celina, "DUCH")
        mark_spell(celina, "ognisty pocisk")
        celina.wait_for_selector("#test-panel .earlier-spell.similar")
        assert "#1 Ognisty pocisk" in celina.inner_text("#test-panel .earlier-spells")
        roll_panel(celina)
        second = entry(celina, 3).inner_text()
        assert "similar spells earlier this session (#1)" in second
        assert "similar spells earlier this session (#1)" in entry(gm, 3).inner_text()

        # The sheet's magic-die button rolls the magic die after the caster's last spell.
        celina.click(".magic-die button.roll-target")
        celina.wait_for_selector("#test-panel .magic-die-roll")
        assert "after the spell #3" in celina.inner_text("#test-panel")
        roll_panel(celina)
        rolled = entry(celina, 4).inner_text()
        assert "magic die → #3" in rolled
        assert f"Magic die (Kość magii) {die_now}" in rolled
        assert "magic die → #3" in entry(gm, 4).inner_text()
