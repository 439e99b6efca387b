"""Quick dice in real browsers: a player rolls an expression and every log shows it live."""

from __future__ import annotations

import pytest

from tests.web.test_browser_table import browser, entry, table  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser


def quick_roll(page, expression: str, visibility: str = "public") -> None:
    page.fill("#quick-dice-expression", expression)
    page.select_option("#quick-dice select[name='visibility']", visibility)
    page.click("#quick-dice button[type='submit']")
    page.wait_for_selector("#quick-dice .quick-rolled, #quick-dice .form-errors")


def test_a_players_quick_roll_shows_live_in_every_log(table, tmp_path):  # noqa: F811
    gm, ala, bartek = table
    quick_roll(ala, "2d6+3")
    rolled = ala.inner_text("#quick-dice .quick-rolled")
    assert rolled.startswith("Rolled 2d6+3 = ")
    for page in (gm, ala, bartek):
        shown = entry(page, 1)
        assert "2d6+3" in shown.inner_text()
        assert shown.locator(".dice .die").count() == 2
        assert shown.get_attribute("data-nonce")  # the page's nonce: checkable later
    total = rolled.removeprefix("Rolled 2d6+3 = ").split(" ")[0]
    assert f"= {total}" in entry(bartek, 1).inner_text()
    ala.screenshot(path=str(tmp_path / "quick-dice-sheet.png"), full_page=True)
    gm.screenshot(path=str(tmp_path / "quick-dice-dashboard.png"), full_page=True)
    print(tmp_path)


def test_a_bad_expression_says_where_and_keeps_what_was_typed(table):  # noqa: F811
    _, ala, bartek = table
    quick_roll(ala, "2d6+x")
    assert "Cannot read “x” at position 5" in ala.inner_text("#quick-dice .form-errors")
    assert ala.input_value("#quick-dice-expression") == "2d6+x"
    assert bartek.locator("#roll-log [data-entries] > li").count() == 0


def test_the_gms_hidden_quick_roll_shows_players_only_that_a_roll_was_made(table):  # noqa: F811
    gm, ala, bartek = table
    quick_roll(gm, "1d20+4", visibility="hidden")
    assert "1d20+4" in entry(gm, 1).inner_text()
    for page in (ala, bartek):
        assert "A hidden roll was made." in entry(page, 1).inner_text()
        assert "1d20+4" not in entry(page, 1).inner_text()
